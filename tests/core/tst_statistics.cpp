// The figures beside the heatmaps: headStatistics on small matrices with answers worked
// out by hand, unbiasedStd against a hand computation and against PyTorch, the mean over
// heads and the heads' maxima. The warnings drawn from them are in tst_warnings.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H; P a (T, T) weight
// matrix, row i the query, column j the key; mask rows are written "..x", where x
// marks a key hidden from that query.
#include "engine/engine.h"
#include "engine/statistics.h"
#include "engine/warnings.h"
#include "lab/presets.h"
#include "weightrows.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace attn;
using namespace attn::test;

Q_DECLARE_METATYPE(attn::Request)

namespace {

// Empty when every entry is within `tolerance` (NaN matches only NaN); otherwise a
// message naming the largest difference and where it is.
template <typename T>
QByteArray compareList(const char* what, const std::vector<T>& actual,
                       const QList<double>& expected, double tolerance)
{
    if (actual.size() != static_cast<std::size_t>(expected.size()))
        return QByteArray(what) + ": " + QByteArray::number(qsizetype(actual.size())) +
               " entries, expected " + QByteArray::number(expected.size());
    double largest = -1;
    qsizetype where = -1;
    for (qsizetype k = 0; k < expected.size(); ++k) {
        const double a = static_cast<double>(actual[static_cast<std::size_t>(k)]);
        if (close(a, expected[k], tolerance))
            continue;
        const double difference = std::isnan(a) || std::isnan(expected[k])
                                      ? std::numeric_limits<double>::infinity()
                                      : std::abs(a - expected[k]);
        if (difference > largest) {
            largest = difference;
            where = k;
        }
    }
    if (where < 0)
        return {};
    return QByteArray(what) + ": largest difference " + QByteArray::number(largest, 'g', 3) +
           " at [" + QByteArray::number(where) + "]: got " +
           QByteArray::number(static_cast<double>(actual[static_cast<std::size_t>(where)]), 'g',
                              9) +
           ", expected " + QByteArray::number(expected[where], 'g', 9);
}

QList<int> toList(const std::vector<int>& values)
{
    return QList<int>(values.begin(), values.end());
}

} // namespace

class TestStatistics : public QObject {
    Q_OBJECT

private slots:
    void rectangularHead();
    void sums_data();
    void sums();
    void entropy_data();
    void entropy();
    void rowMax_data();
    void rowMax();
    void jacobian_data();
    void jacobian();
    void wideRowsMatchDirectFigures_data();
    void wideRowsMatchDirectFigures();
    void classification_data();
    void classification();
    void headStd();
    void unbiasedStd_data();
    void unbiasedStd();
    void summarizeHeads();
    void meanOverHeadsInBands_data();
    void meanOverHeadsInBands();
    void finiteMaxima();
    void articleStd();
};

// Cross-attention's (T_q, T_k) weights: the figures of a row count its T_k keys.
void TestStatistics::rectangularHead()
{
    Matrix p(2, 4); // (T_q, T_k)
    p << 0.25f, 0.25f, 0.25f, 0.25f, 0.7f, 0.1f, 0.1f, 0.1f;
    MaskMatrix mask = MaskMatrix::Constant(2, 4, false);
    HeadStatistics s = headStatistics(Matrix::Zero(2, 4), 1.0f, 1.0f, p, mask);
    QCOMPARE(s.rowEntropyMax, (std::vector<double>{2.0, 2.0})); // log2 of 4 keys
    QCOMPARE(s.uniformRows, std::vector<int>{0});
    QCOMPARE(s.choiceRows, 2);
    QCOMPARE(s.rowSums.size(), std::size_t(2));
    QCOMPARE(s.colSums.size(), std::size_t(4));
    QVERIFY(std::abs(s.colSums[0] - 0.95) < 1e-6);

    // The last key masked (a <pad> of the second text): 3 keys left in each row.
    mask.col(3).setConstant(true);
    Matrix q(2, 4);
    q << 1.0f / 3, 1.0f / 3, 1.0f / 3, 0.0f, 0.8f, 0.1f, 0.1f, 0.0f;
    s = headStatistics(Matrix::Zero(2, 4), 1.0f, 1.0f, q, mask);
    QVERIFY(std::abs(s.rowEntropyMax[0] - std::log2(3.0)) < 1e-12);
    QCOMPARE(s.uniformRows, std::vector<int>{0});
    QVERIFY(s.fullyMaskedRows.empty());
}

void TestStatistics::sums_data()
{
    QTest::addColumn<Rows>("weights");
    QTest::addColumn<QList<double>>("rowSums");
    QTest::addColumn<QList<double>>("colSums");

    QTest::newRow("identity 3x3") << identity(3) << QList<double>{1, 1, 1}
                                  << QList<double>{1, 1, 1};
    QTest::newRow("uniform 4x4") << uniform(4) << QList<double>{1, 1, 1, 1}
                                 << QList<double>{1, 1, 1, 1};
    QTest::newRow("all attend to key 0")
        << Rows{{1, 0}, {1, 0}} << QList<double>{1, 1} << QList<double>{2, 0};
    QTest::newRow("softmax over queries: columns sum to 1")
        << Rows{{0.5, 0.2}, {0.5, 0.8}} << QList<double>{0.7, 1.3} << QList<double>{1, 1};
    QTest::newRow("mask after softmax: weight thrown away")
        << Rows{{0.6, 0, 0}, {0.3, 0.7, 0}, {0.2, 0.3, 0.5}} << QList<double>{0.6, 1, 1}
        << QList<double>{1.1, 1.0, 0.5};
    QTest::newRow("NaN row") << Rows{{kNaN, kNaN}, {0.25, 0.75}} << QList<double>{kNaN, 1}
                             << QList<double>{kNaN, kNaN};
}

void TestStatistics::sums()
{
    QFETCH(Rows, weights);
    QFETCH(QList<double>, rowSums);
    QFETCH(QList<double>, colSums);
    const HeadStatistics s = statisticsOf(weights);
    const QByteArray rows = compareList("rowSums", s.rowSums, rowSums, 1e-6);
    QVERIFY2(rows.isEmpty(), rows.constData());
    const QByteArray cols = compareList("colSums", s.colSums, colSums, 1e-6);
    QVERIFY2(cols.isEmpty(), cols.constData());
    // marginSums, which the heatmaps draw, agrees with the statistics.
    const MarginSums margins = marginSums(toMatrix(weights));
    const QByteArray marginRows = compareList("marginSums.rows", margins.rows, rowSums, 1e-6);
    QVERIFY2(marginRows.isEmpty(), marginRows.constData());
    const QByteArray marginColumns =
        compareList("marginSums.columns", margins.columns, colSums, 1e-6);
    QVERIFY2(marginColumns.isEmpty(), marginColumns.constData());

    // The ranges skip NaN, so one NaN row does not hide the others.
    auto finiteMin = [](const QList<double>& v) {
        double m = std::numeric_limits<double>::infinity();
        for (double x : v)
            if (!std::isnan(x))
                m = std::min(m, x);
        return std::isinf(m) ? kNaN : m;
    };
    auto finiteMax = [](const QList<double>& v) {
        double m = -std::numeric_limits<double>::infinity();
        for (double x : v)
            if (!std::isnan(x))
                m = std::max(m, x);
        return std::isinf(m) ? kNaN : m;
    };
    QVERIFY2(close(s.rowSumMin, finiteMin(rowSums), 1e-6),
             closeMessage("rowSumMin", s.rowSumMin, finiteMin(rowSums)));
    QVERIFY2(close(s.rowSumMax, finiteMax(rowSums), 1e-6),
             closeMessage("rowSumMax", s.rowSumMax, finiteMax(rowSums)));
    QVERIFY2(close(s.colSumMin, finiteMin(colSums), 1e-6),
             closeMessage("colSumMin", s.colSumMin, finiteMin(colSums)));
    QVERIFY2(close(s.colSumMax, finiteMax(colSums), 1e-6),
             closeMessage("colSumMax", s.colSumMax, finiteMax(colSums)));
}

void TestStatistics::entropy_data()
{
    QTest::addColumn<Rows>("weights");
    QTest::addColumn<QStringList>("mask");
    QTest::addColumn<QList<double>>("rowEntropy");    // bits
    QTest::addColumn<QList<double>>("rowEntropyMax"); // log2 of the visible keys
    QTest::addColumn<double>("meanEntropy");

    const double log3 = std::log2(3.0);
    QTest::newRow("uniform over 4 keys = 2 bits")
        << uniform(4) << QStringList() << QList<double>{2, 2, 2, 2} << QList<double>{2, 2, 2, 2}
        << 2.0;
    QTest::newRow("one-hot = 0 bits") << identity(4) << QStringList() << QList<double>{0, 0, 0, 0}
                                      << QList<double>{2, 2, 2, 2} << 0.0;
    QTest::newRow("half and half = 1 bit, zeros count 0")
        << Rows{{0.5, 0.5, 0, 0}, {0, 0.5, 0, 0.5}, {0.5, 0.25, 0.25, 0}, {0.25, 0.25, 0.25, 0.25}}
        << QStringList() << QList<double>{1, 1, 1.5, 2} << QList<double>{2, 2, 2, 2} << 1.375;
    QTest::newRow("causal mask: max is log2(i + 1)")
        << Rows{{1, 0, 0}, {0.5, 0.5, 0}, {kThird, kThird, kThird}} << causal(3)
        << QList<double>{0, 1, log3} << QList<double>{0, 1, log3} << (1 + log3) / 3;
    QTest::newRow("padding mask: pad row of NaN")
        << Rows{{0.5, 0.5, 0}, {0.75, 0.25, 0}, {kNaN, kNaN, kNaN}}
        << QStringList{"..x", "..x", "xxx"}
        << QList<double>{1, -(0.75 * std::log2(0.75) + 0.25 * std::log2(0.25)), kNaN}
        << QList<double>{1, 1, 0} << (1 - (0.75 * std::log2(0.75) + 0.25 * std::log2(0.25))) / 2;
    QTest::newRow("-1e9 fill: fully masked row is uniform, max 0")
        << Rows{{1, 0}, {0.5, 0.5}} << QStringList{".x", "xx"} << QList<double>{0, 1}
        << QList<double>{0, 0} << 0.5;
}

void TestStatistics::entropy()
{
    QFETCH(Rows, weights);
    QFETCH(QStringList, mask);
    QFETCH(QList<double>, rowEntropy);
    QFETCH(QList<double>, rowEntropyMax);
    QFETCH(double, meanEntropy);
    const HeadStatistics s = statisticsOf(weights, mask);
    const QByteArray bits = compareList("rowEntropy", s.rowEntropy, rowEntropy, 1e-6);
    QVERIFY2(bits.isEmpty(), bits.constData());
    const QByteArray max = compareList("rowEntropyMax", s.rowEntropyMax, rowEntropyMax, 1e-12);
    QVERIFY2(max.isEmpty(), max.constData());
    QVERIFY2(close(s.meanEntropy, meanEntropy, 1e-6),
             closeMessage("meanEntropy", s.meanEntropy, meanEntropy));
}

void TestStatistics::rowMax_data()
{
    QTest::addColumn<Rows>("weights");
    QTest::addColumn<QList<double>>("rowMax");
    QTest::addColumn<double>("meanRowMax"); // over rows without NaN

    QTest::newRow("uniform 4x4") << uniform(4) << QList<double>{0.25, 0.25, 0.25, 0.25} << 0.25;
    QTest::newRow("identity 3x3") << identity(3) << QList<double>{1, 1, 1} << 1.0;
    QTest::newRow("mixed") << Rows{{0.1, 0.7, 0.2}, {0.4, 0.4, 0.2}, {0.05, 0.05, 0.9}}
                           << QList<double>{0.7, 0.4, 0.9} << 2.0 / 3.0;
    QTest::newRow("NaN row") << Rows{{kNaN, kNaN}, {0.3, 0.7}} << QList<double>{kNaN, 0.7} << 0.7;
}

void TestStatistics::rowMax()
{
    QFETCH(Rows, weights);
    QFETCH(QList<double>, rowMax);
    QFETCH(double, meanRowMax);
    const HeadStatistics s = statisticsOf(weights);
    const QByteArray max = compareList("rowMax", s.rowMax, rowMax, 1e-7);
    QVERIFY2(max.isEmpty(), max.constData());
    QVERIFY2(close(s.meanRowMax, meanRowMax, 1e-7),
             closeMessage("meanRowMax", s.meanRowMax, meanRowMax));
}

void TestStatistics::jacobian_data()
{
    QTest::addColumn<Rows>("weights");
    QTest::addColumn<QList<double>>("known"); // hand values where they are simple; else empty

    QTest::newRow("one-hot passes no gradient") << identity(3) << QList<double>{0, 0, 0};
    QTest::newRow("two keys 0.5 0.5: [[.25 -.25] [-.25 .25]]")
        << Rows{{0.5, 0.5}, {0.5, 0.5}} << QList<double>{0.5, 0.5};
    QTest::newRow("uniform 4x4") << uniform(4) << QList<double>();
    QTest::newRow("skewed rows") << Rows{{0.7, 0.2, 0.1}, {0.01, 0.98, 0.01}, {0.2, 0.3, 0.5}}
                                 << QList<double>();
    QTest::newRow("five keys") << Rows{{0.05, 0.15, 0.3, 0.25, 0.25},
                                       {0.6, 0.1, 0.1, 0.1, 0.1},
                                       {0.2, 0.2, 0.2, 0.2, 0.2},
                                       {1e-8, 1e-8, 1e-8, 1e-8, 1 - 4e-8},
                                       {0.33, 0.33, 0.33, 0.01, 0}}
                               << QList<double>();
    QTest::newRow("rows not summing to 1")
        << Rows{{0.6, 0, 0}, {0.3, 0.7, 0}, {0.2, 0.3, 0.5}} << QList<double>();
}

void TestStatistics::jacobian()
{
    QFETCH(Rows, weights);
    QFETCH(QList<double>, known);
    const HeadStatistics s = statisticsOf(weights);
    const Matrix p = toMatrix(weights);

    // ‖diag(p) − ppᵀ‖_F, built as a matrix, in double.
    QList<double> direct;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
        const Eigen::VectorXd row = p.row(i).transpose().cast<double>();
        const Eigen::MatrixXd jacobian =
            Eigen::MatrixXd(row.asDiagonal()) - row * row.transpose(); // (T, T)
        direct << jacobian.norm();
    }
    const QByteArray message = compareList("jacobianNorm", s.jacobianNorm, direct, 1e-9);
    QVERIFY2(message.isEmpty(), message.constData());
    if (!known.isEmpty()) {
        const QByteArray hand = compareList("jacobianNorm (by hand)", s.jacobianNorm, known, 1e-9);
        QVERIFY2(hand.isEmpty(), hand.constData());
    }
    double mean = 0;
    for (double v : direct)
        mean += v;
    mean /= static_cast<double>(direct.size());
    QVERIFY2(close(s.meanJacobianNorm, mean, 1e-9),
             closeMessage("meanJacobianNorm", s.meanJacobianNorm, mean));
}

void TestStatistics::wideRowsMatchDirectFigures_data()
{
    // Widths below, at and past the row passes' eight values at a time, and past their
    // blocks of 64, with their last values left over; each with special rows.
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("causalMask");
    for (const int width : {7, 8, 37, 64, 301})
        for (const bool causalMask : {false, true})
            QTest::addRow("%d keys%s", width, causalMask ? ", causal" : "") << width << causalMask;
}

void TestStatistics::wideRowsMatchDirectFigures()
{
    // Every figure of headStatistics against the same figure computed value by value in
    // double here: on the SSE2 path too (tst_statistics_sse2).
    QFETCH(int, width);
    QFETCH(bool, causalMask);
    const Eigen::Index n = width;
    std::mt19937 random(1234 + width);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    Matrix scores(n, n), p(n, n);
    MaskMatrix masked = MaskMatrix::Constant(n, n, false);
    for (Eigen::Index i = 0; i < n; ++i) {
        for (Eigen::Index j = 0; j < n; ++j) {
            scores(i, j) = normal(random);
            masked(i, j) = causalMask && j > i;
        }
        // Row i: a softmax of its logits over its visible keys, masked weights 0.
        const Eigen::ArrayXf logits = scores.row(i).transpose().array() * 0.7f;
        const float max = logits.maxCoeff();
        double total = 0;
        for (Eigen::Index j = 0; j < n; ++j)
            total += masked(i, j) ? 0.0 : std::exp(double(logits(j) - max));
        for (Eigen::Index j = 0; j < n; ++j)
            p(i, j) = masked(i, j) ? 0.0f : float(std::exp(double(logits(j) - max)) / total);
    }
    // Special rows: weights below the smallest normal float and one hot; a NaN; +inf and
    // −inf; every key masked (as a −1e9 fill leaves it: uniform).
    if (n >= 5) {
        p.row(1).setZero();
        p(1, 0) = 1e-40f;
        p(1, 1) = 1.0f;
        p(2, n - 1) = std::numeric_limits<float>::quiet_NaN();
        p(3, 0) = std::numeric_limits<float>::infinity();
        p(3, n - 2) = -std::numeric_limits<float>::infinity();
        masked.row(4).setConstant(true);
        p.row(4).setConstant(1.0f / float(n));
    }
    const float scale = 0.125f, tau = 0.7f;
    const HeadStatistics s = headStatistics(scores, scale, tau, p, masked);

    // The moments of S and of L = S·scale/τ (float), two passes in double.
    for (const bool logits : {false, true}) {
        Eigen::ArrayXd values(n * n);
        for (Eigen::Index k = 0; k < n * n; ++k) {
            const float v = scores.data()[k];
            values(k) = logits ? double((v * scale) / tau) : double(v);
        }
        const double mean = values.mean();
        const double m2 = (values - mean).square().sum();
        const Moments& m = logits ? s.logitMoments : s.scoreMoments;
        const char* what = logits ? "logits" : "scores";
        QCOMPARE(m.n, double(n * n));
        QVERIFY2(close(m.mean, mean, 1e-12 * (1 + std::abs(mean))),
                 closeMessage(what, m.mean, mean));
        QVERIFY2(close(m.m2, m2, 1e-11 * m2), closeMessage(what, m.m2, m2));
        const double std = float(std::sqrt(m2 / double(n * n - 1)));
        QVERIFY2(close(logits ? s.stdLogits : s.stdScores, std, 1e-6 * std),
                 closeMessage(what, logits ? s.stdLogits : s.stdScores, std));
    }

    // The rows' and columns' figures.
    int nans = 0, posInfs = 0, negInfs = 0;
    std::vector<double> colSums(std::size_t(n), 0.0);
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto row = std::size_t(i);
        double sum = 0, sum2 = 0, sum3 = 0, plog2p = 0;
        float max = -std::numeric_limits<float>::infinity();
        int visible = 0;
        bool nan = false;
        for (Eigen::Index j = 0; j < n; ++j) {
            const float x = p(i, j);
            const double v = x;
            nan = nan || std::isnan(x);
            nans += std::isnan(x) ? 1 : 0;
            posInfs += x == std::numeric_limits<float>::infinity() ? 1 : 0;
            negInfs += x == -std::numeric_limits<float>::infinity() ? 1 : 0;
            max = std::max(max, x);
            sum += v;
            sum2 += v * v;
            sum3 += v * v * v;
            if (x > 0)
                plog2p += v * std::log2(v);
            colSums[std::size_t(j)] += v;
            visible += masked(i, j) ? 0 : 1;
        }
        const QByteArray at = QByteArray("row ") + QByteArray::number(qlonglong(i));
        QVERIFY2(close(s.rowSums[row], sum, 1e-12) ||
                     (std::isnan(sum) && std::isnan(s.rowSums[row])),
                 closeMessage(at + " sum", s.rowSums[row], sum));
        QCOMPARE(s.rowEntropyMax[row], visible > 0 ? std::log2(double(visible)) : 0.0);
        if (nan) {
            QVERIFY2(std::isnan(s.rowMax[row]) && std::isnan(s.rowEntropy[row]) &&
                         std::isnan(s.jacobianNorm[row]),
                     at + " has a NaN: its max, entropy and Jacobian are NaN");
            continue;
        }
        QCOMPARE(s.rowMax[row], max);
        if (!std::isfinite(sum))
            continue; // ±inf: figures of no meaning, only counted
        double entropy = -plog2p;
        if (sum > 0)
            entropy = entropy / sum + std::log2(sum);
        QVERIFY2(close(s.rowEntropy[row], entropy, 1e-5),
                 closeMessage(at + " entropy", s.rowEntropy[row], entropy));
        const double jacobian = std::sqrt(std::max(0.0, sum2 - 2.0 * sum3 + sum2 * sum2));
        QVERIFY2(close(s.jacobianNorm[row], jacobian, 1e-9),
                 closeMessage(at + " Jacobian", s.jacobianNorm[row], jacobian));
    }
    QCOMPARE(s.nanCount, nans);
    QCOMPARE(s.posInfCount, n >= 5 ? 1 : 0);
    QCOMPARE(s.negInfCount, n >= 5 ? 1 : 0);
    QCOMPARE(posInfs, s.posInfCount);
    QCOMPARE(negInfs, s.negInfCount);
    for (Eigen::Index j = 0; j < n; ++j) {
        const double expected = colSums[std::size_t(j)], actual = s.colSums[std::size_t(j)];
        QVERIFY2(close(actual, expected, 1e-12) || (std::isnan(expected) && std::isnan(actual)) ||
                     actual == expected,
                 closeMessage(QByteArray("column ") + QByteArray::number(qlonglong(j)), actual,
                              expected));
    }
    if (n >= 5)
        QCOMPARE(s.fullyMaskedRows, std::vector<int>{4});
}

void TestStatistics::classification_data()
{
    QTest::addColumn<Rows>("weights");
    QTest::addColumn<QStringList>("mask");
    QTest::addColumn<int>("choiceRows");
    QTest::addColumn<int>("saturatedRows");
    QTest::addColumn<double>("saturatedShare");
    QTest::addColumn<QList<int>>("uniformRows");
    QTest::addColumn<QList<int>>("nanRows");
    QTest::addColumn<QList<int>>("fullyMaskedRows");
    QTest::addColumn<QList<int>>("notNormalizedRows");
    QTest::addColumn<int>("nanCount");

    QTest::newRow("uniform rows") << uniform(4) << QStringList() << 4 << 0 << 0.0
                                  << QList<int>{0, 1, 2, 3} << QList<int>() << QList<int>()
                                  << QList<int>() << 0;
    QTest::newRow("one-hot rows are saturated")
        << identity(3) << QStringList() << 3 << 3 << 1.0 << QList<int>() << QList<int>()
        << QList<int>() << QList<int>() << 0;
    QTest::newRow("threshold: 0.99 saturated, 0.989 not")
        << Rows{{0.99, 0.01}, {0.011, 0.989}} << QStringList() << 2 << 1 << 0.5 << QList<int>()
        << QList<int>() << QList<int>() << QList<int>() << 0;
    QTest::newRow("causal: row with one visible key is not a choice")
        << Rows{{1, 0, 0}, {0.995, 0.005, 0}, {0.2, 0.3, 0.5}} << causal(3) << 2 << 1 << 0.5
        << QList<int>() << QList<int>() << QList<int>() << QList<int>() << 0;
    QTest::newRow("causal uniform: rows 1 and 2 uniform over their keys")
        << Rows{{1, 0, 0}, {0.5, 0.5, 0}, {kThird, kThird, kThird}} << causal(3) << 2 << 0 << 0.0
        << QList<int>{1, 2} << QList<int>() << QList<int>() << QList<int>() << 0;
    QTest::newRow("NaN row from a fully masked row with -inf")
        << Rows{{0.5, 0.5, 0}, {1, 0, 0}, {kNaN, kNaN, kNaN}} << QStringList{"..x", "..x", "xxx"}
        << 2 << 1 << 0.5 << QList<int>{0} << QList<int>{2} << QList<int>{2} << QList<int>() << 3;
    QTest::newRow("fully masked row with -1e9 is uniform but not a choice")
        << Rows{{0.5, 0.5, 0}, {0.9995, 0.0005, 0}, {kThird, kThird, kThird}}
        << QStringList{"..x", "..x", "xxx"} << 2 << 1 << 0.5 << QList<int>{0} << QList<int>()
        << QList<int>{2} << QList<int>() << 0;
    QTest::newRow("mask after softmax: rows not normalized, not uniform")
        << Rows{{0.25, 0, 0, 0},
                {0.25, 0.25, 0, 0},
                {0.25, 0.25, 0.25, 0},
                {0.25, 0.25, 0.25, 0.25}}
        << causal(4) << 3 << 0 << 0.0 << QList<int>{3} << QList<int>() << QList<int>()
        << QList<int>{0, 1, 2} << 0;
    QTest::newRow("sum tolerance 1e-3: 0.9989 is not 1, 1.0009 is")
        << Rows{{0.5, 0.4989}, {0.5, 0.5009}} << QStringList() << 2 << 0 << 0.0 << QList<int>{1}
        << QList<int>() << QList<int>() << QList<int>{0} << 0;
}

void TestStatistics::classification()
{
    QFETCH(Rows, weights);
    QFETCH(QStringList, mask);
    QFETCH(int, choiceRows);
    QFETCH(int, saturatedRows);
    QFETCH(double, saturatedShare);
    QFETCH(QList<int>, uniformRows);
    QFETCH(QList<int>, nanRows);
    QFETCH(QList<int>, fullyMaskedRows);
    QFETCH(QList<int>, notNormalizedRows);
    QFETCH(int, nanCount);
    const HeadStatistics s = statisticsOf(weights, mask);
    QCOMPARE(s.choiceRows, choiceRows);
    QCOMPARE(s.saturatedRows, saturatedRows);
    QVERIFY2(close(s.saturatedShare, saturatedShare, 1e-12),
             closeMessage("saturatedShare", s.saturatedShare, saturatedShare));
    QCOMPARE(toList(s.uniformRows), uniformRows);
    QCOMPARE(toList(s.nanRows), nanRows);
    QCOMPARE(toList(s.fullyMaskedRows), fullyMaskedRows);
    QCOMPARE(toList(s.notNormalizedRows), notNormalizedRows);
    QCOMPARE(s.nanCount, nanCount);
    QCOMPARE(s.posInfCount, 0);
    QCOMPARE(s.negInfCount, 0);
}

void TestStatistics::headStd()
{
    // S = [[1 2] [3 4]]: mean 2.5, Σ(s − mean)² = 5, std = √(5/3); L = S·0.5/0.25 = 2S.
    const Matrix scores = toMatrix(Rows{{1, 2}, {3, 4}});
    const HeadStatistics s =
        headStatistics(scores, 0.5f, 0.25f, toMatrix(uniform(2)), toMask({}, 2));
    const double expected = std::sqrt(5.0 / 3.0);
    QVERIFY2(close(s.stdScores, expected, 1e-6), closeMessage("stdScores", s.stdScores, expected));
    QVERIFY2(close(s.stdLogits, 2 * expected, 1e-6),
             closeMessage("stdLogits", s.stdLogits, 2 * expected));
}

void TestStatistics::unbiasedStd_data()
{
    QTest::addColumn<QList<Rows>>("matrices");
    QTest::addColumn<float>("scale");
    QTest::addColumn<float>("tau");
    QTest::addColumn<double>("expected");

    const double std1234 = std::sqrt(5.0 / 3.0); // Σ(x − 2.5)² = 5, N − 1 = 3
    QTest::newRow("1 2 3 4") << QList<Rows>{Rows{{1, 2}, {3, 4}}} << 1.0f << 1.0f << std1234;
    QTest::newRow("1 2 3 4 over four matrices")
        << QList<Rows>{Rows{{1}}, Rows{{2}}, Rows{{3}}, Rows{{4}}} << 1.0f << 1.0f << std1234;
    QTest::newRow("0 2: N-1, not N")
        << QList<Rows>{Rows{{0}}, Rows{{2}}} << 1.0f << 1.0f << std::sqrt(2.0);
    QTest::newRow("scale 1/4") << QList<Rows>{Rows{{1, 2}, {3, 4}}} << 0.25f << 1.0f << std1234 / 4;
    QTest::newRow("tau 0.5") << QList<Rows>{Rows{{1, 2}, {3, 4}}} << 1.0f << 0.5f << std1234 * 2;
    QTest::newRow("scale 1/8 tau 2")
        << QList<Rows>{Rows{{1, 2}, {3, 4}}} << 0.125f << 2.0f << std1234 / 16;
    QTest::newRow("constant") << QList<Rows>{Rows{{7, 7}, {7, 7}}} << 1.0f << 1.0f << 0.0;
    QTest::newRow("large offset") << QList<Rows>{Rows{{10001, 10002, 10003},
                                                      {10001, 10002, 10003},
                                                      {10001, 10002, 10003}}}
                                  << 1.0f << 1.0f << std::sqrt(6.0 / 8.0);
    QTest::newRow("one element is NaN, as in torch")
        << QList<Rows>{Rows{{3}}} << 1.0f << 1.0f << kNaN;
    QTest::newRow("no elements") << QList<Rows>() << 1.0f << 1.0f << kNaN;
}

void TestStatistics::unbiasedStd()
{
    QFETCH(QList<Rows>, matrices);
    QFETCH(float, scale);
    QFETCH(float, tau);
    QFETCH(double, expected);
    std::vector<Matrix> m;
    for (const Rows& rows : matrices)
        m.push_back(toMatrix(rows));
    const double actual = attn::unbiasedStd(m, scale, tau);
    // The result is a float, like torch.std of a float32 tensor.
    QVERIFY2(close(actual, expected, 1e-7 * std::max(1.0, expected)),
             closeMessage("unbiasedStd", actual, expected));
}

void TestStatistics::summarizeHeads()
{
    // Two heads of one sequence: the whole-tensor figures pool the rows, not the heads.
    Statistics stats;
    stats.heads.push_back(statisticsOf(identity(2))); // 2 saturated
    stats.heads.push_back(statisticsOf(Rows{{0.5, 0.5}, {kNaN, kNaN}}, {"..", "xx"}));
    stats.heads[1].head = 1;
    HeadStack scores(1, 2, 2, 2);
    scores.at(0, 0) = toMatrix(Rows{{1, 2}, {3, 4}});
    scores.at(0, 1) = toMatrix(Rows{{5, 6}, {7, 8}});
    for (int h = 0; h < 2; ++h) {
        stats.heads[std::size_t(h)].scoreMoments = attn::moments(scores.at(0, h));
        stats.heads[std::size_t(h)].logitMoments = attn::moments(scores.at(0, h), 0.5f, 1.0f);
    }
    summarize(stats);

    QCOMPARE(stats.rows, 4);
    QCOMPARE(stats.choiceRows, 3);
    QCOMPARE(stats.saturatedRows, 2);
    QVERIFY2(close(stats.saturatedShare, 2.0 / 3.0, 1e-12),
             closeMessage("saturatedShare", stats.saturatedShare, 2.0 / 3.0));
    QCOMPARE(stats.nanCount, 2);
    QCOMPARE(stats.notNormalizedRows, 0); // the NaN row is reported as NaN, not as a sum
    QCOMPARE(stats.uniformRows, 1);
    QVERIFY2(close(stats.rowSumMin, 1, 1e-12) && close(stats.rowSumMax, 1, 1e-12),
             "row sums skip the NaN row");
    // 1…8: mean 4.5, Σ(x − 4.5)² = 42, std = √(42/7) = √6.
    QVERIFY2(close(stats.stdScores, std::sqrt(6.0), 1e-6),
             closeMessage("stdScores", stats.stdScores, std::sqrt(6.0)));
    QVERIFY2(close(stats.stdLogits, std::sqrt(6.0) / 2, 1e-6),
             closeMessage("stdLogits", stats.stdLogits, std::sqrt(6.0) / 2));
    QVERIFY2(close(stats.meanRowMax, (1 + 1 + 0.5) / 3, 1e-7),
             closeMessage("meanRowMax", stats.meanRowMax, 2.5 / 3));
}

void TestStatistics::articleStd()
{
    // The seed article (PyTorch 1.13): std(S) = 1.1888, std(S/4) = 0.2972.
    QVERIFY2(findPreset("article"), "there is no preset \"article\"");
    AttentionEngine engine;
    const Result result = engine.compute(presetRequest("article"));
    const Statistics& stats = *result.stats;
    QCOMPARE(QString::number(stats.stdScores, 'f', 4), QString("1.1888"));
    QCOMPARE(QString::number(stats.stdLogits, 'f', 4), QString("0.2972"));
    QCOMPARE(result.dK(), 16);

    // The same through unbiasedStd over every (b, h) score matrix.
    const double direct = attn::unbiasedStd(result.scores->items());
    QVERIFY2(close(direct, stats.stdScores, 0),
             closeMessage("unbiasedStd(S)", direct, stats.stdScores));
    const double scaled = attn::unbiasedStd(result.scores->items(), 0.25f, 1.0f);
    QVERIFY2(close(scaled, stats.stdLogits, 0),
             closeMessage("unbiasedStd(S/4)", scaled, stats.stdLogits));
    QVERIFY(stats.warnings.empty());
}

QTEST_GUILESS_MAIN(TestStatistics)
void TestStatistics::meanOverHeadsInBands_data()
{
    QTest::addColumn<int>("T");
    QTest::newRow("one band (small)") << 37;
    QTest::newRow("bands on every core") << 300; // 90 000 cells
}

// The mean is summed over the heads in order and divided, band by band of rows: the same
// bits as the plain formula, NaN kept.
void TestStatistics::meanOverHeadsInBands()
{
    QFETCH(int, T);
    HeadStack stack(2, 5, T, T);
    for (Matrix& m : stack.items())
        m = Matrix::Random(T, T).cwiseAbs();
    stack.at(1, 3)(T / 2, 7) = std::numeric_limits<float>::quiet_NaN();
    for (int b = 0; b < 2; ++b) {
        Matrix expected = stack.at(b, 0);
        for (int h = 1; h < 5; ++h)
            expected += stack.at(b, h);
        expected /= 5.0f;
        const Matrix mean = meanOverHeads(stack, b);
        QCOMPARE(mean.rows(), Eigen::Index(T));
        for (Eigen::Index k = 0; k < mean.size(); ++k) {
            const float x = mean.data()[k], y = expected.data()[k];
            QVERIFY2(x == y || (std::isnan(x) && std::isnan(y)), qPrintable(QString::number(k)));
        }
        QCOMPARE(std::isnan(mean(T / 2, 7)), b == 1);
        // The grid's one pass: the same mean, and each head's finite maximum over every
        // band, a peak in the last band and an infinity passed over.
        const HeadsOverview overview = overviewOfHeads(stack, b);
        QVERIFY(overview.mean.size() == mean.size());
        QCOMPARE(std::memcmp(overview.mean.data(), mean.data(), sizeof(float) * mean.size()), 0);
        QCOMPARE(overview.maxima, attn::finiteMaxima(stack, b));
    }
    stack.at(0, 2)(T - 1, T - 1) = 7.5f;
    stack.at(0, 4)(0, 0) = std::numeric_limits<float>::infinity();
    const HeadsOverview overview = overviewOfHeads(stack, 0);
    QCOMPARE(overview.maxima[2], 7.5f);
    QVERIFY(overview.maxima[4] < 1.0f);
    QCOMPARE(overview.maxima, attn::finiteMaxima(stack, 0));
}

// The colour scale's top: the largest finite weight of each head; NaN and ±inf are passed
// over, wherever they sit (also in the tail after the last whole block of eight).
void TestStatistics::finiteMaxima()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    HeadStack stack(2, 4, 13, 11); // 143 cells: 17 blocks of eight and 7 more
    for (Matrix& m : stack.items())
        m = Matrix::Random(13, 11).cwiseAbs() * 0.5f;
    stack.at(0, 0)(2, 3) = 0.9f;   // inside a block
    stack.at(0, 1)(12, 10) = 0.8f; // the very last cell, in the tail
    stack.at(0, 1)(0, 0) = inf;
    stack.at(0, 2)(5, 5) = nan;
    stack.at(0, 2)(6, 6) = 0.95f;
    stack.at(0, 3).setConstant(nan); // nothing finite: 0
    stack.at(1, 0)(1, 1) = -inf;
    const std::vector<float> first = attn::finiteMaxima(stack, 0);
    QCOMPARE(first.size(), std::size_t(4));
    QCOMPARE(first[0], 0.9f);
    QCOMPARE(first[1], 0.8f);
    QCOMPARE(first[2], 0.95f);
    QCOMPARE(first[3], 0.0f);
    const std::vector<float> second = attn::finiteMaxima(stack, 1);
    for (int h = 0; h < 4; ++h) {
        float expected = 0;
        const Matrix& m = stack.at(1, h);
        for (Eigen::Index k = 0; k < m.size(); ++k)
            if (std::isfinite(m.data()[k]))
                expected = std::max(expected, m.data()[k]);
        QCOMPARE(second[std::size_t(h)], expected);
    }
}

#include "tst_statistics.moc"
