// The part of S = Q_h K_hᵀ that a causal mask lets stage 5 leave for later (its blocks:
// engine/keyblocks.h).
#pragma once

#include "base/tensor.h"
#include "engine/keyblocks.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace attn {

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
