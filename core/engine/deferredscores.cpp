#include "engine/deferredscores.h"

#include "base/parallel.h"

#include <utility>

namespace attn {

DeferredScores::DeferredScores(std::shared_ptr<HeadStack> scores,
                               std::shared_ptr<const HeadStack> q,
                               std::shared_ptr<const HeadStack> k)
    : scores_(std::move(scores)), q_(std::move(q)), k_(std::move(k))
{}

void DeferredScores::complete()
{
    if (!pending())
        return;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!pending_.load(std::memory_order_relaxed))
        return; // made by the caller this one waited for
    HeadStack& scores = *scores_;
    const int B = scores.batch(), H = scores.heads();
    const Matrix& first = scores.at(0, 0);
    const ScoreBlocks blocks = scoreBlocks(first.rows(), first.cols());
    const int futures = blocks.count - 1; // the last block has no keys after it
    if (futures > 0)
        parallelFor(B * H * futures, [&](int item) {
            const int b = item / (H * futures), h = item / futures % H, block = item % futures;
            Matrix& s = scores.at(b, h);
            multiplyFutureScores(q_->at(b, h), k_->at(b, h),
                                 s.middleRows(blocks.begin(block), blocks.size(block)), blocks,
                                 block);
        });
    scores_.reset();
    q_.reset();
    k_.reset();
    pending_.store(false, std::memory_order_release);
}

bool DeferredScores::holds(const HeadStack* scores) const
{
    const std::lock_guard<std::mutex> lock(mutex_);
    return scores_ && scores_.get() == scores;
}

} // namespace attn
