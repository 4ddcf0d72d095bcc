// The formula over the keys (the softmax's dim=-1, the textbook axis) a block of query rows
// at a time: the one path that the engine's stages 5–8 and every model layer's attention
// take, so that a change to the formula over the keys is made here once.
//
// For one head, Q_h (T_q, d_k), K_h and V_h (T_k, d_k), each block of rows [first, end):
//   S_rows = Q_rows K_hᵀ          the keys up to the block's last row, then the keys after
//                                 it unless a causal mask before the softmax hides them
//                                 (multiplyScores; the engine may make them later)
//   P_rows = softmax(rule(S_rows)) each row's logits scaled, masked and normalised over its
//                                 keys (scaleMaskSoftmaxRow), then masked_fill(M, 0) when the
//                                 mask comes after the softmax (softmaxBlockOverKeys)
//   O_rows = P_rows V_h           only the keys up to the block's last row where a causal
//                                 mask left the future weighing exactly 0 (multiplyValues)
// The engine keeps S and P whole (its stages stop, time and show each); a model layer makes
// a block's S in a buffer of the block's size, turns it into P in place and multiplies it
// at once, while it is in cache. The products are Eigen's (OpenBLAS's sgemm) unless the
// caller brings its own kernel (a model's AVX-512 one).
#pragma once

#include "base/tensor.h"
#include "engine/options.h"
#include "engine/softmax.h"

#include <functional>

namespace attn {

// RowsRef of a row-major matrix, owned or a view into a wider one (a head's columns of a
// layer's q, k, v).
using ConstRowsRef = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;
using RowsRef = Eigen::Ref<Matrix, 0, Eigen::OuterStride<>>;

// The blocks of rows: about 1 MB of S each (a core's L2) and no more than 128 rows at a
// time, at least 64, the rows spread evenly. Where the queries are the keys, a block
// multiplies in two products: the keys up to its last row, then the keys after it, all of
// them in a causal mask's future for every row of the block. Every path that makes S takes
// the same products, whether the second runs at once, later or never: OpenBLAS picks its
// kernel by a product's shape, and on AVX-512 other shapes give S other last bits.
struct ScoreBlocks {
    Eigen::Index rows = 0; // T_q
    Eigen::Index keys = 0; // T_k
    int count = 1;

    [[nodiscard]] Eigen::Index begin(int block) const { return rows * block / count; }
    [[nodiscard]] Eigen::Index end(int block) const { return rows * (block + 1) / count; }
    [[nodiscard]] Eigen::Index size(int block) const { return end(block) - begin(block); }
    // The keys of the block's first product.
    [[nodiscard]] Eigen::Index nearKeys(int block) const
    {
        return rows == keys ? end(block) : keys;
    }
    // The most rows a block has.
    [[nodiscard]] Eigen::Index largest() const { return (rows + count - 1) / count; }
};

[[nodiscard]] ScoreBlocks scoreBlocks(Eigen::Index T, Eigen::Index Tk);

// Whether the softmax reads none of the scores of a causal mask's future: the mask before
// a softmax over the keys fills them without reading them. Their products need not be made
// for P (the engine makes them for the statistics, later).
[[nodiscard]] bool futureScoresUnread(const Config& config);

// Whether a causal mask leaves the future keys of every row a weight of exactly 0 where
// the switches keep it so (through a softmax over the keys, or the 0 written after the
// softmax), so that P·V may stop at a block's last row (causalKeys tells, a block at a
// time). Needs the queries to be the keys.
[[nodiscard]] bool futureMayWeighZero(const Config& config, Eigen::Index T, Eigen::Index Tk);

// A product other than Eigen's for S's cells: s (rows × keys, row stride sStride) = the rows
// [firstRow, firstRow + rows) of Q_h times the first `keys` keys of K_hᵀ.
using ScoreProduct = std::function<void(Eigen::Index firstRow, Eigen::Index rows, Eigen::Index keys,
                                        float* s, Eigen::Index sStride)>;

// Block `block`'s rows of one head's S into `s` (the block's rows × T_k: S's own rows, or
// a buffer of the block's size): its first product, and the second (the keys after its last
// row) when `future`. A caller's product makes both in one.
void multiplyScores(const ConstRowsRef& q, const ConstRowsRef& k, RowsRef s,
                    const ScoreBlocks& blocks, int block, bool future,
                    const ScoreProduct& product = {});
// Its second product alone: the keys after the block's last row (none where the queries are
// not the keys).
void multiplyFutureScores(const ConstRowsRef& q, const ConstRowsRef& k, RowsRef s,
                          const ScoreBlocks& blocks, int block);

// The rows of P of a block from its rows of S (the rows [first, first + rows) of the
// sequence; `p` may be `s` itself): each row's logits under `rule` and the mask, its softmax
// over the keys, then masked_fill(M, 0) when `maskAfter`. `scratch` holds T_k floats.
void softmaxBlockOverKeys(const ConstRowsRef& s, const MaskMatrix& mask, const LogitRule& rule,
                          bool maskAfter, Eigen::Index first, float* scratch, RowsRef p);

// A product other than Eigen's for O's rows: o (rows × d_k, row stride oStride) = p (rows ×
// keys, row stride pStride) times the first `keys` rows of V_h.
using ValueProduct = std::function<void(const float* p, Eigen::Index pStride, Eigen::Index rows,
                                        Eigen::Index keys, float* o, Eigen::Index oStride)>;

// O's rows of a block from its rows of P (the rows [first, first + rows) of the sequence):
// o = P_rows V_h, over the keys up to the block's last row where `dropFuture` (see
// futureMayWeighZero) and the block's future weighs exactly 0 (causalKeys).
void multiplyValues(const ConstRowsRef& p, const ConstRowsRef& v, Eigen::Index first,
                    bool dropFuture, RowsRef o, const ValueProduct& product = {});

} // namespace attn
