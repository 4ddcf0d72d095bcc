// `attnscope export --model DIR --text TEXT [switches] --layer L --what head:H|mean|model
// --out FIG`: the real binary draws a model run's attention as `export --attention-file`
// draws a file's (a PNG of the figure's size, SVG naming the tokens, the model and the
// departures from its formula, a PDF), and writes the numbers (CSV, JSON) equal to `compute
// --model`'s weights under the same switches; bad input is exit status 2 (1 for a file that
// cannot be written) with one line naming it, and nothing written.
#include "clirun.h"
#include "filebytes.h"
#include "modelfigure.h"
#include "models/families.h"
#include "models/languagemodel.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <cmath>

using namespace attn;
using attn::test::headless;
using attn::test::readAll;
using namespace attn::ui;
using attn::test::Run;

namespace {

const QString kModel = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/small-f32");
const QString kText = QStringLiteral("the cat sat on the mat");

// compute --model's weights under `switches`: [layer][head] a T × T matrix, row-major.
std::vector<std::vector<std::vector<double>>> computedWeights(const QStringList& switches)
{
    const Run run = attn::test::attnscope(
        QStringList{"compute", "--model", kModel, "--text", kText, "--json", "-"} + switches);
    if (run.exitCode != 0)
        qFatal("compute --model failed: %s", run.err.constData());
    std::vector<std::vector<std::vector<double>>> layers;
    const QJsonObject json = QJsonDocument::fromJson(run.out).object();
    for (const QJsonValue layer : json.value(QLatin1String("layers")).toArray()) {
        layers.emplace_back();
        for (const QJsonValue head : layer.toObject().value(QLatin1String("heads")).toArray()) {
            layers.back().emplace_back();
            for (const QJsonValue row : head.toObject().value(QLatin1String("weights")).toArray())
                for (const QJsonValue weight : row.toArray())
                    layers.back().back().push_back(weight.toDouble());
        }
    }
    return layers;
}

} // namespace

class TestModelExportCli : public QObject {
    Q_OBJECT
private slots:
    void numbers_data();
    void numbers();
    void figures_data();
    void figures();
    void refuses_data();
    void refuses();
};

void TestModelExportCli::numbers_data()
{
    QTest::addColumn<QStringList>("switches");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("format");
    const QList<std::pair<QStringList, QString>> cases{
        {{}, "textbook"},
        {{"--scale", "none"}, "scale=none"},
        {{"--mask", "none"}, "mask=none"},
        {{"--only-layer", "1", "--temperature", "0.5"}, "only_layer=1 temperature=0.5"},
    };
    for (const auto& [switches, name] : cases)
        for (const char* what : {"head:2", "mean", "model"})
            for (const char* format : {"csv", "json"})
                QTest::addRow("%s, %s as %s", qPrintable(name), what, format)
                    << switches << QString::fromLatin1(what) << QString::fromLatin1(format);
}

// The numbers read back, in the order layer, head, query, key, equal compute --model's
// weights (the mean: the mean of the layer's heads) for the same switches.
void TestModelExportCli::numbers()
{
    QFETCH(QStringList, switches);
    QFETCH(QString, what);
    QFETCH(QString, format);
    const int layer = 1;
    QTemporaryDir dir;
    const QString out = dir.filePath("numbers." + format);
    const Run run =
        headless(QStringList{"export", "--model", kModel, "--text", kText} + switches +
                 QStringList{"--layer", QString::number(layer), "--what", what, "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData());

    const auto computed = computedWeights(switches);
    QCOMPARE(computed.size(), std::size_t(2));
    std::vector<double> expected;
    if (what == u"model") {
        for (const auto& heads : computed)
            for (const auto& head : heads)
                expected.insert(expected.end(), head.begin(), head.end());
    } else if (what == u"mean") {
        const auto& heads = computed[layer];
        expected.assign(heads.front().size(), 0.0);
        for (const auto& head : heads)
            for (std::size_t k = 0; k < head.size(); ++k)
                expected[k] += head[k] / double(heads.size());
    } else {
        expected = computed[layer][2];
    }

    std::vector<double> got;
    const QByteArray bytes = readAll(out);
    if (format == u"csv") {
        const QList<QByteArray> lines = bytes.split('\n');
        QVERIFY(lines.first().contains("layer,head,i,j,query,key,weight"));
        for (qsizetype k = 1; k < lines.size(); ++k)
            if (const QByteArray line = lines[k].trimmed(); !line.isEmpty())
                got.push_back(line.split(',').last().toDouble());
    } else {
        const QJsonObject json = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(json.value(QLatin1String("file")).toString(), QStringLiteral("small-f32"));
        for (const QJsonValue l : json.value(QLatin1String("layers")).toArray())
            for (const QJsonValue h : l.toObject().value(QLatin1String("heads")).toArray())
                for (const QJsonValue row : h.toObject().value(QLatin1String("weights")).toArray())
                    for (const QJsonValue weight : row.toArray())
                        got.push_back(weight.toDouble());
    }
    QCOMPARE(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k)
        QVERIFY2(std::abs(got[k] - expected[k]) <= 1e-6,
                 qPrintable(QStringLiteral("weight %1: %2, compute --model says %3")
                                .arg(k)
                                .arg(got[k])
                                .arg(expected[k])));
}

void TestModelExportCli::figures_data()
{
    QTest::addColumn<QStringList>("switches");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QStringList>("departures"); // the caption's end
    const QString noScale = QStringLiteral("no scaling by √d_k");
    QTest::newRow("textbook, head:1 as PNG") << QStringList{} << "head:1"
                                             << "png" << QStringList{};
    QTest::newRow("scale=none, model as PNG") << QStringList{"--scale", "none"} << "model"
                                              << "png" << QStringList{noScale};
    QTest::newRow("textbook, mean as SVG") << QStringList{} << "mean"
                                           << "svg" << QStringList{};
    QTest::newRow("scale=none, head:0 as SVG") << QStringList{"--scale", "none"} << "head:0"
                                               << "svg" << QStringList{noScale};
    QTest::newRow("only_layer=1 scale=none, model as SVG")
        << QStringList{"--only-layer", "1", "--scale", "none"} << "model"
        << "svg" << QStringList{noScale, "in layer 1 only"};
    QTest::newRow("mask=none, head:3 as PDF") << QStringList{"--mask", "none"} << "head:3"
                                              << "pdf" << QStringList{};
}

// PNG: the size of the figure laid out here from the same run, twice its points. SVG:
// well-formed XML with the run's tokens as text and a caption naming the model and ending
// with the departures from its formula. PDF: a PDF file.
void TestModelExportCli::figures()
{
    QFETCH(QStringList, switches);
    QFETCH(QString, what);
    QFETCH(QString, format);
    QFETCH(QStringList, departures);
    const int layer = 1;
    QTemporaryDir dir;
    const QString out = dir.filePath("figure." + format);
    const Run run =
        headless(QStringList{"export", "--model", kModel, "--text", kText} + switches +
                 QStringList{"--layer", QString::number(layer), "--what", what, "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QByteArray bytes = readAll(out);

    const auto model = openModel(kModel.toStdString());
    ModelSwitches textbook;
    textbook.formula = ModelSwitches::textbookFormula();
    const ModelRun textbookRun = model->run(kText.toStdString(), textbook);
    if (format == u"png") {
        const QImage image(out);
        QVERIFY2(!image.isNull(), "a PNG that loads");
        FileFigureOptions options;
        options.selection = *fileSelectionFromSpelling(what);
        options.layer = layer;
        options.captionNotes = departures;
        // The layout depends on the tokens and the caption's lines, not on the weights.
        const QSizeF points = options.selection.what == FileWhat::Model
                                  ? modelFigureDocument(*textbookRun.attention, options).size
                                  : fileHeadFigureLayout(*textbookRun.attention, options).size;
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
        // The caption's parts: the model's name first, the departures after the type.
        QStringList parts = description.split(QStringLiteral("·"));
        for (QString& part : parts)
            part = part.trimmed();
        QCOMPARE(parts.front(), QStringLiteral("small-f32"));
        const qsizetype type = parts.indexOf(QStringLiteral("float32"));
        QVERIFY2(type > 0, qPrintable(description));
        QCOMPARE(parts.mid(type + 1), departures);
        if (what != u"model")
            for (const TokenLabel& label : textbookRun.labels)
                QVERIFY2(
                    text.contains(QString::fromStdString(label.label).trimmed()),
                    qPrintable("token " + QString::fromStdString(label.label) + " in " + text));
    }
}

void TestModelExportCli::refuses_data()
{
    QTest::addColumn<QStringList>("arguments"); // after export
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword");
    const QStringList model{"--model", kModel, "--text", "the cat"};
    QTest::newRow("no such folder")
        << QStringList{"--model", "/nonexistent/gpt2", "--text", "cat", "--layer", "0", "--what",
                       "mean"}
        << 2 << "/nonexistent/gpt2: not a folder";
    QTest::newRow("unknown --what") << model + QStringList{"--layer", "0", "--what", "heads"} << 2
                                    << "--what must be head:H|mean|model, not 'heads'";
    QTest::newRow("no --what") << model + QStringList{"--layer", "0"} << 2
                               << "export --model needs --what";
    QTest::newRow("no --layer for the mean")
        << model + QStringList{"--what", "mean"} << 2 << "export --model --what mean needs --layer";
    QTest::newRow("layer out of range") << model + QStringList{"--layer", "2", "--what", "mean"}
                                        << 2 << "--layer 2: small-f32 has 2 layers, 0 to 1";
    QTest::newRow("head out of range") << model + QStringList{"--layer", "0", "--what", "head:4"}
                                       << 2 << "--what head:4: small-f32 has 4 heads, 0 to 3";
    QTest::newRow("--only-layer past the last")
        << model + QStringList{"--only-layer", "2", "--layer", "0", "--what", "mean"} << 2
        << "--only-layer 2: the model has 2 layers";
    QTest::newRow("--heads with a model")
        << model + QStringList{"--heads", "2", "--layer", "0", "--what", "mean"} << 2
        << "--heads does not apply with --model";
    QTest::newRow("empty text") << QStringList{"--model", kModel, "--text", "",
                                               "--layer", "0",    "--what", "mean"}
                                << 2 << "no text";
    QTest::newRow("unwritable --out: a missing folder")
        << model + QStringList{"--layer", "0", "--what", "mean", "--out", "@/missing/figure.png"}
        << 1 << "cannot write";
}

void TestModelExportCli::refuses()
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
    const Run run = headless(QStringList{"export"} + arguments);
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(attn::test::oneErrorLine(run.err, keyword).isEmpty(),
             attn::test::oneErrorLine(run.err, keyword).constData());
    QVERIFY2(!QFile::exists(out), "nothing written");
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

QTEST_MAIN(TestModelExportCli)
#include "tst_model_export_cli.moc"
