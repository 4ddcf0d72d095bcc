// The formula bar and the statistics panel: what they say for each switch of the
// formula, fed with real results of the engine, in English and after a language change.
#include "embeddingeditor.h"
#include "engine/engine.h"
#include "formulabar.h"
#include "formulatext.h"
#include "helpdialog.h"
#include "labels.h"
#include "language.h"
#include "presetpanel.h"
#include "statisticspanel.h"

#include <QAbstractTextDocumentLayout>
#include <QDialogButtonBox>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextLayout>
#include <QTextList>
#include <QTranslator>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

using attn::Config;
using attn::ui::FormulaBar;
using attn::ui::StatisticsPanel;

Q_DECLARE_METATYPE(attn::Config)

namespace {

Config with(const std::function<void(Config&)>& change)
{
    Config config;
    change(config);
    return config;
}

attn::Result compute(const std::string& text, const Config& config)
{
    attn::Request request;
    request.text = text;
    request.config = config;
    attn::AttentionEngine engine;
    return engine.compute(request);
}

// The labels of `widget` whose text contains `needle`.
QStringList labelsContaining(const QWidget& widget, const QString& needle)
{
    QStringList found;
    for (const QLabel* label : widget.findChildren<QLabel*>())
        if (label->text().contains(needle))
            found << label->text();
    return found;
}

bool tinted(const QTableWidgetItem* item)
{
    return item && item->background().style() != Qt::NoBrush;
}

// Prefixes every translation with "X:", so a test can see which texts were retranslated.
class PrefixTranslator : public QTranslator {
public:
    QString translate(const char*, const char* sourceText, const char* = nullptr,
                      int = -1) const override
    {
        return QStringLiteral("X:") + QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

} // namespace

class TestPanels : public QObject {
    Q_OBJECT

private slots:
    void dialogsCloseWithAButton_data();
    void dialogsCloseWithAButton();
    void presetLinesEvenlyApart_data();
    void presetLinesEvenlyApart();
    void presetBulletsLevelWithTheText_data() { presetLinesEvenlyApart_data(); }
    void presetBulletsLevelWithTheText();
    void formulaDepartures_data();
    void formulaDepartures();
    void formulaSummary();
    void todaysFormulaInPlainText();
    void todaysFigures();
    void statistics_data();
    void statistics();
    void articleHeadline();
    void sequenceChoice();
    void clearPanel();
    void retranslate();
};

void TestPanels::formulaDepartures_data()
{
    QTest::addColumn<Config>("config");
    QTest::addColumn<bool>("hasPadding");
    QTest::addColumn<QStringList>("present"); // fragments of formulaHtml()
    QTest::addColumn<QStringList>("absent");
    QTest::addColumn<int>("departures");

    auto row = [](const char* name, const Config& config, bool hasPadding,
                  const QStringList& present, const QStringList& absent, int departures) {
        QTest::newRow(name) << config << hasPadding << present << absent << departures;
    };
    const QString plusM = QStringLiteral("+ <i>M</i>");
    row("textbook", Config{}, false, {"softmax(", "dim=-1", "√"}, {"<s>", plusM, "⊙", "τ"}, 0);
    row("scale=none", with([](Config& c) { c.scale = attn::ScaleMode::None; }), false,
        {"<s>/ √<i>d</i><sub>k</sub></s>"}, {}, 1);
    row("scale=sqrt-dmodel", with([](Config& c) { c.scale = attn::ScaleMode::SqrtDModel; }), false,
        {"/ √<i>d</i><sub>model</sub>", "<sub>model</sub> = 64"}, {"<s>"}, 1);
    row("temperature=0.5", with([](Config& c) { c.temperature = 0.5f; }), false,
        {"/ <i>τ</i>", "<i>τ</i> = 0.5"}, {}, 1);
    row("temperature=1", with([](Config& c) { c.temperature = 1.0f; }), false, {}, {"τ"}, 0);
    row("axis=queries", with([](Config& c) { c.axis = attn::SoftmaxAxis::Queries; }), false,
        {"dim=-2"}, {"dim=-1"}, 1);
    row("axis=batch", with([](Config& c) { c.axis = attn::SoftmaxAxis::Batch; }), false, {"dim=0"},
        {"dim=-1"}, 1);
    row("mask=causal", with([](Config& c) { c.mask = attn::MaskKind::Causal; }), false,
        {plusM, "M: causal, −∞ above the diagonal"}, {"padding"}, 0);
    row("mask=causal mask-fill=-1e9", with([](Config& c) {
            c.mask = attn::MaskKind::Causal;
            c.maskFill = attn::MaskFill::NegBillion;
        }),
        false, {plusM, "M: causal, −1e9 above the diagonal"}, {"−∞"}, 0);
    row("mask=causal mask-stage=after-softmax", with([](Config& c) {
            c.mask = attn::MaskKind::Causal;
            c.maskStage = attn::MaskStage::AfterSoftmax;
        }),
        false, {"⊙ (1 − <i>M</i>)", "mask after softmax", "M: causal, 1 above"}, {plusM}, 1);
    row("mask-stage=after-softmax without a mask",
        with([](Config& c) { c.maskStage = attn::MaskStage::AfterSoftmax; }), false, {},
        {"⊙", plusM}, 0);
    row("head-split=view", with([](Config& c) { c.headSplit = attn::HeadSplit::View; }), false,
        {"heads split with view(B, H, T, d_k)"}, {}, 1);
    row("head-split=view heads=1", with([](Config& c) {
            c.headSplit = attn::HeadSplit::View;
            c.heads = 1;
        }),
        false, {}, {"view"}, 0);
    row("padding present", Config{}, true, {plusM, "M: padding, −∞ for &lt;pad&gt; keys"}, {}, 0);
    row("padding present mask=causal", with([](Config& c) { c.mask = attn::MaskKind::Causal; }),
        true, {"M: causal and padding"}, {}, 0);
    row("padding present padding-mask=off", with([](Config& c) { c.paddingMask = false; }), true,
        {"&lt;pad&gt; tokens not masked"}, {plusM}, 1);
    row("padding-mask=off without padding", with([](Config& c) { c.paddingMask = false; }), false,
        {}, {"pad", plusM}, 0);
    // Today's models.
    row("kv-heads=2", with([](Config& c) { c.kvHeads = 2; }), false,
        {"2 query heads share each of the 2 K/V heads"}, {"<s>"}, 1);
    row("qk-norm", with([](Config& c) { c.qkNorm = true; }), false,
        {"<i>Q̂K̂</i><sup>T</sup>", "each row divided by its RMS"}, {}, 1);
    row("rope", with([](Config& c) { c.positional = attn::Positional::Rope; }), false,
        {"(<i>R</i><sub><i>i</i></sub><i>Q</i>)", "<i>θ</i> = 10000"}, {"<i>QK</i>"}, 1);
    row("qk-norm rope", with([](Config& c) {
            c.qkNorm = true;
            c.positional = attn::Positional::Rope;
        }),
        false, {"<i>R</i><sub><i>i</i></sub><i>Q̂</i>"}, {}, 2);
    row("alibi", with([](Config& c) { c.alibi = true; }), false,
        {"− <i>m</i><sub>h</sub>·|<i>i</i> − <i>j</i>|", "<i>m</i><sub>h</sub> = 0.25 … 0.0039"},
        {}, 1);
    row("softcap=30", with([](Config& c) { c.softcap = 30; }), false,
        {"<i>c</i>·tanh(", "/ <i>c</i>)", "<i>c</i> = 30"}, {}, 1);
    row("window=3", with([](Config& c) { c.window = 3; }), false,
        {"+ <i>M</i><sub>W</sub>", "M_W: the sliding window, −∞ where |i − j| ≥ 3"}, {"M: "}, 1);
    row("window=3 mask=causal", with([](Config& c) {
            c.window = 3;
            c.mask = attn::MaskKind::Causal;
        }),
        false, {"M_W: M and the sliding window"}, {"M: causal"}, 1);
    row("sink=0", with([](Config& c) { c.sink = 0.0f; }), false, {"<i>s</i>]", "<i>s</i> = 0"}, {},
        1);
    row("every switch of today's models", with([](Config& c) {
            c.kvHeads = 1;
            c.qkNorm = true;
            c.positional = attn::Positional::Rope;
            c.alibi = true;
            c.softcap = 50;
            c.window = 4;
            c.sink = -1.0f;
        }),
        false, {"tanh(", "<i>M</i><sub>W</sub>", "<i>s</i>]"}, {}, 7);
    row("three departures", with([](Config& c) {
            c.scale = attn::ScaleMode::None;
            c.temperature = 2.0f;
            c.axis = attn::SoftmaxAxis::Queries;
        }),
        false, {"<s>", "<i>τ</i> = 2", "dim=-2"}, {}, 3);
}

void TestPanels::formulaDepartures()
{
    QFETCH(Config, config);
    QFETCH(bool, hasPadding);
    QFETCH(QStringList, present);
    QFETCH(QStringList, absent);
    QFETCH(int, departures);

    FormulaBar bar;
    bar.setConfig(config, hasPadding);
    const QString html = bar.formulaHtml();
    for (const QString& fragment : present)
        QVERIFY2(html.contains(fragment), qPrintable("missing " + fragment + " in " + html));
    for (const QString& fragment : absent)
        QVERIFY2(!html.contains(fragment), qPrintable("unexpected " + fragment + " in " + html));
    QCOMPARE(bar.departures().size(), departures);
    QCOMPARE(FormulaBar::departuresOf(config, hasPadding), bar.departures());
    // Red marks exactly the formulas that depart from the textbook.
    const QString red = attn::ui::alertColor(bar.palette()).name();
    QCOMPARE(html.contains(red), departures > 0);
}

void TestPanels::todaysFormulaInPlainText()
{
    using attn::ui::FormulaMarkup;
    auto plain = [](const Config& config) {
        return attn::ui::writeFormula(attn::formulaOf(config, false), FormulaMarkup::PlainText);
    };
    QCOMPARE(plain(with([](Config& c) {
                 c.softcap = 30;
                 c.window = 4;
                 c.sink = 0.0f;
             })),
             QStringLiteral("softmax([c·tanh(QKᵀ/√d_k/c) + M_W, s], dim=-1)·V"));
    QCOMPARE(plain(with([](Config& c) {
                 c.qkNorm = true;
                 c.positional = attn::Positional::Rope;
                 c.alibi = true;
                 c.softcap = 30;
             })),
             QStringLiteral("softmax(c·tanh(((R_i Q̂)(R_j K̂)ᵀ/√d_k − m_h·|i−j|)/c), dim=-1)·V"));
    QCOMPARE(plain(with([](Config& c) { c.positional = attn::Positional::Rope; })),
             QStringLiteral("softmax((R_i Q)(R_j K)ᵀ/√d_k, dim=-1)·V"));
    QCOMPARE(plain(with([](Config& c) { c.qkNorm = true; })),
             QStringLiteral("softmax(Q̂K̂ᵀ/√d_k, dim=-1)·V"));

    // Each switch's departure in plain words.
    const QStringList departures = FormulaBar::departuresOf(with([](Config& c) {
                                                                c.kvHeads = 2;
                                                                c.qkNorm = true;
                                                                c.positional =
                                                                    attn::Positional::Rope;
                                                                c.ropeTheta = 500000;
                                                                c.alibi = true;
                                                                c.softcap = 30;
                                                                c.window = 4;
                                                                c.sink = 0.5f;
                                                            }),
                                                            false);
    QCOMPARE(departures,
             (QStringList{"K and V shared: 2 query heads per K/V head",
                          "Q and K normalised by their RMS (QK-norm)",
                          "Q and K rotated by their positions (RoPE, θ = 500000)",
                          "ALiBi's linear bias −m_h·|i−j|", "logits soft-capped at c = 30",
                          "a sliding window of 4 keys", "a sink logit s = 0.5 in every row"}));
}

void TestPanels::todaysFigures()
{
    const std::string cat = "the cat sat on the mat";
    StatisticsPanel panel;
    panel.setResult(compute(cat, Config{}), 0);
    QTableWidget* table = panel.table();
    QVERIFY(table->isColumnHidden(StatisticsPanel::FinalStdColumn));
    QVERIFY(table->isColumnHidden(StatisticsPanel::SinkColumn));
    QVERIFY(!panel.headlineText().contains("std after"));

    const attn::Result capped = compute(cat, with([](Config& c) {
                                            c.softcap = 0.5f;
                                            c.alibi = true;
                                        }));
    panel.setResult(capped, 0);
    QVERIFY(!table->isColumnHidden(StatisticsPanel::FinalStdColumn));
    QVERIFY(table->isColumnHidden(StatisticsPanel::SinkColumn));
    QVERIFY2(
        panel.headlineText().contains(
            QStringLiteral("std after the cap %1").arg(capped.stats->stdFinalLogits, 0, 'f', 4)),
        qPrintable(panel.headlineText()));
    QCOMPARE(table->item(0, StatisticsPanel::FinalStdColumn)->text(),
             QString::number(capped.stats->heads[0].stdFinalLogits, 'f', 4));
    panel.setResult(compute(cat, with([](Config& c) { c.alibi = true; })), 0);
    QVERIFY(panel.headlineText().contains("std after ALiBi"));

    // A sink that takes most of every row: the figures, the tinted column, the warning.
    const attn::Result sunk = compute(cat, with([](Config& c) { c.sink = 20.0f; }));
    panel.setResult(sunk, 0);
    QVERIFY(!table->isColumnHidden(StatisticsPanel::SinkColumn));
    QVERIFY(sunk.stats->sinkRows > 0);
    QVERIFY2(panel.headlineText().contains(
                 QStringLiteral("sink took at most %1").arg(sunk.stats->maxSinkWeight, 0, 'f', 3)),
             qPrintable(panel.headlineText()));
    QVERIFY(panel.headlineText().contains(
        QStringLiteral("more than half in %1 rows").arg(sunk.stats->sinkRows)));
    QVERIFY(tinted(table->item(0, StatisticsPanel::SinkColumn)));
    // Rows that sum to 1 minus the sink's weight are no fault.
    QVERIFY(sunk.stats->notNormalizedRows > 0);
    QVERIFY(!tinted(table->item(0, StatisticsPanel::RowSumsColumn)));
    QVERIFY(!panel.headlineText().contains(QStringLiteral("<b>row sums")));
    QVERIFY(std::any_of(
        panel.warningTexts().cbegin(), panel.warningTexts().cend(),
        [](const QString& text) { return text.contains("The sink takes more than half"); }));
    // A cap too narrow to tell the keys apart: the warning names c.
    panel.setResult(compute(cat, with([](Config& c) { c.softcap = 0.001f; })), 0);
    QVERIFY(std::any_of(panel.warningTexts().cbegin(), panel.warningTexts().cend(),
                        [](const QString& text) { return text.contains("soft-cap c = 0.00"); }));
}

void TestPanels::formulaSummary()
{
    FormulaBar bar;
    QCOMPARE(labelsContaining(bar, "This is the textbook formula.").size(), 1);

    Config config;
    config.scale = attn::ScaleMode::None;
    config.temperature = 2.0f;
    config.axis = attn::SoftmaxAxis::Queries;
    bar.setConfig(config, false);
    const QStringList summary = labelsContaining(bar, "3 departures from the textbook formula: ");
    QCOMPARE(summary.size(), 1);
    QVERIFY2(summary.first().contains("no scaling by √d_k; temperature τ = 2 instead of 1"),
             qPrintable(summary.first()));

    config = Config{};
    config.axis = attn::SoftmaxAxis::Batch;
    bar.setConfig(config, false);
    QCOMPARE(labelsContaining(bar, "1 departure from the textbook formula: softmax over the batch")
                 .size(),
             1);
}

void TestPanels::statistics_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<Config>("config");
    QTest::addColumn<int>("sequence");
    QTest::addColumn<QList<int>>("warningKinds"); // attn::WarningKind, in order
    QTest::addColumn<int>("tintedColumn");        // a column tinted in some row, or -1
    QTest::addColumn<QString>("mentions");        // in the first warning

    using Kind = attn::WarningKind;
    auto row = [](const char* name, const QString& text, const Config& config, int sequence,
                  const QList<Kind>& kinds, int tintedColumn, const QString& mentions) {
        QList<int> warningKinds;
        for (Kind kind : kinds)
            warningKinds << int(kind);
        QTest::newRow(name) << text << config << sequence << warningKinds << tintedColumn
                            << mentions;
    };
    const QString cat = QStringLiteral("the cat sat on the mat");
    const QString twoLines = cat + QStringLiteral("\na dog");
    row("textbook", cat, Config{}, 0, {}, -1, {});
    row("axis=queries", cat, with([](Config& c) { c.axis = attn::SoftmaxAxis::Queries; }), 0,
        {Kind::RowsNotNormalizedQueries}, StatisticsPanel::RowSumsColumn, "(dim=-2)");
    row("scale=none d_model=512 heads=1", cat, with([](Config& c) {
            c.scale = attn::ScaleMode::None;
            c.dModel = 512;
            c.heads = 1;
        }),
        0, {Kind::SaturatedNoScaling}, StatisticsPanel::SaturatedColumn, "turn √d_k scaling on");
    row("mask=causal mask-stage=after-softmax", cat, with([](Config& c) {
            c.mask = attn::MaskKind::Causal;
            c.maskStage = attn::MaskStage::AfterSoftmax;
        }),
        0, {Kind::RowsNotNormalizedMask}, StatisticsPanel::RowSumsColumn,
        "the mask was applied after the softmax");
    // A <pad> key is hidden from every query, so over the keys no row is empty; over the
    // queries a <pad> key's column is, and over the batch a masked position is.
    row("padding", twoLines, Config{}, 1, {}, -1, {});
    row("padding axis=queries", twoLines,
        with([](Config& c) { c.axis = attn::SoftmaxAxis::Queries; }), 1,
        {Kind::NanColumns, Kind::RowsNotNormalizedQueries}, StatisticsPanel::NanColumn,
        "NaN where every query is masked with -inf (column [1, 2], [1, 3], [1, 4], [1, 5])");
    row("padding mask=causal axis=batch", twoLines, with([](Config& c) {
            c.mask = attn::MaskKind::Causal;
            c.axis = attn::SoftmaxAxis::Batch;
        }),
        0, {Kind::NanPositions, Kind::RowsNotNormalizedBatch, Kind::Saturated},
        StatisticsPanel::NanColumn, "(row [0, 0], [0, 1]");
    row("heads=4", cat, with([](Config& c) { c.heads = 4; }), 0, {}, -1, {});
    row("heads=8 d_model=128", cat, with([](Config& c) {
            c.heads = 8;
            c.dModel = 128;
        }),
        0, {}, -1, {});
}

void TestPanels::statistics()
{
    QFETCH(QString, text);
    QFETCH(Config, config);
    QFETCH(int, sequence);
    QFETCH(QList<int>, warningKinds);
    QFETCH(int, tintedColumn);
    QFETCH(QString, mentions);

    const attn::Result result = compute(text.toStdString(), config);
    QVERIFY(result.valid());
    StatisticsPanel panel;
    panel.setResult(result, sequence);

    // 1. The warnings are the engine's, in the interface language, in its order.
    const std::vector<attn::Warning>& warnings = result.stats->warnings;
    QList<int> kinds;
    QStringList expectedTexts;
    for (const attn::Warning& warning : warnings) {
        kinds << int(warning.kind);
        expectedTexts << attn::ui::warningText(warning);
    }
    QCOMPARE(kinds, warningKinds);
    QCOMPARE(panel.warningTexts(), expectedTexts);
    if (warnings.empty())
        QCOMPARE(labelsContaining(panel, "No warnings: this is the textbook formula").size(), 1);
    for (const QString& warning : expectedTexts)
        QCOMPARE(labelsContaining(panel, warning).size(), 1);
    if (!mentions.isEmpty())
        QVERIFY2(panel.warningTexts().first().contains(mentions),
                 qPrintable(panel.warningTexts().first()));

    // 2. One row per head of the chosen sequence, with that head's figures.
    QTableWidget* table = panel.table();
    const int H = result.heads();
    QCOMPARE(table->rowCount(), H);
    QCOMPARE(table->columnCount(), int(StatisticsPanel::ColumnCount));
    bool anyTinted = false;
    for (int h = 0; h < H; ++h) {
        const attn::HeadStatistics& s = result.stats->heads[std::size_t(sequence * H + h)];
        QCOMPARE(table->item(h, StatisticsPanel::HeadColumn)->text(), QString::number(h));
        const double shown = table->item(h, StatisticsPanel::StdScoresColumn)->text().toDouble();
        QVERIFY2(std::abs(shown - s.stdScores) <= 5e-5,
                 qPrintable(QStringLiteral("head %1: std(S) shown %2, computed %3")
                                .arg(h)
                                .arg(shown)
                                .arg(s.stdScores, 0, 'g', 8)));
        QCOMPARE(table->item(h, StatisticsPanel::StdLogitsColumn)->text(),
                 QString::number(s.stdLogits, 'f', 4));
        QCOMPARE(table->item(h, StatisticsPanel::NanColumn)->text(), QString::number(s.nanCount));
        QVERIFY(table->item(h, StatisticsPanel::StdScoresColumn)->textAlignment() & Qt::AlignRight);
        if (tintedColumn >= 0)
            anyTinted = anyTinted || tinted(table->item(h, tintedColumn));
        // Textbook numbers are never tinted.
        QVERIFY(!tinted(table->item(h, StatisticsPanel::StdScoresColumn)));
    }
    QCOMPARE(anyTinted, tintedColumn >= 0);
    if (tintedColumn < 0) {
        for (int h = 0; h < H; ++h)
            for (int column = 0; column < table->columnCount(); ++column)
                QVERIFY2(!tinted(table->item(h, column)),
                         qPrintable(QStringLiteral("cell (%1, %2) tinted").arg(h).arg(column)));
    }

    // 3. Every header explains itself.
    for (int column = 0; column < table->columnCount(); ++column)
        QVERIFY(!table->horizontalHeaderItem(column)->toolTip().isEmpty());
}

void TestPanels::articleHeadline()
{
    // The tutorial's program: seed 42, B=2, T=4, C=16, H=1, x = torch.randn(B, T, C).
    Config article;
    article.tokenizer = attn::TokenizerMode::Spaces;
    article.dModel = 16;
    article.heads = 1;
    article.embedding = attn::EmbeddingMode::Torch;
    article.positional = attn::Positional::None;
    StatisticsPanel panel;
    panel.setResult(compute("a b c d\ne f g h", article), 0);
    const QString headline = panel.headlineText();
    QVERIFY2(headline.contains("std before scaling 1.1888 → after 0.2972 (×0.25 = 1/√d_k)"),
             qPrintable(headline));
    QVERIFY2(headline.contains("row sums 1.0000 – 1.0000"), qPrintable(headline));
    QVERIFY2(headline.contains("NaN 0"), qPrintable(headline));
}

void TestPanels::sequenceChoice()
{
    // Over the queries, the columns of <pad> keys are NaN, and the warning names them
    // with their sequence: "column [1, 2], [1, 3], …".
    Config queries;
    queries.axis = attn::SoftmaxAxis::Queries;
    const attn::Result result = compute("the cat sat on the mat\na dog", queries);
    StatisticsPanel panel;
    panel.setResult(result, 1);
    QCOMPARE(panel.warningTexts().size(), 2);
    QVERIFY2(
        panel.warningTexts().first().startsWith(
            "NaN where every query is masked with -inf (column [1, 2], [1, 3], [1, 4], [1, 5])"),
        qPrintable(panel.warningTexts().first()));
    QVERIFY(tinted(panel.table()->item(0, StatisticsPanel::NanColumn)));
    QVERIFY2(panel.headlineText().contains("NaN 96"), qPrintable(panel.headlineText()));

    // Sequence 0 has no padding, so its heads have no NaN; out of range clamps.
    panel.setResult(result, 0);
    QVERIFY(!tinted(panel.table()->item(0, StatisticsPanel::NanColumn)));
    QCOMPARE(panel.table()->item(0, StatisticsPanel::NanColumn)->text(), QString("0"));
    panel.setResult(result, 7);
    QCOMPARE(panel.table()->item(0, StatisticsPanel::StdScoresColumn)->text(),
             QString::number(result.stats->heads[std::size_t(result.heads())].stdScores, 'f', 4));
}

void TestPanels::clearPanel()
{
    StatisticsPanel panel;
    panel.setResult(compute("the cat sat on the mat", Config{}), 0);
    QCOMPARE(panel.table()->rowCount(), 4);
    panel.clear();
    QCOMPARE(panel.table()->rowCount(), 0);
    QVERIFY(panel.warningTexts().isEmpty());
    QVERIFY(!panel.headlineText().contains("std"));
}

void TestPanels::retranslate()
{
    Config config;
    config.scale = attn::ScaleMode::None;
    FormulaBar bar;
    bar.setConfig(config, false);
    StatisticsPanel panel;
    Config saturating;
    saturating.scale = attn::ScaleMode::None;
    saturating.dModel = 512;
    saturating.heads = 1;
    panel.setResult(compute("the cat sat on the mat", saturating), 0);
    QCOMPARE(panel.table()->horizontalHeaderItem(StatisticsPanel::HeadColumn)->text(),
             QString("head"));

    PrefixTranslator translator;
    QVERIFY(QCoreApplication::installTranslator(&translator));
    QCoreApplication::processEvents();
    QCOMPARE(panel.table()->horizontalHeaderItem(StatisticsPanel::HeadColumn)->text(),
             QString("X:head"));
    QVERIFY2(panel.headlineText().contains("X:std before scaling"),
             qPrintable(panel.headlineText()));
    QVERIFY2(panel.warningTexts().first().startsWith("X:"),
             qPrintable(panel.warningTexts().first()));
    QCOMPARE(bar.departures(), QStringList{"X:no scaling by √d_k"});
    QCOMPARE(labelsContaining(bar, "X:1 departure from the textbook formula").size(), 1);

    QVERIFY(QCoreApplication::removeTranslator(&translator));
    QCoreApplication::processEvents();
    QCOMPARE(panel.table()->horizontalHeaderItem(StatisticsPanel::HeadColumn)->text(),
             QString("head"));
    QCOMPARE(bar.departures(), QStringList{"no scaling by √d_k"});
}

void TestPanels::dialogsCloseWithAButton_data()
{
    QTest::addColumn<QString>("dialog");
    QTest::newRow("embedding editor") << u"embedding editor"_qs;
    QTest::newRow("help") << u"help"_qs;
}

void TestPanels::dialogsCloseWithAButton()
{
    QFETCH(QString, dialog);
    std::unique_ptr<QDialog> shown;
    if (dialog == u"embedding editor")
        shown = std::make_unique<attn::ui::EmbeddingEditor>();
    else
        shown = std::make_unique<attn::ui::HelpDialog>();
    shown->show();
    QVERIFY(QTest::qWaitForWindowExposed(shown.get()));
    QPushButton* close = nullptr;
    for (const QDialogButtonBox* box : shown->findChildren<QDialogButtonBox*>())
        if (QPushButton* button = box->button(QDialogButtonBox::Close))
            close = button;
    QVERIFY2(close, "no Close button");
    QVERIFY(close->isVisible());
    QTest::mouseClick(close, Qt::LeftButton);
    QVERIFY(!shown->isVisible());
}

void TestPanels::presetLinesEvenlyApart_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << u"en"_qs;
    QTest::newRow("zh_CN") << u"zh_CN"_qs;
}

// The preset panel's text in either language: its lines one pitch apart, the same in both.
void TestPanels::presetLinesEvenlyApart()
{
    QFETCH(QString, language);
    attn::ui::Language languages;
    QVERIFY(languages.apply(language));
    attn::ui::PresetPanel panel;
    panel.showPreset(u"article"_qs);
    panel.resize(360, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto* browser = panel.findChild<QTextBrowser*>(u"presetExplanation"_qs);
    QVERIFY(browser);
    QTextDocument* document = browser->document();
    const double em = QFontInfo(browser->font()).pixelSize();

    // Baselines: the same distance apart within every paragraph and list item.
    QList<double> pitches;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        const QTextLayout* layout = block.layout();
        for (int k = 1; k < layout->lineCount(); ++k) {
            const QTextLine above = layout->lineAt(k - 1);
            const QTextLine line = layout->lineAt(k);
            pitches << (line.y() + line.ascent()) - (above.y() + above.ascent());
        }
    }
    QVERIFY(pitches.size() >= 4);
    const auto [least, most] = std::minmax_element(pitches.begin(), pitches.end());
    QVERIFY2(*most - *least <= 1,
             qPrintable(QStringLiteral("lines %1 to %2 px apart").arg(*least).arg(*most)));
    // As far apart in Chinese as in English: a third of an em or so between lines.
    QVERIFY2(*most >= 1.2 * em && *most <= 1.4 * em,
             qPrintable(QStringLiteral("lines %1 px apart, the font %2 px").arg(*most).arg(em)));
}

// Each bullet of the preset panel's lists centred on its text's ink, not above it.
void TestPanels::presetBulletsLevelWithTheText()
{
    QFETCH(QString, language);
    attn::ui::Language languages;
    QVERIFY(languages.apply(language));
    attn::ui::PresetPanel panel;
    panel.showPreset(u"article"_qs);
    panel.resize(360, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto* browser = panel.findChild<QTextBrowser*>(u"presetExplanation"_qs);
    QVERIFY(browser);
    QTextDocument* document = browser->document();
    const double em = QFontInfo(browser->font()).pixelSize();

    QImage image(document->size().toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        document->drawContents(&painter);
    }
    const auto inked = [&image](int x, int y) { return qGray(image.pixel(x, y)) < 160; };
    int items = 0;
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (!block.textList() && !block.text().startsWith(u'•'))
            continue;
        const QRectF box = document->documentLayout()->blockBoundingRect(block);
        const QTextLine first = block.layout()->lineAt(0);
        const int top = int(box.top() + first.y());
        const int bottom =
            std::min(image.height() - 1, int(box.top() + first.y() + first.height()));
        const auto columnInk = [&](int x) {
            for (int y = top; y <= bottom; ++y)
                if (inked(x, y))
                    return true;
            return false;
        };
        const auto inkRows = [&](int from, int to) { // the ink's top and bottom in [from, to)
            int high = bottom + 1, low = top - 1;
            for (int x = from; x < to; ++x)
                for (int y = top; y <= bottom; ++y)
                    if (inked(x, y)) {
                        high = std::min(high, y);
                        low = std::max(low, y);
                    }
            return (high + low) / 2.0;
        };
        int x = 0;
        while (x < image.width() && !columnInk(x))
            ++x;
        const int bulletLeft = x;
        while (x < image.width() && columnInk(x))
            ++x;
        const int bulletRight = x;
        while (x < image.width() && !columnInk(x))
            ++x;
        QVERIFY2(x < image.width(), "no text after the bullet");
        const double bullet = inkRows(bulletLeft, bulletRight);
        const double text = inkRows(x, std::min(image.width(), x + int(3 * em)));
        QVERIFY2(std::abs(bullet - text) <= 0.12 * em,
                 qPrintable(QStringLiteral("item %1: bullet centred at y %2, its text at %3")
                                .arg(items)
                                .arg(bullet)
                                .arg(text)));
        ++items;
    }
    QVERIFY(items >= 3);
}

QTEST_MAIN(TestPanels)
#include "tst_panels.moc"
