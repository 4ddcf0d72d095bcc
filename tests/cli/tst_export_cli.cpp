// `attnscope export` as a teacher runs it, on a machine with no display: the real binary
// under QProcess with DISPLAY, WAYLAND_DISPLAY and QT_QPA_PLATFORM removed. Exit status
// 0 is success, 1 a file that could not be written, 2 bad arguments; a failure prints
// exactly one line "attnscope: …" on standard error and leaves no file behind.
// `compare` and `steps` are in tst_labcommands_cli.
#include "comparefigure.h"
#include "engine/engine.h"
#include "exportrun.h"
#include "formats/report.h"
#include "lab/comparison.h"
#include "pipelinestrip.h"
#include "processrun.h"
#include "session.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace attn;
using namespace attn::ui;
using namespace attn::test;

namespace {

QString session(const QString& directory, bool marginSums = false,
                const QString& name = QStringLiteral("lesson.attnscope"))
{
    Session s;
    s.request.text = "the cat sat on the mat";
    s.request.config.dModel = 32;
    s.request.config.heads = 2;
    s.request.config.mask = MaskKind::Causal;
    s.view.colormap = ColormapName::Magma;
    s.view.marginSums = marginSums;
    const QString path = QDir(directory).filePath(name);
    QString error;
    if (!saveSession(path, s, &error))
        qFatal("cannot write the session: %s", qPrintable(error));
    return path;
}

// A session with every field of the request away from its default, as the window saves
// it: `kind` "cross" (torch's embedding: the override is carried but unused), "cross, table"
// (the override changes x) or "self" (the causal mask cross-attention refuses; the cross
// text kept, unused). Two lines, so the padding mask and the batch axis matter.
Session everyField(const QString& kind)
{
    Session s;
    Request& r = s.request;
    r.text = "the cat sat\nthe dog sat on the mat"; // T_q = 6
    r.crossText = "le chat a dormi";                // T_k = 4
    Config& c = r.config;
    c.attention = kind == u"self" ? AttentionKind::Self : AttentionKind::Cross;
    c.tokenizer = TokenizerMode::Spaces;
    c.dModel = 24;
    c.heads = 3;
    c.seed = 7;
    c.embedding = kind == u"cross, table" ? EmbeddingMode::Table : EmbeddingMode::Torch;
    c.positional = Positional::None;
    c.scale = ScaleMode::SqrtDModel;
    c.temperature = 0.7f;
    c.axis = SoftmaxAxis::Queries;
    c.mask = kind == u"self" ? MaskKind::Causal : MaskKind::None;
    c.maskFill = MaskFill::NegBillion;
    c.maskStage = MaskStage::AfterSoftmax;
    c.headSplit = HeadSplit::View;
    c.paddingMask = false;
    r.embeddingOverrides["cat"] = std::vector<float>(24, 0.5f);
    s.view.colormap = ColormapName::Magma;
    s.view.logScale = true;
    return s;
}

} // namespace

class TestExportCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void formats_data();
    void formats();
    void failures_data();
    void failures();
    void optionsChangeTheFigure_data();
    void optionsChangeTheFigure();
    void linearColourScaleIsTheDefault();
    void settingsOrder_data();
    void settingsOrder();
    void sessionSums_data();
    void sessionSums();
    void sessionCarriesEveryField_data();
    void sessionCarriesEveryField();
    void optionsChangeACrossSession_data();
    void optionsChangeACrossSession();
    void help();
    void languageSpeaksInTheFigure_data();
    void languageSpeaksInTheFigure();
};

void TestExportCli::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(ATTN_BINARY)).isExecutable(), "attnscope is not built");
}

void TestExportCli::formats_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    for (const QString format : {"png", "svg", "pdf", "csv", "npy", "json"}) {
        QTest::newRow(qPrintable("by extension ." + format))
            << QStringList{"--text", kChinese, "--heads", "4",
                           "--mask", "causal", "--out",   "figure." + format}
            << "figure." + format << format;
        QTest::newRow(qPrintable("by --format " + format))
            << QStringList{"--preset", "article", "--format", format, "--out", "figure.dat"}
            << QStringLiteral("figure.dat") << format;
    }
    QTest::newRow("--format wins over the extension")
        << QStringList{"--preset", "article", "--format", "svg", "--out", "figure.png"}
        << QStringLiteral("figure.png") << QStringLiteral("svg");
    QTest::newRow("upper-case extension .PDF")
        << QStringList{"--preset", "article", "--out", "FIGURE.PDF"} << QStringLiteral("FIGURE.PDF")
        << QStringLiteral("pdf");
}

void TestExportCli::formats()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QFETCH(QString, format);
    QTemporaryDir dir;
    const Run run = attnscope(QStringList{"export"} + arguments, dir.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.err, QByteArray());
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(entries(dir.path()), QStringList{file}); // and no temporary file
    const QByteArray bytes = readAll(dir.filePath(file));
    QVERIFY2(bytes.startsWith(magic(format)), bytes.left(16).toHex().constData());
    if (format == u"png")
        QVERIFY(!QImage::fromData(bytes).isNull());
}

void TestExportCli::failures_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword"); // the one stderr line names it

    const QStringList article = {"export", "--preset", "article"};
    QTest::newRow("unknown --format") << article + QStringList{"--format", "bmp", "--out", "f.png"}
                                      << 2 << "--format must be png|svg|pdf|csv|npy|json";
    QTest::newRow("unknown extension")
        << article + QStringList{"--out", "f.bmp"} << 2 << "cannot tell the format of 'f.bmp'";
    QTest::newRow("no extension") << article + QStringList{"--out", "figure"} << 2
                                  << "give --format";
    QTest::newRow("--what head:99")
        << article + QStringList{"--what", "head:99", "--out", "f.png"} << 2 << "head:99";
    QTest::newRow("--what everything")
        << article + QStringList{"--what", "everything", "--out", "f.png"} << 2
        << "--what must be heads|mean|head:N";
    QTest::newRow("missing --out") << article << 2 << "--out";
    QTest::newRow("--out without a value") << article + QStringList{"--out"} << 2 << "--out";
    QTest::newRow("--png-scale 0")
        << article + QStringList{"--png-scale", "0", "--out", "f.png"} << 2 << "--png-scale";
    QTest::newRow("--scale is the formula's, not the PNG's")
        << article + QStringList{"--scale", "2", "--out", "f.png"} << 2
        << "--scale must be sqrt-dk|none|sqrt-dmodel";
    QTest::newRow("--dpi 5") << article + QStringList{"--dpi", "5", "--out", "f.png"} << 2
                             << "--dpi";
    QTest::newRow("--sequence 2 of two")
        << article + QStringList{"--sequence", "2", "--out", "f.png"} << 2 << "--sequence";
    QTest::newRow("unknown colour scale")
        << article + QStringList{"--color-scale", "sqrt", "--out", "f.png"} << 2
        << "--color-scale must be linear or log, not 'sqrt'";
    QTest::newRow("unknown colormap")
        << article + QStringList{"--colormap", "jet", "--out", "f.png"} << 2 << "--colormap";
    QTest::newRow("--json belongs to compute")
        << article + QStringList{"--json", "x.json", "--out", "f.png"} << 2 << "--json";
    QTest::newRow("bad compute option")
        << article + QStringList{"--heads", "3", "--out", "f.png"} << 2 << "heads";
    QTest::newRow("missing session")
        << QStringList{"export", "--session", "nowhere.attnscope", "--out", "f.png"} << 2
        << "nowhere.attnscope";
    QTest::newRow("png into a missing directory")
        << article + QStringList{"--out", "missing/f.png"} << 1 << "missing/f.png";
    QTest::newRow("csv into a missing directory")
        << article + QStringList{"--out", "missing/f.csv"} << 1 << "missing/f.csv";
    QTest::newRow("pdf onto a directory")
        << article + QStringList{"--out", "folder.pdf"} << 1 << "folder.pdf";
}

void TestExportCli::failures()
{
    checkRefusal();
}

void TestExportCli::optionsChangeTheFigure_data()
{
    QTest::addColumn<QStringList>("change");
    QTest::addColumn<int>("widthChange"); // -1 narrower, 0 same width, 1 wider
    QTest::newRow("--what mean is one tile") << QStringList{"--what", "mean"} << -1;
    QTest::newRow("--what head:1 is one tile") << QStringList{"--what", "head:1"} << -1;
    QTest::newRow("--annotate enlarges the cells") << QStringList{"--annotate"} << 1;
    QTest::newRow("--sums adds the row and column sums") << QStringList{"--sums"} << 1;
    QTest::newRow("--no-colorbar is narrower") << QStringList{"--no-colorbar"} << -1;
    QTest::newRow("--colormap magma recolours") << QStringList{"--colormap", "magma"} << 0;
    // The colorbar's lower tick reads 0.001 instead of 0: a little wider.
    QTest::newRow("--color-scale log recolours") << QStringList{"--color-scale", "log"} << 1;
    QTest::newRow("--title adds a line") << QStringList{"--title", "注意力"} << 0;
    QTest::newRow("--png-scale 1 halves the pixels") << QStringList{"--png-scale", "1"} << -1;
    QTest::newRow("--dpi 288 doubles them") << QStringList{"--dpi", "288"} << 1;
}

void TestExportCli::optionsChangeTheFigure()
{
    QFETCH(QStringList, change);
    QFETCH(int, widthChange);
    QTemporaryDir dir;
    const QStringList base = {"export", "--text", kChinese, "--heads", "4", "--mask", "causal"};
    const Run a = attnscope(base + QStringList{"--out", "base.png"}, dir.path());
    const Run b = attnscope(base + change + QStringList{"--out", "changed.png"}, dir.path());
    QVERIFY2(a.exitCode == 0 && b.exitCode == 0, (a.err + b.err).constData());
    const QImage before(dir.filePath("base.png"));
    const QImage after(dir.filePath("changed.png"));
    QVERIFY(!before.isNull() && !after.isNull());
    const int difference = after.width() - before.width();
    QCOMPARE(difference > 0 ? 1 : difference < 0 ? -1 : 0, widthChange);
    QVERIFY(readAll(dir.filePath("base.png")) != readAll(dir.filePath("changed.png")));
}

void TestExportCli::linearColourScaleIsTheDefault()
{
    QTemporaryDir dir;
    const QStringList base = {"export", "--text", kChinese, "--mask", "causal"};
    const Run a = attnscope(base + QStringList{"--out", "default.png"}, dir.path());
    const Run b =
        attnscope(base + QStringList{"--color-scale", "linear", "--out", "linear.png"}, dir.path());
    QVERIFY2(a.exitCode == 0 && b.exitCode == 0, (a.err + b.err).constData());
    QCOMPARE(readAll(dir.filePath("linear.png")), readAll(dir.filePath("default.png")));
}

void TestExportCli::settingsOrder_data()
{
    // Defaults < --session < --preset < every other option; checked in the JSON's config.
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QString>("mask");
    QTest::addColumn<QString>("scale");
    QTest::addColumn<QString>("firstToken");
    const QStringList lesson = {"--session", "lesson.attnscope"};
    QTest::newRow("session alone") << lesson << 32 << 2 << "causal"
                                   << "sqrt-dk"
                                   << "the";
    QTest::newRow("an option after the session")
        << lesson + QStringList{"--heads", "4"} << 32 << 4 << "causal"
        << "sqrt-dk"
        << "the";
    QTest::newRow("an option before the session still wins")
        << QStringList{"--mask", "none"} + lesson << 32 << 2 << "none"
        << "sqrt-dk"
        << "the";
    QTest::newRow("--scale none is the formula's scaling")
        << lesson + QStringList{"--scale", "none"} << 32 << 2 << "causal"
        << "none"
        << "the";
    QTest::newRow("--text replaces the session's sentence")
        << lesson + QStringList{"--text", "dogs bark"} << 32 << 2 << "causal"
        << "sqrt-dk"
        << "dogs";
    QTest::newRow("--preset replaces the session's request")
        << lesson + QStringList{"--preset", "article"} << 16 << 1 << "none"
        << "sqrt-dk"
        << "我";
    QTest::newRow("an option changes the preset")
        << QStringList{"--preset", "article"} + lesson + QStringList{"--heads", "2"} << 16 << 2
        << "none"
        << "sqrt-dk"
        << "我";
}

void TestExportCli::settingsOrder()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(QString, mask);
    QFETCH(QString, scale);
    QFETCH(QString, firstToken);
    QTemporaryDir dir;
    session(dir.path());
    const Run run =
        attnscope(QStringList{"export"} + arguments + QStringList{"--out", "all.json"}, dir.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath("all.json"))).object();
    const QJsonObject config = json.value("config").toObject();
    QCOMPARE(config.value("d-model").toInt(), dModel);
    QCOMPARE(config.value("heads").toInt(), heads);
    QCOMPARE(config.value("mask").toString(), mask);
    QCOMPARE(config.value("scale").toString(), scale);
    QCOMPARE(json.value("tokens").toArray().at(0).toArray().at(0).toString(), firstToken);
}

void TestExportCli::sessionSums_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<bool>("sums");
    QTest::newRow("the session's view shows the sums") << QStringList{} << true;
    QTest::newRow("--no-sums leaves them out") << QStringList{"--no-sums"} << false;
    QTest::newRow("--sums keeps them") << QStringList{"--sums"} << true;
}

void TestExportCli::sessionSums()
{
    QFETCH(QStringList, arguments);
    QFETCH(bool, sums);
    QTemporaryDir dir;
    session(dir.path(), false, QStringLiteral("plain.attnscope"));
    session(dir.path(), true, QStringLiteral("sums.attnscope"));
    const Run plain =
        attnscope({"export", "--session", "plain.attnscope", "--out", "plain.png"}, dir.path());
    const Run run = attnscope(QStringList{"export", "--session", "sums.attnscope"} + arguments +
                                  QStringList{"--out", "sums.png"},
                              dir.path());
    QVERIFY2(plain.exitCode == 0 && run.exitCode == 0, (plain.err + run.err).constData());
    const QImage without(dir.filePath("plain.png"));
    const QImage with(dir.filePath("sums.png"));
    QVERIFY(!without.isNull() && !with.isNull());
    QCOMPARE(with.width() > without.width(), sums);
    QCOMPARE(with.height() > without.height(), sums);
}

void TestExportCli::sessionCarriesEveryField_data()
{
    // Every command that takes --session, on sessions with every field changed: what each
    // writes must be what the session's request computes, every field of it.
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("kind");
    for (const char* command : {"export", "compare", "steps"})
        for (const char* kind : {"cross", "cross, table", "self"})
            QTest::addRow("%s, %s", command, kind) << command << kind;
}

void TestExportCli::sessionCarriesEveryField()
{
    QFETCH(QString, command);
    QFETCH(QString, kind);
    QTemporaryDir dir;
    const Session s = everyField(kind);
    QString error;
    QVERIFY2(saveSession(dir.filePath("every.attnscope"), s, &error), qPrintable(error));
    const QString out = command == u"export" ? "every.json" : "every.png";
    QStringList arguments{command, "--session", "every.attnscope", "--out", out};
    if (command == u"steps")
        arguments << "--no-explanation";
    const Run run = attnscope(arguments, dir.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QByteArray made = readAll(dir.filePath(out));

    // The same request computed here, drawn as each command draws it.
    AttentionEngine engine;
    const Result result = engine.compute(s.request);
    QByteArray wanted;
    if (command == u"export") {
        wanted = QByteArray::fromStdString(jsonReport(result));
        const QJsonObject json = QJsonDocument::fromJson(made).object();
        const QJsonObject shape = json.value("shape").toObject();
        QCOMPARE(shape.value("T_k").toInt() != shape.value("T").toInt(), kind != u"self");
        QCOMPARE(json.value("config").toObject().value("attention").toString(),
                 kind == u"self" ? QStringLiteral("self") : QStringLiteral("cross"));
    } else if (command == u"compare") {
        Request a = s.request;
        a.config = textbookSwitches(s.request.config);
        ComparisonOptions options;
        options.annotate = true; // six tokens
        options.colormap = s.view.colormap;
        options.logScale = s.view.logScale;
        wanted = comparisonBytes(FigureFormat::Png, engine.compute(a), result, options, &error)
                     .value_or(QByteArray());
    } else {
        PipelineStrip strip;
        strip.setWeightColours({s.view.colormap, s.view.logScale});
        strip.setResult(result, 0, 0);
        strip.setSelectedCell(result.tokens->lengths[0] - 1, 0);
        strip.layOut(1300);
        wanted = strip.figureBytes(FigureFormat::Png, 2.0, &error).value_or(QByteArray());
    }
    QVERIFY2(!wanted.isEmpty(), qPrintable(error));
    if (out.endsWith(u".png")) {
        const QImage image = QImage::fromData(made);
        QVERIFY(!image.isNull());
        QCOMPARE(image.size(), QImage::fromData(wanted).size());
        QVERIFY2(image == QImage::fromData(wanted), "the figure is not the session's");
    } else {
        QCOMPARE(made, wanted);
    }
}

void TestExportCli::optionsChangeACrossSession_data()
{
    // Options after a cross-attention session change it as they would change a preset.
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("attention");
    QTest::addColumn<QString>("firstQuery");
    QTest::addColumn<QString>("firstKey");
    QTest::newRow("the session alone") << QStringList() << "cross"
                                       << "the"
                                       << "le";
    QTest::newRow("--cross-text replaces the keys' text")
        << QStringList{"--cross-text", "un deux"} << "cross"
        << "the"
        << "un";
    QTest::newRow("--text replaces the queries' text")
        << QStringList{"--text", "dogs bark"} << "cross"
        << "dogs"
        << "le";
    QTest::newRow("--attention self keeps the cross text unused")
        << QStringList{"--attention", "self"} << "self"
        << "the"
        << "the";
}

void TestExportCli::optionsChangeACrossSession()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, attention);
    QFETCH(QString, firstQuery);
    QFETCH(QString, firstKey);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(saveSession(dir.filePath("cross.attnscope"), everyField("cross"), &error),
             qPrintable(error));
    const Run run = attnscope(QStringList{"export", "--session", "cross.attnscope"} + arguments +
                                  QStringList{"--out", "all.json"},
                              dir.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(readAll(dir.filePath("all.json"))).object();
    QCOMPARE(json.value("config").toObject().value("attention").toString(), attention);
    QCOMPARE(json.value("tokens").toArray().at(0).toArray().at(0).toString(), firstQuery);
    QCOMPARE(json.value("key_tokens").toArray().at(0).toArray().at(0).toString(), firstKey);
}

void TestExportCli::help()
{
    QTemporaryDir dir;
    const Run run = attnscope({"--help"}, dir.path());
    QCOMPARE(run.exitCode, 0);
    for (const char* text :
         {"attnscope export", "--out FILE", "--what heads|mean|head:N", "--session FILE",
          "--no-colorbar", "--sums", "--preset (it replaces", "attnscope compare",
          "--what mean|head:N", "--a-axis keys|queries|batch", "--a-padding-mask on|off",
          "attnscope steps", "--cell I,J", "--width PX", "--language en|zh_CN"})
        QVERIFY2(run.out.contains(text), text);
    // A terminal's 80 columns: the options' help is wrapped beside them.
    for (const QString& line : QString::fromUtf8(run.out).split(u'\n'))
        QVERIFY2(line.size() <= 80, qPrintable(line));
}

// --language zh_CN: the figure's own words in Chinese (titles, axis names, caption) for a
// handout in the class's language; English without it.
void TestExportCli::languageSpeaksInTheFigure_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("english");
    QTest::addColumn<QString>("chinese");
    QTest::newRow("export") << QStringList{"export", "--preset", "article", "--out", "f.svg"}
                            << "Head 0"
                            << "头 0";
    QTest::newRow("compare") << QStringList{"compare", "--preset", "article", "--scale",
                                            "none",    "--out",    "f.svg"}
                             << "B − A (red: B larger"
                             << "红：B 更大";
    QTest::newRow("sweep") << QStringList{"sweep", "--to", "64", "--out", "f.svg"}
                           << "Why divide QKᵀ by √d_k"
                           << "为什么要把";
    // The caption names the switches in phrases of its own; a part's words are held
    // together by no-break spaces.
    QTest::newRow("export's caption")
        << QStringList{"export", "--preset", "article", "--mask", "causal", "--out", "f.svg"}
        << QStringLiteral("softmax over the keys (dim=-1) · causal mask")
               .replace(u' ', QChar(QChar::Nbsp))
               .replace(QStringLiteral("\u00a0·\u00a0"), QStringLiteral("\u00a0· "))
        << QStringLiteral("对键做 softmax（dim=-1） · 因果掩码")
               .replace(u' ', QChar(QChar::Nbsp))
               .replace(QStringLiteral("\u00a0·\u00a0"), QStringLiteral("\u00a0· "));
}

void TestExportCli::languageSpeaksInTheFigure()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, english);
    QFETCH(QString, chinese);
    QTemporaryDir dir;
    for (const bool zh : {false, true}) {
        const Run run = attnscope(
            arguments + (zh ? QStringList{"--language", "zh_CN"} : QStringList{}), dir.path());
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QString texts = svgTexts(readAll(dir.filePath("f.svg")));
        QVERIFY2(texts.contains(zh ? chinese : english), qPrintable(texts.left(400)));
        QVERIFY(!texts.contains(zh ? english : chinese));
    }
    const Run wrong = attnscope(arguments + QStringList{"--language", "fr"}, dir.path());
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(wrong.err.contains("--language must be en|zh_CN, not 'fr'"), wrong.err.constData());
}

QTEST_MAIN(TestExportCli)
#include "tst_export_cli.moc"
