// A model layer's multi-head attention under the formula's switches: the engine's kernels
// (core/projection's splitHeads, core/softmax's scale, mask and softmax over each axis),
// called as the engine calls them, so that every switch acts inside every layer with no
// second implementation. Shared by every family. No Qt.
//
// Legend: T tokens of one sequence, C = d_model, H heads, d_k = C / H.
#pragma once

#include "options.h"
#include "tensor.h"

namespace attn {

// The buffers one attention call uses, kept from layer to layer so that a forward
// allocates them once.
struct AttentionBuffers {
    std::vector<Matrix> q, k, v; // 1 × (T, C), for the view bug's split only
    HeadStack heads[3];          // Q_h, K_h, V_h (1, H, T, d_k), the same
    HeadStack scores, weights;   // (1, H, T, T) S and P
};

// The causal mask of T tokens (true = key j after query i), or none (all false), as the
// formula's mask kind says.
[[nodiscard]] MaskMatrix attentionMask(const Config& formula, int T);

// One layer's attention over one sequence:
//   q, k, v  = qkv's column blocks [0, C), [C, 2C), [2C, 3C)      (T, C) each
//   Q, K, V  = split into H heads (transpose, or the view bug)      (H, T, d_k)
//   S        = Q_h K_hᵀ                                             (H, T, T)
//   P        = softmax(S·scale/τ, masked as the formula says, over its axis)
//   merged   = concat_h(P_h V_h)                                    (T, C)
// `formula`'s dModel and heads must be C and H (its scale reads them). P of head h is
// written to weights + h·T·T (row-major), `merged` resized to (T, C). One parallel loop
// over the heads does all of a head's steps while its S and P are in cache; split by
// transpose, the heads are read in place from qkv's columns (no copies).
void multiHeadAttention(const Matrix& qkv, const Config& formula, const MaskMatrix& mask,
                        AttentionBuffers& buffers, float* weights, Matrix& merged);

} // namespace attn
