// `attnscope compare --model DIR --text TEXT [switches] --layer L --what head:H|mean --out FIG`:
// the real binary writes the window's Compare A/B figure — A (the textbook model), B (the
// switched one), B − A — with both top-10 next tokens and the sentence on the top
// prediction in its caption: a PNG of the figure's size, SVG whose caption names the
// departures and every predicted token, a PDF. Bad input is exit status 2 (1 for a file that
// cannot be written) with one line naming it, and nothing written.
#include "clirun.h"
#include "filebytes.h"
#include "modelcomparison.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "models/predictioncomparison.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace attn;
using attn::test::headless;
using attn::test::readAll;
using namespace attn::ui;
using attn::test::Run;

namespace {

const QString kModel = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/small-f32");
const QString kText = QStringLiteral("the cat sat on the mat");
const QString kQwen = QStringLiteral(ATTN_REFERENCE_DIR "/llama/qwen3-bf16");
const QString kBert = QStringLiteral(ATTN_REFERENCE_DIR "/bert/bert-f32");

// The caption of an SVG figure (its <desc>).
QString descriptionOf(const QByteArray& svg)
{
    QXmlStreamReader xml(svg);
    QString description;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"desc")
            description = xml.readElementText();
    return xml.hasError() ? QString() : description;
}

} // namespace

class TestModelCompareCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void figures_data();
    void figures();
    void ropeOffIsB();
    void bertComparesTheFillInsOfTheMask();
    void bertWithoutAMaskSaysHowToAsk();
    void refuses_data();
    void refuses();

private:
    std::shared_ptr<const LanguageModel> model_;
};

void TestModelCompareCli::initTestCase()
{
    model_ = openModel(kModel.toStdString());
}

void TestModelCompareCli::figures_data()
{
    QTest::addColumn<QStringList>("switches");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("format");
    QTest::newRow("scale=none, head:2 as SVG") << QStringList{"--scale", "none"} << "head:2"
                                               << "svg";
    QTest::newRow("mask=none, mean as SVG") << QStringList{"--mask", "none"} << "mean"
                                            << "svg";
    QTest::newRow("view split, head:0 as SVG") << QStringList{"--head-split", "view"} << "head:0"
                                               << "svg";
    QTest::newRow("textbook, head:1 as SVG") << QStringList{} << "head:1"
                                             << "svg";
    QTest::newRow("only_layer=1 temperature=0.5, head:3 as PNG")
        << QStringList{"--only-layer", "1", "--temperature", "0.5"} << "head:3"
        << "png";
    QTest::newRow("scale=none, mean as PNG") << QStringList{"--scale", "none"} << "mean"
                                             << "png";
    QTest::newRow("scale=none, mean as PDF") << QStringList{"--scale", "none"} << "mean"
                                             << "pdf";
}

// PNG: the size of the figure laid out here from the same two runs, twice its points. SVG:
// well-formed XML, the three tiles' titles as text, a caption naming B's departures, both
// top 10s (each token in quotes) and the sentence on the top prediction. PDF: a PDF file.
void TestModelCompareCli::figures()
{
    QFETCH(QStringList, switches);
    QFETCH(QString, what);
    QFETCH(QString, format);
    const int layer = 1;
    QTemporaryDir dir;
    const QString out = dir.filePath("compare." + format);
    const Run run =
        headless(QStringList{"compare", "--model", kModel, "--text", kText} + switches +
                 QStringList{"--layer", QString::number(layer), "--what", what, "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QByteArray bytes = readAll(out);

    // The same two runs here: A textbook, B with the switches.
    ModelSwitches b;
    for (qsizetype k = 0; k + 1 < switches.size(); k += 2) {
        const QString& name = switches[k];
        const QString& value = switches[k + 1];
        if (name == u"--scale")
            b.formula.scale = ScaleMode::None;
        else if (name == u"--mask")
            b.formula.mask = MaskKind::None;
        else if (name == u"--head-split")
            b.formula.headSplit = HeadSplit::View;
        else if (name == u"--temperature")
            b.formula.temperature = value.toFloat();
        else if (name == u"--only-layer")
            b.onlyLayer = value.toInt();
    }
    const ModelRun textbook = model_->run(kText.toStdString(), {});
    const ModelRun switched = model_->run(kText.toStdString(), b);
    ModelComparisonOptions options;
    options.layer = layer;
    options.selection = *fileSelectionFromSpelling(what);
    options.departures = modelDepartures(b, model_->info());
    options.figure.annotate = switched.ids.size() <= 16;

    if (format == u"png") {
        const QImage image(out);
        QVERIFY2(!image.isNull(), "a PNG that loads");
        const QSizeF points = modelComparisonLayout(textbook, switched, options).size;
        QCOMPARE(image.size(), (points * 2).toSize());
    } else if (format == u"pdf") {
        QVERIFY2(bytes.startsWith("%PDF-"), bytes.left(16).constData());
    } else {
        QXmlStreamReader xml(bytes);
        QString description, text;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == u"desc")
                description = xml.readElementText();
            else if (xml.name() == u"text")
                text += xml.readElementText(QXmlStreamReader::IncludeChildElements) + u'|';
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        for (const char* title : {"A: textbook", "B: switched", "B − A"})
            QVERIFY2(text.contains(QString::fromUtf8(title)), title);
        QVERIFY2(description.startsWith("small-f32"), qPrintable(description));
        QVERIFY(description.contains("A: the textbook formula"));
        for (const QString& departure : options.departures)
            QVERIFY2(description.contains(departure), qPrintable(departure));
        if (options.departures.isEmpty())
            QVERIFY(description.contains("B: the textbook formula too"));
        const PredictionComparison predictions = comparePredictions(textbook, switched);
        for (const auto* side : {&predictions.a, &predictions.b})
            for (const RankedPrediction& p : *side) {
                // Each entry of the caption's lists is kept whole: its spaces unbreaking.
                const QString token =
                    quotedToken(p.prediction.label).replace(u' ', QChar(QChar::Nbsp));
                QVERIFY2(description.contains(token), qPrintable(token + " in " + description));
            }
        QVERIFY2(description.contains(predictionSummary(predictions, options.departures)),
                 qPrintable(description));
        QVERIFY(description.contains(predictions.topChanged() ? "The top prediction changes from"
                                                              : "Both predict"));
    }
}

// --rope off makes B: the rotary model's textbook formula without its positions, said in the
// caption as the window's Compare A/B says it.
void TestModelCompareCli::ropeOffIsB()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("rope.svg");
    const Run run = headless(QStringList{"compare", "--model", kQwen, "--text", "the cat sat",
                                         "--rope", "off", "--layer", "0", "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString description = descriptionOf(readAll(out));
    ModelSwitches b;
    b.rope = false;
    const QStringList departures = modelDepartures(b, model_->info());
    QCOMPARE(departures.size(), 1);
    QVERIFY2(description.contains(departures.front()), qPrintable(description));
    QVERIFY(!description.contains("B: the textbook formula too"));
}

// BERT predicts the token at a position: both sides' lists are the fill-ins for the [MASK]
// (position 4 of [CLS] 巴 黎 是 [MASK] …), not a "next token" after [SEP], the last.
void TestModelCompareCli::bertComparesTheFillInsOfTheMask()
{
    const std::string text = "巴黎是[MASK]国的首都。";
    QTemporaryDir dir;
    const QString out = dir.filePath("bert.svg");
    const Run run =
        headless(QStringList{"compare", "--model", kBert, "--text", QString::fromStdString(text),
                             "--mask", "causal", "--layer", "1", "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString description = descriptionOf(readAll(out));
    QVERIFY2(description.contains("fill-ins for [MASK] at position 4"), qPrintable(description));
    QVERIFY2(!description.contains("next token"), qPrintable(description));

    const std::shared_ptr<const LanguageModel> bert = openModel(kBert.toStdString());
    ModelSwitches a;
    a.formula = ModelSwitches::textbookFormula(false);
    ModelSwitches b = a;
    b.formula.mask = MaskKind::Causal;
    const ModelRun textbook = bert->run(text, a);
    const ModelRun switched = bert->run(text, b);
    const PredictionComparison predictions = comparePredictions(textbook, switched);
    QVERIFY(predictions.fillIn);
    QCOMPARE(predictions.position, 4);
    QCOMPARE(predictions.a.front().prediction, textbook.predictions(4, 10).front());
    QCOMPARE(predictions.b.front().prediction, switched.predictions(4, 10).front());
    for (const auto* side : {&predictions.a, &predictions.b})
        for (const RankedPrediction& p : *side) {
            const QString token = quotedToken(p.prediction.label).replace(u' ', QChar(QChar::Nbsp));
            QVERIFY2(description.contains(token), qPrintable(token + " in " + description));
        }
}

// Without [MASK] there is nothing to fill in: no lists, and the caption says how to ask.
void TestModelCompareCli::bertWithoutAMaskSaysHowToAsk()
{
    QTemporaryDir dir;
    const QString out = dir.filePath("bert.svg");
    const Run run =
        headless(QStringList{"compare", "--model", kBert, "--text", "巴黎是法国的首都。", "--mask",
                             "causal", "--layer", "0", "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString description = descriptionOf(readAll(out));
    QVERIFY2(description.contains("no [MASK] in the text to fill in"), qPrintable(description));
    QVERIFY2(description.contains("Type [MASK] in the sentence"), qPrintable(description));
    QVERIFY2(!description.contains("A's top"), qPrintable(description));
}

void TestModelCompareCli::refuses_data()
{
    QTest::addColumn<QStringList>("arguments"); // after compare
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword");
    const QStringList model{"--model", kModel, "--text", "the cat"};
    QTest::newRow("no such folder")
        << QStringList{"--model", "/nonexistent/gpt2", "--text", "cat", "--layer", "0"} << 2
        << "/nonexistent/gpt2: not a folder";
    QTest::newRow("no --text") << QStringList{"--model", kModel, "--layer", "0"} << 2 << "no text";
    QTest::newRow("empty text") << QStringList{"--model", kModel, "--text", "", "--layer", "0"} << 2
                                << "no text";
    QTest::newRow("no --layer") << model << 2 << "compare --model needs --layer L";
    QTest::newRow("layer out of range")
        << model + QStringList{"--layer", "2"} << 2 << "--layer 2: small-f32 has 2 layers, 0 to 1";
    QTest::newRow("head out of range") << model + QStringList{"--layer", "0", "--what", "head:4"}
                                       << 2 << "--what head:4: small-f32 has 4 heads, 0 to 3";
    QTest::newRow("--rope off without rotary positions")
        << model + QStringList{"--layer", "0", "--rope", "off"} << 2
        << "--rope applies to models with rotary positions";
    QTest::newRow("--what model") << model + QStringList{"--layer", "0", "--what", "model"} << 2
                                  << "--what must be head:H or mean for a comparison, not 'model'";
    QTest::newRow("--only-layer past the last")
        << model + QStringList{"--only-layer", "2", "--layer", "0"} << 2
        << "--only-layer 2: the model has 2 layers";
    QTest::newRow("--d-model with a model")
        << model + QStringList{"--d-model", "64", "--layer", "0"} << 2
        << "--d-model does not apply with --model";
    QTest::newRow("--a-scale with a model")
        << model + QStringList{"--a-scale", "none", "--layer", "0"} << 2
        << "unknown option --a-scale";
    QTest::newRow("--sequence 1") << model + QStringList{"--layer", "0", "--sequence", "1"} << 2
                                  << "--sequence 1";
    QTest::newRow("empty --out") << model + QStringList{"--layer", "0", "--out", ""} << 2
                                 << "--out needs a file name";
    QTest::newRow("unwritable --out: a missing folder")
        << model + QStringList{"--layer", "0", "--out", "@/missing/figure.png"} << 1
        << "cannot write";
}

void TestModelCompareCli::refuses()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, keyword);
    QTemporaryDir dir;
    QString out = dir.filePath("figure.png");
    for (QString& argument : arguments)
        if (argument.startsWith(u'@'))
            argument = out = dir.filePath(argument.mid(2));
    if (!arguments.contains("--out"))
        arguments << "--out" << out;
    const Run run = headless(QStringList{"compare"} + arguments);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(attn::test::oneErrorLine(run.err, keyword).isEmpty(),
             attn::test::oneErrorLine(run.err, keyword).constData());
    QVERIFY2(!QFile::exists(out), "nothing written");
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

QTEST_MAIN(TestModelCompareCli)
#include "tst_model_compare_cli.moc"
