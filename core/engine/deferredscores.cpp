#include "engine/deferredscores.h"

#include "base/parallel.h"

#include <algorithm>
#include <utility>

namespace attn {
namespace {

// The second product of block `block` of S = Q_h K_hᵀ: the keys after its last row.
void multiplyFutureScores(const Matrix& q, const Matrix& k, Matrix& s, const ScoreBlocks& blocks,
                          int block)
{
    const Eigen::Index row = blocks.begin(block), rows = blocks.end(block) - row;
    const Eigen::Index near = blocks.nearKeys(block);
    if (near < blocks.keys)
        s.block(row, near, rows, blocks.keys - near).noalias() =
            q.middleRows(row, rows) * k.bottomRows(blocks.keys - near).transpose();
}

} // namespace

ScoreBlocks scoreBlocks(Eigen::Index T, Eigen::Index Tk)
{
    const Eigen::Index target =
        std::clamp<Eigen::Index>((1 << 20) / (4 * std::max<Eigen::Index>(Tk, 1)), 64, 128);
    return {T, Tk, int(std::max<Eigen::Index>(1, T / target))};
}

void multiplyScores(const Matrix& q, const Matrix& k, Matrix& s, const ScoreBlocks& blocks,
                    int block, bool future)
{
    const Eigen::Index row = blocks.begin(block), rows = blocks.end(block) - row;
    const Eigen::Index near = blocks.nearKeys(block);
    s.block(row, 0, rows, near).noalias() = q.middleRows(row, rows) * k.topRows(near).transpose();
    if (future)
        multiplyFutureScores(q, k, s, blocks, block);
}

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
            multiplyFutureScores(q_->at(b, h), k_->at(b, h), scores.at(b, h), blocks, block);
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
