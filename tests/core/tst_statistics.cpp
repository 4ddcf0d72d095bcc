// The figures beside the heatmaps and the warnings drawn from them: headStatistics on
// small matrices with answers worked out by hand, unbiasedStd against a hand
// computation and against PyTorch, and deriveWarnings through the whole engine.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H; P a (T, T) weight
// matrix, row i the query, column j the key; mask rows are written "..x", where x
// marks a key hidden from that query.
#include "engine.h"
#include "presets.h"
#include "statistics.h"
#include "warnings.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace attn;

using Rows = QList<QList<double>>;
Q_DECLARE_METATYPE(attn::Request)

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kThird = 1.0 / 3.0;

// (T, T) from nested lists.
Matrix toMatrix(const Rows& rows)
{
    const auto n = static_cast<Eigen::Index>(rows.size());
    Matrix m(n, n);
    for (Eigen::Index i = 0; i < n; ++i) // a short row reads as NaN, and fails its test
        for (Eigen::Index j = 0; j < n; ++j)
            m(i, j) = static_cast<float>(rows[i].value(j, kNaN));
    return m;
}

// (T, T) mask from "..x" rows; no rows = nothing masked.
MaskMatrix toMask(const QStringList& rows, Eigen::Index n)
{
    MaskMatrix m = MaskMatrix::Constant(n, n, false);
    for (Eigen::Index i = 0; i < std::min(n, static_cast<Eigen::Index>(rows.size())); ++i)
        for (Eigen::Index j = 0; j < std::min(n, static_cast<Eigen::Index>(rows[i].size())); ++j)
            m(i, j) = rows[i][j] == u'x';
    return m;
}

Rows uniform(int n)
{
    return Rows(n, QList<double>(n, 1.0 / n));
}

Rows identity(int n)
{
    Rows rows(n, QList<double>(n, 0.0));
    for (int i = 0; i < n; ++i)
        rows[i][i] = 1.0;
    return rows;
}

QStringList causal(int n)
{
    QStringList rows;
    for (int i = 0; i < n; ++i)
        rows << QString(i + 1, u'.') + QString(n - i - 1, u'x');
    return rows;
}

HeadStatistics statisticsOf(const Rows& weights, const QStringList& mask = {})
{
    const Matrix p = toMatrix(weights);
    const Matrix scores = Matrix::Zero(p.rows(), p.cols());
    return headStatistics(scores, 1.0f, 1.0f, p, toMask(mask, p.rows()));
}

bool close(double actual, double expected, double tolerance)
{
    if (std::isnan(expected))
        return std::isnan(actual);
    return std::abs(actual - expected) <= tolerance;
}

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

QByteArray closeMessage(const char* what, double actual, double expected)
{
    return QByteArray(what) + ": got " + QByteArray::number(actual, 'g', 9) + ", expected " +
           QByteArray::number(expected, 'g', 9) + ", difference " +
           QByteArray::number(std::abs(actual - expected), 'g', 3);
}

QList<int> toList(const std::vector<int>& values)
{
    return QList<int>(values.begin(), values.end());
}

QString kindName(WarningKind kind)
{
    switch (kind) {
    case WarningKind::RowsNotNormalizedQueries:
        return "RowsNotNormalizedQueries";
    case WarningKind::RowsNotNormalizedBatch:
        return "RowsNotNormalizedBatch";
    case WarningKind::RowsNotNormalizedMask:
        return "RowsNotNormalizedMask";
    case WarningKind::SaturatedNoScaling:
        return "SaturatedNoScaling";
    case WarningKind::SaturatedLowTemperature:
        return "SaturatedLowTemperature";
    case WarningKind::Saturated:
        return "Saturated";
    case WarningKind::PeakedNoScaling:
        return "PeakedNoScaling";
    case WarningKind::PeakedLowTemperature:
        return "PeakedLowTemperature";
    case WarningKind::Peaked:
        return "Peaked";
    case WarningKind::NanRows:
        return "NanRows";
    case WarningKind::NanColumns:
        return "NanColumns";
    case WarningKind::NanPositions:
        return "NanPositions";
    case WarningKind::FullyMaskedUniform:
        return "FullyMaskedUniform";
    case WarningKind::UniformRows:
        return "UniformRows";
    case WarningKind::HeadSplitView:
        return "HeadSplitView";
    }
    return "?";
}

// The preset's request; one without text when there is no such preset (the test says so).
Request presetRequest(const char* name)
{
    const Preset* preset = findPreset(name);
    return preset ? preset->request : Request{};
}

constexpr const char* kSentence = "The cat sat on the mat because it was tired .";

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
    void warnings_data();
    void warnings();
    void scalingLesson_data();
    void scalingLesson();
    void presetsAreNotPeaked_data();
    void presetsAreNotPeaked();
    void warningsFromStatistics_data();
    void warningsFromStatistics();
    void fillPlaceholders_data();
    void fillPlaceholders();
    void warningText_data();
    void warningText();
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

void TestStatistics::warnings_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<QStringList>("kinds");    // in the order derived
    QTest::addColumn<QString>("lastArgument"); // of the first warning; empty: not checked
    QTest::addColumn<bool>("nan");             // whether any weight is NaN

    const Request textbook{kSentence, Config{}, {}, {}};
    QTest::newRow("textbook defaults: no warnings") << textbook << QStringList() << "" << false;

    QTest::newRow("axis=queries") << presetRequest("wrong-axis-queries")
                                  << QStringList{"RowsNotNormalizedQueries"} << "" << false;
    QTest::newRow("axis=batch with 2 lines")
        << presetRequest("wrong-axis-batch") << QStringList{"RowsNotNormalizedBatch"} << ""
        << false;
    QTest::newRow("causal mask after softmax")
        << presetRequest("mask-after-softmax") << QStringList{"RowsNotNormalizedMask"} << ""
        << false;
    QTest::newRow("causal mask before softmax")
        << presetRequest("causal-decoder") << QStringList() << "" << false;
    QTest::newRow("preset saturation: C=512 without scaling")
        << presetRequest("saturation") << QStringList{"SaturatedNoScaling"} << "" << false;

    // The √d_k lesson at the tutorial's d_model 512: peaked (largest weight 0.78, entropy
    // 0.90 of 3.46 bits), though only 7 % of the rows pass 0.99; the textbook at that size
    // spreads its weight.
    Request large{kSentence, Config{}, {}, {}};
    large.config.dModel = 512;
    large.config.heads = 4;
    QTest::newRow("C=512, H=4, textbook: no warnings") << large << QStringList() << "" << false;
    large.config.scale = ScaleMode::None;
    QTest::newRow("C=512, H=4 without scaling: peaked, √128 = 11.3")
        << large << QStringList{"PeakedNoScaling"} << "11.3" << false;
    large.config.scale = ScaleMode::SqrtDk;
    large.config.temperature = 0.1f;
    QTest::newRow("C=512, H=4 at tau=0.1: peaked")
        << large << QStringList{"PeakedLowTemperature"} << "0.10" << false;

    Request cold = presetRequest("article");
    cold.config.temperature = 0.05f;
    QTest::newRow("article at tau=0.05")
        << cold << QStringList{"SaturatedLowTemperature"} << "0.05" << false;

    // Line 1 is "d <pad> <pad>". The padding mask hides pad keys (a key_padding_mask):
    // every query still sees a real key, so no row is fully masked on the keys axis.
    Request padded{"a b c\nd", Config{}, {}, {}};
    padded.config.maskFill = MaskFill::NegInf;
    QTest::newRow("padding mask, fill neg-inf, axis=keys: no NaN")
        << padded << QStringList() << "" << false;
    padded.config.paddingMask = false;
    QTest::newRow("padding mask off, fill neg-inf") << padded << QStringList() << "" << false;
    padded.config.paddingMask = true;
    padded.config.axis = SoftmaxAxis::Queries;
    QTest::newRow("padding mask, fill neg-inf, axis=queries: pad columns are NaN")
        << padded << QStringList{"NanColumns", "RowsNotNormalizedQueries"} << "[1, 1], [1, 2]"
        << true;
    padded.config.maskFill = MaskFill::NegBillion;
    QTest::newRow("padding mask, fill -1e9, axis=queries: no NaN")
        << padded << QStringList{"RowsNotNormalizedQueries"} << "" << false;
    // Causal over the batch: position (i, j > i) is masked in every sequence.
    padded.config.axis = SoftmaxAxis::Batch;
    padded.config.mask = MaskKind::Causal;
    padded.config.maskFill = MaskFill::NegInf;
    QTest::newRow("causal, fill neg-inf, axis=batch: NaN positions")
        << padded << QStringList{"NanPositions", "RowsNotNormalizedBatch", "Saturated"}
        << "[0, 0], [0, 1], [1, 0], [1, 1]" << true;

    QTest::newRow("head split view, H=4")
        << presetRequest("head-split-bug") << QStringList{"HeadSplitView"} << "" << false;
    Request oneHead = presetRequest("head-split-bug");
    oneHead.config.heads = 1;
    QTest::newRow("head split view, H=1: same as transpose")
        << oneHead << QStringList() << "" << false;
}

void TestStatistics::warnings()
{
    QFETCH(Request, request);
    QFETCH(QStringList, kinds);
    QFETCH(QString, lastArgument);
    QFETCH(bool, nan);
    QVERIFY2(!request.text.empty(), "the preset of this row does not exist");
    AttentionEngine engine;
    const Result result = engine.compute(request);
    const std::vector<Warning>& warnings = result.stats->warnings;

    QStringList actual;
    for (const Warning& w : warnings)
        actual << kindName(w.kind);
    QCOMPARE(actual, kinds);
    if (!lastArgument.isEmpty()) {
        QVERIFY(!warnings.front().arguments.empty());
        QCOMPARE(QString::fromStdString(warnings.front().arguments.back()), lastArgument);
    }
    QCOMPARE(result.stats->nanCount > 0, nan);
    // The derivation is a pure function of the statistics and the switches.
    QVERIFY(deriveWarnings(*result.stats, request.config) == warnings);
}

void TestStatistics::scalingLesson_data()
{
    // Scaling off at d_k 64 to 128 warns (peaked or saturated); the textbook formula at the
    // same size, the same sentence and seed does not warn at all.
    QTest::addColumn<Request>("request");
    const char* sentences[] = {kSentence, "小猫坐在垫子上，因为它很累。",
                               "the animal didn't cross the street because it was too tired"};
    for (const char* sentence : sentences)
        for (auto [dModel, heads] : {std::pair{128, 2}, {256, 4}, {512, 4}, {1024, 8}})
            for (std::uint64_t seed : {0, 42}) {
                Request r{sentence, Config{}, {}, {}};
                r.config.dModel = dModel;
                r.config.heads = heads;
                r.config.seed = seed;
                QTest::addRow("%s, C=%d, d_k=%d, seed %d", sentence, dModel, dModel / heads,
                              int(seed))
                    << r;
            }
}

void TestStatistics::scalingLesson()
{
    QFETCH(Request, request);
    AttentionEngine engine;
    const Result textbook = engine.compute(request);
    for (const Warning& w : textbook.stats->warnings)
        QFAIL(attn::warningText(w).c_str());

    request.config.scale = ScaleMode::None;
    const Result unscaled = engine.compute(request);
    const std::vector<Warning>& warnings = unscaled.stats->warnings;
    QVERIFY2(!warnings.empty(), "no warning without scaling");
    QVERIFY2(warnings.front().kind == WarningKind::PeakedNoScaling ||
                 warnings.front().kind == WarningKind::SaturatedNoScaling,
             attn::warningText(warnings.front()).c_str());
}

void TestStatistics::presetsAreNotPeaked_data()
{
    // Every preset and the window's first sentences: only the saturation preset, which
    // turns scaling off at C=512, may call its softmax peaked or saturated.
    QTest::addColumn<Request>("request");
    QTest::addColumn<bool>("unscaled");
    for (const Preset& preset : presets())
        QTest::newRow(std::string(preset.name).c_str())
            << preset.request << (preset.request.config.scale == ScaleMode::None);
    for (const char* sentence :
         {"The cat sat on the mat because it was tired.", "小猫坐在垫子上，因为它很累。"})
        QTest::addRow("the window's defaults: %s", sentence)
            << Request{sentence, Config{}, {}, {}} << false;
}

void TestStatistics::presetsAreNotPeaked()
{
    QFETCH(Request, request);
    QFETCH(bool, unscaled);
    AttentionEngine engine;
    const Result result = engine.compute(request);
    for (const Warning& w : result.stats->warnings) {
        const bool sharp = w.kind == WarningKind::PeakedNoScaling ||
                           w.kind == WarningKind::PeakedLowTemperature ||
                           w.kind == WarningKind::Peaked || w.kind == WarningKind::Saturated ||
                           w.kind == WarningKind::SaturatedLowTemperature ||
                           w.kind == WarningKind::SaturatedNoScaling;
        QVERIFY2(!sharp || unscaled, attn::warningText(w).c_str());
    }
}

void TestStatistics::warningsFromStatistics_data()
{
    // Heads built by hand, for the warnings the engine cannot reach since it masks only
    // pad keys: a fully masked row on the keys axis.
    QTest::addColumn<QList<Rows>>("weights"); // one (T, T) matrix per head
    QTest::addColumn<QList<QStringList>>("masks");
    QTest::addColumn<QList<int>>("batches"); // the sequence of each head
    QTest::addColumn<QString>("fill");
    QTest::addColumn<QStringList>("kinds");
    QTest::addColumn<QString>("argument"); // of the first warning; empty: none

    const Rows spread{{0.6, 0.3, 0.1}, {0.2, 0.5, 0.3}, {0.1, 0.3, 0.6}};
    const QStringList open{"...", "...", "..."};
    const QStringList lastRowsMasked{"...", "xxx", "xxx"};
    const Rows nanRows{{0.7, 0.2, 0.1}, {kNaN, kNaN, kNaN}, {kNaN, kNaN, kNaN}};
    const Rows uniformRows{{0.7, 0.2, 0.1}, {kThird, kThird, kThird}, {kThird, kThird, kThird}};

    QTest::newRow("nothing wrong") << QList<Rows>{spread} << QList<QStringList>{open}
                                   << QList<int>{0} << "neg-inf" << QStringList() << "";
    QTest::newRow("NaN rows of sequence 1")
        << QList<Rows>{spread, nanRows} << QList<QStringList>{open, lastRowsMasked}
        << QList<int>{0, 1} << "neg-inf" << QStringList{"NanRows"} << "[1, 1], [1, 2]";
    QTest::newRow("NaN rows of one sequence: no sequence numbers")
        << QList<Rows>{nanRows} << QList<QStringList>{lastRowsMasked} << QList<int>{0} << "neg-inf"
        << QStringList{"NanRows"} << "1, 2";
    QTest::newRow("NaN rows in two heads: each row named once")
        << QList<Rows>{nanRows, nanRows} << QList<QStringList>{lastRowsMasked, lastRowsMasked}
        << QList<int>{0, 0} << "neg-inf" << QStringList{"NanRows"} << "1, 2";
    QTest::newRow("fully masked rows with -1e9 are uniform")
        << QList<Rows>{spread, uniformRows} << QList<QStringList>{open, lastRowsMasked}
        << QList<int>{0, 1} << "-1e9" << QStringList{"FullyMaskedUniform"} << "[1, 1], [1, 2]";

    Rows eight(8, QList<double>(8, kNaN));
    QTest::newRow("more than six rows: the rest counted")
        << QList<Rows>{eight} << QList<QStringList>{QStringList(8, QString(8, u'x'))}
        << QList<int>{0} << "neg-inf" << QStringList{"NanRows"} << "0, 1, 2, 3, 4, 5, … (8)";
}

void TestStatistics::warningsFromStatistics()
{
    QFETCH(QList<Rows>, weights);
    QFETCH(QList<QStringList>, masks);
    QFETCH(QList<int>, batches);
    QFETCH(QString, fill);
    QFETCH(QStringList, kinds);
    QFETCH(QString, argument);

    Statistics stats;
    int heads = 0;
    for (qsizetype k = 0; k < weights.size(); ++k) {
        stats.heads.push_back(statisticsOf(weights[k], masks[k]));
        stats.heads.back().batch = batches[k];
        int head = 0; // heads before this one in the same sequence
        for (qsizetype e = 0; e < k; ++e)
            head += batches[e] == batches[k] ? 1 : 0;
        stats.heads.back().head = head;
        heads = std::max(heads, stats.heads.back().head + 1);
    }
    summarize(stats);

    Config config;
    config.heads = heads;
    config.maskFill = *fromString<MaskFill>(fill.toStdString());
    const std::vector<Warning> warnings = deriveWarnings(stats, config);
    QStringList actual;
    for (const Warning& w : warnings)
        actual << kindName(w.kind);
    QCOMPARE(actual, kinds);
    if (!argument.isEmpty())
        QCOMPARE(QString::fromStdString(warnings.front().arguments.front()), argument);
}

void TestStatistics::fillPlaceholders_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");

    const QStringList ten{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
    QTest::newRow("%1") << "row %1 is NaN" << QStringList{"3"} << "row 3 is NaN";
    QTest::newRow("%1% (percent sign after)")
        << "%1% of rows" << QStringList{"27"} << "27% of rows";
    QTest::newRow("%1 and %2") << "from %1 to %2" << QStringList{"0.5", "1.3"} << "from 0.5 to 1.3";
    QTest::newRow("%2 before %1") << "%2 then %1" << QStringList{"a", "b"} << "b then a";
    QTest::newRow("%1 twice") << "%1 and %1" << QStringList{"x"} << "x and x";
    QTest::newRow("%10 with ten arguments") << "%10 %1" << ten << "j a";
    QTest::newRow("%1..%10 adjacent") << "%1%2%3%4%5%6%7%8%9%10" << ten << "abcdefghij";
    QTest::newRow("%10 with one argument is %1 then 0") << "%10" << QStringList{"x"} << "x0";
    QTest::newRow("marker without argument stays") << "%1 %2" << QStringList{"x"} << "x %2";
    QTest::newRow("no arguments") << "100% sure, %1" << QStringList() << "100% sure, %1";
    QTest::newRow("%0 is not a marker") << "%0 %1" << QStringList{"x"} << "%0 x";
    QTest::newRow("argument holding %1 is not filled again")
        << "%1 %2" << QStringList{"x", "%1"} << "x %1";
    QTest::newRow("argument holding %2 is not filled again")
        << "%1 %2" << QStringList{"%2", "y"} << "%2 y";
    QTest::newRow("trailing %") << "50%" << QStringList{"x"} << "50%";
    QTest::newRow("UTF-8 around markers")
        << "τ = %1 ≥ 0.99" << QStringList{"0.05"} << "τ = 0.05 ≥ 0.99";
}

void TestStatistics::fillPlaceholders()
{
    QFETCH(QString, pattern);
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    std::vector<std::string> args;
    for (const QString& a : arguments)
        args.push_back(a.toStdString());
    QCOMPARE(QString::fromStdString(attn::fillPlaceholders(pattern.toStdString(), args)), expected);
}

void TestStatistics::warningText_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QStringList>("arguments"); // as deriveWarnings gives them
    QTest::addColumn<QString>("contains");

    auto row = [](WarningKind kind, QStringList arguments, QString contains) {
        QTest::newRow(qPrintable(kindName(kind)))
            << static_cast<int>(kind) << arguments << contains;
    };
    row(WarningKind::RowsNotNormalizedQueries, {"0.3557", "1.6504"},
        "range from 0.3557 to 1.6504): the softmax ran over the queries (dim=-2)");
    row(WarningKind::RowsNotNormalizedBatch, {"2.0587", "4.9413"}, "over the batch (dim=0)");
    row(WarningKind::RowsNotNormalizedMask, {"0.0992", "1.0000"}, "applied after the softmax");
    row(WarningKind::SaturatedNoScaling, {"27"}, "27% of rows are saturated");
    row(WarningKind::SaturatedLowTemperature, {"38", "0.05"}, "τ = 0.05 sharpens");
    row(WarningKind::Saturated, {"100"}, "100% of rows are saturated");
    row(WarningKind::PeakedNoScaling, {"0.78", "0.90", "3.46", "11.3"},
        "largest weight of a row is 0.78 on average and its entropy 0.90 of at most 3.46 bits. "
        "Without √d_k scaling the logits spread √d_k = 11.3 times wider");
    row(WarningKind::PeakedLowTemperature, {"0.71", "1.20", "3.46", "0.10"}, "τ = 0.10 sharpens");
    row(WarningKind::Peaked, {"0.66", "0.80", "2.00"}, "entropy 0.80 of at most 2.00 bits");
    row(WarningKind::NanRows, {"[1, 1], [1, 2]"}, "masked with -inf (row [1, 1], [1, 2])");
    row(WarningKind::NanColumns, {"4"}, "(column 4)");
    row(WarningKind::NanPositions, {"2"}, "every sequence (row 2)");
    row(WarningKind::FullyMaskedUniform, {"3"}, "every key is masked (row 3)");
    row(WarningKind::UniformRows, {"50"}, "50% of rows are uniform");
    row(WarningKind::HeadSplitView, {}, "view(B, H, T, d_k)");
}

void TestStatistics::warningText()
{
    QFETCH(int, kind);
    QFETCH(QStringList, arguments);
    QFETCH(QString, contains);
    Warning warning{static_cast<WarningKind>(kind), {}};
    for (const QString& a : arguments)
        warning.arguments.push_back(a.toStdString());
    const QString text = QString::fromStdString(attn::warningText(warning));
    QVERIFY2(text.contains(contains), qPrintable(text));
    // Every marker is filled: no "%1" … "%9" is left for the reader.
    for (int n = 1; n <= 9; ++n)
        QVERIFY2(!text.contains(QStringLiteral("%") + QString::number(n)), qPrintable(text));
    QVERIFY(!QString::fromUtf8(warningTemplate(warning.kind)).isEmpty());
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
