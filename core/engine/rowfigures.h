// The passes headStatistics makes over one row of S and one row of P: each row read once
// from memory, every figure of it taken while it is in cache. On AVX2 and FMA when the
// CPU has them (chosen at run time, as the softmax's row passes: rowPassesUseAvx2), else
// portable loops; the two may differ in the last bits of the double sums and of the
// float logarithm, far below what is shown.
#pragma once

#include "engine/statistics.h"

#include <Eigen/Core>

namespace attn {

// The moments of the n values s[j], and of l[j] = s[j]·scale/τ computed in float as the
// logits stage computes them, both accumulated in double about the row's own mean (a
// second pass over the row, from cache): rows combine exactly (combine()).
struct ScoreRowMoments {
    Moments scores;
    Moments logits;
};
[[nodiscard]] ScoreRowMoments scoreRowMoments(const float* s, Eigen::Index n, float scale,
                                              float tau);

// One row p[0, n) of P with its mask row (true = key hidden), in one pass: Σp, Σp², Σp³
// in double; Σ p·ln p over p > 0, the logarithm and product in float (Eigen's logarithm,
// accurate to about 1e-7), summed in double; the largest p; the masked keys. Each p is
// also added to colSums[j] in double, NaN and ±inf as they are. When a p is NaN or ±inf
// `finite` is false and the other figures are not to be used (the caller measures such a
// rare row again, value by value).
struct WeightRowFigures {
    double sum = 0;
    double sum2 = 0;
    double sum3 = 0;
    double plnp = 0;
    float max = 0;
    int masked = 0;
    bool finite = true;
};
[[nodiscard]] WeightRowFigures weightRowFigures(const float* p, const bool* masked, Eigen::Index n,
                                                double* colSums);

} // namespace attn
