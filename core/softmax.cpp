#include "softmax.h"

#include "fastexp.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace attn {
namespace {

using RowArray = Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>>;
using ConstRowArray = Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>>;

// Whether all `count` values from `mask` on are true, compared a block at a time.
bool allTrue(const bool* mask, Eigen::Index count)
{
    static constexpr std::array<bool, 256> trues = [] {
        std::array<bool, 256> all{};
        all.fill(true);
        return all;
    }();
    for (Eigen::Index done = 0; done < count;) {
        const auto block = std::min<Eigen::Index>(count - done, trues.size());
        if (std::memcmp(mask + done, trues.data(), std::size_t(block)) != 0)
            return false;
        done += block;
    }
    return true;
}

// One row of T_k logits: l = s·scale/τ, then the fill where the row's mask is set.
// Returns where the row's tail of filled keys starts (n when it has none); the scores of
// that tail are not read.
Eigen::Index scaleAndMaskRow(const float* s, const bool* masked, Eigen::Index n,
                             const LogitRule& rule, float* l)
{
    auto scaled = [&](Eigen::Index count) {
        RowArray(l, count) = (ConstRowArray(s, count) * rule.scale) / rule.tau;
    };
    if (!rule.fill) {
        scaled(n);
        return n;
    }
    // The masks of ARCHITECTURE.md (causal, key padding and both) hide a tail of keys:
    // memchr and memcmp find it at memory speed, and the fill is one vectorised store.
    const auto* first = static_cast<const bool*>(std::memchr(masked, true, std::size_t(n)));
    if (!first) {
        scaled(n);
        return n;
    }
    const Eigen::Index start = first - masked;
    if (allTrue(first, n - start)) {
        scaled(start);
        std::fill(l + start, l + n, *rule.fill);
        return start;
    }
    scaled(n);
    for (Eigen::Index j = start; j < n; ++j)
        if (masked[j])
            l[j] = *rule.fill;
    return n;
}

// One row of T_k weights: p = exp(l − max(l)) / Σ exp(l − max(l)). The keys from
// `filledFrom` on, when given, all hold `fill`.
void softmaxRow(const float* l, Eigen::Index n, float* p, Eigen::Index filledFrom = 0,
                std::optional<float> fill = std::nullopt)
{
    // 1. The maximum is subtracted only for numerical stability; a row that is all -inf
    // has max -inf, and -inf − (-inf) = NaN, as in torch.
    const ConstRowArray logits(l, n);
    const float max = logits.maxCoeff();
    RowArray weights(p, n);
    // 2. A tail of keys whose weight is exactly 0 (a causal mask's future, filled with
    // -inf) needs no exp; NaN ends the tail (the comparison is false).
    Eigen::Index live = fill && *fill - max < -87.5f ? filledFrom : n;
    while (live > 0 && l[live - 1] - max < -87.5f)
        --live;
    weights.tail(n - live).setZero();
    // 3. A vectorised exp, kept to arguments whose exp is a normal float: below that it
    // would make subnormal numbers, which cost a hundred cycles each.
    clampedShiftedExp(l, max, live, p);
    // 4. The few arguments below −87: where exp underflows, torch returns 0, so below the
    // smallest normal float's logarithm (rounded to −87.5) so do we; between the two the
    // exact exp. NaN stays NaN, whatever max(NaN, −87) gave. Two vectorised reductions tell when no
    // value needs it (a NaN anywhere makes the sum NaN), sparing the loop in the common case.
    const ConstRowArray head(l, live);
    if (live > 0 && (std::isnan(head.sum()) || !(head.minCoeff() - max >= -87.0f)))
        for (Eigen::Index j = 0; j < live; ++j)
            if (const float shifted = l[j] - max; !(shifted >= -87.0f))
                p[j] = std::isnan(shifted) ? shifted : shifted < -87.5f ? 0.0f : std::exp(shifted);
    // 5. Normalise: a division, as torch does, not a multiplication by the reciprocal;
    // the whole row, so that a NaN sum makes every weight NaN, as in torch.
    weights /= weights.head(live).sum();
}

} // namespace

LogitRule logitRule(const Config& config)
{
    LogitRule rule;
    rule.scale = static_cast<float>(scaleFactor(config));
    rule.tau = config.temperature;
    if (config.maskStage == MaskStage::BeforeSoftmax)
        rule.fill =
            config.maskFill == MaskFill::NegInf ? -std::numeric_limits<float>::infinity() : -1e9f;
    return rule;
}

void scaleAndMask(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                  Matrix& logits)
{
    // scores, mask (T_q, T_k) → logits (T_q, T_k).
    logits.resize(scores.rows(), scores.cols());
    const Eigen::Index n = scores.cols();
    for (Eigen::Index i = 0; i < scores.rows(); ++i)
        scaleAndMaskRow(scores.row(i).data(), mask.row(i).data(), n, rule, logits.row(i).data());
}

void softmaxOverKeys(const Matrix& logits, Matrix& weights)
{
    // logits (T_q, T_k) → weights (T_q, T_k).
    weights.resize(logits.rows(), logits.cols());
    for (Eigen::Index i = 0; i < logits.rows(); ++i)
        softmaxRow(logits.row(i).data(), logits.cols(), weights.row(i).data());
}

void scaleMaskSoftmaxOverKeys(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                              Matrix& weights)
{
    // scores, mask (T_q, T_k) → weights (T_q, T_k).
    weights.resize(scores.rows(), scores.cols());
    scaleMaskSoftmaxOverKeys(scores, mask, rule, weights, 0, scores.rows());
}

void scaleMaskSoftmaxOverKeys(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                              Matrix& weights, Eigen::Index firstRow, Eigen::Index rows)
{
    // One row of logits at a time, in a buffer that stays in cache.
    const Eigen::Index n = scores.cols();
    std::vector<float> row(static_cast<std::size_t>(n));
    for (Eigen::Index i = firstRow; i < firstRow + rows; ++i) {
        const Eigen::Index filledFrom =
            scaleAndMaskRow(scores.row(i).data(), mask.row(i).data(), n, rule, row.data());
        softmaxRow(row.data(), n, weights.row(i).data(), filledFrom, rule.fill);
    }
}

} // namespace attn
