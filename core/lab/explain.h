// The arithmetic behind one cell of a head's weights, with the engine's own numbers:
// the dot product q_i · k_j, the scaling, the mask and the softmax's normalisation over
// the axis the config chose. The teaching lab's "Step by step" window prints it.
//
// Legend: B sequences, T tokens, H heads, d_k = C / H; a cell is [b][h][i][j], query
// token i, key token j.
#pragma once

#include "engine/engine.h"

#include <optional>
#include <vector>

namespace attn {

// One term q_ik · k_jk of the dot product.
struct DotTerm {
    float query;    // q_ik = Q_h[b][h][i][k]
    float key;      // k_jk = K_h[b][h][j][k]
    double product; // q_ik · k_jk, exact in double
};

// One logit of the slice the softmax normalises together.
struct SoftmaxTerm {
    int b = 0, i = 0, j = 0; // where it sits; h is the explained cell's
    float logit = 0;         // the engine's L[b][h][i][j], filled when masked before the softmax
    bool masked = false;     // M[b][i][j]
    double shiftedExp = 0;   // exp(L − max), 0 where the engine's exp underflows
};

struct CellExplanation {
    int b = 0, h = 0, i = 0, j = 0;

    // 1. The score S[i][j] = q_i · k_j = Σ_k q_ik·k_jk.
    std::vector<DotTerm> terms; // d_k
    double dotProduct = 0;      // Σ of the terms, in double
    float score = 0;            // the engine's S[b][h][i][j]

    // 2. The logit L[i][j] = S·scale/τ, then the mask fill.
    double scale = 1;       // 1/√d_k, 1 or 1/√C
    float temperature = 1;  // τ
    float scaledScore = 0;  // S·scale/τ as the engine computes it, before any mask
    bool shifted = false;   // ALiBi's bias or the soft-cap changes it (LogitRule::shifts)
    float shiftedScore = 0; // then: the same after ALiBi and the cap
    bool masked = false;    // M[b][i][j]: the mask hides key j from query i
    MaskStage maskStage = MaskStage::BeforeSoftmax;
    float logit = 0; // the engine's L[b][h][i][j]

    // 3. The weight P[i][j] = exp(L[i][j] − max) / Σ exp(L[·] − max) over the axis.
    SoftmaxAxis axis = SoftmaxAxis::Keys;
    std::vector<SoftmaxTerm> slice;  // the row (keys), column (queries) or batch, in order
    int position = 0;                // the explained cell's index in `slice`
    float max = 0;                   // the slice's largest logit (−inf when all are)
    double numerator = 0;            // exp(L[i][j] − max)
    double denominator = 0;          // Σ exp(L[·] − max), and exp(s − max) with a sink
    std::optional<float> sink;       // the sink's logit s, one more term of the denominator
    double sinkExp = 0;              // exp(s − max)
    double quotient = 0;             // numerator / denominator: the softmax's output
    bool zeroedAfterSoftmax = false; // masked after the softmax: P[i][j] = 0 instead
    float weight = 0;                // the engine's P[b][h][i][j]
};

// Where row `row` of head h of Q_h, K_h or V_h comes from in the (T, C) matrix: a token
// and the first of its d_k features. With head split "transpose" it is token `row`,
// features [h·d_k, (h+1)·d_k); with "view" (the bug) it is the (h·T + row)-th run of d_k
// values in memory, a piece of whichever token holds it.
struct HeadRowSource {
    int token = 0;
    int firstFeature = 0;
};
[[nodiscard]] HeadRowSource headRowSource(const Config& config, int length, int h, int row);

// L = S·scale/τ of sequence b and head h before any mask fill, computed exactly as the
// engine computes it (float, multiplied by float(scale), then divided by τ). Equals the
// engine's logits wherever the mask did not fill them. (T, T). Needs result.hasWeights().
[[nodiscard]] Matrix scaledScores(const Result& result, int b, int h);

// The arithmetic of weight [b][h][i][j] of `result`, which must have its weights.
// Indices must be in range.
[[nodiscard]] CellExplanation explainCell(const Result& result, int b, int h, int i, int j);

} // namespace attn
