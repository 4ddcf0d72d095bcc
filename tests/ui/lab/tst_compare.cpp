// Compare: two configurations of one text side by side and their difference B − A — the
// arithmetic (difference, largest magnitude, where it is), the dialog (textbook A, Copy
// A → B, Swap A ↔ B) and the exported figure (SVG read back, PNG size).
#include "comparedialog.h"
#include "comparefigure.h"
#include "engine/engine.h"
#include "heatmapview.h"
#include "lab/comparison.h"

#include <QAbstractButton>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>
#include <functional>
#include <limits>

using namespace attn;
using namespace attn::ui;

using ConfigChange = std::function<void(Config&)>;
Q_DECLARE_METATYPE(ConfigChange)
Q_DECLARE_METATYPE(attn::Matrix)
Q_DECLARE_METATYPE(attn::MaskMatrix)

namespace {

constexpr int kTimeoutMs = 30000;
const float kNaN = std::numeric_limits<float>::quiet_NaN();

// Two lines, so that the second is padded and both sequences can be chosen.
Request baseRequest()
{
    Request r;
    r.text = "猫 坐 在 垫子 上 因为 它 累 了\nThe cat sat";
    r.config.tokenizer = TokenizerMode::Spaces;
    r.config.dModel = 32;
    r.config.heads = 4;
    r.config.seed = 42;
    return r;
}

Result compute(const Request& r)
{
    AttentionEngine engine;
    return engine.compute(r);
}

Matrix matrix(std::initializer_list<std::initializer_list<float>> rows)
{
    Matrix m(Eigen::Index(rows.size()), Eigen::Index(rows.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& row : rows) {
        Eigen::Index j = 0;
        for (const float value : row)
            m(i, j++) = value;
        ++i;
    }
    return m;
}

// Whether `actual` equals `expected` exactly (NaN equal to NaN), with the first cell that
// does not in `*where`.
bool sameCells(const Matrix& actual, const Matrix& expected, QString* where)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols()) {
        *where = QStringLiteral("shapes %1×%2 and %3×%4")
                     .arg(actual.rows())
                     .arg(actual.cols())
                     .arg(expected.rows())
                     .arg(expected.cols());
        return false;
    }
    for (Eigen::Index i = 0; i < actual.rows(); ++i)
        for (Eigen::Index j = 0; j < actual.cols(); ++j) {
            const float x = actual(i, j), y = expected(i, j);
            if ((std::isnan(x) && std::isnan(y)) || x == y)
                continue;
            *where = QStringLiteral("cell (%1, %2): %3, expected %4")
                         .arg(i)
                         .arg(j)
                         .arg(double(x), 0, 'g', 9)
                         .arg(double(y), 0, 'g', 9);
            return false;
        }
    return true;
}

// Waits until both sides computed what they ask for now, completely.
bool settle(CompareDialog& dialog)
{
    return QTest::qWaitFor([&] { return !dialog.busy() && dialog.complete(); }, kTimeoutMs);
}

QString svgTexts(const QByteArray& svg, QString* error)
{
    QXmlStreamReader xml(svg);
    QString texts;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"text") // a word in two fonts is two <text> elements in a row
            texts += xml.readElementText();
    }
    if (xml.hasError())
        *error = xml.errorString();
    return texts;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void differenceArithmetic_data();
    void differenceArithmetic();
    void switchesOnly();
    void todaysSwitchesAreCompared();
    void titlesNameTodaysSwitch_data();
    void titlesNameTodaysSwitch();
    void dialogCarriesTodaysSwitches();
    void captionNamesTheArgmax();
    void equalConfigurationsGiveZero();
    void sidesHaveNoMnemonics();
    void startsFromTextbookAndWindow();
    void swapNegates();
    void differenceMatchesEngine_data();
    void differenceMatchesEngine();
    void exportSvg();
    void exportPng_data();
    void exportPng();
    void exportFailures();
    void followsTheWindowsColours();
    void rowsLineUp();
    void grabDialog();
};

void TestCompare::differenceArithmetic_data()
{
    QTest::addColumn<Matrix>("a");
    QTest::addColumn<Matrix>("b");
    QTest::addColumn<MaskMatrix>("mask");
    QTest::addColumn<float>("maxAbs");
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("nanCount");

    const Matrix a = matrix({{0.5f, 0.5f, 0.0f}, {0.2f, 0.3f, 0.5f}});
    const MaskMatrix none;
    MaskMatrix upper(2, 3);
    upper << false, true, true, false, false, true;

    QTest::newRow("equal: every cell 0, max 0 at the first cell")
        << a << a << none << 0.0f << 0 << 0 << 0;
    QTest::newRow("one cell changed")
        << a << matrix({{0.5f, 0.5f, 0.0f}, {0.2f, 0.9f, 0.5f}}) << none << 0.6f << 1 << 1 << 0;
    QTest::newRow("negative change counts by magnitude")
        << a << matrix({{0.5f, 0.1f, 0.0f}, {0.2f, 0.4f, 0.5f}}) << none << 0.4f << 0 << 1 << 0;
    QTest::newRow("masked cell left out of the largest")
        << a << matrix({{0.5f, 0.0f, 0.0f}, {0.3f, 0.3f, 0.5f}}) << upper << 0.1f << 1 << 0 << 0;
    QTest::newRow("NaN cell left out, counted")
        << a << matrix({{kNaN, 0.5f, 0.0f}, {0.2f, 0.3f, 0.25f}}) << none << 0.25f << 1 << 2 << 1;
    QTest::newRow("tie: first in row-major order")
        << a << matrix({{0.5f, 0.5f, 0.25f}, {0.2f, 0.3f, 0.75f}}) << none << 0.25f << 0 << 2 << 0;
}

void TestCompare::differenceArithmetic()
{
    QFETCH(Matrix, a);
    QFETCH(Matrix, b);
    QFETCH(MaskMatrix, mask);
    QFETCH(float, maxAbs);
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(int, nanCount);

    const WeightDifference d = weightDifference(a, b, MaskMatrix(), mask);
    Matrix expected = b - a;
    for (Eigen::Index k = 0; k < expected.size(); ++k)
        if (std::isnan(a.data()[k]) || std::isnan(b.data()[k]))
            expected.data()[k] = kNaN;
    QString where;
    QVERIFY2(sameCells(d.delta, expected, &where), qPrintable(where));
    QCOMPARE(d.maxAbs, maxAbs);
    QCOMPARE(d.row, row);
    QCOMPARE(d.column, column);
    QCOMPARE(d.nanCount, nanCount);
    QCOMPARE(d.masked.size() != 0, mask.size() != 0);

    // Swapping the sides negates every cell and keeps the largest and its place.
    const WeightDifference swapped = weightDifference(b, a, mask, MaskMatrix());
    QVERIFY2(sameCells(swapped.delta, -d.delta, &where), qPrintable(where));
    QCOMPARE(swapped.maxAbs, d.maxAbs);
    QCOMPARE(swapped.row, d.row);
    QCOMPARE(swapped.column, d.column);
}

void TestCompare::switchesOnly()
{
    Config window = baseRequest().config;
    window.mask = MaskKind::Causal;
    window.axis = SoftmaxAxis::Queries;
    window.temperature = 0.5f;
    window.headSplit = HeadSplit::View;

    const Config textbook = textbookSwitches(window);
    QCOMPARE(textbook.mask, MaskKind::Causal); // the window's mask setting is kept
    QCOMPARE(textbook.axis, SoftmaxAxis::Keys);
    QCOMPARE(textbook.temperature, 1.0f);
    QCOMPARE(textbook.scale, ScaleMode::SqrtDk);
    QCOMPARE(textbook.maskStage, MaskStage::BeforeSoftmax);
    QCOMPARE(textbook.headSplit, HeadSplit::Transpose);
    QCOMPARE(textbook.dModel, window.dModel);
    QVERIFY(sameInput(textbook, window));

    Config otherSeed = window;
    otherSeed.seed = 7;
    QVERIFY(!sameInput(otherSeed, window));
    Config expected = window;
    expected.seed = 7;
    QCOMPARE(withSwitches(otherSeed, window), expected);
}

// QK-norm, ALiBi, the cap, the window and the sink are switches of the formula: A's
// textbook leaves them out, and the same Q, K and V make both sides. The K/V heads and RoPE
// change the keys: both sides share them.
void TestCompare::todaysSwitchesAreCompared()
{
    Config today = baseRequest().config;
    today.kvHeads = 2;
    today.positional = Positional::Rope;
    today.ropeTheta = 500000;
    today.qkNorm = true;
    today.alibi = true;
    today.softcap = 30;
    today.mask = MaskKind::Causal;
    today.window = 3;
    today.sink = 0.0f;

    const Config textbook = textbookSwitches(today);
    QVERIFY(!textbook.qkNorm && !textbook.alibi && !textbook.sink);
    QCOMPARE(textbook.softcap, 0.0f);
    QCOMPARE(textbook.window, 0);
    QCOMPARE(textbook.kvHeads, 2);
    QCOMPARE(textbook.positional, Positional::Rope);
    QCOMPARE(textbook.ropeTheta, 500000.0f);
    QVERIFY(sameInput(textbook, today));
    QCOMPARE(withSwitches(textbook, today), today);

    Config fewerKeys = today;
    fewerKeys.kvHeads = 1;
    QVERIFY(!sameInput(fewerKeys, today));
    QCOMPARE(withSwitches(fewerKeys, textbook).kvHeads, 1);
    Config sinusoidal = today;
    sinusoidal.positional = Positional::Sinusoidal;
    QVERIFY(!sameInput(sinusoidal, today));
}

void TestCompare::titlesNameTodaysSwitch_data()
{
    QTest::addColumn<ConfigChange>("change"); // B's, on the textbook A
    QTest::addColumn<QString>("note");        // what B's title says and A's does not
    QTest::newRow("soft-cap") << ConfigChange([](Config& c) { c.softcap = 30; }) << "c = 30";
    QTest::newRow("window") << ConfigChange([](Config& c) { c.window = 4; }) << "W = 4";
    QTest::newRow("sink") << ConfigChange([](Config& c) { c.sink = 1.0f; }) << "s = 1";
    QTest::newRow("sink at 0") << ConfigChange([](Config& c) { c.sink = 0.0f; }) << "s = 0";
}

// Two sides apart in one of today's switches have titles that say which.
void TestCompare::titlesNameTodaysSwitch()
{
    QFETCH(ConfigChange, change);
    QFETCH(QString, note);
    const Request a = baseRequest();
    Request b = a;
    change(b.config);
    const Comparison c = compareResults(compute(a), compute(b), 0, 0);
    QVERIFY2(c.b.title.contains(note), qPrintable(c.b.title));
    QVERIFY2(!c.a.title.contains(note), qPrintable(c.a.title));
    QVERIFY(c.a.title != c.b.title);

    // Shared by both sides, the K/V heads and RoPE's θ are in both titles.
    Request grouped = a;
    grouped.config.kvHeads = 2;
    grouped.config.positional = Positional::Rope;
    grouped.config.ropeTheta = 500000;
    Request groupedB = grouped;
    change(groupedB.config);
    const Comparison g = compareResults(compute(grouped), compute(groupedB), 0, 0);
    for (const QString& title : {g.a.title, g.b.title}) {
        QVERIFY2(title.contains(QStringLiteral("2 K/V heads")), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("θ = 500000")), qPrintable(title));
    }
    QVERIFY2(g.b.title.contains(note) && !g.a.title.contains(note), qPrintable(g.b.title));
}

// The dialog's B takes the window's switches of today, A the textbook's; Copy A → B and
// Swap carry them.
void TestCompare::dialogCarriesTodaysSwitches()
{
    Request window = baseRequest();
    window.config.softcap = 10;
    window.config.alibi = true;
    window.config.mask = MaskKind::Causal;
    window.config.window = 3;
    window.config.sink = 1.0f;
    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    QCOMPARE(dialog.request(CompareDialog::Side::B), window);
    const Config a = dialog.request(CompareDialog::Side::A).config;
    QVERIFY(a.softcap == 0 && !a.alibi && a.window == 0 && !a.sink);
    QCOMPARE(a.mask, MaskKind::Causal);
    QVERIFY(settle(dialog));
    QVERIFY2(dialog.view(1)->data().title.contains(QStringLiteral("c = 10")),
             qPrintable(dialog.view(1)->data().title));
    QVERIFY(dialog.comparison().stats.maxAbs > 0);
    // The caption lists each side's switches, today's among them.
    const QString captionB =
        switchesCaption(window.config, true).replace(QChar(QChar::Nbsp), u' '); // no breaks inside
    for (const char* part : {"ALiBi", "soft-cap c = 10", "window of 3 keys", "sink s = 1"})
        QVERIFY2(captionB.contains(QLatin1String(part)), qPrintable(captionB));
    QVERIFY(!switchesCaption(a, true).contains(QStringLiteral("soft-cap")));

    dialog.swapAB();
    QCOMPARE(dialog.request(CompareDialog::Side::A), window);
    dialog.copyAToB();
    QCOMPARE(dialog.request(CompareDialog::Side::B), window);
    QVERIFY(settle(dialog));
    QCOMPARE(dialog.comparison().stats.maxAbs, 0.0f);
}

void TestCompare::captionNamesTheArgmax()
{
    // Binary fractions, so that every difference is exact.
    Comparison c;
    c.a.weights = matrix({{1.0f, 0.0f, 0.0f}, {0.5f, 0.5f, 0.0f}, {0.25f, 0.25f, 0.5f}});
    c.b.weights = matrix({{1.0f, 0.0f, 0.0f}, {0.75f, 0.25f, 0.0f}, {0.5f, 0.25f, 0.25f}});
    c.stats = weightDifference(c.a.weights, c.b.weights, {}, {});
    c.difference.weights = c.stats.delta;
    c.difference.queryLabels =
        c.difference.keyLabels = {QStringLiteral("猫"), QStringLiteral("坐"), QStringLiteral("它")};
    QCOMPARE(c.stats.maxAbs, 0.25f);
    QCOMPARE(c.stats.row, 1); // 0.25 four times: the first in row-major order wins
    QCOMPARE(c.stats.column, 0);
    const QString caption = differenceCaption(c);
    QVERIFY2(caption.startsWith(
                 QStringLiteral("largest |B − A| = 0.25 at query 坐 (row 1), key 猫 (column 0)")),
             qPrintable(caption));
    QVERIFY2(caption.contains(QStringLiteral("0.50 in A, 0.75 in B")), qPrintable(caption));
    const QString hover = comparisonHoverText(c, 2, 2);
    QVERIFY2(hover.contains(QStringLiteral("key 它 (column 2): A 0.50 · B 0.25 · B − A -0.25")),
             qPrintable(hover));

    c.b.weights = c.a.weights;
    c.stats = weightDifference(c.a.weights, c.b.weights, {}, {});
    QVERIFY(differenceCaption(c).startsWith(QStringLiteral("B − A = 0")));
}

void TestCompare::equalConfigurationsGiveZero()
{
    CompareDialog dialog(nullptr);
    dialog.setBase(baseRequest()); // the window's switches are the textbook's: A = B
    QVERIFY(settle(dialog));
    QCOMPARE(dialog.request(CompareDialog::Side::A), dialog.request(CompareDialog::Side::B));

    const auto verifyZero = [&](const char* when) {
        const Comparison& c = dialog.comparison();
        QVERIFY2(c.difference.rows() > 0, when);
        for (Eigen::Index k = 0; k < c.difference.weights.size(); ++k)
            QVERIFY2(c.difference.weights.data()[k] == 0.0f, when);
        QCOMPARE(c.stats.maxAbs, 0.0f);
        QVERIFY2(dialog.captionText().startsWith(QStringLiteral("B − A = 0")), when);
        // Every head of every sequence, not just the one shown.
        const Result& a = dialog.result(CompareDialog::Side::A);
        const Result& b = dialog.result(CompareDialog::Side::B);
        for (std::size_t k = 0; k < a.weights->items().size(); ++k)
            QVERIFY2((a.weights->items()[k].array() == b.weights->items()[k].array()).all(), when);
    };
    verifyZero("A equals B");

    Config queries = dialog.request(CompareDialog::Side::B).config;
    queries.axis = SoftmaxAxis::Queries;
    dialog.setSwitches(CompareDialog::Side::B, queries);
    QVERIFY(settle(dialog));
    QVERIFY(dialog.comparison().stats.maxAbs > 0.0f);

    dialog.copyAToB();
    QCOMPARE(dialog.request(CompareDialog::Side::B), dialog.request(CompareDialog::Side::A));
    QVERIFY(settle(dialog));
    verifyZero("after Copy A → B");
}

// The two sides share one switches editor with the control panel, whose labels have
// Alt+letters; side by side they would clash with each other and with Sequence.
void TestCompare::sidesHaveNoMnemonics()
{
    CompareDialog dialog(nullptr);
    for (const char* side : {"switchesA", "switchesB"}) {
        auto* form = dialog.findChild<QWidget*>(QLatin1String(side));
        QVERIFY(form);
        QStringList texts;
        for (const QLabel* label : form->findChildren<QLabel*>())
            texts << label->text();
        for (const QAbstractButton* button : form->findChildren<QAbstractButton*>())
            texts << button->text();
        QVERIFY(texts.size() > 8);
        for (const QString& text : texts)
            QVERIFY2(!text.contains(u'&'), qPrintable(text));
    }
}

void TestCompare::startsFromTextbookAndWindow()
{
    Request window = baseRequest();
    window.config.mask = MaskKind::Causal;
    window.config.scale = ScaleMode::None;
    window.config.temperature = 2.0f;
    window.config.paddingMask = false;
    CompareDialog dialog(nullptr);
    dialog.setBase(window);

    Request textbook = window;
    textbook.config = textbookSwitches(window.config);
    QCOMPARE(dialog.request(CompareDialog::Side::A), textbook);
    QCOMPARE(dialog.request(CompareDialog::Side::B), window);
    QVERIFY(settle(dialog));
    QVERIFY2(dialog.view(0)->data().title.contains(QStringLiteral("softmax(QKᵀ/√d_k + M, dim=-1)")),
             qPrintable(dialog.view(0)->data().title));
    QVERIFY2(dialog.view(1)->data().title.contains(QStringLiteral("softmax(QKᵀ/τ + M, dim=-1)")),
             qPrintable(dialog.view(1)->data().title));
    QVERIFY(dialog.view(1)->data().title.contains(QStringLiteral("τ = 2")));
    QVERIFY(dialog.view(2)->data().title.startsWith(QStringLiteral("B − A")));
    QCOMPARE(dialog.view(2)->heatmapStyle().colormap, ColormapName::Diverging);
    QCOMPARE(dialog.view(2)->heatmapStyle().vmin, -dialog.view(2)->heatmapStyle().vmax);
    QCOMPARE(dialog.view(2)->heatmapStyle().vmax, double(dialog.comparison().stats.maxAbs));

    // Another sentence from the window keeps both sides' switches.
    Request other = window;
    other.text = "The cat sat on the mat";
    dialog.setSharedInput(other);
    QCOMPARE(dialog.request(CompareDialog::Side::B), other);
    QCOMPARE(dialog.request(CompareDialog::Side::A).config, textbookSwitches(other.config));
    QVERIFY(settle(dialog));
    QCOMPARE(dialog.comparison().a.columns(), 6);
}

void TestCompare::swapNegates()
{
    Request window = baseRequest();
    window.config.axis = SoftmaxAxis::Queries;
    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    QVERIFY(settle(dialog));
    const Request a = dialog.request(CompareDialog::Side::A);
    const Request b = dialog.request(CompareDialog::Side::B);
    const Comparison before = dialog.comparison();
    QVERIFY(before.stats.maxAbs > 0.0f);

    dialog.swapAB();
    QCOMPARE(dialog.request(CompareDialog::Side::A), b);
    QCOMPARE(dialog.request(CompareDialog::Side::B), a);
    QVERIFY(settle(dialog));
    const Comparison after = dialog.comparison();
    QString where;
    QVERIFY2(sameCells(after.difference.weights, -before.difference.weights.get(), &where),
             qPrintable(where));
    QVERIFY2(sameCells(after.a.weights, before.b.weights, &where), qPrintable(where));
    QCOMPARE(after.stats.maxAbs, before.stats.maxAbs);
    QCOMPARE(after.stats.row, before.stats.row);
    QCOMPARE(after.stats.column, before.stats.column);
}

void TestCompare::differenceMatchesEngine_data()
{
    QTest::addColumn<ConfigChange>("change");
    QTest::newRow("axis=queries") << ConfigChange([](Config& c) { c.axis = SoftmaxAxis::Queries; });
    QTest::newRow("scale none") << ConfigChange([](Config& c) { c.scale = ScaleMode::None; });
    QTest::newRow("τ=0.5") << ConfigChange([](Config& c) { c.temperature = 0.5f; });
    QTest::newRow("causal after-softmax") << ConfigChange([](Config& c) {
        c.mask = MaskKind::Causal;
        c.maskStage = MaskStage::AfterSoftmax;
    });
}

void TestCompare::differenceMatchesEngine()
{
    QFETCH(ConfigChange, change);
    Request window = baseRequest();
    change(window.config);
    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    QVERIFY(settle(dialog));

    // The engine on its own, with A's textbook switches and B's changed ones.
    Request textbook = window;
    textbook.config = textbookSwitches(window.config);
    const Result a = compute(textbook);
    const Result b = compute(window);
    QCOMPARE(dialog.result(CompareDialog::Side::A).request, textbook);

    for (int sequence = 0; sequence < a.batch(); ++sequence) {
        dialog.setSequence(sequence);
        for (int head = -1; head < a.heads(); ++head) {
            dialog.setHead(head);
            QCOMPARE(dialog.head(), head);
            const Comparison& shown = dialog.comparison();
            const Comparison expected = compareResults(a, b, sequence, head);
            const QByteArray where =
                QStringLiteral("sequence %1, head %2: ").arg(sequence).arg(head).toUtf8();
            QString cell;
            QVERIFY2(sameCells(shown.difference.weights,
                               expected.b.weights.get() - expected.a.weights.get(), &cell),
                     (where + cell.toUtf8()).constData());
            QVERIFY2(sameCells(shown.a.weights, expected.a.weights, &cell),
                     (where + cell.toUtf8()).constData());

            // The caption's cell is the largest |B − A| among the cells neither side masks.
            float largest = 0;
            int row = -1, column = -1;
            for (int i = 0; i < shown.difference.rows(); ++i)
                for (int j = 0; j < shown.difference.columns(); ++j)
                    if (!shown.difference.isMasked(i, j) &&
                        std::abs(shown.difference.weights(i, j)) > largest) {
                        largest = std::abs(shown.difference.weights(i, j));
                        row = i;
                        column = j;
                    }
            QVERIFY(row >= 0);
            QCOMPARE(shown.stats.maxAbs, largest);
            QCOMPARE(shown.stats.row, row);
            QCOMPARE(shown.stats.column, column);
            const QString caption = dialog.captionText();
            QVERIFY2(caption.contains(QStringLiteral("query %1 (row %2), key %3 (column %4)")
                                          .arg(shown.difference.queryLabel(row))
                                          .arg(row)
                                          .arg(shown.difference.keyLabel(column))
                                          .arg(column)),
                     qPrintable(caption));
        }
    }
}

void TestCompare::exportSvg()
{
    Request window = baseRequest();
    window.config.axis = SoftmaxAxis::Queries;
    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    QVERIFY(settle(dialog));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("compare.svg"));
    const QString error = dialog.exportTo(path);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray svg = file.readAll();

    QString xmlError;
    const QString texts = svgTexts(svg, &xmlError);
    QVERIFY2(xmlError.isEmpty(), qPrintable(xmlError));
    QVERIFY(QSvgRenderer(svg).isValid());
    const Comparison& c = dialog.comparison();
    for (const QString& title : {c.a.title, c.b.title, c.difference.title})
        QVERIFY2(texts.contains(title), qPrintable(title));
    QVERIFY(c.a.title.contains(QStringLiteral("dim=-1")));
    QVERIFY(c.b.title.contains(QStringLiteral("dim=-2")));
    // The caption lists both configurations and the largest difference.
    QVERIFY(texts.contains(QStringLiteral("largest |B − A|")));
    QVERIFY(texts.contains(QStringLiteral("A:")));
    QVERIFY(texts.contains(QStringLiteral("B:")));
    QVERIFY(svg.contains("<desc>"));

    const QString pdf = dir.filePath(QStringLiteral("compare.pdf"));
    QVERIFY(dialog.exportTo(pdf).isEmpty());
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5) == "%PDF-");
}

void TestCompare::exportPng_data()
{
    QTest::addColumn<int>("head");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<bool>("annotate");
    QTest::newRow("head 1, scale 2") << 1 << 2.0 << 0 << false;
    QTest::newRow("mean, scale 1, values in cells") << -1 << 1.0 << 0 << true;
    QTest::newRow("head 0, 300 dpi") << 0 << 2.0 << 300 << false;
}

void TestCompare::exportPng()
{
    QFETCH(int, head);
    QFETCH(double, scale);
    QFETCH(int, dpi);
    QFETCH(bool, annotate);
    Request window = baseRequest();
    window.config.scale = ScaleMode::None;
    Request textbook = window;
    textbook.config = textbookSwitches(window.config);
    const Result a = compute(textbook);
    const Result b = compute(window);

    ComparisonOptions options;
    options.head = head;
    options.sequence = 1;
    options.scale = scale;
    options.dpi = dpi;
    options.annotate = annotate;
    options.title = QStringLiteral("Why divide by √d_k?");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("compare.png"));
    const QString error = exportComparison(path, FigureFormat::Png, a, b, options);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    const QImage image(path);
    QVERIFY(!image.isNull());
    const QSize expected = comparisonPixelSize(a, b, options);
    QCOMPARE(image.size(), expected);
    const QSizeF points = comparisonLayout(a, b, options).size;
    const double factor = dpi > 0 ? dpi / 72.0 : scale;
    QCOMPARE(expected, QSize(qRound(points.width() * factor), qRound(points.height() * factor)));
    QCOMPARE(comparisonLayout(a, b, options).tiles.size(), std::size_t(3));
    // Three tiles side by side: wider than tall.
    QVERIFY(image.width() > image.height());
}

// A and B take the main window's colormap and colour scale, on screen and in the export;
// B − A keeps its diverging, linear scale around 0.
void TestCompare::followsTheWindowsColours()
{
    Request window = baseRequest();
    window.config.mask = MaskKind::Causal;
    window.config.scale = ScaleMode::None;
    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    QVERIFY(settle(dialog));
    QCOMPARE(dialog.view(0)->heatmapStyle().colormap, ColormapName::Viridis);
    QVERIFY(!dialog.view(0)->heatmapStyle().logScale);
    QTemporaryDir dir;
    const QString viridisPath = dir.filePath(QStringLiteral("viridis.png"));
    QCOMPARE(dialog.exportTo(viridisPath), QString());

    dialog.setColourScale(ColormapName::Magma, true);
    const Comparison& comparison = dialog.comparison();
    for (const int k : {0, 1}) {
        const HeatmapStyle& style = dialog.view(k)->heatmapStyle();
        QCOMPARE(style.colormap, ColormapName::Magma);
        QVERIFY(style.logScale);
        QCOMPARE(style.vmax, comparison.weightMax);
        QCOMPARE(style.vmin, logScaleFloor(comparison.weightMax, comparison.a.columns()));
        QVERIFY(style.vmin > 0);
    }
    const HeatmapStyle& difference = dialog.view(2)->heatmapStyle();
    QCOMPARE(difference.colormap, ColormapName::Diverging);
    QVERIFY(!difference.logScale);
    QCOMPARE(difference.vmin, -difference.vmax);

    // The export draws what the dialog shows: the pixels of the figure asked for in magma
    // by the logarithm, not those of the viridis one.
    const QString magmaPath = dir.filePath(QStringLiteral("magma.png"));
    QCOMPARE(dialog.exportTo(magmaPath), QString());
    ComparisonOptions options;
    options.head = dialog.head();
    options.sequence = dialog.sequence();
    options.annotate = true; // nine tokens: the dialog prints the values
    options.colormap = ColormapName::Magma;
    options.logScale = true;
    const QString expectedPath = dir.filePath(QStringLiteral("expected.png"));
    QCOMPARE(exportComparison(expectedPath, FigureFormat::Png,
                              dialog.result(CompareDialog::Side::A),
                              dialog.result(CompareDialog::Side::B), options),
             QString());
    const QImage magma(magmaPath), expected(expectedPath), viridis(viridisPath);
    QVERIFY(!magma.isNull() && !viridis.isNull());
    QCOMPARE(magma, expected);
    QVERIFY(magma != viridis);
}

// A, B and B − A side by side in cells of one size, their rows on the same lines: B − A's
// longer colorbar ticks alone would give it smaller cells, placed lower.
void TestCompare::rowsLineUp()
{
    Request window = baseRequest();
    window.config.mask = MaskKind::Causal;
    window.config.scale = ScaleMode::None;
    CompareDialog dialog(nullptr);
    dialog.resize(1300, 780);
    dialog.setBase(window);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(settle(dialog));
    bool narrowed = false; // B − A kept A and B from their own larger cells
    for (const QSize size : {QSize(1300, 780), QSize(1000, 900), QSize(1500, 700)}) {
        dialog.resize(size);
        QTRY_COMPARE(dialog.view(0)->size(), dialog.view(2)->size());
        const HeatmapLayout& a = dialog.view(0)->heatmapLayout();
        for (const int k : {1, 2}) {
            const HeatmapLayout& other = dialog.view(k)->heatmapLayout();
            QCOMPARE(other.cellSize(), a.cellSize());
            QCOMPARE(other.gridRect().top(), a.gridRect().top());
            QCOMPARE(other.gridRect().height(), a.gridRect().height());
        }
        // The difference alone fits the cells all three have; A and B alone larger ones.
        HeatmapStyle alone = dialog.view(2)->heatmapStyle();
        alone.maxCellSize = 0;
        alone.labelFont = dialog.view(2)->font();
        const HeatmapLayout natural(QRectF(dialog.view(2)->rect()), dialog.view(2)->data(), alone,
                                    dialog.view(2));
        QCOMPARE(natural.cellSize(), a.cellSize());
        HeatmapStyle weights = dialog.view(0)->heatmapStyle();
        weights.maxCellSize = 0;
        weights.labelFont = dialog.view(0)->font();
        const double weightsAlone = HeatmapLayout(QRectF(dialog.view(0)->rect()),
                                                  dialog.view(0)->data(), weights, dialog.view(0))
                                        .cellSize();
        QVERIFY(weightsAlone >= a.cellSize());
        narrowed = narrowed || weightsAlone > a.cellSize();
    }
    QVERIFY(narrowed); // in a dialog wide enough that the height does not decide
}

void TestCompare::exportFailures()
{
    const Request window = baseRequest();
    const Result a = compute(window);
    QTemporaryDir dir;

    // Different sentences cannot be compared; nothing is written.
    Request other = window;
    other.text = "The cat sat";
    const QString path = dir.filePath(QStringLiteral("compare.svg"));
    QVERIFY(!exportComparison(path, FigureFormat::Svg, a, compute(other), {}).isEmpty());
    QVERIFY(!QFile::exists(path));

    // A directory that does not exist: an error, no partial file.
    const QString missing = dir.filePath(QStringLiteral("missing/compare.png"));
    QVERIFY(!exportComparison(missing, FigureFormat::Png, a, a, {}).isEmpty());
    QVERIFY(!QFile::exists(missing));

    // Numbers are not a figure of a comparison.
    QVERIFY(
        !exportComparison(dir.filePath(QStringLiteral("compare.csv")), FigureFormat::Csv, a, a, {})
             .isEmpty());

    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    QVERIFY(settle(dialog));
    QVERIFY(!dialog.exportTo(dir.filePath(QStringLiteral("compare.txt"))).isEmpty());
}

void TestCompare::grabDialog()
{
    Request window;
    window.text = "猫 坐 在 垫子 上 因为 它 累 了";
    window.config.tokenizer = TokenizerMode::Spaces;
    window.config.axis = SoftmaxAxis::Queries;
    CompareDialog dialog(nullptr);
    dialog.setBase(window);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(settle(dialog));
    const QImage image = dialog.grab().toImage();
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), dialog.size() * dialog.devicePixelRatio());
    // For a look at it: ATTN_COMPARE_GRAB=/some/where.png, and its export beside it.
    if (const QString path = qEnvironmentVariable("ATTN_COMPARE_GRAB"); !path.isEmpty()) {
        QVERIFY(image.save(path));
        const QString figure =
            QString(path).replace(QStringLiteral(".png"), QStringLiteral("-figure.png"));
        QVERIFY(dialog.exportTo(figure).isEmpty());
    }
}

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
