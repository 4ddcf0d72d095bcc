// The d_k sweep on screen and on paper: SweepChart draws one series per curve on a
// logarithmic d_k axis, the figure exports as PNG, SVG and PDF, SweepDialog computes in
// the background (a newer request replacing an older one), and `attnscope sweep` runs
// without a display. Exit status 0 is success, 1 a file that could not be written, 2 bad
// arguments; a failure prints one line "attnscope: …" and leaves no file behind.
//
// Legend: d_k the head dimension (H = 1, d_model = d_k); S = Q_h K_hᵀ.
#include "filebytes.h"
#include "lab/presets.h"
#include "processrun.h"
#include "settings.h"
#include "sweepchart.h"
#include "sweepdialog.h"
#include "sweepfigure.h"

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>
#include <QXmlStreamReader>

#include <cmath>

using namespace attn;
using attn::test::readAll;
using namespace attn::ui;

Q_DECLARE_METATYPE(attn::ui::SweepPanel)
Q_DECLARE_METATYPE(attn::ui::FigureFormat)

namespace {

constexpr int kTimeoutMs = 120'000;

Request sentence()
{
    Request request;
    request.text = "The cat sat on the mat because it was tired .";
    return request;
}

const std::vector<SweepPoint>& articlePoints()
{
    static const std::vector<SweepPoint> points = sweepDk(findPreset("article")->request, 16, 1024);
    return points;
}

QLineSeries* series(QChart* chart, const QString& name)
{
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == name)
            return qobject_cast<QLineSeries*>(s);
    return nullptr;
}

// Every figure check: an error string, empty when `bytes` are a good file of `format`.
QString checkFigure(FigureFormat format, const QByteArray& bytes)
{
    switch (format) {
    case FigureFormat::Png: {
        const QImage image = QImage::fromData(bytes, "PNG");
        const QSize expected = (kSweepFigureSize * kSweepFigureScale).toSize();
        if (image.size() != expected)
            return QStringLiteral("PNG of %1 × %2 pixels, not %3 × %4")
                .arg(image.width())
                .arg(image.height())
                .arg(expected.width())
                .arg(expected.height());
        // Not blank: the vermilion of the unscaled curves is there.
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                if (image.pixelColor(x, y) == QColor(0xD5, 0x5E, 0x00))
                    return {};
        return QStringLiteral("no vermilion pixel in the PNG");
    }
    case FigureFormat::Svg: {
        QXmlStreamReader xml(bytes);
        int texts = 0;
        QString title;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement)
                continue;
            if (xml.name() == u"title")
                title = xml.readElementText();
            else if (xml.name() == u"text")
                ++texts;
        }
        if (xml.hasError())
            return QStringLiteral("SVG does not parse: %1 at line %2")
                .arg(xml.errorString())
                .arg(xml.lineNumber());
        if (!title.contains(QStringLiteral("√d_k")))
            return QStringLiteral("SVG title is \"%1\"").arg(title);
        return texts >= 20 ? QString() : QStringLiteral("SVG has only %1 texts").arg(texts);
    }
    case FigureFormat::Pdf:
        return bytes.startsWith("%PDF-") && bytes.size() > 2000 ? QString()
                                                                : QStringLiteral("not a PDF");
    default:
        return QStringLiteral("not a figure format");
    }
}

using attn::test::Run;

// Runs attnscope in `directory` as if no display were there.
Run attnscope(const QStringList& arguments, const QString& directory)
{
    return attn::test::runProgram(QStringLiteral(ATTN_BINARY), arguments, kTimeoutMs, directory,
                                  true);
}

QStringList entries(const QString& directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

} // namespace

class TestSweepChart : public QObject {
    Q_OBJECT

private slots:
    void seriesPerCurve_data();
    void seriesPerCurve();
    void capSeries();
    void logAxis();
    void referenceThroughFirstPoint();
    void theAxesFitEverythingDrawn();
    void spreadLabelsAreWiderThanOneCharacter();
    void emptyChart();
    void chartsTellTheirPoints();
    void figureFormats_data();
    void figureFormats();
    void exportFailures();
    void dialogComputesInBackground();
    void dialogNewerRequestWins();
    void dialogFollowsTheBaseWhileShown();
    void dialogExports();
    void cliOutputs_data();
    void cliOutputs();
    void cliFailures_data();
    void cliFailures();
};

void TestSweepChart::seriesPerCurve_data()
{
    QTest::addColumn<SweepPanel>("panel");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("count");
    const int reference = 6 * kReferenceSamplesPerDoubling + 1; // six doublings from 16 to 1024
    QTest::newRow("std not scaled") << SweepPanel::Spread << "std-unscaled" << 7;
    QTest::newRow("std scaled") << SweepPanel::Spread << "std-scaled" << 7;
    QTest::newRow("√d_k reference") << SweepPanel::Spread << "std-reference" << reference;
    QTest::newRow("entropy not scaled") << SweepPanel::Entropy << "entropy-unscaled" << 7;
    QTest::newRow("entropy scaled") << SweepPanel::Entropy << "entropy-scaled" << 7;
    QTest::newRow("entropy of a uniform row") << SweepPanel::Entropy << "entropy-max" << 7;
    QTest::newRow("largest weight not scaled") << SweepPanel::RowMax << "rowmax-unscaled" << 7;
    QTest::newRow("largest weight scaled") << SweepPanel::RowMax << "rowmax-scaled" << 7;
    QTest::newRow("saturation line") << SweepPanel::RowMax << "rowmax-saturated" << 2;
    QTest::newRow("Jacobian not scaled") << SweepPanel::Jacobian << "jacobian-unscaled" << 7;
    QTest::newRow("Jacobian scaled") << SweepPanel::Jacobian << "jacobian-scaled" << 7;
}

void TestSweepChart::seriesPerCurve()
{
    QFETCH(SweepPanel, panel);
    QFETCH(QString, name);
    QFETCH(int, count);
    SweepChart chart;
    chart.setPoints(articlePoints());
    QLineSeries* s = series(chart.chart(panel), name);
    QVERIFY2(s, qPrintable(name + " is missing"));
    QCOMPARE(s->count(), count);
    QVERIFY(!s->name().isEmpty()); // in the legend
    QCOMPARE(s->attachedAxes().size(), 2);
    // The measured curves hold the points' own numbers, in the order of d_k.
    const bool scaled = name.endsWith(u"-scaled");
    if (!scaled && !name.endsWith(u"-unscaled"))
        return;
    double SweepPoint::*field = panel == SweepPanel::Spread    ? &SweepPoint::stdLogits
                                : panel == SweepPanel::Entropy ? &SweepPoint::meanEntropy
                                : panel == SweepPanel::RowMax  ? &SweepPoint::meanRowMax
                                                               : &SweepPoint::meanJacobianNorm;
    int k = 0;
    for (const SweepPoint& p : articlePoints()) {
        if (p.scaled != scaled)
            continue;
        QCOMPARE(s->at(k).x(), double(p.dK));
        QCOMPARE(s->at(k).y(), p.*field);
        ++k;
    }
}

// With a soft-cap (or ALiBi) the spread chart adds the std after it, dashed, for both
// scalings; without, it has none.
void TestSweepChart::capSeries()
{
    Request capped = sentence();
    capped.config.softcap = 5;
    const std::vector<SweepPoint> points = sweepDk(capped, 16, 256);
    SweepChart chart;
    chart.setPoints(points);
    for (const bool scaled : {false, true}) {
        const QLineSeries* s = series(chart.chart(SweepPanel::Spread),
                                      scaled ? "std-final-scaled" : "std-final-unscaled");
        QVERIFY(s);
        QCOMPARE(s->count(), 5);
        QCOMPARE(s->pen().style(), Qt::DashLine);
        QVERIFY(s->name().contains(QStringLiteral("ALiBi/cap")));
        int k = 0;
        for (const SweepPoint& p : points)
            if (p.scaled == scaled)
                QCOMPARE(s->at(k++).y(), p.stdFinalLogits);
    }
    QVERIFY(chart.chartText(SweepPanel::Spread).contains(QStringLiteral("after ALiBi/cap")));
    SweepChart plain;
    plain.setPoints(articlePoints());
    QVERIFY(!series(plain.chart(SweepPanel::Spread), "std-final-unscaled"));
    QVERIFY(!series(plain.chart(SweepPanel::Spread), "std-final-scaled"));
}

void TestSweepChart::logAxis()
{
    SweepChart chart;
    chart.setPoints(articlePoints());
    int total = 0;
    for (const SweepPanel panel : kSweepPanels) {
        QChart* c = chart.chart(panel);
        QVERIFY(!c->title().isEmpty());
        QVERIFY(c->legend()->isVisible());
        total += int(c->series().size());
        const auto horizontal = c->axes(Qt::Horizontal);
        QCOMPARE(horizontal.size(), 1);
        const auto* x = qobject_cast<QLogValueAxis*>(horizontal.first());
        QVERIFY2(x, "the d_k axis is not logarithmic");
        QCOMPARE(x->base(), 2.0);
        QVERIFY(x->min() < 16 && x->min() > 8);
        QVERIFY(x->max() > 1024 && x->max() < 2048);
        QVERIFY(!x->titleText().isEmpty());
        const auto vertical = c->axes(Qt::Vertical);
        QCOMPARE(vertical.size(), 1);
        QVERIFY(!vertical.first()->titleText().isEmpty());
    }
    QCOMPARE(total, 11);
}

// The std axis's widest label is never a single character ("0 2 4 6"): Qt Charts then leaves
// its title too little room and shows "…" for a Chinese title. Whole numbers from 10 up.
void TestSweepChart::spreadLabelsAreWiderThanOneCharacter()
{
    for (const int to : {64, 256, 1024}) {
        SweepChart chart;
        const std::vector<SweepPoint> points = sweepDk(sentence(), 16, to);
        chart.setPoints(points);
        const auto* y =
            qobject_cast<QValueAxis*>(chart.chart(SweepPanel::Spread)->axes(Qt::Vertical).first());
        QVERIFY(y);
        const QByteArray format = y->labelFormat().toLatin1();
        // The widest label, the top one, sets the room left for the title.
        QVERIFY2(
            QString::asprintf(format.constData(), y->max()).size() >= 2,
            qPrintable(
                QStringLiteral("to %1: %2 of %3").arg(to).arg(y->labelFormat()).arg(y->max())));
        if (to == 1024)
            QCOMPARE(y->labelFormat(), QStringLiteral("%.0f")); // std(QKᵀ) passes 10
    }
}

void TestSweepChart::referenceThroughFirstPoint()
{
    SweepChart chart;
    chart.setPoints(articlePoints());
    const QLineSeries* reference = series(chart.chart(SweepPanel::Spread), "std-reference");
    const QLineSeries* unscaled = series(chart.chart(SweepPanel::Spread), "std-unscaled");
    QCOMPARE(reference->at(0), unscaled->at(0));
    QVERIFY(reference->pen().style() == Qt::DashLine);
    // Four times d_k, twice the std.
    const QPointF at16 = reference->at(0);
    const QPointF at64 = reference->at(2 * kReferenceSamplesPerDoubling);
    QCOMPARE(at64.x(), 64.0);
    QVERIFY(std::abs(at64.y() / at16.y() - 2) < 1e-9);
}

// No curve leaves its chart: the y axis reaches above every point of every series, the
// √d_k reference included, whose end rises above the measured points when the first
// unscaled point lies above the line through the others.
void TestSweepChart::theAxesFitEverythingDrawn()
{
    Request chinese; // the window's first sentence in Chinese, where the clipping was seen
    chinese.text = exampleSentence(QStringLiteral("zh_CN")).toStdString();
    for (const Request& request : {sentence(), chinese, findPreset("article")->request})
        for (const int to : {64, 1024}) {
            SweepChart chart;
            chart.setPoints(sweepDk(request, 16, to));
            for (const SweepPanel panel : kSweepPanels) {
                QChart* drawn = chart.chart(panel);
                const auto* y = qobject_cast<QValueAxis*>(drawn->axes(Qt::Vertical).first());
                for (QAbstractSeries* s : drawn->series())
                    for (const QPointF& point : qobject_cast<QXYSeries*>(s)->points())
                        QVERIFY2(!std::isfinite(point.y()) || point.y() <= y->max(),
                                 qPrintable(QStringLiteral("%1 at d_k %2: %3 above the axis's %4")
                                                .arg(s->objectName())
                                                .arg(point.x())
                                                .arg(point.y())
                                                .arg(y->max())));
            }
        }
}

// A screen reader hears each chart's title and the measured lines' points, the numbers
// the chart draws.
void TestSweepChart::chartsTellTheirPoints()
{
    SweepChart chart;
    const QString before = chart.view(SweepPanel::Spread)->accessibleDescription();
    QCOMPARE(before, QStringLiteral("No points yet."));
    chart.setPoints(articlePoints());
    for (const SweepPanel panel : attn::ui::kSweepPanels) {
        const QChartView* view = chart.view(panel);
        QCOMPARE(view->accessibleName(), chart.chart(panel)->title());
        QCOMPARE(view->accessibleDescription(), chart.chartText(panel));
        QCOMPARE(view->accessibleDescription().count(QLatin1Char('\n')), 1); // two lines
    }
    const QStringList lines =
        chart.view(SweepPanel::Spread)->accessibleDescription().split(QLatin1Char('\n'));
    for (const QString& line : lines) {
        const bool scaled = line.startsWith(
            series(chart.chart(SweepPanel::Spread), QStringLiteral("std-scaled"))->name());
        for (const SweepPoint& p : articlePoints())
            if (p.scaled == scaled)
                QVERIFY2(line.contains(QStringLiteral("d_k %1 → %2")
                                           .arg(p.dK)
                                           .arg(QLocale().toString(p.stdLogits, 'g', 4))),
                         qPrintable(line));
    }
    QVERIFY(!lines.join(u' ').contains(
        series(chart.chart(SweepPanel::Spread), QStringLiteral("std-reference"))->name()));
}

void TestSweepChart::emptyChart()
{
    SweepChart chart;
    QVERIFY(chart.points().empty());
    QCOMPARE(series(chart.chart(SweepPanel::Spread), "std-unscaled")->count(), 0);
    QCOMPARE(series(chart.chart(SweepPanel::Spread), "std-reference")->count(), 0);
    chart.resize(900, 600);
    QVERIFY(!chart.grab().isNull());
}

void TestSweepChart::figureFormats_data()
{
    QTest::addColumn<FigureFormat>("format");
    QTest::newRow("png") << FigureFormat::Png;
    QTest::newRow("svg") << FigureFormat::Svg;
    QTest::newRow("pdf") << FigureFormat::Pdf;
}

void TestSweepChart::figureFormats()
{
    QFETCH(FigureFormat, format);
    const QString caption = sweepCaption(findPreset("article")->request);
    QVERIFY(caption.contains(QStringLiteral("seed 42")));
    QString error;
    const std::optional<QByteArray> bytes =
        sweepFigureBytes(format, articlePoints(), caption, &error);
    QVERIFY2(bytes, qPrintable(error));
    const QString problem = checkFigure(format, *bytes);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));

    QTemporaryDir directory;
    const QString path = directory.filePath("sweep." + formatSpelling(format));
    QCOMPARE(exportSweepFigure(path, format, articlePoints(), caption), QString());
    QCOMPARE(readAll(path).left(4), bytes->left(4));
}

void TestSweepChart::exportFailures()
{
    QTemporaryDir directory;
    const QString missing = directory.filePath("no/such/dir/sweep.png");
    QVERIFY(!exportSweepFigure(missing, FigureFormat::Png, articlePoints(), {}).isEmpty());
    QVERIFY(
        !exportSweepFigure(directory.filePath("sweep.csv"), FigureFormat::Csv, articlePoints(), {})
             .isEmpty());
    QCOMPARE(entries(directory.path()), QStringList());
}

void TestSweepChart::dialogComputesInBackground()
{
    SweepDialog dialog(nullptr);
    QSignalSpy finished(&dialog, &SweepDialog::sweepFinished);
    dialog.setBaseRequest(sentence());
    dialog.setRange(16, 64);
    dialog.compute();
    QVERIFY(dialog.busy());
    QVERIFY(finished.wait(kTimeoutMs));
    QVERIFY(!dialog.busy());
    QCOMPARE(dialog.chart()->points().size(), std::size_t(6));
    QCOMPARE(dialog.chart()->points(), sweepDk(sentence(), 16, 64));
    QCOMPARE(series(dialog.chart()->chart(SweepPanel::Jacobian), "jacobian-scaled")->count(), 3);
}

// The first, long sweep is cancelled by the second: only the second is reported.
void TestSweepChart::dialogNewerRequestWins()
{
    SweepDialog dialog(nullptr);
    QSignalSpy finished(&dialog, &SweepDialog::sweepFinished);
    dialog.setBaseRequest(sentence());
    dialog.setRange(16, 4096);
    dialog.compute();
    dialog.setRange(8, 16);
    dialog.compute();
    QVERIFY(finished.wait(kTimeoutMs));
    QTest::qWait(200);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(dialog.chart()->points().size(), std::size_t(4));
    QCOMPARE(dialog.chart()->points().front().dK, 8);
}

// Shown, the dialog computes its base at once and again whenever the base changes.
void TestSweepChart::dialogFollowsTheBaseWhileShown()
{
    SweepDialog dialog(nullptr);
    QSignalSpy finished(&dialog, &SweepDialog::sweepFinished);
    dialog.setRange(16, 32);
    dialog.setBaseRequest(sentence());
    QVERIFY(!dialog.busy()); // hidden: nothing computed yet
    dialog.show();
    QVERIFY(dialog.busy());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(dialog.chart()->points(), sweepDk(sentence(), 16, 32));

    Request causal = sentence();
    causal.config.mask = MaskKind::Causal;
    dialog.setBaseRequest(causal);
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(dialog.chart()->points(), sweepDk(causal, 16, 32));
    dialog.setBaseRequest(causal); // the same base: nothing to do
    QVERIFY(!dialog.busy());
    QCOMPARE(finished.size(), 2);
}

void TestSweepChart::dialogExports()
{
    SweepDialog dialog(nullptr);
    QSignalSpy finished(&dialog, &SweepDialog::sweepFinished);
    dialog.setRange(16, 32);
    dialog.compute(); // the tutorial's program until a base is set
    QVERIFY(finished.wait(kTimeoutMs));
    QTemporaryDir directory;
    for (const QString suffix : {"png", "svg", "pdf"}) {
        const QString path = directory.filePath("sweep." + suffix);
        QCOMPARE(dialog.exportTo(path), QString());
        const QString problem = checkFigure(*formatFromPath(path), readAll(path));
        QVERIFY2(problem.isEmpty(), qPrintable(suffix + ": " + problem));
    }
    const QString json = directory.filePath("sweep.json");
    QCOMPARE(dialog.exportTo(json), QString());
    const QJsonObject root = QJsonDocument::fromJson(readAll(json)).object();
    QCOMPARE(root["points"].toArray().size(), 4);
    QCOMPARE(root["config"]["embedding"].toString(), QStringLiteral("torch"));
    QVERIFY(!dialog.exportTo(directory.filePath("sweep.txt")).isEmpty());
    QVERIFY(!dialog.exportTo(directory.filePath("no/dir/sweep.png")).isEmpty());
    QCOMPARE(entries(directory.path()).size(), 4);
}

void TestSweepChart::cliOutputs_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file"); // empty: standard output
    QTest::addColumn<QString>("kind");
    QTest::newRow("a table by default") << QStringList{} << QString() << "table";
    QTest::newRow("--json -") << QStringList{"--json", "-"} << QString() << "json";
    QTest::newRow("--json file, range 4 … 32")
        << QStringList{"--from", "4", "--to", "32", "--json", "sweep.json"} << "sweep.json"
        << "json 4 32";
    QTest::newRow("--out x.svg") << QStringList{"--out", "x.svg"} << "x.svg"
                                 << "svg";
    QTest::newRow("--out x.png with a text")
        << QStringList{"--text", "我喜欢这个产品的设计", "--to", "256", "--out", "x.png"} << "x.png"
        << "png";
    QTest::newRow("--format pdf --out -")
        << QStringList{"--format", "pdf", "--out", "-"} << QString() << "pdf";
    QTest::newRow("--softcap 5 --json -: the std after the cap")
        << QStringList{"--softcap", "5", "--json", "-"} << QString() << "json capped";
}

void TestSweepChart::cliOutputs()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QTemporaryDir directory;
    const Run run = attnscope(QStringList{"sweep"} + arguments, directory.path());
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.err, QByteArray());
    const QByteArray bytes = file.isEmpty() ? run.out : readAll(directory.filePath(file));
    if (kind == u"table") {
        QVERIFY2(bytes.contains("   16      1.1888  0.2972"), bytes.constData());
    } else if (kind.startsWith(u"json")) {
        QJsonParseError error;
        const QJsonObject root = QJsonDocument::fromJson(bytes, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray points = root["points"].toArray();
        const bool small = kind == u"json 4 32";
        for (const QJsonValue& p : points) {
            const double before = p["std_scaled"].toDouble(),
                         after = p["std_final_logits"].toDouble();
            QVERIFY(kind == u"json capped" ? after < 5 && after <= before : after == before);
        }
        QCOMPARE(root["config"]["softcap"].toString(),
                 QString::fromLatin1(kind == u"json capped" ? "5" : "off"));
        QCOMPARE(points.size(), small ? 8 : 14);
        QCOMPARE(points.first()["d_k"].toInt(), small ? 4 : 16);
        QCOMPARE(points.last()["d_k"].toInt(), small ? 32 : 1024);
        const double ratio =
            points[0]["std_scaled"].toDouble() / points[1]["std_scaled"].toDouble();
        QVERIFY(std::abs(ratio * std::sqrt(points[0]["d_k"].toDouble()) - 1) < 1e-5);
    } else {
        const QString problem = checkFigure(*formatFromSpelling(kind), bytes);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    if (!file.isEmpty())
        QCOMPARE(entries(directory.path()), QStringList{file});
}

void TestSweepChart::cliFailures_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword");
    QTest::newRow("--from 0") << QStringList{"--from", "0", "--json", "x.json"} << 2 << "--from";
    QTest::newRow("--from 100: not a power of two")
        << QStringList{"--from", "100", "--json", "x.json"} << 2 << "power of two";
    QTest::newRow("--to 8192") << QStringList{"--to", "8192", "--out", "x.png"} << 2 << "--to";
    QTest::newRow("--from 512 --to 16")
        << QStringList{"--from", "512", "--to", "16", "--out", "x.png"} << 2 << "--from";
    QTest::newRow("--from abc") << QStringList{"--from", "abc"} << 2 << "whole number";
    QTest::newRow("--heads is the sweep's")
        << QStringList{"--heads", "2", "--json", "x.json"} << 2 << "H = 1";
    QTest::newRow("--kv-heads is the sweep's")
        << QStringList{"--kv-heads", "1", "--json", "x.json"} << 2 << "H = 1";
    QTest::newRow("--out x.txt: no figure format")
        << QStringList{"--out", "x.txt"} << 2 << ".png, .svg or .pdf";
    QTest::newRow("--format csv") << QStringList{"--format", "csv", "--out", "x"} << 2
                                  << "png|svg|pdf";
    QTest::newRow("--out - without --format") << QStringList{"--out", "-"} << 2 << "--format";
    QTest::newRow("both to standard output")
        << QStringList{"--json", "-", "--format", "svg", "--out", "-"} << 2 << "standard output";
    QTest::newRow("unknown option") << QStringList{"--colour", "red"} << 2 << "--colour";
    QTest::newRow("--json into a missing directory")
        << QStringList{"--to", "32", "--json", "no/dir/x.json"} << 1 << "no/dir/x.json";
    QTest::newRow("--out into a missing directory")
        << QStringList{"--to", "32", "--out", "no/dir/x.svg"} << 1 << "no/dir/x.svg";
}

void TestSweepChart::cliFailures()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, keyword);
    QTemporaryDir directory;
    const Run run = attnscope(QStringList{"sweep"} + arguments, directory.path());
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.startsWith("attnscope: ") && run.err.count('\n') == 1 &&
                 run.err.endsWith('\n'),
             run.err.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(keyword), run.err.constData());
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(entries(directory.path()), QStringList());
}

QTEST_MAIN(TestSweepChart)
#include "tst_sweepchart.moc"
