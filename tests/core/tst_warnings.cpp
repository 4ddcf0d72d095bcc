// The warnings drawn from the statistics: deriveWarnings through the whole engine for
// every lesson and switch, from hand-made statistics, and their English templates with
// every marker filled.
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
#include <string>
#include <vector>

using namespace attn;
using namespace attn::test;

Q_DECLARE_METATYPE(attn::Request)

namespace {

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
    case WarningKind::UniformCapped:
        return "UniformCapped";
    case WarningKind::SinkTakesMost:
        return "SinkTakesMost";
    }
    return "?";
}

constexpr const char* kSentence = "The cat sat on the mat because it was tired .";

} // namespace

class TestWarnings : public QObject {
    Q_OBJECT

private slots:
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

void TestWarnings::warnings_data()
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

void TestWarnings::warnings()
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

void TestWarnings::scalingLesson_data()
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

void TestWarnings::scalingLesson()
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

void TestWarnings::presetsAreNotPeaked_data()
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

void TestWarnings::presetsAreNotPeaked()
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

void TestWarnings::warningsFromStatistics_data()
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

void TestWarnings::warningsFromStatistics()
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

void TestWarnings::fillPlaceholders_data()
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

void TestWarnings::fillPlaceholders()
{
    QFETCH(QString, pattern);
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    std::vector<std::string> args;
    for (const QString& a : arguments)
        args.push_back(a.toStdString());
    QCOMPARE(QString::fromStdString(attn::fillPlaceholders(pattern.toStdString(), args)), expected);
}

void TestWarnings::warningText_data()
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

void TestWarnings::warningText()
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

QTEST_GUILESS_MAIN(TestWarnings)
#include "tst_warnings.moc"
