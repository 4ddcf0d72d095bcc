// The heatmaps get the space (issue #26, 2): tiles of short sentences grow until their
// cells hold their values, every token label that fits is shown (and the hovered one
// always), and the step-by-step strips give each token a readable row.
#include "engine/engine.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"
#include "heatmapview.h"
#include "pipelinestrip.h"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QTest>

#include <algorithm>
#include <string>

using namespace attn::ui;

namespace {

attn::Result compute(const std::string& text, int heads, int dModel)
{
    attn::Request request;
    request.text = text;
    request.config.dModel = dModel;
    request.config.heads = heads;
    attn::AttentionEngine engine;
    return engine.compute(request);
}

// A sentence of `tokens` words.
std::string words(int tokens)
{
    static const char* const kWords[] = {"the",     "cat", "sat", "on", "a",    "mat",
                                         "because", "it",  "was", "so", "tired"};
    std::string text;
    for (int k = 0; k < tokens; ++k)
        text += std::string(k ? " " : "") + kWords[k % 11];
    return text;
}

// Whether any pixel of `rect` in `image` is dark (text on the window's light background).
bool hasInk(const QImage& image, const QRectF& rect)
{
    const QRect pixels = rect.toAlignedRect().intersected(image.rect());
    for (int y = pixels.top(); y <= pixels.bottom(); ++y)
        for (int x = pixels.left(); x <= pixels.right(); ++x)
            if (qGray(image.pixel(x, y)) < 128)
                return true;
    return false;
}

// Pixels of exactly black or white inside a cell: the value printed in it (the colours of
// the scale are neither).
int textPixels(const QImage& image, const QRectF& cell)
{
    int count = 0;
    const QRect pixels = cell.adjusted(1, 1, -1, -1).toAlignedRect().intersected(image.rect());
    for (int y = pixels.top(); y <= pixels.bottom(); ++y)
        for (int x = pixels.left(); x <= pixels.right(); ++x) {
            const QRgb rgb = image.pixel(x, y);
            count += rgb == qRgb(0, 0, 0) || rgb == qRgb(255, 255, 255);
        }
    return count;
}

// 37 tokens as labels of a square heatmap.
HeatmapData tokens37()
{
    HeatmapData data;
    data.weights = attn::Matrix::Constant(37, 37, 1.0f / 37);
    for (int k = 0; k < 37; ++k)
        data.queryLabels << QStringLiteral("w%1").arg(k);
    data.keyLabels = data.queryLabels;
    return data;
}

} // namespace

class TestHeatmapSpace : public QObject {
    Q_OBJECT

private slots:
    void shortSentenceTilesGrowToTheirValues_data();
    void shortSentenceTilesGrowToTheirValues();
    void everyTokenThatFitsIsLabelled_data();
    void everyTokenThatFitsIsLabelled();
    void hoveredTokenIsLabelled();
    void zoomedHeadLabelsEveryToken();
    void stepRowsAreReadable_data();
    void stepRowsAreReadable();
};

// A 6-token sentence left its tiles at ~230 px beside a wide empty area, and at 11 tokens
// "values in cells" printed nothing. In the main window's heatmap area (a scroll area
// 1040 × 480) the tiles fill the width up to cells that hold their values, no larger.
void TestHeatmapSpace::shortSentenceTilesGrowToTheirValues_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<bool>("annotate");
    QTest::newRow("6 tokens, values in cells") << 6 << true;
    QTest::newRow("6 tokens, no values") << 6 << false;
    QTest::newRow("11 tokens, values in cells") << 11 << true;
    QTest::newRow("8 tokens, values in cells") << 8 << true;
}

void TestHeatmapSpace::shortSentenceTilesGrowToTheirValues()
{
    QFETCH(int, tokens);
    QFETCH(bool, annotate);
    const attn::Result result = compute(words(tokens), 4, 64);
    QCOMPARE(result.length(), tokens);

    QScrollArea area;
    auto* grid = new HeatmapGrid;
    area.setWidget(grid);
    area.setWidgetResizable(true);
    area.setFrameShape(QFrame::NoFrame);
    area.setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    area.resize(1040 + area.verticalScrollBar()->sizeHint().width(), 480);
    ViewOptions view;
    view.annotate = annotate;
    grid->setResult(result, view);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    const int room = area.viewport()->width();

    // Their cells hold the values readably, and are no larger than needed at the label font.
    HeatmapView* head = grid->view(0);
    const double cell = head->heatmapLayout().cellSize();
    const double least = minimumValueCell(head->font(), head);
    const double full = fullValueCell(head->font(), head);
    // The tiles fill the width (less than a tenth of it left empty), unless they are as
    // large as they get, or a column more would make them too small for the values.
    int right = 0;
    for (int k = 0; k < grid->count(); ++k)
        right = std::max(right, grid->view(k)->geometry().right() + 1);
    QVERIFY2(right >= 0.9 * room || cell >= full - 1 || (annotate && cell < 1.2 * least),
             qPrintable(QStringLiteral("tiles end at %1 of %2 px, cells of %3 px")
                            .arg(right)
                            .arg(room)
                            .arg(cell)));
    QVERIFY2(cell >= least && cell <= full + 1,
             qPrintable(QStringLiteral("cells of %1 px, values need %2 to %3 px")
                            .arg(cell)
                            .arg(least)
                            .arg(full)));
    // The values are painted, in every cell of the first row.
    const QImage image = head->grab().toImage();
    for (int j = 0; j < tokens; ++j)
        QCOMPARE(textPixels(image, head->heatmapLayout().cellRect(0, j)) > 0, annotate);
}

// At 37 tokens only every 5th token was labelled (8 of 37): now every one whose label
// clears its neighbours', at a smaller font down to kMinLabelScale where rows are narrow.
void TestHeatmapSpace::everyTokenThatFitsIsLabelled_data()
{
    QTest::addColumn<int>("side");
    QTest::addColumn<int>("labelled"); // at least, on each axis
    QTest::newRow("37 tokens in 440 px: every other") << 440 << 19;
    QTest::newRow("37 tokens in 400 px: every other") << 400 << 19;
    QTest::newRow("37 tokens in 800 px: all") << 800 << 37;
}

void TestHeatmapSpace::everyTokenThatFitsIsLabelled()
{
    QFETCH(int, side);
    QFETCH(int, labelled);
    const HeatmapData data = tokens37();
    QImage image(side, side, QImage::Format_RGB32);
    const HeatmapLayout layout(QRectF(image.rect()), data, HeatmapStyle(), &image);
    const int rows = (data.rows() + layout.rowLabelStride() - 1) / layout.rowLabelStride();
    const int columns =
        (data.columns() + layout.columnLabelStride() - 1) / layout.columnLabelStride();
    QVERIFY2(rows >= labelled && columns >= labelled,
             qPrintable(QStringLiteral("%1 rows and %2 columns labelled, cells of %3 px")
                            .arg(rows)
                            .arg(columns)
                            .arg(layout.cellSize())));
    // Shown labels never overlap: a stride's rows hold a line of the font they are drawn in,
    // which is never below the readable minimum.
    QVERIFY(layout.rowLabelStride() * layout.rowHeight() >= layout.rowLabelLineHeight() - 1e-6);
    QVERIFY(layout.columnLabelStride() * layout.cellSize() >=
            layout.columnLabelLineHeight() - 1e-6);
    QVERIFY(layout.rowLabelLineHeight() >=
            HeatmapLayout::kMinLabelScale * layout.lineHeight() - 1e-6);
}

// Among every other token labelled, the mouse on cell (5, 7) shows query 5's and key 7's
// tokens at their places on the axes.
void TestHeatmapSpace::hoveredTokenIsLabelled()
{
    HeatmapView view;
    view.setData(tokens37());
    HeatmapStyle style;
    style.colorbar = false;
    view.setHeatmapStyle(style);
    // The largest square in which every other token is labelled.
    HeatmapStyle measured = style;
    measured.labelFont = view.font();
    int side = 520;
    while (side > 200 &&
           HeatmapLayout(QRectF(0, 0, side, side), tokens37(), measured, &view).rowLabelStride() <
               2)
        side -= 10;
    view.resize(side, side);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const HeatmapLayout& layout = view.heatmapLayout();
    QCOMPARE(layout.rowLabelStride(), 2);
    QCOMPARE(layout.columnLabelStride(), 2);
    QCOMPARE(layout.columnLabelAngle(), 90);
    const QRectF cell = layout.cellRect(5, 7);
    // A thin band through the middle of row 5's label, and of column 7's (standing).
    const QRectF rowBand(layout.rowLabelArea().left(), cell.center().y() - 1,
                         layout.rowLabelArea().width(), 2);
    const QRectF columnBand(cell.center().x() - 1, layout.columnLabelArea().top(), 2,
                            layout.columnLabelArea().height());

    QTest::mouseMove(&view, QPoint(10, 10)); // outside the cells
    const QImage before = view.grab().toImage();
    QVERIFY2(!hasInk(before, rowBand), "row 5 is not labelled");
    QVERIFY2(!hasInk(before, columnBand), "column 7 is not labelled");

    QTest::mouseMove(&view, cell.center().toPoint());
    QCOMPARE(view.currentCell(), QPoint(5, 7));
    const QImage hovered = view.grab().toImage();
    QVERIFY2(hasInk(hovered, rowBand), "the hovered row's token is shown");
    QVERIFY2(hasInk(hovered, columnBand), "the hovered column's token is shown");
}

// The head dialog opens a 70-token head with every token labelled, scrolling, where the
// fit to its window gave cells too small for them; Fit to Window still fits.
void TestHeatmapSpace::zoomedHeadLabelsEveryToken()
{
    const attn::Result result = compute(words(70), 2, 32);
    QCOMPARE(result.length(), 70);
    HeadDialog dialog;
    dialog.resize(820, 760);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.setHeatmap(headHeatmap(result, 0, 0), HeatmapStyle());
    const HeatmapLayout& opened = dialog.view()->heatmapLayout();
    QCOMPARE(opened.rowLabelStride(), 1);
    QCOMPARE(opened.columnLabelStride(), 1);
    dialog.fitToWindow();
    QVERIFY(dialog.view()->height() <= dialog.height());
}

// At d_model 512 (one head, d_k 512) X, Q_h, K_h and V_h were 11 rows of 2–3 px with two
// row labels: each token's row is now a label's line tall, and every row labelled.
void TestHeatmapSpace::stepRowsAreReadable_data()
{
    QTest::addColumn<int>("stage");
    QTest::newRow("X") << int(PipelineStage::Input);
    QTest::newRow("Q_h") << int(PipelineStage::Queries);
    QTest::newRow("K_h") << int(PipelineStage::Keys);
    QTest::newRow("V_h") << int(PipelineStage::Values);
    QTest::newRow("P (square, as before)") << int(PipelineStage::Weights);
}

void TestHeatmapSpace::stepRowsAreReadable()
{
    QFETCH(int, stage);
    const attn::Result result = compute("The cat sat on the mat because it was tired .", 1, 512);
    QCOMPARE(result.length(), 11);
    PipelineStrip strip;
    strip.setResult(result, 0, 0);
    strip.layOut(1400);
    PipelineTile* tile = strip.tile(PipelineStage(stage));
    QVERIFY(tile);
    QFont labelFont = tile->font();
    labelFont.setPointSizeF(labelFont.pointSizeF() * 0.9); // the tile's label font
    const double line = QFontMetricsF(labelFont, tile).height();
    const QRectF first = tile->cellRect(0, 0);
    QVERIFY2(
        first.height() >= line,
        qPrintable(
            QStringLiteral("rows of %1 px, a label's line %2 px").arg(first.height()).arg(line)));
    // Every row's label: ink left of the cells, within the row.
    const QImage image = tile->grab().toImage();
    for (int i = 0; i < 11; ++i) {
        const QRectF row = tile->cellRect(i, 0);
        QVERIFY2(hasInk(image, QRectF(0, row.top() + 1, row.left() - 2, row.height() - 2)),
                 qPrintable(QStringLiteral("row %1 has no label").arg(i)));
    }
}

QTEST_MAIN(TestHeatmapSpace)
#include "tst_heatmapspace.moc"
