// `attnscope compare` and `attnscope steps` as a teacher runs them, on a machine with no
// display: the figures of the Compare and Step by step dialogs, the same as the dialogs
// export, and their refusals (one line "attnscope: …", exit status 2, no file left).
#include "comparefigure.h"
#include "engine/engine.h"
#include "exportrun.h"
#include "formats/report.h"
#include "lab/comparison.h"
#include "pipelinestrip.h"
#include "processrun.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;
using namespace attn::ui;
using namespace attn::test;

class TestLabCommandsCli : public QObject {
    Q_OBJECT

private slots:
    void compare_data();
    void compare();
    void compareDrawsWhatTheDialogExports();
    void compareFailures_data();
    void compareFailures();
    void steps_data();
    void steps();
    void stepsWithoutExplanation();
    void stepsFailures_data();
    void stepsFailures();
};

// attnscope compare: the Compare dialog's figure from the command line — A the textbook
// formula (or --a-… switches), B the switches given, B − A beside them.
void TestLabCommandsCli::compare_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("titleA"); // in the SVG's text (when the file is an SVG)
    QTest::addColumn<QString>("titleB");
    QTest::newRow("png, the saturation preset's mean")
        << QStringList{"--preset", "saturation", "--what", "mean", "--out", "s.png"} << "s.png"
        << QString() << QString();
    QTest::newRow("pdf by --format to a name without extension")
        << QStringList{"--preset", "article", "--format", "pdf", "--out", "handout"} << "handout"
        << QString() << QString();
    QTest::newRow("svg: B without scaling against the textbook")
        << QStringList{"--text", kChinese, "--heads", "2", "--scale", "none", "--out", "c.svg"}
        << "c.svg"
        << "A: softmax(QKᵀ/√d_k, dim=-1)·V"
        << "B: softmax(QKᵀ, dim=-1)·V";
    QTest::newRow("svg: A over the queries, B the textbook")
        << QStringList{"--preset", "article", "--a-axis", "queries",
                       "--what",   "head:0",  "--out",    "q.svg"}
        << "q.svg"
        << "A: softmax(QKᵀ/√d_k, dim=-2)·V"
        << "B: softmax(QKᵀ/√d_k, dim=-1)·V";
    QTest::newRow("svg: A keeps B's causal mask, --a-temperature")
        << QStringList{"--text",          "the cat sat", "--mask", "causal",
                       "--a-temperature", "0.5",         "--out",  "t.svg"}
        << "t.svg"
        << "A: softmax(QKᵀ/√d_k/τ + M, dim=-1)·V"
        << "B: softmax(QKᵀ/√d_k + M, dim=-1)·V";
    // Today's switches are A's to set as well, and the titles say their values.
    QTest::newRow("svg: A capped at 30, B the softcap preset's 10")
        << QStringList{"--preset", "softcap", "--a-softcap", "30", "--out", "c.svg"} << "c.svg"
        << "c = 30"
        << "c = 10";
    QTest::newRow("svg: A's window of 2, B's sink")
        << QStringList{"--text",     "the cat sat on the mat",
                       "--mask",     "causal",
                       "--sink",     "1",
                       "--a-window", "2",
                       "--out",      "w.svg"}
        << "w.svg"
        << "W = 2"
        << "s = 1";
}

void TestLabCommandsCli::compare()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QFETCH(QString, titleA);
    QFETCH(QString, titleB);
    QString problem;
    const QByteArray bytes = writtenFigure(QStringList{"compare"} + arguments, file, &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QString format = file.endsWith(".png") ? "png" : file.endsWith(".svg") ? "svg" : "pdf";
    if (format == u"png") {
        const QImage image = QImage::fromData(bytes);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 2 * image.height()); // three tiles side by side
    }
    if (format == u"svg") {
        const QString texts = svgTexts(bytes);
        QVERIFY2(texts.contains(titleA), qPrintable(texts.left(300)));
        QVERIFY2(texts.contains(titleB), qPrintable(texts.left(300)));
        QVERIFY(texts.contains(QStringLiteral("B − A")));
    }
}

// The command's PNG is the dialog's export of the same two results: the same pixels.
void TestLabCommandsCli::compareDrawsWhatTheDialogExports()
{
    QTemporaryDir dir;
    const Run run = attnscope({"compare", "--text", "the cat sat on the mat", "--heads", "2",
                               "--mask", "causal", "--scale", "none", "--what", "head:1",
                               "--colormap", "magma", "--color-scale", "log", "--out", "c.png"},
                              dir.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());

    Request b;
    b.text = "the cat sat on the mat";
    b.config.heads = 2;
    b.config.mask = MaskKind::Causal;
    b.config.scale = ScaleMode::None;
    Request a = b;
    a.config = textbookSwitches(b.config);
    AttentionEngine engine;
    const Result resultA = engine.compute(a);
    const Result resultB = engine.compute(b);
    ComparisonOptions options;
    options.head = 1;
    options.annotate = true; // six tokens
    options.colormap = ColormapName::Magma;
    options.logScale = true;
    const QString expected = dir.filePath("expected.png");
    QCOMPARE(exportComparison(expected, FigureFormat::Png, resultA, resultB, options), QString());
    const QImage made(dir.filePath("c.png")), wanted(expected);
    QVERIFY(!made.isNull());
    QCOMPARE(made.size(), wanted.size());
    QCOMPARE(made, wanted);
}

void TestLabCommandsCli::compareFailures_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword"); // the one stderr line names it

    const QStringList article = {"compare", "--preset", "article"};
    QTest::newRow("missing --out") << article << 2 << "compare needs --out";
    QTest::newRow("numbers are not a comparison's figure")
        << article + QStringList{"--out", "f.csv"} << 2 << "cannot tell the figure format";
    QTest::newRow("--format json") << article + QStringList{"--format", "json", "--out", "f"} << 2
                                   << "--format must be png|svg|pdf";
    QTest::newRow("--what heads") << article + QStringList{"--what", "heads", "--out", "f.png"} << 2
                                  << "--what must be mean or head:N";
    QTest::newRow("--what head:3 of one")
        << article + QStringList{"--what", "head:3", "--out", "f.png"} << 2 << "head:3";
    QTest::newRow("--a-scale wrong") << article + QStringList{"--a-scale", "half", "--out", "f.png"}
                                     << 2 << "--a-scale must be sqrt-dk|none|sqrt-dmodel";
    QTest::newRow("--a-temperature 0")
        << article + QStringList{"--a-temperature", "0", "--out", "f.png"} << 2
        << "--a-temperature must be greater than 0";
    QTest::newRow("--a-d-model is shared, not A's")
        << article + QStringList{"--a-d-model", "8", "--out", "f.png"} << 2
        << "unknown option --a-d-model";
    QTest::newRow("--a-kv-heads is shared, not A's")
        << article + QStringList{"--a-kv-heads", "1", "--out", "f.png"} << 2
        << "unknown option --a-kv-heads";
    QTest::newRow("--a-sink over the queries")
        << article + QStringList{"--axis",   "queries", "--a-axis", "queries",
                                 "--a-sink", "0",       "--out",    "f.png"}
        << 2 << "A: a sink";
    QTest::newRow("A causal in cross-attention")
        << QStringList{"compare", "--preset", "cross-attention", "--a-mask", "causal",
                       "--out",   "f.png"}
        << 2 << "A: a causal mask";
    QTest::newRow("--sequence 2 of two")
        << article + QStringList{"--sequence", "2", "--out", "f.png"} << 2 << "--sequence";
    QTest::newRow("--json belongs to compute")
        << article + QStringList{"--json", "x.json", "--out", "f.png"} << 2 << "--json";
    QTest::newRow("png into a missing directory")
        << article + QStringList{"--out", "missing/f.png"} << 1 << "missing/f.png";
    QTest::newRow("pdf onto a directory")
        << article + QStringList{"--out", "folder.pdf"} << 1 << "folder.pdf";
}

void TestLabCommandsCli::compareFailures()
{
    checkRefusal(); // the same checks: one line, the exit status, nothing written or left behind
}

// attnscope steps: the Step by Step strip of one head as a figure for a handout.
void TestLabCommandsCli::steps_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text"); // in the SVG's text (when the file is an SVG)
    QTest::newRow("png 900 px wide, twice the pixels")
        << QStringList{"--preset", "article", "--width", "900", "--out", "s.png"} << "s.png"
        << QString();
    QTest::newRow("svg of head 1 of a causal decoder")
        << QStringList{"--preset", "causal-decoder", "--what", "head:1", "--cell",
                       "2,1",      "--out",          "s.svg"}
        << "s.svg"
        << "8. P — attention weights";
    QTest::newRow("svg in Chinese")
        << QStringList{"--preset", "article", "--language", "zh_CN", "--out", "s.svg"} << "s.svg"
        << "注意力权重";
    QTest::newRow("svg: the arithmetic of --cell below the tiles")
        << QStringList{"--preset", "article", "--cell", "3,1", "--out", "s.svg"} << "s.svg"
        << "how query 产品 (row 3) weighs key 喜欢 (column 1)";
    QTest::newRow("pdf by --format")
        << QStringList{"--preset", "article", "--format", "pdf", "--out", "handout"} << "handout"
        << QString();
}

void TestLabCommandsCli::steps()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QFETCH(QString, text);
    QString problem;
    const QByteArray bytes = writtenFigure(QStringList{"steps"} + arguments, file, &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    if (file.endsWith(".png")) {
        const QImage image = QImage::fromData(bytes);
        QCOMPARE(image.width(), 1800);           // the strip's 900 px, two pixels each
        QVERIFY(image.height() > image.width()); // lines of tiles
        QCOMPARE(image.pixel(1, 1), qRgb(255, 255, 255));
    }
    if (!text.isEmpty())
        QVERIFY2(svgTexts(bytes).contains(text), qPrintable(svgTexts(bytes).left(300)));
}

// --no-explanation leaves the arithmetic out: only the tiles.
void TestLabCommandsCli::stepsWithoutExplanation()
{
    QString problem;
    const QString texts = svgTexts(writtenFigure(
        {"steps", "--preset", "article", "--no-explanation", "--out", "s.svg"}, "s.svg", &problem));
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    QVERIFY(texts.contains(QStringLiteral("8. P — attention weights")));
    QVERIFY(!texts.contains(QStringLiteral("weighs key")));
}

void TestLabCommandsCli::stepsFailures_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword");
    const QStringList article = {"steps", "--preset", "article"};
    QTest::newRow("missing --out") << article << 2 << "steps needs --out";
    QTest::newRow("numbers are not steps")
        << article + QStringList{"--out", "f.json"} << 2 << "cannot tell the figure format";
    QTest::newRow("--what mean") << article + QStringList{"--what", "mean", "--out", "f.png"} << 2
                                 << "--what must be head:N for the steps";
    QTest::newRow("--what head:1 of one")
        << article + QStringList{"--what", "head:1", "--out", "f.png"} << 2 << "head:1";
    QTest::newRow("--cell outside") << article + QStringList{"--cell", "9,0", "--out", "f.png"} << 2
                                    << "--cell 9,0 is not a cell";
    QTest::newRow("--cell not numbers")
        << article + QStringList{"--cell", "a", "--out", "f.png"} << 2 << "--cell must be";
    QTest::newRow("--width too narrow")
        << article + QStringList{"--width", "100", "--out", "f.png"} << 2 << "--width";
    QTest::newRow("--title is not an option of steps")
        << article + QStringList{"--title", "x", "--out", "f.png"} << 2 << "unknown option --title";
    QTest::newRow("png into a missing directory")
        << article + QStringList{"--out", "missing/f.png"} << 1 << "missing/f.png";
}

void TestLabCommandsCli::stepsFailures()
{
    checkRefusal(); // one line, the exit status, nothing written or left behind
}

QTEST_MAIN(TestLabCommandsCli)
#include "tst_labcommands_cli.moc"
