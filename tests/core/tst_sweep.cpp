// The d_k sweep of exercise 1: the same text at d_k = 16 … 1024 (H = 1, d_model = d_k),
// with and without the 1/√d_k scaling. The scaling divides the spread of the logits by
// exactly √d_k; without it the spread grows like √d_k and the softmax saturates, which
// shrinks the gradient that flows back through it.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H; S = Q_h K_hᵀ.
#include "formats/report.h"
#include "lab/presets.h"
#include "lab/sweep.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <map>

using namespace attn;

namespace {

constexpr int kFrom = 16;
constexpr int kTo = 1024;

// A sentence of eleven tokens with the default switches (table embedding, sinusoidal
// positions), and the tutorial's own program (torch embedding, B = 2, T = 4).
Request sentence()
{
    Request request;
    request.text = "The cat sat on the mat because it was tired .";
    return request;
}

Request article()
{
    return findPreset("article")->request;
}

// The sentence with Gemma 2's soft-cap at c = kCap: the logits' std after the cap stays
// below c however large d_k grows.
constexpr float kCap = 5;

Request capped()
{
    Request request = sentence();
    request.config.softcap = kCap;
    return request;
}

// Every switch of today's models on at once (the sentence, causal).
Request todays()
{
    Request request = sentence();
    Config& c = request.config;
    c.heads = 4;
    c.kvHeads = 2;
    c.qkNorm = true;
    c.positional = Positional::Rope;
    c.ropeTheta = 500000;
    c.alibi = true;
    c.softcap = 30;
    c.mask = MaskKind::Causal;
    c.window = 4;
    c.sink = 0.5f;
    return request;
}

const std::vector<SweepPoint>& sweepOf(const QString& name)
{
    static std::map<QString, std::vector<SweepPoint>> cache;
    auto found = cache.find(name);
    if (found == cache.end())
        found = cache
                    .emplace(name, sweepDk(name == u"article"  ? article()
                                           : name == u"capped" ? capped()
                                                               : sentence(),
                                           kFrom, kTo))
                    .first;
    return found->second;
}

const SweepPoint& pointAt(const std::vector<SweepPoint>& points, int dK, bool scaled)
{
    for (const SweepPoint& p : points)
        if (p.dK == dK && p.scaled == scaled)
            return p;
    qFatal("no point at d_k = %d", dK);
}

} // namespace

class TestSweep : public QObject {
    Q_OBJECT

private slots:
    void values_data();
    void values();
    void invalidRanges_data();
    void invalidRanges();
    void pointsInOrder();
    void articleFirstPoint();
    void scalingDividesBySqrtDk_data();
    void scalingDividesBySqrtDk();
    void unscaledGrowsLikeSqrtDk_data();
    void unscaledGrowsLikeSqrtDk();
    void saturationAndGradient_data();
    void saturationAndGradient();
    void progressAndCancel();
    void json();
    void text();
    void todaysSwitchesPassThrough();
    void capKeepsTheStdBelowC();
    void jsonOfACappedSweep();
    void textOfACappedSweep();
    void textKeepsColumnsInAnyLanguage_data();
    void textKeepsColumnsInAnyLanguage();
    void terminalColumnsOfText_data();
    void terminalColumnsOfText();
    void wrapColumnsOfText_data();
    void wrapColumnsOfText();
};

void TestSweep::values_data()
{
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::addColumn<QList<int>>("expected");
    QTest::newRow("16 … 1024") << 16 << 1024 << QList<int>{16, 32, 64, 128, 256, 512, 1024};
    QTest::newRow("16 … 1000 stops at 512") << 16 << 1000 << QList<int>{16, 32, 64, 128, 256, 512};
    QTest::newRow("1 … 1") << 1 << 1 << QList<int>{1};
    QTest::newRow("1 … 7") << 1 << 7 << QList<int>{1, 2, 4};
    QTest::newRow("4096 … 4096") << 4096 << 4096 << QList<int>{4096};
    QTest::newRow("invalid: empty") << 100 << 1000 << QList<int>{};
}

void TestSweep::values()
{
    QFETCH(int, from);
    QFETCH(int, to);
    QFETCH(QList<int>, expected);
    const std::vector<int> values = sweepDkValues(from, to);
    QCOMPARE(QList<int>(values.begin(), values.end()), expected);
}

void TestSweep::invalidRanges_data()
{
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::addColumn<QString>("keyword");
    QTest::newRow("from 0") << 0 << 1024 << "--from must be between 1 and 4096";
    QTest::newRow("from -16") << -16 << 1024 << "--from must be between 1 and 4096";
    QTest::newRow("from 100: not a power of two") << 100 << 1024 << "power of two";
    QTest::newRow("from 8192") << 8192 << 8192 << "--from must be between 1 and 4096";
    QTest::newRow("to 8192") << 16 << 8192 << "--to must be between 1 and 4096";
    QTest::newRow("to 0") << 16 << 0 << "--to must be between 1 and 4096";
    QTest::newRow("from 512 to 16") << 512 << 16 << "must not be less than --from";
}

void TestSweep::invalidRanges()
{
    QFETCH(int, from);
    QFETCH(int, to);
    QFETCH(QString, keyword);
    QVERIFY(sweepDkValues(from, to).empty());
    try {
        (void)sweepDk(sentence(), from, to);
        QFAIL("no InputError");
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains(keyword), error.what());
    }
}

void TestSweep::pointsInOrder()
{
    const std::vector<SweepPoint>& points = sweepOf("sentence");
    QCOMPARE(points.size(), std::size_t(14));
    int dK = kFrom;
    for (std::size_t k = 0; k < points.size(); k += 2, dK *= 2) {
        QCOMPARE(points[k].dK, dK);
        QCOMPARE(points[k].scaled, true);
        QCOMPARE(points[k + 1].dK, dK);
        QCOMPARE(points[k + 1].scaled, false);
    }
}

// At d_k = 16 the sweep is the article's program (C = 16, H = 1): the numbers it prints.
void TestSweep::articleFirstPoint()
{
    const SweepPoint& scaled = pointAt(sweepOf("article"), 16, true);
    QVERIFY2(std::abs(scaled.stdScores - 1.1888) < 5e-5,
             qPrintable(QString::number(scaled.stdScores)));
    QVERIFY2(std::abs(scaled.stdLogits - 0.2972) < 5e-5,
             qPrintable(QString::number(scaled.stdLogits)));
}

void TestSweep::scalingDividesBySqrtDk_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<int>("dK");
    for (const char* base : {"sentence", "article"})
        for (int dK = kFrom; dK <= kTo; dK *= 2)
            QTest::newRow(qPrintable(QStringLiteral("%1, d_k=%2").arg(base).arg(dK)))
                << QString::fromLatin1(base) << dK;
}

// Both points share S (same text, seed and weights); only the factor differs. The
// logits are rounded to float before their std is taken, hence a relative 1e-5.
void TestSweep::scalingDividesBySqrtDk()
{
    QFETCH(QString, base);
    QFETCH(int, dK);
    const SweepPoint& scaled = pointAt(sweepOf(base), dK, true);
    const SweepPoint& unscaled = pointAt(sweepOf(base), dK, false);
    QCOMPARE(scaled.stdScores, unscaled.stdScores);
    QCOMPARE(unscaled.stdLogits, unscaled.stdScores); // τ = 1
    const double ratio = scaled.stdLogits / unscaled.stdLogits;
    const double expected = 1.0 / std::sqrt(double(dK));
    QVERIFY2(std::abs(ratio / expected - 1) < 1e-5,
             qPrintable(QStringLiteral("std(scaled)/std(unscaled) = %1, 1/√d_k = %2")
                            .arg(ratio, 0, 'g', 8)
                            .arg(expected, 0, 'g', 8)));
}

void TestSweep::unscaledGrowsLikeSqrtDk_data()
{
    QTest::addColumn<QString>("base");
    QTest::newRow("sentence (table embedding, T = 11)") << QStringLiteral("sentence");
    QTest::newRow("article (torch embedding, B = 2, T = 4)") << QStringLiteral("article");
}

// Each entry of S sums d_k products q·k of about the same spread (nn.Linear keeps the
// spread of Q and K near 1/√3 whatever C is), so std(S) should grow by √2 ≈ 1.41 per
// doubling. One std is estimated from only B·T² entries (32 for the article), about ±15%
// per point, so single ratios wander; their geometric mean over the six doublings,
// (std at 1024 / std at 16)^(1/6), must lie in [1.2, 1.7]: clearly not flat (1) and not
// linear in d_k (2).
void TestSweep::unscaledGrowsLikeSqrtDk()
{
    QFETCH(QString, base);
    const std::vector<SweepPoint>& points = sweepOf(base);
    const double first = pointAt(points, kFrom, false).stdScores;
    const double last = pointAt(points, kTo, false).stdScores;
    const double mean = std::pow(last / first, 1.0 / 6);
    QVERIFY2(mean >= 1.2 && mean <= 1.7,
             qPrintable(QStringLiteral("mean ratio per doubling %1 (std %2 at 16, %3 at 1024)")
                            .arg(mean)
                            .arg(first)
                            .arg(last)));
    // The scaled std stays within a factor of two of its first value.
    for (int dK = kFrom; dK <= kTo; dK *= 2) {
        const double s = pointAt(points, dK, true).stdLogits;
        const double s0 = pointAt(points, kFrom, true).stdLogits;
        QVERIFY2(
            s > s0 / 2 && s < s0 * 2,
            qPrintable(QStringLiteral("scaled std %1 at d_k=%2, %3 at 16").arg(s).arg(dK).arg(s0)));
    }
}

void TestSweep::saturationAndGradient_data()
{
    unscaledGrowsLikeSqrtDk_data();
}

// Without scaling the rows saturate as d_k grows: the largest weight nears 1, the entropy
// falls and ‖diag(p) − ppᵀ‖ (zero for a one-hot row) shrinks: the gradient vanishes.
void TestSweep::saturationAndGradient()
{
    QFETCH(QString, base);
    const std::vector<SweepPoint>& points = sweepOf(base);
    const SweepPoint& small = pointAt(points, kFrom, false);
    const SweepPoint& large = pointAt(points, kTo, false);
    const SweepPoint& largeScaled = pointAt(points, kTo, true);
    QVERIFY2(large.saturatedShare > small.saturatedShare,
             qPrintable(QStringLiteral("saturated %1 at 1024, %2 at 16")
                            .arg(large.saturatedShare)
                            .arg(small.saturatedShare)));
    QVERIFY(large.saturatedShare > largeScaled.saturatedShare);
    QVERIFY(large.meanRowMax > largeScaled.meanRowMax);
    QVERIFY(large.meanEntropy < largeScaled.meanEntropy);
    QVERIFY2(large.meanJacobianNorm < small.meanJacobianNorm,
             qPrintable(QStringLiteral("Jacobian norm %1 at 1024, %2 at 16")
                            .arg(large.meanJacobianNorm)
                            .arg(small.meanJacobianNorm)));
    QVERIFY(large.meanJacobianNorm < largeScaled.meanJacobianNorm);
}

void TestSweep::progressAndCancel()
{
    std::vector<std::pair<int, int>> calls;
    const auto points = sweepDk(sentence(), 4, 16, nullptr, [&](int done, int total) {
        calls.push_back({done, total});
    });
    QCOMPARE(points.size(), std::size_t(6));
    QCOMPARE(calls.size(), std::size_t(6));
    QCOMPARE(calls.front(), std::make_pair(1, 6));
    QCOMPARE(calls.back(), std::make_pair(6, 6));

    std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(Cancelled, (void)sweepDk(sentence(), 16, 64, &cancel));

    // Raised from the progress callback: the sweep stops at its next step.
    cancel = false;
    int seen = 0;
    QVERIFY_THROWS_EXCEPTION(Cancelled, (void)sweepDk(sentence(), 16, 64, &cancel, [&](int, int) {
                                 ++seen;
                                 cancel = true;
                             }));
    QCOMPARE(seen, 1);
}

void TestSweep::json()
{
    const std::vector<SweepPoint>& points = sweepOf("article");
    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(sweepJson(points, article())), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject root = document.object();
    QCOMPARE(root["text"].toString(), QString::fromStdString(article().text));
    QCOMPARE(root["config"]["heads"].toInt(), 1);
    QCOMPARE(root["config"]["embedding"].toString(), QStringLiteral("torch"));
    QCOMPARE(root["varies"].toArray(), (QJsonArray{"d-model", "scale"}));
    const QJsonArray array = root["points"].toArray();
    QCOMPARE(array.size(), qsizetype(points.size()));
    for (qsizetype k = 0; k < array.size(); ++k) {
        const QJsonObject p = array[k].toObject();
        const SweepPoint& expected = points[std::size_t(k)];
        QCOMPARE(p.keys(), (QStringList{"d_k", "jacobian_norm", "max_sink_weight", "mean_entropy",
                                        "mean_entropy_max", "mean_row_max", "saturated_share",
                                        "scaled", "std_final_logits", "std_scaled", "std_scores"}));
        QCOMPARE(p["d_k"].toInt(), expected.dK);
        QCOMPARE(p["scaled"].toBool(), expected.scaled);
        QCOMPARE(p["std_scores"].toDouble(), expected.stdScores);
        QCOMPARE(p["std_scaled"].toDouble(), expected.stdLogits);
        QCOMPARE(p["mean_entropy"].toDouble(), expected.meanEntropy);
        QCOMPARE(p["mean_entropy_max"].toDouble(), expected.meanEntropyMax);
        QCOMPARE(p["mean_row_max"].toDouble(), expected.meanRowMax);
        QCOMPARE(p["jacobian_norm"].toDouble(), expected.meanJacobianNorm);
        QCOMPARE(p["saturated_share"].toDouble(), expected.saturatedShare);
        // Without ALiBi, a cap or a sink: the std after them is the std, no sink weight.
        QCOMPARE(p["std_final_logits"].toDouble(), expected.stdLogits);
        QCOMPARE(p["max_sink_weight"].toDouble(), 0.0);
    }
}

void TestSweep::text()
{
    const QString table = QString::fromStdString(sweepText(sweepOf("article")));
    QCOMPARE(table.count(u'\n'), 3 + 7 + 1); // two header lines and a title, 7 d_k, a footer
    QVERIFY2(table.contains(QStringLiteral("   16      1.1888  0.2972")), qPrintable(table));
    QVERIFY2(table.contains(QStringLiteral(" 1024 ")), qPrintable(table));
}

// Each point keeps every switch of today's models but the K/V heads: one head has one.
void TestSweep::todaysSwitchesPassThrough()
{
    const Request base = todays();
    for (const int dK : {16, 64})
        for (const bool scaled : {false, true}) {
            const Request request = sweepRequest(base, dK, scaled);
            Config expected = base.config;
            expected.heads = 1;
            expected.kvHeads = 0;
            expected.dModel = dK;
            expected.scale = scaled ? ScaleMode::SqrtDk : ScaleMode::None;
            QCOMPARE(request.config, expected);
            QCOMPARE(request.text, base.text);
        }
    const std::vector<SweepPoint> points = sweepDk(base, 16, 64);
    QCOMPARE(points.size(), std::size_t(6));
    for (const SweepPoint& p : points) {
        QVERIFY(p.shifted);
        QVERIFY(p.stdFinalLogits > 0 && p.stdFinalLogits != p.stdLogits);
        QVERIFY2(p.maxSinkWeight > 0 && p.maxSinkWeight < 1, qPrintable(QString::number(p.dK)));
    }
    // The sweep of the same switches, computed one point at a time, is the same.
    AttentionEngine engine;
    const Result one = engine.compute(sweepRequest(base, 32, false));
    const SweepPoint& p = pointAt(points, 32, false);
    QCOMPARE(p.stdFinalLogits, one.stats->stdFinalLogits);
    QCOMPARE(p.maxSinkWeight, one.stats->maxSinkWeight);
    QCOMPARE(one.config().window, 4);
    QVERIFY(one.config().sink == 0.5f);
}

// Without √d_k the std of the logits grows like √d_k; after a cap c = 5 it stays below c,
// and the saturation it caused shrinks. With √d_k the logits are small and the cap barely
// touches them.
void TestSweep::capKeepsTheStdBelowC()
{
    const std::vector<SweepPoint>& points = sweepOf("capped");
    const std::vector<SweepPoint>& plain = sweepOf("sentence");
    QCOMPARE(points.size(), plain.size());
    for (std::size_t k = 0; k < points.size(); ++k) {
        const SweepPoint &p = points[k], &q = plain[k];
        QVERIFY(p.shifted && !q.shifted);
        // The cap comes after S·scale/τ: the std before it is the plain sweep's.
        QCOMPARE(p.stdLogits, q.stdLogits);
        QVERIFY2(p.stdFinalLogits < kCap, qPrintable(QString::number(p.stdFinalLogits)));
        QVERIFY(p.stdFinalLogits <= p.stdLogits);
        QVERIFY(p.saturatedShare <= q.saturatedShare);
        if (p.scaled)
            QVERIFY2(std::abs(p.stdFinalLogits / p.stdLogits - 1) < 0.02,
                     qPrintable(QStringLiteral("d_k %1: %2 against %3")
                                    .arg(p.dK)
                                    .arg(p.stdFinalLogits)
                                    .arg(p.stdLogits)));
    }
    const SweepPoint& first = pointAt(points, kFrom, false);
    const SweepPoint& last = pointAt(points, kTo, false);
    QVERIFY(last.stdLogits > 5 * first.stdLogits); // √64 = 8 in theory
    // Flattened by the cap: it grows less than half as much as the std before it.
    QVERIFY(last.stdFinalLogits / first.stdFinalLogits < 0.5 * last.stdLogits / first.stdLogits);
    QVERIFY(pointAt(plain, kTo, false).saturatedShare > last.saturatedShare);
}

void TestSweep::jsonOfACappedSweep()
{
    const std::vector<SweepPoint>& points = sweepOf("capped");
    const QJsonObject root =
        QJsonDocument::fromJson(QByteArray::fromStdString(sweepJson(points, capped()))).object();
    QCOMPARE(root["config"]["softcap"].toString(), QStringLiteral("5")); // spelled as --softcap
    QCOMPARE(root["config"]["kv-heads"].toInt(), 0);
    QCOMPARE(root["varies"].toArray(), (QJsonArray{"d-model", "scale"}));
    const QJsonArray array = root["points"].toArray();
    QCOMPARE(array.size(), qsizetype(points.size()));
    for (qsizetype k = 0; k < array.size(); ++k) {
        QCOMPARE(array[k]["std_final_logits"].toDouble(), points[std::size_t(k)].stdFinalLogits);
        QCOMPARE(array[k]["std_scaled"].toDouble(), points[std::size_t(k)].stdLogits);
    }
    // The base's K/V heads do not reach the points: one head has one.
    Request grouped = todays();
    const QJsonObject config =
        QJsonDocument::fromJson(QByteArray::fromStdString(sweepJson({}, grouped)))
            .object()["config"]
            .toObject();
    QCOMPARE(config["heads"].toInt(), 1);
    QCOMPARE(config["kv-heads"].toInt(), 0);
    QCOMPARE(config["window"].toString(), QStringLiteral("4")); // spelled as --window
    QCOMPARE(config["qk-norm"].toString(), QStringLiteral("on"));
}

// The sixth group, the std after the cap, only when the sweep has one.
void TestSweep::textOfACappedSweep()
{
    const QString table = QString::fromStdString(sweepText(sweepOf("capped")));
    QVERIFY2(table.contains(QStringLiteral("std after ALiBi/cap")), qPrintable(table));
    QCOMPARE(table.count(u'\n'), 3 + 7 + 1);
    const SweepPoint& last = pointAt(sweepOf("capped"), kTo, false);
    QVERIFY2(table.contains(QString::number(last.stdFinalLogits, 'f', 4)), qPrintable(table));
    QVERIFY(!QString::fromStdString(sweepText(sweepOf("article")))
                 .contains(QStringLiteral("ALiBi/cap")));
}

// The terminal columns of `line` up to the end of the first `needle` from `from` on.
int columnsThrough(const std::string& line, const std::string& needle, std::size_t from = 0)
{
    const std::size_t at = line.find(needle, from);
    return at == std::string::npos ? -1 : terminalColumns(line.substr(0, at + needle.size()));
}

void TestSweep::textKeepsColumnsInAnyLanguage_data()
{
    QTest::addColumn<QStringList>("words"); // d_k, 5 titles, unscaled, scaled
    QTest::newRow("English") << QStringList{
        "d_k",           "std of the logits", "row entropy (bits)", "largest weight",
        "Jacobian norm", "saturated rows",    "unscaled",           "scaled"};
    // Two columns a character: padding by bytes or code points would shift every number.
    QTest::newRow("Chinese") << QStringList{"d_k",      "logit 标准差", "行熵（比特）",
                                            "最大权重", "雅可比范数",   "饱和行",
                                            "未缩放",   "已缩放"};
    // Headings longer than their numbers widen their columns.
    QTest::newRow("long") << QStringList{"the head dimension",
                                         "the standard deviation of every logit",
                                         "e",
                                         "w",
                                         "j",
                                         "s",
                                         "without any scaling",
                                         "with the scaling of 1/√d_k"};
}

void TestSweep::textKeepsColumnsInAnyLanguage()
{
    QFETCH(QStringList, words);
    SweepWords w;
    std::string* fields[] = {&w.dK,       &w.stdLogits, &w.entropy,  &w.rowMax,
                             &w.jacobian, &w.saturated, &w.unscaled, &w.scaled};
    for (int k = 0; k < 8; ++k)
        *fields[k] = words[k].toStdString();
    w.footer = "uniform %1, saturated %2";
    std::vector<std::string> lines;
    const std::string table = sweepText(sweepOf("article"), w);
    for (std::size_t start = 0; start < table.size();) {
        const std::size_t end = table.find('\n', start);
        lines.push_back(table.substr(start, end - start));
        start = end + 1;
    }
    QCOMPARE(int(lines.size()), 3 + 7 + 1);
    QCOMPARE(lines.back(), std::string("uniform 2.000, saturated 0.99"));
    const std::string& titles = lines[1];
    const std::string& headings = lines[2];
    const std::string& first = lines[3]; // d_k = 16
    QVERIFY2(first.starts_with(" ") && first.find(" 16 ") != std::string::npos, first.c_str());

    // d_k's heading ends where its numbers end; each "unscaled" where the group's first
    // number ends, each "scaled" where its second ends.
    QCOMPARE(columnsThrough(headings, w.dK), columnsThrough(first, "16"));
    const std::string numbers[] = {"1.1888", "0.2972", "1.499", "1.949", "0.565",
                                   "0.334",  "0.381",  "0.432", "0%",    "0%"};
    std::size_t inHeadings = 0, inFirst = 0;
    for (int k = 0; k < 10; ++k) {
        const std::string& heading = k % 2 == 0 ? w.unscaled : w.scaled;
        // "scaled" is in "unscaled": look past the end of the previous heading.
        const std::size_t h = headings.find(heading, inHeadings);
        const std::size_t n = first.find(numbers[k], inFirst);
        QVERIFY2(h != std::string::npos && n != std::string::npos, headings.c_str());
        QCOMPARE(terminalColumns(headings.substr(0, h + heading.size())),
                 terminalColumns(first.substr(0, n + numbers[k].size())));
        inHeadings = h + heading.size();
        inFirst = n + numbers[k].size();
    }
    // Every data line as wide as the headings, and each title within its group: it
    // starts after the previous group's last number and ends by its own group's.
    for (std::size_t k = 3; k + 1 < lines.size(); ++k)
        QCOMPARE(terminalColumns(lines[k]), terminalColumns(headings));
    std::size_t inTitles = 0;
    int groupStart = columnsThrough(headings, w.dK);
    std::size_t searchFrom = 0;
    for (int g = 0; g < 5; ++g) {
        const std::string& title = *fields[1 + g];
        const std::size_t at = titles.find(title, inTitles);
        QVERIFY2(at != std::string::npos, titles.c_str());
        const std::size_t scaledAt =
            headings.find(w.scaled, headings.find(w.unscaled, searchFrom) + w.unscaled.size());
        const int groupEnd = terminalColumns(headings.substr(0, scaledAt + w.scaled.size()));
        QVERIFY2(terminalColumns(titles.substr(0, at)) >= groupStart, titles.c_str());
        QVERIFY2(terminalColumns(titles.substr(0, at + title.size())) <= groupEnd,
                 (titles + "\n" + headings).c_str());
        inTitles = at + title.size();
        searchFrom = scaledAt + w.scaled.size();
        groupStart = groupEnd;
    }
}

// The command line's help wraps English at spaces and Chinese between its characters,
// never starting a line with a full stop or comma, nor ending one with an opening bracket.
void TestSweep::wrapColumnsOfText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("words") << "the quick brown fox" << 9 << QStringList{"the quick", "brown fox"};
    QTest::newRow("exactly the width") << "the quick" << 9 << QStringList{"the quick"};
    QTest::newRow("a long word keeps its line")
        << "abcdefghij k" << 5 << QStringList{"abcdefghij", "k"};
    QTest::newRow("spaces go") << "  a   b  " << 1 << QStringList{"a", "b"};
    QTest::newRow("empty") << "" << 10 << QStringList{};
    QTest::newRow("Chinese, two columns a character")
        << "一二三四五六" << 6 << QStringList{"一二三", "四五六"};
    QTest::newRow("no comma at a line's start")
        << "一二，三四" << 4 << QStringList{"一", "二，", "三四"};
    QTest::newRow("no bracket at a line's end") << "一（二）" << 4 << QStringList{"一", "（二）"};
    QTest::newRow("options stay whole among Chinese")
        << "使用 --text 选项" << 8 << QStringList{"使用", "--text", "选项"};
    QTest::newRow("ASCII next to Chinese breaks")
        << "权重的色图（默认 viridis）" << 12 << QStringList{"权重的色图", "（默认", "viridis）"};
}

void TestSweep::wrapColumnsOfText()
{
    QFETCH(QString, text);
    QFETCH(int, width);
    QFETCH(QStringList, lines);
    QStringList got;
    for (const std::string& line : attn::wrapColumns(text.toStdString(), width))
        got << QString::fromStdString(line);
    QCOMPARE(got, lines);
}

void TestSweep::terminalColumnsOfText_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("columns");
    QTest::newRow("empty") << QByteArray() << 0;
    QTest::newRow("ASCII") << QByteArray("d_k 16") << 6;
    QTest::newRow("CJK ideographs") << QByteArray("标准差") << 6;
    QTest::newRow("fullwidth punctuation") << QByteArray("（比特）") << 8;
    QTest::newRow("ambiguous: √ and ≥") << QByteArray("√d_k ≥") << 6;
    QTest::newRow("combining acute") << QByteArray("e\xcc\x81") << 1;
    QTest::newRow("zero-width space") << QByteArray("a\xe2\x80\x8b"
                                                    "b")
                                      << 2;
    QTest::newRow("Hangul") << QByteArray("한국어") << 6;
    QTest::newRow("emoji") << QByteArray("\xf0\x9f\x90\xb1") << 2;
    QTest::newRow("invalid byte") << QByteArray("a\xff"
                                                "b")
                                  << 3;
}

void TestSweep::terminalColumnsOfText()
{
    QFETCH(QByteArray, text);
    QFETCH(int, columns);
    QCOMPARE(terminalColumns(std::string_view(text.constData(), std::size_t(text.size()))),
             columns);
}

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
