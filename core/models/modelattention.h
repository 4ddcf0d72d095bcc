// A model layer's multi-head attention under the formula's switches: the engine's kernels
// (core/engine/projection's splitHeads; over the keys the engine's own path of blocks,
// core/engine/keyblocks; core/engine/softmax's scale, mask and softmax over the other axes),
// called as the engine calls them, so that every switch acts inside every layer with no
// second implementation. Shared by every family. No Qt.
//
// Legend: T tokens of one sequence, C = d_model, H heads, d_k = C / H.
#pragma once

#include "base/tensor.h"
#include "engine/options.h"
#include "engine/positions.h"
#include "engine/softmax.h"
#include "models/modelkernels.h"

namespace attn {

// The buffers one attention call uses, kept from layer to layer so that a forward
// allocates them once.
struct AttentionBuffers {
    std::vector<Matrix> q, k, v; // 1 × (T, C): the view bug's split, grouped queries
    HeadStack heads[3];          // Q_h, K_h, V_h (1, H, T, d_k), the same
    HeadStack grouped[2];        // K, V of grouped-query attention (1, H_kv, T, d_k)
    HeadStack scores, weights;   // (1, H, T, T) S and P of the softmax over a wrong axis
};

// One layer's attention over one sequence:
//   q, k, v  = qkv's column blocks [0, C), [C, 2C), [2C, 3C)      (T, C) each
//   Q, K, V  = split into H heads (transpose, or the view bug)      (H, T, d_k)
//   S        = Q_h K_hᵀ                                             (H, T, T)
//   P        = softmax(S·scale/τ, masked as the formula says, over its axis)
//   merged   = concat_h(P_h V_h)                                    (T, C)
// `formula`'s dModel and heads must be C and H (its scale reads them). P of head h is
// written to weights + h·T·T (row-major), `merged` resized to (T, C). One parallel loop
// over the heads does all of a head's steps; over the keys (the textbook axis) a block of
// rows at a time, S made in P's own rows while in cache, so that P reaches memory once.
// Split by transpose, the heads are read in place from qkv's columns (no copies).
void multiHeadAttention(const Matrix& qkv, const Config& formula, const MaskMatrix& mask,
                        AttentionBuffers& buffers, float* weights, Matrix& merged);

// What grouped-query attention adds to a layer (the Qwen/Llama family).
struct GroupedQuery {
    int kvHeads = 0;                   // H_kv: query head h reads K/V head h / (H / H_kv)
    const RotaryTable* rope = nullptr; // null: no rotation (the RoPE switch off)
    const WeightView* qNorm = nullptr; // Qwen3's RMSNorms over d_k, before the rotation
    const WeightView* kNorm = nullptr;
    double epsilon = 1e-6;
};

// One layer's attention with grouped queries and rotary positions, HF's eager attention:
//   Q = split(q) into H heads, K, V = split(k), split(v) into H_kv (the formula's split)
//   Q, K = q_norm(Q), k_norm(K) (when given); Q, K = rope(Q), rope(K) (when given)
//   K, V repeated to H heads (repeat_kv); then as multiHeadAttention, with `rule`'s scale
// q: (T, H·d_k), k, v: (T, H_kv·d_k). `formula`'s heads must be H and dModel H·d_k; `rule`
// is its logit rule (its scale the caller's: √d_model is the model's hidden size). P of
// head h is written to weights + h·T·T, `merged` resized to (T, H·d_k).
void groupedQueryAttention(const Matrix& q, const Matrix& k, const Matrix& v, const Config& formula,
                           const LogitRule& rule, const MaskMatrix& mask,
                           const GroupedQuery& grouped, AttentionBuffers& buffers, float* weights,
                           Matrix& merged);

} // namespace attn
