#include "engine/softmax.h"

#include "base/parallel.h"
#include "engine/fastexp.h"
#include "engine/positions.h"
#include "engine/statistics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace attn {
namespace {

// exp of logits already shifted by their maximum. Eigen's vectorised exp clamps its
// argument near −88.4 and returns 2.9e-39 for −inf; torch returns 0, so below the
// smallest normal float's logarithm we return 0 as well. NaN stays NaN.
template <typename Derived> auto shiftedExp(const Eigen::ArrayBase<Derived>& shifted)
{
    return (shifted < -87.5f).select(0.0f, shifted.exp());
}

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

// The largest of n logits, NaN left out (as scaleRow takes it); −inf when there is none.
float rowMax(const float* l, Eigen::Index n)
{
    float max = -std::numeric_limits<float>::infinity();
    for (Eigen::Index j = 0; j < n; ++j)
        max = l[j] > max ? l[j] : max;
    return max;
}

// One row of T_k logits: l = s·scale/τ, then the fill where the row's mask is set.
// Returns where the row's tail of filled keys starts (n when it has none); the scores of
// that tail are not read. `max` gets the largest logit, NaN left out. With `fillTail`
// false that tail of l is left unwritten, for a caller that fills it only when it reads
// it (a causal mask's future, filled with −inf, weighs exactly 0 unread).
Eigen::Index scaleAndMaskRow(const float* s, const bool* masked, Eigen::Index n, Eigen::Index row,
                             const LogitRule& rule, float* l, float& max, bool fillTail = true)
{
    auto scaled = [&](Eigen::Index count) {
        max = scaleRow(s, count, rule.scale, rule.tau, l);
        if (rule.shifts()) { // ALiBi and the cap, before the fill
            for (Eigen::Index j = 0; j < count; ++j)
                l[j] = rule.shift(l[j], row, j);
            max = rowMax(l, count);
        }
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
        if (fillTail)
            std::fill(l + start, l + n, *rule.fill);
        max = std::max(max, *rule.fill);
        return start;
    }
    scaled(n);
    for (Eigen::Index j = start; j < n; ++j)
        if (masked[j])
            l[j] = *rule.fill;
    max = rowMax(l, n);
    return n;
}

// Whether keys filled with `fill` weigh exactly 0 in a row whose largest logit is `max`:
// their exp underflows (below −87.5), so softmaxRow neither reads nor exponentiates them.
bool filledWeighZero(std::optional<float> fill, float max)
{
    return fill && *fill - max < -87.5f;
}

// One row of T_k weights: p = exp(l − max(l)) / Σ exp(l − max(l)), given max(l) with NaN
// left out. The keys from `filledFrom` on, when given, all hold `fill`; when they weigh
// zero (filledWeighZero), they are not read.
void softmaxRow(const float* l, Eigen::Index n, float max, float* p, Eigen::Index filledFrom = 0,
                std::optional<float> fill = std::nullopt, std::optional<float> sink = std::nullopt)
{
    // 1. The maximum is subtracted only for numerical stability; a row that is all -inf
    // has max -inf, and -inf − (-inf) = NaN, as in torch. A NaN anywhere makes the whole
    // row NaN below, whatever the maximum.
    RowArray weights(p, n);
    // 2. A tail of keys whose weight is exactly 0 (a causal mask's future, filled with
    // -inf) needs no exp; NaN ends the tail (the comparison is false).
    Eigen::Index live = filledWeighZero(fill, max) ? filledFrom : n;
    while (live > 0 && l[live - 1] - max < -87.5f)
        --live;
    // 3. A vectorised exp, kept to arguments whose exp is a normal float: below that it
    // would make subnormal numbers, which cost a hundred cycles each. Its sum, and the
    // smallest argument, come from the same pass.
    float lowest = 0;
    float sum = clampedShiftedExpSum(l, max, live, p, lowest);
    // 4. The few arguments below −87: where exp underflows, torch returns 0, so below the
    // smallest normal float's logarithm (rounded to −87.5) so do we; between the two the
    // exact exp. NaN stays NaN, whatever max(NaN, −87) gave. The pass above tells when no
    // value needs it (lowest is NaN when any argument is), sparing the loop in the common
    // case.
    if (live > 0 && !(lowest >= -87.0f)) {
        for (Eigen::Index j = 0; j < live; ++j)
            if (const float shifted = l[j] - max; !(shifted >= -87.0f))
                p[j] = std::isnan(shifted) ? shifted : shifted < -87.5f ? 0.0f : std::exp(shifted);
        sum = weights.head(live).sum();
    }
    // A sink is one more key (gpt-oss): its exp joins the sum, its weight is dropped. `max`
    // counts it already, so that a row of filled keys parks its weight on it.
    if (sink) {
        const float shifted = *sink - max;
        sum += shifted < -87.5f ? 0.0f : std::exp(shifted);
    }
    // 5. Normalise as torch's softmax over the last dimension does: 1 / sum once, then a
    // multiplication; the whole row, so that a NaN sum makes every weight NaN, as in
    // torch (the tail's zeros multiplied once).
    const float reciprocal = normalizeRow(p, live, sum);
    weights.tail(n - live).setConstant(0.0f * reciprocal);
}

} // namespace

LogitRule logitRule(const Config& config, int head)
{
    LogitRule rule;
    rule.scale = static_cast<float>(scaleFactor(config));
    rule.tau = config.temperature;
    if (config.maskStage == MaskStage::BeforeSoftmax)
        rule.fill =
            config.maskFill == MaskFill::NegInf ? -std::numeric_limits<float>::infinity() : -1e9f;
    if (config.alibi)
        rule.slope = alibiSlope(head, config.heads);
    rule.cap = config.softcap;
    rule.sink = config.sink;
    return rule;
}

std::vector<LogitRule> headRules(const Config& config)
{
    std::vector<LogitRule> rules;
    for (int h = 0; h < config.heads; ++h)
        rules.push_back(logitRule(config, h));
    return rules;
}

double sinkWeight(const float* logits, Eigen::Index n, const LogitRule& rule)
{
    if (!rule.sink)
        return 0;
    const double s = *rule.sink;
    double max = s;
    for (Eigen::Index j = 0; j < n; ++j)
        max = logits[j] > max ? logits[j] : max;
    double sum = 0;
    for (Eigen::Index j = 0; j < n; ++j)
        sum += std::exp(double(logits[j]) - max);
    const double sink = std::exp(s - max);
    return sink / (sink + sum);
}

void scaleAndMask(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                  Matrix& logits)
{
    // scores, mask (T_q, T_k) → logits (T_q, T_k).
    logits.resize(scores.rows(), scores.cols());
    const Eigen::Index n = scores.cols();
    float max = 0;
    for (Eigen::Index i = 0; i < scores.rows(); ++i)
        scaleAndMaskRow(scores.row(i).data(), mask.row(i).data(), n, i, rule, logits.row(i).data(),
                        max);
}

void softmaxOverKeys(const Matrix& logits, Matrix& weights)
{
    // logits (T_q, T_k) → weights (T_q, T_k).
    weights.resize(logits.rows(), logits.cols());
    for (Eigen::Index i = 0; i < logits.rows(); ++i)
        softmaxRow(logits.row(i).data(), logits.cols(), rowMax(logits.row(i).data(), logits.cols()),
                   weights.row(i).data());
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
    for (Eigen::Index i = firstRow; i < firstRow + rows; ++i)
        scaleMaskSoftmaxRow(scores.row(i).data(), mask.row(i).data(), n, i, rule, row.data(),
                            weights.row(i).data());
}

void scaleMaskSoftmaxRow(const float* scores, const bool* mask, Eigen::Index n, Eigen::Index row,
                         const LogitRule& rule, float* scratch, float* weights)
{
    float max = 0;
    const Eigen::Index filledFrom =
        scaleAndMaskRow(scores, mask, n, row, rule, scratch, max, false);
    if (rule.sink && !(max >= *rule.sink)) // NaN left out, as rowMax leaves it
        max = *rule.sink;
    // The filled tail is written only when the softmax reads it (it rarely does: a causal
    // mask's future, filled with −inf or −1e9, weighs exactly 0).
    if (filledFrom < n && !filledWeighZero(rule.fill, max))
        std::fill(scratch + filledFrom, scratch + n, *rule.fill);
    softmaxRow(scratch, n, max, weights, filledFrom, rule.fill, rule.sink);
}

void scaleMaskSoftmaxOverQueries(const Matrix& scores, const MaskMatrix& mask,
                                 const LogitRule& rule, Matrix& weights)
{
    Matrix& p = weights; // L in place, then P
    scaleAndMask(scores, mask, rule, p);
    const Eigen::Matrix<float, 1, Eigen::Dynamic> max = p.colwise().maxCoeff();
    p = shiftedExp(p.array().rowwise() - max.array());
    const Eigen::Matrix<float, 1, Eigen::Dynamic> sum = p.colwise().sum();
    p.array().rowwise() /= sum.array();
}

void scaleMaskSoftmaxOverBatch(const HeadStack& scores, const std::vector<MaskMatrix>& masks,
                               const LogitRule& rule, int h, HeadStack& weights)
{
    const int B = weights.batch();
    for (int b = 0; b < B; ++b) // L in place, then P
        scaleAndMask(scores.at(b, h), masks[std::size_t(b)], rule, weights.at(b, h));
    Matrix max = weights.at(0, h);
    for (int b = 1; b < B; ++b)
        max = max.cwiseMax(weights.at(b, h));
    Matrix sum = Matrix::Zero(max.rows(), max.cols());
    for (int b = 0; b < B; ++b) {
        weights.at(b, h) = shiftedExp((weights.at(b, h) - max).array());
        sum += weights.at(b, h);
    }
    for (int b = 0; b < B; ++b)
        weights.at(b, h).array() /= sum.array();
}

void softmaxWithOverviews(const HeadStack& scores, const std::vector<MaskMatrix>& masks,
                          std::span<const LogitRule> rules, bool maskAfter, HeadStack& weights,
                          std::vector<HeadsOverview>& overviews)
{
    const int B = weights.batch(), H = weights.heads();
    const int T = B > 0 ? int(weights.at(0, 0).rows()) : 0;
    const int Tk = B > 0 ? int(weights.at(0, 0).cols()) : 0;
    const int bandRows =
        std::max(1, int((1 << 20) / (double(H) * sizeof(float) * std::max(Tk, 1))));
    const int bands = std::max(1, (T + bandRows - 1) / bandRows);
    overviews.resize(std::size_t(B));
    for (HeadsOverview& overview : overviews)
        HeadStack::resizeKeepingPages(overview.mean, T, Tk);
    std::vector<float> bandMaxima(std::size_t(B) * std::size_t(bands) * std::size_t(H));
    parallelFor(B * bands, [&](int item) {
        const int b = item / bands, band = item % bands;
        const MaskMatrix& mask = masks[std::size_t(b)];
        const Eigen::Index row = Eigen::Index(band) * bandRows;
        const Eigen::Index rows = std::min<Eigen::Index>(bandRows, T - row);
        for (int h = 0; h < H; ++h) {
            Matrix& p = weights.at(b, h);
            scaleMaskSoftmaxOverKeys(scores.at(b, h), mask, rules[std::size_t(h)], p, row, rows);
            if (maskAfter)
                p.middleRows(row, rows) =
                    mask.middleRows(row, rows).select(0.0f, p.middleRows(row, rows));
        }
        overviewRows(weights, b, row, row + rows, overviews[std::size_t(b)].mean,
                     bandMaxima.data() + std::size_t(item) * std::size_t(H));
    });
    for (int b = 0; b < B; ++b) {
        const auto from = bandMaxima.begin() + std::ptrdiff_t(b) * bands * H;
        overviews[std::size_t(b)].maxima =
            maximaOfBands(std::vector<float>(from, from + std::ptrdiff_t(bands) * H), H);
    }
}

Eigen::Index causalKeys(const float* block, Eigen::Index stride, Eigen::Index first,
                        Eigen::Index rows, Eigen::Index keys)
{
    for (Eigen::Index i = 0; i < rows && first + i + 1 < keys; ++i)
        if (!(block[i * stride + first + i + 1] == 0.0f))
            return keys;
    return std::min(first + rows, keys);
}

} // namespace attn
