// Stage 5's blocks of S = Q_h K_hᵀ, and the part of S a causal mask lets it leave for later.
#pragma once

#include "base/tensor.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace attn {

// Stage 5's blocks of rows: about 1 MB of S each (a core's L2) and no more than 128 rows
// at a time, at least 64, the rows spread evenly. Where the queries are the keys, a block
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
    // The keys of the block's first product.
    [[nodiscard]] Eigen::Index nearKeys(int block) const
    {
        return rows == keys ? end(block) : keys;
    }
};

[[nodiscard]] ScoreBlocks scoreBlocks(Eigen::Index T, Eigen::Index Tk);

// Block `block` of one head's S from its Q_h and K_h: its first product, and the second
// (the keys after its last row) when `future`.
void multiplyScores(const Matrix& q, const Matrix& k, Matrix& s, const ScoreBlocks& blocks,
                    int block, bool future);

// The cells of S that stage 5 left for later: under a causal mask before a softmax over the
// keys, each block's second product (the keys after its last row), which neither the
// softmax nor the output reads. The Result that holds S holds this beside it; S's other
// cells are complete and never change.
//
// The contract: while pending(), those cells hold no values, and complete() may be writing
// them on another thread; a reader reads only the cells the causal mask leaves visible
// (every pending cell is one it hides: key j after query i). Once pending() has returned
// false, every cell of S has its value, and the writes happened before that read.
class DeferredScores {
public:
    // The cells of `scores` after each block's last row are to be made from `q` and `k`
    // (B, H, T, d_k); this holds all three until it has made them.
    DeferredScores(std::shared_ptr<HeadStack> scores, std::shared_ptr<const HeadStack> q,
                   std::shared_ptr<const HeadStack> k);
    DeferredScores(const DeferredScores&) = delete;
    DeferredScores& operator=(const DeferredScores&) = delete;

    [[nodiscard]] bool pending() const { return pending_.load(std::memory_order_acquire); }

    // Makes the cells, each block's second product as a full stage 5 makes it, once: a
    // second call returns at once, or waits for the first one to finish. Then lets go of
    // S, Q_h and K_h.
    void complete();

    // Whether this still holds `scores` (an owner of S counts this one among its holders).
    [[nodiscard]] bool holds(const HeadStack* scores) const;

private:
    mutable std::mutex mutex_;
    std::shared_ptr<HeadStack> scores_;
    std::shared_ptr<const HeadStack> q_, k_;
    std::atomic<bool> pending_{true};
};

} // namespace attn
