// A file's layer's mean head and a head's export from the head view: Open Layer Mean shows
// the mean of the layer's heads in the head view, as a head, and keeps showing it when the
// sequence changes; the head view's Export writes what it shows as a figure (PNG of the
// layout's size in the dialog's colours, SVG titled as the view, PDF) or as numbers equal
// to the shown weights.
#include "attention/attentionfile.h"
#include "fileheaddialog.h"
#include "modelfigure.h"
#include "modelwindow.h"

#include <QtTest>

#include <QCheckBox>
#include <QPushButton>
#include <QTemporaryDir>
#include <QXmlStreamReader>

#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

// A (L, B, H, T, T) stack whose weight (l, b, h, i, j) is a number of its own, so that a
// head, a sequence or a mean mixed up shows.
std::shared_ptr<MemoryAttentionStack> numberedStack(StackShape shape)
{
    FloatBuffer weights(std::size_t(shape.headCount()) * std::size_t(shape.queries) *
                        std::size_t(shape.keys));
    for (std::size_t k = 0; k < weights.size(); ++k)
        weights[k] = float((k * 7919) % 1000) / 1000.0f;
    return std::make_shared<MemoryAttentionStack>(
        shape, std::move(weights),
        std::vector<std::vector<std::string>>{{"the", "cat", "sat", "down"}},
        std::vector<std::vector<std::string>>{}, "numbered.npz");
}

QString largestDifference(const Matrix& got, const Matrix& want)
{
    if (got.rows() != want.rows() || got.cols() != want.cols())
        return QStringLiteral("shape %1×%2, expected %3×%4")
            .arg(got.rows())
            .arg(got.cols())
            .arg(want.rows())
            .arg(want.cols());
    Eigen::Index i = 0, j = 0;
    const float largest = (got - want).cwiseAbs().maxCoeff(&i, &j);
    return largest <= 1e-6f ? QString()
                            : QStringLiteral("largest difference %1 at (%2, %3)")
                                  .arg(double(largest))
                                  .arg(i)
                                  .arg(j);
}

} // namespace

class TestFileHeadExport : public QObject {
    Q_OBJECT

private slots:
    void meanHeadOpens_data();
    void meanHeadOpens();
    void meanFollowsTheSequence();
    void exports_data();
    void exports();
};

void TestFileHeadExport::meanHeadOpens_data()
{
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("heads");
    QTest::newRow("layer 0 of 3 heads") << 0 << 3;
    QTest::newRow("layer 1 of 3 heads") << 1 << 3;
    QTest::newRow("one head: the mean is the head") << 1 << 1;
}

// The button opens the chosen layer's mean head: the mean of its heads' weights, titled so,
// its statistics those of the mean.
void TestFileHeadExport::meanHeadOpens()
{
    QFETCH(int, layer);
    QFETCH(int, heads);
    const auto stack = numberedStack({2, 1, heads, 4, 4});
    ModelWindow window(stack);
    window.setCurrentHead(layer, 0);
    auto* button = window.findChild<QPushButton*>("openMean");
    QVERIFY(button);
    QCOMPARE(button->text(), QStringLiteral("Open Layer &Mean"));
    button->click();

    FileHeadDialog* dialog = window.headDialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->selection().what, FileWhat::Mean);
    QCOMPARE(dialog->layer(), layer);
    QCOMPARE(dialog->head(), -1);
    Matrix want = Matrix::Zero(4, 4);
    for (int h = 0; h < heads; ++h)
        want += stack->head(layer, 0, h);
    want /= float(heads);
    const QString difference = largestDifference(dialog->view()->data().weights, want);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Layer %1 · mean of the heads").arg(layer));
    QCOMPARE(dialog->view()->data().queryLabels, (QStringList{"the", "cat", "sat", "down"}));
    QVERIFY2(dialog->summaryText().startsWith("4 queries × 4 keys"),
             qPrintable(dialog->summaryText()));
}

// Another sequence shows that sequence's mean, not a head.
void TestFileHeadExport::meanFollowsTheSequence()
{
    const auto stack = numberedStack({2, 2, 3, 4, 4});
    ModelWindow window(stack);
    window.openMean(1);
    window.setSequence(1);
    FileHeadDialog* dialog = window.headDialog();
    QCOMPARE(dialog->selection().what, FileWhat::Mean);
    const QString difference =
        largestDifference(dialog->view()->data().weights, attn::meanHead(*stack, 1, 1));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Layer 1 · mean of the heads · sequence 1"));
}

void TestFileHeadExport::exports_data()
{
    QTest::addColumn<bool>("mean");
    QTest::addColumn<QString>("format");
    for (const char* format : {"png", "svg", "pdf", "npy", "csv", "json"}) {
        QTest::addRow("head 2 of layer 1 as %s", format) << false << format;
        QTest::addRow("the mean of layer 1 as %s", format) << true << format;
    }
}

// What the head view shows, exported from it: a figure as the dialog shows it (its
// colormap, values in cells), or its very numbers.
void TestFileHeadExport::exports()
{
    QFETCH(bool, mean);
    QFETCH(QString, format);
    const auto stack = numberedStack({2, 1, 3, 4, 4});
    ModelWindow window(stack);
    if (mean)
        window.openMean(1);
    else
        window.openHead(1, 2);
    FileHeadDialog* dialog = window.headDialog();
    dialog->findChild<QCheckBox*>("annotate")->setChecked(true);
    QVERIFY(dialog->findChild<QPushButton*>("exportHead"));
    const Matrix shown = dialog->view()->data().weights;

    QTemporaryDir dir;
    const QString path = dir.filePath("shown." + format);
    QCOMPARE(dialog->exportTo(path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();

    FileFigureOptions options;
    options.selection = mean ? FileSelection{FileWhat::Mean, 0} : FileSelection{FileWhat::Head, 2};
    options.layer = 1;
    options.annotate = true;
    if (format == u"png") {
        const QImage image = QImage::fromData(bytes);
        QCOMPARE(image.size(), (fileHeadFigureLayout(*stack, options).size * 2).toSize());
    } else if (format == u"svg") {
        QXmlStreamReader xml(bytes);
        QString title;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"title")
                title = xml.readElementText();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(title, dialog->windowTitle());
    } else if (format == u"pdf") {
        QVERIFY(bytes.startsWith("%PDF-"));
    } else if (format == u"npy") {
        const auto back = openAttentionFile(path.toStdString());
        const QString difference = largestDifference(back->head(0, 0, 0), shown);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    } else if (format == u"csv") {
        const QList<QByteArray> lines = bytes.trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 16);
        QVERIFY2(lines[1].startsWith(mean ? "1,mean,0,0,the,the," : "1,2,0,0,the,the,"),
                 lines[1].constData());
        QCOMPARE(lines[2].trimmed().split(',').last().toFloat(), shown(0, 1));
    } else {
        const QJsonObject root = QJsonDocument::fromJson(bytes).object();
        const QJsonObject head =
            root["layers"].toArray()[0].toObject()["heads"].toArray()[0].toObject();
        QCOMPARE(head["head"].toVariant().toString(), mean ? "mean" : "2");
        QCOMPARE(float(head["weights"].toArray()[3].toArray()[2].toDouble()), shown(3, 2));
    }
}

QTEST_MAIN(TestFileHeadExport)
#include "tst_fileheadexport.moc"
