// Compare… in the head view of an attention file: it opens beside the head shown (A)
// another head of the same stack (B), by default the same head in the next layer; both are
// drawn on one colour scale with the stack's very weights; the numbers it shows (largest
// and mean |A − B|, each side's row sums and entropy) are those of the two heads; the layer
// and head selectors change B; a hover gives both weights and their difference.
#include "attention/attentionreport.h"
#include "attention/attentionstack.h"
#include "fileheaddialog.h"
#include "headcomparedialog.h"
#include "heatmapview.h"
#include "modelwindow.h"

#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>

#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

// A (L, 1, H, 4, 4) stack whose weights all differ, so that two heads mixed up show.
std::shared_ptr<MemoryAttentionStack> numberedStack(int layers, int heads)
{
    const StackShape shape{layers, 1, heads, 4, 4};
    FloatBuffer weights(std::size_t(shape.headCount()) * 16, 0.0f);
    for (std::size_t k = 0; k < weights.size(); ++k)
        weights[k] = float((k * 7919) % 1000) / 1000.0f;
    return std::make_shared<MemoryAttentionStack>(
        shape, std::move(weights),
        std::vector<std::vector<std::string>>{{"the", "cat", "sat", "down"}},
        std::vector<std::vector<std::string>>{}, "numbered.npz");
}

// The weights `selection` names, taken from the stack directly (head < 0: the mean).
Matrix weightsOf(const AttentionStack& stack, int layer, int head)
{
    return head >= 0 ? stack.head(layer, 0, head) : meanHead(stack, layer, 0);
}

bool same(const Matrix& got, const Matrix& want)
{
    return got.rows() == want.rows() && got.cols() == want.cols() &&
           (got - want).cwiseAbs().maxCoeff() <= 1e-6f;
}

QString fixed(double value, int decimals)
{
    return QLocale().toString(value, 'f', decimals);
}

// Opens head `head` (−1: the mean) of `layer` in the model window's head view and clicks
// its Compare… button.
HeadCompareDialog* openCompare(ModelWindow& window, int layer, int head)
{
    if (head >= 0)
        window.openHead(layer, head);
    else
        window.openMean(layer);
    FileHeadDialog* view = window.headDialog();
    if (!view)
        return nullptr;
    auto* button = view->findChild<QPushButton*>("compareHead");
    if (!button || !button->isEnabled())
        return nullptr;
    button->click();
    return view->compareDialog();
}

} // namespace

class TestHeadCompare : public QObject {
    Q_OBJECT

private slots:
    void opensWithTheDefault_data();
    void opensWithTheDefault();
    void numbersAreTheHeads_data();
    void numbersAreTheHeads();
    void selectorsChangeB();
    void hoverGivesBothAndTheDifference();
    void followsTheHeadView();
};

void TestHeadCompare::opensWithTheDefault_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head"); // −1: the mean
    QTest::addColumn<int>("otherLayer");
    QTest::addColumn<int>("otherHead");
    QTest::newRow("head 1 of layer 0: head 1 of layer 1") << 3 << 2 << 0 << 1 << 1 << 1;
    QTest::newRow("the last layer: the layer before") << 3 << 2 << 2 << 0 << 1 << 0;
    QTest::newRow("a layer's mean: the next layer's mean") << 3 << 2 << 1 << -1 << 2 << -1;
    QTest::newRow("one layer: the next head") << 1 << 3 << 0 << 1 << 0 << 2;
    QTest::newRow("one layer, last head: the mean") << 1 << 3 << 0 << 2 << 0 << -1;
    QTest::newRow("one layer, its mean: head 0") << 1 << 3 << 0 << -1 << 0 << 0;
}

// The button opens the comparison of what the head view shows with the default B, both
// the stack's weights, on one colour scale, with the file's tokens.
void TestHeadCompare::opensWithTheDefault()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(int, layer);
    QFETCH(int, head);
    QFETCH(int, otherLayer);
    QFETCH(int, otherHead);
    const auto stack = numberedStack(layers, heads);
    ModelWindow window(stack);
    HeadCompareDialog* dialog = openCompare(window, layer, head);
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->otherLayer(), otherLayer);
    const FileSelection other = dialog->otherSelection();
    QCOMPARE(other.what, otherHead >= 0 ? FileWhat::Head : FileWhat::Mean);
    if (otherHead >= 0)
        QCOMPARE(other.head, otherHead);
    QVERIFY(same(dialog->viewA()->data().weights, weightsOf(*stack, layer, head)));
    QVERIFY(same(dialog->viewB()->data().weights, weightsOf(*stack, otherLayer, otherHead)));
    QCOMPARE(dialog->viewB()->data().queryLabels, (QStringList{"the", "cat", "sat", "down"}));
    const double top = std::max(weightsOf(*stack, layer, head).maxCoeff(),
                                weightsOf(*stack, otherLayer, otherHead).maxCoeff());
    QCOMPARE(dialog->viewA()->heatmapStyle().vmax, top);
    QCOMPARE(dialog->viewB()->heatmapStyle().vmax, top);
    QVERIFY2(dialog->viewA()->data().title.startsWith(QStringLiteral("A: Layer %1").arg(layer)),
             qPrintable(dialog->viewA()->data().title));
    QVERIFY2(
        dialog->viewB()->data().title.startsWith(QStringLiteral("B: Layer %1").arg(otherLayer)),
        qPrintable(dialog->viewB()->data().title));
    QVERIFY2(dialog->windowTitle().startsWith(QStringLiteral("Compare: Layer %1").arg(layer)),
             qPrintable(dialog->windowTitle()));
}

void TestHeadCompare::numbersAreTheHeads_data()
{
    QTest::addColumn<int>("otherLayer");
    QTest::addColumn<int>("otherHead");
    QTest::newRow("head 0 of layer 1") << 1 << 0;
    QTest::newRow("head 2 of layer 0") << 0 << 2;
    QTest::newRow("the mean of layer 2") << 2 << -1;
    QTest::newRow("itself: no difference") << 0 << 1;
}

// The difference's largest and mean |A − B|, computed here from the stack, are the
// dialog's and are in its line of numbers, with each side's row-sum range and entropy.
void TestHeadCompare::numbersAreTheHeads()
{
    QFETCH(int, otherLayer);
    QFETCH(int, otherHead);
    const auto stack = numberedStack(3, 3);
    ModelWindow window(stack);
    HeadCompareDialog* dialog = openCompare(window, 0, 1);
    QVERIFY(dialog);
    dialog->setOther(otherLayer, otherHead >= 0 ? FileSelection{FileWhat::Head, otherHead}
                                                : FileSelection{FileWhat::Mean, 0});
    const Matrix a = stack->head(0, 0, 1);
    const Matrix b = weightsOf(*stack, otherLayer, otherHead);
    const Eigen::ArrayXXd gaps = (a.cast<double>() - b.cast<double>()).cwiseAbs().array();
    Eigen::Index row = 0, column = 0;
    const double largest = gaps.maxCoeff(&row, &column);
    const double mean = gaps.mean();
    const HeadDifference& d = dialog->difference();
    QCOMPARE(d.cells, 16);
    QVERIFY(std::abs(d.largest - largest) < 1e-9);
    QVERIFY(std::abs(d.mean - mean) < 1e-9);
    if (largest > 0) {
        QCOMPARE(d.row, int(row));
        QCOMPARE(d.column, int(column));
    }
    const QString text = dialog->numbersText();
    QVERIFY2(text.contains(QStringLiteral("Largest |A − B| %1 at query").arg(fixed(largest, 4))),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("mean |A − B| %1").arg(fixed(mean, 4))),
             qPrintable(text));
    for (const auto& [name, weights] : {std::pair{"A", a}, std::pair{"B", b}}) {
        const HeadStatistics s = weightStatistics(weights);
        const QString side = QStringLiteral("%1: rows sum to %2 … %3 · mean entropy %4 bits")
                                 .arg(QLatin1String(name), fixed(s.rowSumMin, 4),
                                      fixed(s.rowSumMax, 4), fixed(s.meanEntropy, 2));
        QVERIFY2(text.contains(side), qPrintable(text + "\nwanted: " + side));
    }
}

// The layer spin box and the head combo box choose B; the views and numbers follow.
void TestHeadCompare::selectorsChangeB()
{
    const auto stack = numberedStack(3, 2);
    ModelWindow window(stack);
    HeadCompareDialog* dialog = openCompare(window, 0, 0);
    QVERIFY(dialog);
    auto* layer = dialog->findChild<QSpinBox*>("compareLayer");
    auto* head = dialog->findChild<QComboBox*>("compareHead");
    QVERIFY(layer && head);
    QCOMPARE(layer->maximum(), 2);
    QCOMPARE(head->count(), 3); // two heads and the mean
    layer->setValue(2);
    QCOMPARE(dialog->otherLayer(), 2);
    QVERIFY(same(dialog->viewB()->data().weights, stack->head(2, 0, 0)));
    head->setCurrentIndex(1);
    QVERIFY(same(dialog->viewB()->data().weights, stack->head(2, 0, 1)));
    const double largest =
        (stack->head(0, 0, 0).cast<double>() - stack->head(2, 0, 1).cast<double>())
            .cwiseAbs()
            .maxCoeff();
    QVERIFY(std::abs(dialog->difference().largest - largest) < 1e-9);
    head->setCurrentIndex(2);
    QCOMPARE(dialog->otherSelection().what, FileWhat::Mean);
    QVERIFY(same(dialog->viewB()->data().weights, meanHead(*stack, 2, 0)));
    QVERIFY2(dialog->windowTitle().contains("Layer 2 · mean of the heads"),
             qPrintable(dialog->windowTitle()));
}

// Hovering a cell of either side names it and gives A, B and B − A there.
void TestHeadCompare::hoverGivesBothAndTheDifference()
{
    const auto stack = numberedStack(2, 2);
    ModelWindow window(stack);
    HeadCompareDialog* dialog = openCompare(window, 0, 1);
    QVERIFY(dialog);
    const double a = stack->head(0, 0, 1)(2, 1);
    const double b = stack->head(1, 0, 1)(2, 1);
    QCOMPARE(dialog->cellText(2, 1),
             QStringLiteral("query sat (row 2) → key cat (column 1): A %1 · B %2 · B − A %3")
                 .arg(fixed(a, 4), fixed(b, 4), fixed(b - a, 4)));
    emit dialog->viewB()->cellHovered(2, 1);
    auto* hover = dialog->findChild<QLabel*>("compareHover");
    QVERIFY(hover);
    QCOMPARE(hover->text(), dialog->cellText(2, 1));
    QVERIFY(dialog->cellText(-1, -1).isEmpty());
}

// Another head opened in the head view becomes A; B stays; hiding the head view hides the
// comparison.
void TestHeadCompare::followsTheHeadView()
{
    const auto stack = numberedStack(3, 2);
    ModelWindow window(stack);
    HeadCompareDialog* dialog = openCompare(window, 0, 0);
    QVERIFY(dialog);
    dialog->setOther(2, {FileWhat::Head, 1});
    window.openHead(1, 0);
    QVERIFY(same(dialog->viewA()->data().weights, stack->head(1, 0, 0)));
    QVERIFY(same(dialog->viewB()->data().weights, stack->head(2, 0, 1)));
    window.headDialog()->hide();
    QVERIFY(!dialog->isVisible());
}

QTEST_MAIN(TestHeadCompare)
#include "tst_headcompare.moc"
