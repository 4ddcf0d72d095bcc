#include "lab/comparison.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace attn {

Config withSwitches(Config shared, const Config& switches)
{
    shared.scale = switches.scale;
    shared.temperature = switches.temperature;
    shared.axis = switches.axis;
    // No causal mask in cross-attention: validate() refuses it.
    shared.mask = shared.attention == AttentionKind::Cross ? MaskKind::None : switches.mask;
    shared.maskFill = switches.maskFill;
    shared.maskStage = switches.maskStage;
    shared.headSplit = switches.headSplit;
    shared.paddingMask = switches.paddingMask;
    // Today's switches of the logits and the softmax: the same Q, K and V (the projections)
    // on both sides, so their difference is the switch's alone.
    shared.qkNorm = switches.qkNorm;
    shared.alibi = switches.alibi;
    shared.softcap = switches.softcap;
    shared.window = switches.window;
    shared.sink = switches.sink;
    return shared;
}

Config textbookSwitches(const Config& config)
{
    Config textbook = withSwitches(config, Config{});
    textbook.mask = config.mask;
    return textbook;
}

bool sameInput(const Config& a, const Config& b)
{
    return withSwitches(a, Config{}) == withSwitches(b, Config{});
}

WeightDifference weightDifference(const Matrix& a, const Matrix& b, const MaskMatrix& maskA,
                                  const MaskMatrix& maskB)
{
    // (T_q, T_k) each
    assert(a.rows() == b.rows() && a.cols() == b.cols());
    const Eigen::Index rows = a.rows(), columns = a.cols();
    const auto isMasked = [](const MaskMatrix& mask, Eigen::Index i, Eigen::Index j) {
        return mask.size() != 0 && mask(i, j);
    };

    WeightDifference d;
    d.delta.resize(rows, columns);
    if (maskA.size() != 0 || maskB.size() != 0)
        d.masked.setConstant(rows, columns, false);
    for (Eigen::Index i = 0; i < rows; ++i) {
        for (Eigen::Index j = 0; j < columns; ++j) {
            // 1. The cell; NaN on either side gives NaN, whatever the other side holds.
            const float x = a(i, j), y = b(i, j);
            const bool nan = std::isnan(x) || std::isnan(y);
            d.delta(i, j) = nan ? std::numeric_limits<float>::quiet_NaN() : y - x;
            d.nanCount += nan ? 1 : 0;
            const bool masked = isMasked(maskA, i, j) || isMasked(maskB, i, j);
            if (d.masked.size() != 0)
                d.masked(i, j) = masked;
            // 2. The largest magnitude over the cells shown in colour.
            const float magnitude = std::abs(d.delta(i, j));
            if (masked || !std::isfinite(magnitude))
                continue;
            if (d.row < 0 || magnitude > d.maxAbs) {
                d.maxAbs = magnitude;
                d.row = static_cast<int>(i);
                d.column = static_cast<int>(j);
            }
        }
    }
    return d;
}

} // namespace attn
