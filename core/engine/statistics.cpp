#include "engine/statistics.h"

#include "base/parallel.h"
#include "engine/fastexp.h"
#include "engine/rowfigures.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

namespace attn {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Mean of the finite entries; NaN when there are none.
double finiteMean(const std::vector<double>& values)
{
    double sum = 0;
    int count = 0;
    for (double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++count;
        }
    return count > 0 ? sum / count : kNaN;
}

// Smallest and largest finite entries of every vector; NaN when there are none.
template <typename Range> std::pair<double, double> finiteRange(const Range& vectors)
{
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (const auto* values : vectors)
        for (double v : *values)
            if (std::isfinite(v)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    return lo <= hi ? std::pair{lo, hi} : std::pair{kNaN, kNaN};
}

} // namespace

Moments moments(const Matrix& m, float scale, float tau)
{
    // 1. The values as the logits stage computes them: float multiply, float divide; an
    // expression, made again for each pass rather than kept (a (T, T) copy in double is
    // 32 MB a head at T = 2048, on every core at once).
    const auto values = ((m.array() * scale) / tau).cast<double>();
    // 2. Mean, then squared deviations, in double like torch.std.
    Moments out;
    out.n = static_cast<double>(m.size());
    if (m.size() == 0)
        return out;
    out.mean = values.mean();
    out.m2 = (values - out.mean).square().sum();
    return out;
}

Moments combine(const Moments& a, const Moments& b)
{
    if (a.n == 0)
        return b;
    if (b.n == 0)
        return a;
    const double n = a.n + b.n;
    const double delta = b.mean - a.mean;
    return {n, a.mean + delta * b.n / n, a.m2 + b.m2 + delta * delta * a.n * b.n / n};
}

double unbiasedStd(const Moments& m)
{
    if (m.n < 2)
        return kNaN; // torch.std of one element is NaN too
    return static_cast<float>(std::sqrt(m.m2 / (m.n - 1)));
}

double unbiasedStd(std::span<const Matrix> matrices, float scale, float tau)
{
    Moments total;
    for (const Matrix& m : matrices)
        total = combine(total, moments(m, scale, tau));
    return unbiasedStd(total);
}

HeadStatistics headStatistics(const Matrix& scores, float scale, float tau, const Matrix& weights,
                              const MaskMatrix& masked)
{
    // scores, weights, masked: (T_q, T_k); row i is query i, column j key j.
    const Eigen::Index T = weights.rows();  // T_q
    const Eigen::Index Tk = weights.cols(); // T_k (= T_q in self-attention)
    HeadStatistics s;
    s.rowSums.assign(static_cast<std::size_t>(T), 0.0);
    // Σ_i P[i][j], in double, added row by row; NaN in a column makes its sum NaN.
    s.colSums.assign(static_cast<std::size_t>(Tk), 0.0);
    s.rowEntropy.assign(static_cast<std::size_t>(T), 0.0);
    s.rowEntropyMax.assign(static_cast<std::size_t>(T), 0.0);
    s.rowMax.assign(static_cast<std::size_t>(T), 0.0f);
    s.jacobianNorm.assign(static_cast<std::size_t>(T), 0.0);

    // 1. The moments of S and of its logits, row by row (each row read once from memory),
    // the rows' combined exactly.
    for (Eigen::Index i = 0; i < scores.rows(); ++i) {
        const ScoreRowMoments m = scoreRowMoments(scores.row(i).data(), scores.cols(), scale, tau);
        s.scoreMoments = combine(s.scoreMoments, m.scores);
        s.logitMoments = combine(s.logitMoments, m.logits);
    }
    s.stdScores = unbiasedStd(s.scoreMoments);
    s.stdLogits = unbiasedStd(s.logitMoments);

    const bool hasMask = masked.size() != 0;
    for (Eigen::Index i = 0; i < T; ++i) {
        const auto row = static_cast<std::size_t>(i);
        // 2. The row of P in one pass: Σp, Σp², Σp³, Σ p ln p, its largest weight, its
        // masked keys, and its share of the column sums.
        const WeightRowFigures f = weightRowFigures(
            weights.row(i).data(), hasMask ? masked.row(i).data() : nullptr, Tk, s.colSums.data());
        double sum = f.sum, sum2 = f.sum2, sum3 = f.sum3;
        // 0·log 0 = 0; the float log is accurate to ~1e-7, far below what is shown.
        double entropy = -f.plnp / std::log(2.0);
        float rowMax = f.max;
        bool hasNaN = false;
        if (!f.finite) {
            // A NaN or ±inf weight (rare): counted, and the row measured value by value.
            const Eigen::ArrayXd p = weights.row(i).transpose().cast<double>();
            const int nans = static_cast<int>(p.isNaN().count());
            hasNaN = nans > 0;
            s.nanCount += nans;
            if (!hasNaN) {
                s.posInfCount +=
                    static_cast<int>((p == std::numeric_limits<double>::infinity()).count());
                s.negInfCount +=
                    static_cast<int>((p == -std::numeric_limits<double>::infinity()).count());
            }
            sum = p.sum();
            sum2 = p.square().sum();
            sum3 = p.cube().sum();
            const Eigen::ArrayXf pf = weights.row(i).transpose();
            entropy = -(pf > 0.0f).select(pf * pf.log(), 0.0f).template cast<double>().sum() /
                      std::log(2.0);
            rowMax = weights.row(i).maxCoeff();
        }
        const int unmasked = static_cast<int>(Tk) - f.masked;
        s.rowSums[row] = sum;
        s.rowMax[row] = hasNaN ? std::numeric_limits<float>::quiet_NaN() : rowMax;
        // A row that is not a distribution (softmax over another axis, mask after it) is
        // measured as the distribution it would be: H(p/s) = H(p)/s + log2 s.
        if (sum > 0 && std::isfinite(sum))
            entropy = entropy / sum + std::log2(sum);
        s.rowEntropy[row] = hasNaN ? kNaN : entropy;
        s.rowEntropyMax[row] = unmasked > 0 ? std::log2(static_cast<double>(unmasked)) : 0.0;
        // ‖diag(p) − ppᵀ‖²_F = Σp² − 2Σp³ + (Σp²)²: how much gradient the row passes.
        s.jacobianNorm[row] =
            hasNaN ? kNaN : std::sqrt(std::max(0.0, sum2 - 2.0 * sum3 + sum2 * sum2));

        // 3. Classify the row.
        const int r = static_cast<int>(i);
        if (hasNaN)
            s.nanRows.push_back(r);
        if (unmasked == 0)
            s.fullyMaskedRows.push_back(r);
        const bool normalized = std::abs(sum - 1.0) <= kSumTolerance;
        if (!normalized && !hasNaN) // NaN rows are reported as such
            s.notNormalizedRows.push_back(r);
        // A row with a single visible key is 1 by construction, not saturated.
        if (!hasNaN && unmasked > 1) {
            ++s.choiceRows;
            s.saturatedRows += rowMax >= kSaturatedRowMax ? 1 : 0;
        }
        if (!hasNaN && normalized && unmasked > 1 &&
            entropy >= kUniformEntropyRatio * s.rowEntropyMax[row])
            s.uniformRows.push_back(r);
    }

    // 4. Means over the rows that have numbers.
    s.meanEntropy = finiteMean(s.rowEntropy);
    s.meanEntropyMax = finiteMean(s.rowEntropyMax);
    s.meanJacobianNorm = finiteMean(s.jacobianNorm);
    s.meanRowMax = finiteMean(std::vector<double>(s.rowMax.begin(), s.rowMax.end()));
    s.saturatedShare = s.choiceRows > 0 ? static_cast<double>(s.saturatedRows) / s.choiceRows : 0.0;
    std::tie(s.rowSumMin, s.rowSumMax) = finiteRange(std::array{&s.rowSums});
    std::tie(s.colSumMin, s.colSumMax) = finiteRange(std::array{&s.colSums});
    return s;
}

MarginSums marginSums(const Matrix& weights)
{
    // weights (T_q, T_k) → rows (T_q), columns (T_k); the cast is lazy, no (T, T) copy.
    const Eigen::Matrix<double, Eigen::Dynamic, 1> rows = weights.cast<double>().rowwise().sum();
    const Eigen::Matrix<double, 1, Eigen::Dynamic> columns = weights.cast<double>().colwise().sum();
    return {{rows.data(), rows.data() + rows.size()},
            {columns.data(), columns.data() + columns.size()}};
}

namespace {

// What a pass that takes the largest finite value of a head's cells also does with them.
enum class AlsoSum {
    No,   // nothing
    Copy, // sum[k] = w[k] (the first head)
    Add,  // sum[k] += w[k] (the others)
};

// The largest finite value of the n floats from w, 0 when none is above 0; with `also`,
// the cells go into `sum` in the same pass. Plain loops the compiler vectorises: v + (v − v)
// is v for a finite v and NaN otherwise, and `f > m ? f : m` keeps m for a NaN f; eight
// running maxima, one vector's lanes. Inlined into a baseline and an AVX2 copy below; the
// maximum is exact and each sum adds the heads in order, so both give the same bits.
template <AlsoSum also>
[[gnu::always_inline]] inline float finiteMaxAndBody(const float* __restrict w,
                                                     float* __restrict sum, Eigen::Index n)
{
    std::array<float, 8> lanes{};
    const Eigen::Index whole = n - n % 8;
    for (Eigen::Index k = 0; k < whole; k += 8) {
        for (int l = 0; l < 8; ++l) {
            const float v = w[k + l];
            if constexpr (also == AlsoSum::Copy)
                sum[k + l] = v;
            else if constexpr (also == AlsoSum::Add)
                sum[k + l] += v;
            const float f = v + (v - v);
            lanes[std::size_t(l)] = f > lanes[std::size_t(l)] ? f : lanes[std::size_t(l)];
        }
    }
    float max = *std::max_element(lanes.begin(), lanes.end());
    for (Eigen::Index k = whole; k < n; ++k) {
        if constexpr (also == AlsoSum::Copy)
            sum[k] = w[k];
        else if constexpr (also == AlsoSum::Add)
            sum[k] += w[k];
        if (w[k] - w[k] == 0.0f)
            max = std::max(max, w[k]);
    }
    return max;
}

template <AlsoSum also>
__attribute__((target("avx2"))) float finiteMaxAndAvx2(const float* w, float* sum, Eigen::Index n)
{
    return finiteMaxAndBody<also>(w, sum, n);
}

template <AlsoSum also> float finiteMaxAndBaseline(const float* w, float* sum, Eigen::Index n)
{
    return finiteMaxAndBody<also>(w, sum, n);
}

template <AlsoSum also> float finiteMaxAnd(const float* w, float* sum, Eigen::Index n)
{
    return rowPassesUseAvx2() ? finiteMaxAndAvx2<also>(w, sum, n)
                              : finiteMaxAndBaseline<also>(w, sum, n);
}

} // namespace

Matrix meanOverHeads(const HeadStack& stack, int b)
{
    return overviewOfHeads(stack, b).mean;
}

void overviewRows(const HeadStack& stack, int b, Eigen::Index row, Eigen::Index end, Matrix& mean,
                  float* maxima)
{
    const int H = stack.heads();
    const Eigen::Index columns = mean.cols();
    // A band of a row-major matrix is contiguous.
    const Eigen::Index n = (end - row) * columns;
    float* const sum = mean.data() + row * columns;
    for (int h = 0; h < H; ++h) {
        const float* cells = stack.at(b, h).data() + row * columns;
        maxima[h] = h == 0 ? finiteMaxAnd<AlsoSum::Copy>(cells, sum, n)
                           : finiteMaxAnd<AlsoSum::Add>(cells, sum, n);
    }
    mean.middleRows(row, end - row) /= static_cast<float>(H);
}

std::vector<float> maximaOfBands(const std::vector<float>& bandMaxima, int H)
{
    std::vector<float> maxima(std::size_t(H), 0.0f);
    for (std::size_t k = 0; k < bandMaxima.size(); ++k)
        maxima[k % std::size_t(H)] = std::max(maxima[k % std::size_t(H)], bandMaxima[k]);
    return maxima;
}

HeadsOverview overviewOfHeads(const HeadStack& stack, int b)
{
    // (H, T_q, T_k) → (T_q, T_k), in bands of rows on every core.
    const int H = stack.heads();
    const Matrix& first = stack.at(b, 0);
    HeadsOverview overview;
    overview.mean.resize(first.rows(), first.cols());
    const auto rows = first.rows();
    const int bands = first.size() < (1 << 16) ? 1 : int(std::min<Eigen::Index>(rows, 16));
    std::vector<float> bandMaxima(std::size_t(bands) * std::size_t(H));
    parallelFor(bands, [&](int band) {
        overviewRows(stack, b, rows * band / bands, rows * (band + 1) / bands, overview.mean,
                     bandMaxima.data() + std::size_t(band) * std::size_t(H));
    });
    overview.maxima = maximaOfBands(bandMaxima, H);
    return overview;
}

float finiteMax(const Matrix& m)
{
    return finiteMaxAnd<AlsoSum::No>(m.data(), nullptr, m.size());
}

std::vector<float> finiteMaxima(const HeadStack& stack, int b)
{
    std::vector<float> maxima(static_cast<std::size_t>(stack.heads()));
    parallelFor(stack.heads(),
                [&](int h) { maxima[static_cast<std::size_t>(h)] = finiteMax(stack.at(b, h)); });
    return maxima;
}

void addTodaysFigures(HeadStatistics& s, const Matrix& scores, const LogitRule& rule,
                      const MaskMatrix& masked)
{
    s.finalLogitMoments = s.logitMoments;
    s.stdFinalLogits = s.stdLogits;
    const Eigen::Index T = scores.rows(), Tk = scores.cols();
    if (rule.shifts()) {
        Matrix l(T, Tk);
        for (Eigen::Index i = 0; i < T; ++i)
            for (Eigen::Index j = 0; j < Tk; ++j)
                l(i, j) = rule.shift((scores(i, j) * rule.scale) / rule.tau, i, j);
        s.finalLogitMoments = moments(l);
        s.stdFinalLogits = unbiasedStd(s.finalLogitMoments);
    }
    s.sinkWeights.clear();
    s.maxSinkWeight = 0;
    s.sinkRows = 0;
    if (!rule.sink)
        return;
    std::vector<float> row(static_cast<std::size_t>(Tk));
    for (Eigen::Index i = 0; i < T; ++i) {
        for (Eigen::Index j = 0; j < Tk; ++j)
            row[std::size_t(j)] = rule(scores(i, j), masked.size() != 0 && masked(i, j), i, j);
        const double weight = sinkWeight(row.data(), Tk, rule);
        s.sinkWeights.push_back(weight);
        s.maxSinkWeight = std::max(s.maxSinkWeight, weight);
        s.sinkRows += weight > kSinkMost ? 1 : 0;
    }
}

void summarize(Statistics& stats)
{
    Moments scoreMoments, logitMoments, finalMoments;
    stats.maxSinkWeight = 0;
    stats.sinkRows = 0;
    for (const HeadStatistics& h : stats.heads) {
        scoreMoments = combine(scoreMoments, h.scoreMoments);
        logitMoments = combine(logitMoments, h.logitMoments);
        finalMoments = combine(finalMoments, h.finalLogitMoments);
        stats.maxSinkWeight = std::max(stats.maxSinkWeight, h.maxSinkWeight);
        stats.sinkRows += h.sinkRows;
    }
    stats.stdScores = unbiasedStd(scoreMoments);
    stats.stdLogits = unbiasedStd(logitMoments);
    stats.stdFinalLogits = unbiasedStd(finalMoments);

    std::vector<double> entropy, entropyMax, rowMax, jacobian;
    std::vector<const std::vector<double>*> rowSums, colSums;
    stats.rows = stats.choiceRows = stats.saturatedRows = stats.notNormalizedRows =
        stats.uniformRows = 0;
    stats.nanCount = stats.posInfCount = stats.negInfCount = 0;
    for (const HeadStatistics& h : stats.heads) {
        entropy.insert(entropy.end(), h.rowEntropy.begin(), h.rowEntropy.end());
        entropyMax.insert(entropyMax.end(), h.rowEntropyMax.begin(), h.rowEntropyMax.end());
        rowMax.insert(rowMax.end(), h.rowMax.begin(), h.rowMax.end());
        jacobian.insert(jacobian.end(), h.jacobianNorm.begin(), h.jacobianNorm.end());
        rowSums.push_back(&h.rowSums);
        colSums.push_back(&h.colSums);
        const int rows = static_cast<int>(h.rowSums.size());
        stats.rows += rows;
        stats.choiceRows += h.choiceRows;
        stats.saturatedRows += h.saturatedRows;
        stats.notNormalizedRows += static_cast<int>(h.notNormalizedRows.size());
        stats.uniformRows += static_cast<int>(h.uniformRows.size());
        stats.nanCount += h.nanCount;
        stats.posInfCount += h.posInfCount;
        stats.negInfCount += h.negInfCount;
    }
    stats.meanEntropy = finiteMean(entropy);
    stats.meanEntropyMax = finiteMean(entropyMax);
    stats.meanRowMax = finiteMean(rowMax);
    stats.meanJacobianNorm = finiteMean(jacobian);
    stats.saturatedShare =
        stats.choiceRows > 0 ? static_cast<double>(stats.saturatedRows) / stats.choiceRows : 0.0;
    std::tie(stats.rowSumMin, stats.rowSumMax) = finiteRange(rowSums);
    std::tie(stats.colSumMin, stats.colSumMax) = finiteRange(colSums);
}

} // namespace attn
