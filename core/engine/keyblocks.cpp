#include "engine/keyblocks.h"

#include <algorithm>

namespace attn {

ScoreBlocks scoreBlocks(Eigen::Index T, Eigen::Index Tk)
{
    const Eigen::Index target =
        std::clamp<Eigen::Index>((1 << 20) / (4 * std::max<Eigen::Index>(Tk, 1)), 64, 128);
    return {T, Tk, int(std::max<Eigen::Index>(1, T / target))};
}

bool futureScoresUnread(const Config& config)
{
    return config.mask == MaskKind::Causal && config.maskStage == MaskStage::BeforeSoftmax &&
           config.axis == SoftmaxAxis::Keys;
}

bool futureMayWeighZero(const Config& config, Eigen::Index T, Eigen::Index Tk)
{
    return config.mask == MaskKind::Causal && T == Tk &&
           (config.axis == SoftmaxAxis::Keys || config.maskStage == MaskStage::AfterSoftmax);
}

void multiplyScores(const ConstRowsRef& q, const ConstRowsRef& k, RowsRef s,
                    const ScoreBlocks& blocks, int block, bool future, const ScoreProduct& product)
{
    const Eigen::Index row = blocks.begin(block), rows = blocks.size(block);
    const Eigen::Index near = blocks.nearKeys(block);
    if (product) {
        product(row, rows, future ? blocks.keys : near, s.data(), s.outerStride());
        return;
    }
    s.leftCols(near).noalias() = q.middleRows(row, rows) * k.topRows(near).transpose();
    if (future)
        multiplyFutureScores(q, k, s, blocks, block);
}

void multiplyFutureScores(const ConstRowsRef& q, const ConstRowsRef& k, RowsRef s,
                          const ScoreBlocks& blocks, int block)
{
    const Eigen::Index row = blocks.begin(block), rows = blocks.size(block);
    const Eigen::Index near = blocks.nearKeys(block), far = blocks.keys - near;
    if (far > 0)
        s.middleCols(near, far).noalias() = q.middleRows(row, rows) * k.bottomRows(far).transpose();
}

void softmaxBlockOverKeys(const ConstRowsRef& s, const MaskMatrix& mask, const LogitRule& rule,
                          bool maskAfter, Eigen::Index first, float* scratch, RowsRef p)
{
    const Eigen::Index n = s.cols();
    for (Eigen::Index i = 0; i < s.rows(); ++i)
        scaleMaskSoftmaxRow(s.row(i).data(), mask.row(first + i).data(), n, first + i, rule,
                            scratch, p.row(i).data());
    if (maskAfter) // masked_fill(M, 0)
        p = mask.middleRows(first, s.rows()).select(0.0f, p);
}

void multiplyValues(const ConstRowsRef& p, const ConstRowsRef& v, Eigen::Index first,
                    bool dropFuture, RowsRef o, const ValueProduct& product)
{
    const Eigen::Index rows = p.rows(), keys = p.cols();
    const Eigen::Index used =
        dropFuture ? causalKeys(p.data(), p.outerStride(), first, rows, keys) : keys;
    if (product)
        product(p.data(), p.outerStride(), rows, used, o.data(), o.outerStride());
    else
        o.noalias() = p.leftCols(used) * v.topRows(used);
}

} // namespace attn
