// The figures AttnScope shows beside the heatmaps, per head and over the whole tensor.
#pragma once

#include "base/tensor.h"
#include "engine/options.h"
#include "engine/softmax.h"
#include "engine/warnings.h"

#include <span>
#include <vector>

namespace attn {

inline constexpr float kSaturatedRowMax = 0.99f;      // a row is saturated from here
inline constexpr double kUniformEntropyRatio = 0.999; // a row is uniform from here
inline constexpr double kSumTolerance = 1e-3;         // |sum − 1| beyond this is "not 1"

// Count, mean and sum of squared deviations of a set of numbers. Two sets combine
// exactly (Chan, Golub and LeVeque), so the whole tensor's std needs no second pass.
struct Moments {
    double n = 0;
    double mean = 0;
    double m2 = 0; // Σ (x − mean)²
};

// The moments of (s·scale)/τ over the entries of m, computed in float like the logits.
[[nodiscard]] Moments moments(const Matrix& m, float scale = 1.0f, float tau = 1.0f);
[[nodiscard]] Moments combine(const Moments& a, const Moments& b);
// √(m2 / (n − 1)) rounded to float, as torch.std returns it; NaN below two values.
[[nodiscard]] double unbiasedStd(const Moments& m);

// Figures of one (b, h) weight matrix P (T, T). Rows are queries, columns keys.
struct HeadStatistics {
    int batch = 0;
    int head = 0;
    double stdScores = 0; // unbiased std of S
    double stdLogits = 0; // unbiased std of S·scale/τ, before masking
    Moments scoreMoments; // of S, to combine over heads
    Moments logitMoments; // of S·scale/τ

    std::vector<double> rowSums;       // (T) Σ_j P[i][j]
    std::vector<double> colSums;       // (T) Σ_i P[i][j]
    std::vector<double> rowEntropy;    // (T) −Σ_j p log2 p, in bits, 0·log 0 = 0
    std::vector<double> rowEntropyMax; // (T) log2 of the row's unmasked keys
    std::vector<float> rowMax;         // (T) largest weight of the row
    std::vector<double> jacobianNorm;  // (T) ‖diag(p) − ppᵀ‖_F of the row

    double meanEntropy = 0;
    double meanEntropyMax = 0;
    double meanRowMax = 0;
    double meanJacobianNorm = 0;
    int choiceRows = 0;        // rows with more than one unmasked key
    int saturatedRows = 0;     // of those, rows with largest weight ≥ kSaturatedRowMax
    double saturatedShare = 0; // saturatedRows / choiceRows
    double rowSumMin = 0, rowSumMax = 0;
    double colSumMin = 0, colSumMax = 0;
    int nanCount = 0;                   // NaN weights
    int posInfCount = 0;                // +inf weights
    int negInfCount = 0;                // -inf weights
    std::vector<int> nanRows;           // rows holding a NaN
    std::vector<int> uniformRows;       // rows of more than one key at ≥ 99.9% of max entropy
    std::vector<int> notNormalizedRows; // rows whose sum is not 1
    std::vector<int> fullyMaskedRows;   // rows in which every key is masked

    // Today's models (addTodaysFigures): L after ALiBi and the cap, and the sink's share.
    double stdFinalLogits = 0;       // unbiased std of L before masking (= stdLogits without them)
    Moments finalLogitMoments;       // of the same
    std::vector<double> sinkWeights; // (T) the weight the sink took from row i; empty: no sink
    double maxSinkWeight = 0;
    int sinkRows = 0; // rows whose sink took more than half (kSinkMost)
};

// A sink "takes most" of a row from here on.
inline constexpr double kSinkMost = 0.5;

// The same figures over every head and sequence, and the warnings drawn from them.
struct Statistics {
    std::vector<HeadStatistics> heads; // [b·H + h]

    double stdScores = 0; // over the whole (B, H, T, T) tensor, like torch.std()
    double stdLogits = 0;
    double meanEntropy = 0;
    double meanEntropyMax = 0;
    double meanRowMax = 0;
    double meanJacobianNorm = 0;
    double saturatedShare = 0;
    double rowSumMin = 0, rowSumMax = 0;
    double colSumMin = 0, colSumMax = 0;
    int nanCount = 0;
    int posInfCount = 0;
    int negInfCount = 0;
    int rows = 0; // rows over all heads and sequences
    int choiceRows = 0;
    int saturatedRows = 0;
    int notNormalizedRows = 0;
    int uniformRows = 0;
    double stdFinalLogits = 0; // of L after ALiBi and the cap, over the whole tensor
    double maxSinkWeight = 0;  // the largest weight a sink took from a row
    int sinkRows = 0;          // rows whose sink took more than half

    std::vector<Warning> warnings;
};

// Unbiased standard deviation (N − 1) of (s·scale)/τ over every element, computed
// in float like the logits and accumulated in double like torch.std.
[[nodiscard]] double unbiasedStd(std::span<const Matrix> matrices, float scale = 1.0f,
                                 float tau = 1.0f);

// Figures of one (T, T) head: S, P and the mask (true = key hidden from the query).
[[nodiscard]] HeadStatistics headStatistics(const Matrix& scores, float scale, float tau,
                                            const Matrix& weights, const MaskMatrix& masked);

// The figures of today's models' switches for one head (its rule, `scores` S and `masked`
// as the softmax saw them): the moments and std of L after ALiBi and the cap (the plain
// logits' when the rule has neither), and each row's sink weight when the rule has a sink.
void addTodaysFigures(HeadStatistics& s, const Matrix& scores, const LogitRule& rule,
                      const MaskMatrix& masked);

// The margins of one weight matrix P (T_q, T_k), summed in double: what each query's
// weights add up to (1 when the softmax ran over the keys) and what each key receives.
struct MarginSums {
    std::vector<double> rows;    // (T_q) Σ_j P[i][j]
    std::vector<double> columns; // (T_k) Σ_i P[i][j]
};
// A NaN in a row or column makes that sum NaN.
[[nodiscard]] MarginSums marginSums(const Matrix& weights);

// The mean of the heads' matrices of sequence b: (B, H, T, T) → (T, T). A NaN in any
// head stays NaN in the mean.
[[nodiscard]] Matrix meanOverHeads(const HeadStack& stack, int b);

// The largest finite value of `m`, 0 when none is above 0.
[[nodiscard]] float finiteMax(const Matrix& m);

// The same for each head of sequence b; one pass over each head's cells, the heads on
// every core.
[[nodiscard]] std::vector<float> finiteMaxima(const HeadStack& stack, int b);

// What a grid of every head needs at once: the mean over the heads (as meanOverHeads)
// and each head's finite maximum (as finiteMaxima), in one pass over the heads, each band
// of rows read once from memory and its maximum taken while it is still in cache.
struct HeadsOverview {
    Matrix mean;               // (T_q, T_k)
    std::vector<float> maxima; // (H)
};
[[nodiscard]] HeadsOverview overviewOfHeads(const HeadStack& stack, int b);
// Its rows [row, end): those rows of `mean` (already of the heads' shape) from every
// head's same rows, summed in head order and then divided (the same bits whatever the
// bands), and each head's largest finite weight among them in maxima[h]. The engine
// calls it right after a band's softmax, while the band is in cache.
void overviewRows(const HeadStack& stack, int b, Eigen::Index row, Eigen::Index end, Matrix& mean,
                  float* maxima);
// The heads' maxima from every band's (bands × H values, band-major), as overviewOfHeads
// takes them.
[[nodiscard]] std::vector<float> maximaOfBands(const std::vector<float>& bandMaxima, int H);

// Fills the whole-tensor figures of `stats` from its heads (their moments included).
void summarize(Statistics& stats);

} // namespace attn
