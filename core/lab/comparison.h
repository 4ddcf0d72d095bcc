// Two configurations of the same text side by side: A (usually the textbook formula)
// and B (the switches a learner changed), and their weights' difference B − A.
//
// Legend: T_q query tokens (rows i), T_k key tokens (columns j).
#pragma once

#include "base/tensor.h"
#include "engine/options.h"

namespace attn {

// The switches of the formula a comparison edits; everything else (text, seed, sizes, the
// K/V heads, embedding, positions) the two sides share.

// `shared` with the formula switches of `switches`: scaling, τ, axis, mask, mask fill,
// mask stage, head split and padding mask, and today's QK-norm, ALiBi, soft-capping, the
// sliding window and the sink. The K/V heads and the positions (RoPE among them) are the
// model's: they change W_k and W_v, or x, and so the keys.
[[nodiscard]] Config withSwitches(Config shared, const Config& switches);

// `config` with the textbook formula's switches (the defaults of Config: no QK-norm, ALiBi,
// cap, window or sink), except the mask kind, which is kept: a decoder's textbook formula
// has its causal mask.
[[nodiscard]] Config textbookSwitches(const Config& config);

// True when the two configurations differ in a formula switch only, so their weights
// have the same shape and come from the same Q, K and V.
[[nodiscard]] bool sameInput(const Config& a, const Config& b);

// B − A of one weight matrix, its largest magnitude and where it is.
struct WeightDifference {
    Matrix delta;      // (T_q, T_k) B − A; NaN where either side is NaN
    MaskMatrix masked; // (T_q, T_k) true where either side masks the cell
    float maxAbs = 0;  // largest |B − A| over the cells neither side masks (0 if none)
    int row = -1;      // query i of the largest, or −1 when no cell counts
    int column = -1;   // key j of the largest
    int nanCount = 0;  // cells that are NaN on either side
};

// The difference of weights `b` and `a` (same shape), with masks `maskA`, `maskB` of the
// same shape or empty (nothing masked). Masked cells are left out of the largest |B − A|:
// the heatmap hatches them, so a colour there would not be seen; NaN cells are left out
// too. On a tie the first cell in row-major order wins.
[[nodiscard]] WeightDifference weightDifference(const Matrix& a, const Matrix& b,
                                                const MaskMatrix& maskA, const MaskMatrix& maskB);

} // namespace attn
