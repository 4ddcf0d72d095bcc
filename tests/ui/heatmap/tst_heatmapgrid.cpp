// The heads' heatmaps: the level of detail of a large head, the head dialog, the grid's
// mean tile, letting go of what is out of sight, and the result's matrices they share.
#include "heatmaptest.h"

using namespace attn::ui;
using namespace attn::ui::test;

class TestHeatmapGrid : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void levelOfDetailKeepsPeaks_data();
    void levelOfDetailKeepsPeaks();
    void headDialogOpensWholeAndZoomsToDetail();
    void levelOfDetailIsTheBlockMaximum_data();
    void levelOfDetailIsTheBlockMaximum();
    void viewsShareTheResultsMatrices();
    void theMeanTileOnlyForSeveralHeads_data();
    void theMeanTileOnlyForSeveralHeads();
    void letGoKeepsWhatIsInSight();
    void letGoOutOfSightSaysItIsComputing();
    void editingAViewCopiesFirst();
};

void TestHeatmapGrid::initTestCase()
{
    // Hover text and ticks use the default locale; pin it so that decimals are points.
    QLocale::setDefault(QLocale::c());
}

void TestHeatmapGrid::levelOfDetailKeepsPeaks_data()
{
    QTest::addColumn<int>("cells");  // T × T
    QTest::addColumn<int>("pixels"); // image side
    QTest::newRow("one pixel per cell") << 40 << 40;
    QTest::newRow("512 cells on 456 pixels (blocks of 1-2)") << 512 << 456;
    QTest::newRow("2048 cells on 300 pixels") << 2048 << 300;
    QTest::newRow("1000 cells on 10 pixels") << 1000 << 10;
}

void TestHeatmapGrid::levelOfDetailKeepsPeaks()
{
    QFETCH(int, cells);
    QFETCH(int, pixels);

    // A field of small weights with one peak, one NaN and a masked corner block.
    HeatmapData data;
    data.weights = attn::Matrix::Constant(cells, cells, 0.01f);
    data.masked = attn::MaskMatrix::Constant(cells, cells, false);
    const int peakRow = cells * 3 / 7, peakColumn = cells * 5 / 9;
    data.weights.edit()(peakRow, peakColumn) = 1.0f;
    data.weights.edit()(cells - 1, 0) = std::numeric_limits<float>::quiet_NaN();
    data.masked.edit().topRightCorner(cells / 4, cells / 4).setConstant(true);
    HeatmapStyle style;

    const QImage image = cellImage(data, style, QSize(pixels, pixels));
    QCOMPARE(image.size(), QSize(pixels, pixels));
    const Colormap viridis(ColormapName::Viridis);
    // The pixel whose block [x·cells/pixels, (x+1)·cells/pixels) holds cell c: the last x
    // with x·cells/pixels ≤ c.
    auto pixelAtCell = [&](int c) { return int((qint64(c + 1) * pixels + cells - 1) / cells - 1); };
    auto pixelOf = [&](int row, int column) {
        return image.pixel(pixelAtCell(column), pixelAtCell(row));
    };
    // Sampling would lose a single cell; taking each block's maximum keeps it.
    QCOMPARE(pixelOf(peakRow, peakColumn), viridis.color(1.0));
    QCOMPARE(pixelOf(cells - 1, 0), heatmapInvalidFill);
    QCOMPARE(pixelOf(0, cells - 1), heatmapMaskedFill);
    QCOMPARE(pixelOf(cells / 8, cells / 8), viridis.color(0.01));
}

// A head of 2048 tokens opens whole in its dialog, drawn by level of detail with its one
// peak visible; zooming in reaches full detail, where the peak is a cell of its own
// pixels; another head of the same shape keeps the zoom, a smaller one opens whole.
void TestHeatmapGrid::headDialogOpensWholeAndZoomsToDetail()
{
    constexpr int T = 2048;
    HeatmapData data;
    data.weights = attn::Matrix::Constant(T, T, 0.001f);
    const int peak = 1234;
    data.weights.edit()(peak, peak) = 1.0f;
    for (int t = 0; t < T; ++t)
        data.queryLabels << QStringLiteral("w%1").arg(t);
    data.keyLabels = data.queryLabels;
    data.title = QStringLiteral("Head 0");
    HeatmapStyle style; // viridis over [0, 1]
    const QRgb peakColour = Colormap(ColormapName::Viridis).color(1.0);

    HeadDialog dialog;
    dialog.setHeatmap(data, style);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto* scroll = dialog.findChild<QScrollArea*>();
    QVERIFY(dialog.cellSize() < 1.0);
    QVERIFY2(dialog.view()->width() <= scroll->viewport()->width() &&
                 dialog.view()->height() <= scroll->viewport()->height(),
             "the whole head fits");
    QVERIFY2(dialog.view()->width() >= 0.85 * scroll->viewport()->width() ||
                 dialog.view()->height() >= 0.85 * scroll->viewport()->height(),
             qPrintable(QStringLiteral("and fills the window: %1x%2 in %3x%4 at %5")
                            .arg(dialog.view()->width())
                            .arg(dialog.view()->height())
                            .arg(scroll->viewport()->width())
                            .arg(scroll->viewport()->height())
                            .arg(dialog.cellSize())));
    QVERIFY(dialog.findChild<QLabel*>()->text().contains(QStringLiteral("0.")));
    const QImage whole = dialog.view()->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const HeatmapLayout fit = HeatmapLayout::forCellSize(data, style, dialog.cellSize());
    const QRectF cells = fit.cellRect(0, 0).united(fit.cellRect(T - 1, T - 1));
    const double ratio = whole.devicePixelRatio();
    int peakPixels = 0;
    QPoint found;
    for (int y = int(cells.top() * ratio); y < int(cells.bottom() * ratio); ++y)
        for (int x = int(cells.left() * ratio); x < int(cells.right() * ratio); ++x)
            if (whole.pixel(x, y) == peakColour) {
                ++peakPixels;
                found = QPoint(x, y);
            }
    QVERIFY2(peakPixels >= 1 && peakPixels <= 4, qPrintable(QString::number(peakPixels)));
    const QPointF expected = fit.cellRect(peak, peak).center() * ratio;
    QVERIFY2((QPointF(found) - expected).manhattanLength() <= 3 * ratio,
             qPrintable(QStringLiteral("peak drawn at %1, %2").arg(found.x()).arg(found.y())));

    // Fitted, it follows the dialog's size; zoomed, it keeps its cells.
    const double fitted = dialog.cellSize();
    dialog.resize(dialog.width() / 2, dialog.height() / 2);
    QTRY_VERIFY(dialog.cellSize() < fitted * 0.8);
    QVERIFY(dialog.view()->width() <= scroll->viewport()->width());
    dialog.resize(dialog.width() * 2, dialog.height() * 2);
    QTRY_COMPARE(dialog.cellSize(), fitted);

    while (dialog.cellSize() < 8)
        dialog.zoomIn();
    const double zoomedIn = dialog.cellSize();
    dialog.resize(dialog.width() - 100, dialog.height() - 100);
    QCOMPARE(dialog.cellSize(), zoomedIn);
    QVERIFY(dialog.view()->width() > scroll->viewport()->width());
    const HeatmapLayout layout = HeatmapLayout::forCellSize(data, style, dialog.cellSize());
    const QRectF cell = layout.cellRect(peak, peak);
    scroll->ensureVisible(int(cell.center().x()), int(cell.center().y()));
    const QImage detail = dialog.view()
                              ->grab(cell.toAlignedRect().adjusted(-2, -2, 2, 2))
                              .toImage()
                              .convertToFormat(QImage::Format_RGB32);
    int detailPixels = 0;
    for (int y = 0; y < detail.height(); ++y)
        for (int x = 0; x < detail.width(); ++x)
            detailPixels += detail.pixel(x, y) == peakColour ? 1 : 0;
    const double side = dialog.cellSize() * detail.devicePixelRatio();
    QVERIFY2(detailPixels >= (side - 2) * (side - 2), qPrintable(QString::number(detailPixels)));

    const double zoomed = dialog.cellSize();
    data.title = QStringLiteral("Head 1");
    dialog.setHeatmap(data, style);
    QCOMPARE(dialog.cellSize(), zoomed);
    HeatmapData small;
    small.weights = attn::Matrix::Constant(6, 6, 1.0f / 6);
    dialog.setHeatmap(small, style);
    QCOMPARE(dialog.cellSize(), 32.0);
}

void TestHeatmapGrid::levelOfDetailIsTheBlockMaximum_data()
{
    QTest::addColumn<QSize>("cells");  // columns × rows
    QTest::addColumn<QSize>("pixels"); // image width × height
    QTest::addColumn<bool>("masked");
    QTest::addColumn<double>("vmin"); // the colour scale
    QTest::addColumn<double>("vmax");
    QTest::newRow("blocks of 1-2, masked") << QSize(97, 97) << QSize(80, 80) << true << 0.0 << 1.0;
    QTest::newRow("blocks of 1-2, no mask")
        << QSize(97, 97) << QSize(80, 80) << false << 0.0 << 1.0;
    QTest::newRow("blocks of 1-2, cross") << QSize(61, 90) << QSize(50, 71) << true << 0.0 << 1.0;
    QTest::newRow("larger blocks, masked") << QSize(97, 97) << QSize(30, 30) << true << 0.0 << 1.0;
    QTest::newRow("larger blocks one way") << QSize(120, 97) << QSize(50, 90) << true << 0.0 << 1.0;
    // Weights below and above the scale take its ends; a scale of one value, the middle.
    QTest::newRow("blocks of 1-2, scale cut")
        << QSize(97, 97) << QSize(80, 80) << true << 0.25 << 0.75;
    QTest::newRow("larger blocks, scale cut")
        << QSize(97, 97) << QSize(30, 30) << false << 0.25 << 0.75;
    QTest::newRow("scale of one value") << QSize(97, 97) << QSize(80, 80) << true << 0.5 << 0.5;
    // One pixel per cell takes the same passes.
    QTest::newRow("one pixel per cell, masked")
        << QSize(97, 97) << QSize(97, 97) << true << 0.0 << 1.0;
    QTest::newRow("one pixel per cell, cross")
        << QSize(61, 90) << QSize(61, 90) << false << 0.25 << 0.75;
    // Weights a billion times the scale's span above it: the top colour, not a bin
    // overflowed past the integers into the bottom one.
    QTest::newRow("one pixel per cell, far above the scale")
        << QSize(97, 97) << QSize(97, 97) << false << 1e-12 << 2e-12;
    QTest::newRow("blocks of 1-2, far above the scale")
        << QSize(97, 97) << QSize(80, 80) << true << 1e-12 << 2e-12;
}

// Every pixel of a level-of-detail image, whichever way it is made, shows its block:
// invalid when any cell is NaN or ±inf, else the largest unmasked weight, else masked.
// tst_heatmap_sse2 runs it again on the passes a CPU without AVX2 takes.
void TestHeatmapGrid::levelOfDetailIsTheBlockMaximum()
{
    QFETCH(QSize, cells);
    QFETCH(QSize, pixels);
    QFETCH(bool, masked);
    QFETCH(double, vmin);
    QFETCH(double, vmax);
    const int rows = cells.height(), columns = cells.width();
    HeatmapData data;
    data.weights = attn::Matrix::Random(rows, columns).cwiseAbs();
    std::mt19937 random(7);
    std::uniform_int_distribution<int> row(0, rows - 1), column(0, columns - 1);
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), inf, -inf};
    for (int k = 0; k < 9; ++k)
        data.weights.edit()(row(random), column(random)) = specials[k % 3];
    if (masked) {
        data.masked = (attn::Matrix::Random(rows, columns).array() > 0.4f).matrix();
        data.masked.edit().topRows(3).setConstant(true); // blocks masked throughout
    }
    HeatmapStyle style;
    style.vmin = vmin;
    style.vmax = vmax;
    const QImage image = cellImage(data, style, pixels);
    QCOMPARE(image.size(), pixels);
    const Colormap viridis(ColormapName::Viridis);
    for (int y = 0; y < pixels.height(); ++y)
        for (int x = 0; x < pixels.width(); ++x) {
            float max = -inf;
            bool invalid = false;
            for (int i = y * rows / pixels.height(); i < (y + 1) * rows / pixels.height(); ++i)
                for (int j = x * columns / pixels.width(); j < (x + 1) * columns / pixels.width();
                     ++j) {
                    const float w = data.weights(i, j);
                    invalid = invalid || !std::isfinite(w);
                    if (!data.isMasked(i, j))
                        max = std::max(max, w);
                }
            const QRgb expected = invalid       ? heatmapInvalidFill
                                  : max == -inf ? heatmapMaskedFill
                                  : vmax > vmin ? viridis.color((max - vmin) / (vmax - vmin))
                                                : viridis.color(0.5);
            QVERIFY2(image.pixel(x, y) == expected,
                     qPrintable(QStringLiteral("pixel (%1, %2)").arg(x).arg(y)));
        }
}

// A head's heatmap reads the result's matrices in place (no copy per head, which cost
// time on every switch and a second copy of S and P); holding it keeps those matrices
// alive and unchanged while the engine computes on, recycling only what nobody holds.
void TestHeatmapGrid::viewsShareTheResultsMatrices()
{
    attn::Request r = causalRequest("the cat sat on the mat", 4);
    attn::AttentionEngine engine;
    HeatmapData shown;
    attn::Matrix expected;
    {
        const attn::Result first = engine.compute(r);
        shown = headHeatmap(first, 0, 2);
        QVERIFY(shown.weights.sharesWith(first.weights->at(0, 2)));
        QCOMPARE(shown.logitRule, attn::logitRule(first.config(), 0));
        QVERIFY(shown.scores.sharesWith(first.scores->at(0, 2)));
        QVERIFY(shown.masked.sharesWith((*first.mask)[0]));
        expected = first.weights->at(0, 2);
    }
    // Switches that rewrite P: the engine must take fresh buffers, not the shown one.
    for (int round = 0; round < 4; ++round) {
        r.config.scale = round % 2 == 0 ? attn::ScaleMode::None : attn::ScaleMode::SqrtDk;
        r.config.temperature = 1.0f + float(round);
        const attn::Result next = engine.compute(r);
        QVERIFY(!shown.weights.sharesWith(next.weights->at(0, 2)));
        QVERIFY(shown.weights.get() == expected);
    }
    // The mean over the heads is a matrix of the view's own.
    const attn::Result last = engine.compute(r);
    const HeatmapData mean = headHeatmap(last, 0, -1);
    QCOMPARE(mean.weights.rows(), 6);
    QVERIFY(mean.weights.get().isApprox(attn::meanOverHeads(*last.weights, 0)));
}

// The grid shows every head and, for more than one, their mean; the mean of one head is
// that head, the same picture twice, so one head is one tile. Asked for the mean (a figure,
// a comparison), one head gives that head, with its scores.
void TestHeatmapGrid::theMeanTileOnlyForSeveralHeads_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<QStringList>("titles");
    QTest::newRow("1 head: the head alone") << 1 << 0 << QStringList{"Head 0"};
    QTest::newRow("2 heads: both and their mean")
        << 2 << 0 << QStringList{"Head 0", "Head 1", "Mean of the heads"};
    QTest::newRow("4 heads: all and their mean")
        << 4 << 0 << QStringList{"Head 0", "Head 1", "Head 2", "Head 3", "Mean of the heads"};
    // Fewer K/V heads: each title names the one its head reads.
    QTest::newRow("4 heads, 2 K/V heads")
        << 4 << 2
        << QStringList{"Head 0 · K/V 0", "Head 1 · K/V 0", "Head 2 · K/V 1", "Head 3 · K/V 1",
                       "Mean of the heads"};
    QTest::newRow("4 heads, 4 K/V heads: as many")
        << 4 << 4 << QStringList{"Head 0", "Head 1", "Head 2", "Head 3", "Mean of the heads"};
}

void TestHeatmapGrid::theMeanTileOnlyForSeveralHeads()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(QStringList, titles);
    attn::AttentionEngine engine;
    attn::Request request = causalRequest("the cat sat on the mat", heads);
    request.config.kvHeads = kvHeads;
    const attn::Result result = engine.compute(request);
    HeatmapGrid grid;
    grid.resize(900, 600);
    grid.setResult(result, ViewOptions{});
    QStringList shown;
    for (int k = 0; k < grid.count(); ++k)
        shown << grid.view(k)->data().title;
    QCOMPARE(shown, titles);

    const HeatmapData mean = headHeatmap(result, 0, -1);
    QCOMPARE(mean.title, titles.last());
    QCOMPARE(mean.scores.size() > 0, heads == 1);
}

// A view letting go of its matrices keeps a picture of the part in sight only (a head
// dialog zoomed into a long sentence is a view far larger than the screen), shows it
// where it was, and scales it with a zoom made before the new data comes.
void TestHeatmapGrid::letGoKeepsWhatIsInSight()
{
    HeatmapData data = ramp(300);
    QScrollArea area;
    area.resize(320, 260);
    auto* view = new HeatmapView;
    view->setData(data);
    view->resize(3000, 3000); // 10 px a cell
    area.setWidget(view);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    area.horizontalScrollBar()->setValue(1200);
    area.verticalScrollBar()->setValue(900);
    const QRect inSight = view->visibleRegion().boundingRect();
    QVERIFY(inSight.width() <= area.viewport()->width() && inSight.top() >= 900);
    const QImage before = view->grab(inSight).toImage();

    view->letGo();
    QVERIFY(view->hasLetGo());
    QCOMPARE(view->keptPictureRect(), inSight); // not all 3000 × 3000 px
    QCOMPARE(view->grab(inSight).toImage(), before);

    // Zoomed to twice the size: the kept part drawn twice as large, at twice its place;
    // around it the background, not some other part of the old picture.
    view->resize(6000, 6000);
    const QRect doubled(inSight.topLeft() * 2, inSight.size() * 2);
    const QImage zoomed = view->grab(doubled).toImage();
    for (const QPoint p : {QPoint(3, 5), QPoint(100, 40), QPoint(inSight.width() - 2, 17),
                           QPoint(60, inSight.height() - 3)})
        QCOMPARE(zoomed.pixel(p * 2 + QPoint(1, 1)), before.pixel(p));
    const QImage outside = view->grab(QRect(QPoint(10, 10), QSize(8, 8))).toImage();
    QCOMPARE(outside.pixel(4, 4), view->palette().window().color().rgb());

    view->setData(data); // the new data: drawn in full again
    QVERIFY(!view->hasLetGo() && view->keptPictureRect().isEmpty());
    QVERIFY(view->grab(doubled).toImage() != zoomed);
}

// A view out of sight when it let go (a grid's tile scrolled to during the compute) has no
// picture: it shows its title at the top and "computing…" in the middle, not an empty
// square, until the new data.
void TestHeatmapGrid::letGoOutOfSightSaysItIsComputing()
{
    HeatmapData data = ramp(40);
    data.title = QStringLiteral("Head 7");
    HeatmapView view;
    view.setData(data);
    view.resize(400, 400);
    view.letGo(); // never shown: nothing in sight
    QVERIFY(view.hasLetGo() && view.keptPictureRect().isEmpty());
    const QImage waiting = view.grab().toImage();
    const QRgb background = view.palette().window().color().rgb();
    const auto inked = [&](const QImage& image, int top, int bottom) {
        int count = 0;
        for (int y = top; y < bottom; ++y)
            for (int x = 0; x < image.width(); ++x)
                count += image.pixel(x, y) != background;
        return count;
    };
    const int scale = int(waiting.devicePixelRatio());
    QVERIFY(inked(waiting, 0, 40 * scale) > 0);            // the title
    QVERIFY(inked(waiting, 180 * scale, 220 * scale) > 0); // "computing…"
    QCOMPARE(inked(waiting, 60 * scale, 170 * scale), 0);  // no cells, no old colours

    view.setData(data);
    QVERIFY(inked(view.grab().toImage(), 60 * scale, 170 * scale) > 1000); // cells again
}

void TestHeatmapGrid::editingAViewCopiesFirst()
{
    attn::Request r;
    r.text = "one two three";
    r.config.dModel = 8;
    r.config.heads = 2;
    attn::AttentionEngine engine;
    const attn::Result result = engine.compute(r);
    HeatmapData view = headHeatmap(result, 0, 1);
    const HeatmapData copy = view;
    const float before = result.weights->at(0, 1)(0, 0);
    view.weights.edit()(0, 0) = 7.0f;
    QCOMPARE(view.weights(0, 0), 7.0f);
    QCOMPARE(result.weights->at(0, 1)(0, 0), before); // the result is never written
    QCOMPARE(copy.weights(0, 0), before);             // nor another view of it
    QVERIFY(copy.weights.sharesWith(result.weights->at(0, 1)));
    HeatmapData own;
    own.weights = attn::Matrix::Constant(2, 2, 0.5f);
    const float* cells = own.weights.data();
    own.weights.edit()(1, 1) = 0.25f; // nobody else holds it: written in place
    QCOMPARE(own.weights.data(), cells);
    QCOMPARE(own.weights(1, 1), 0.25f);
}

QTEST_MAIN(TestHeatmapGrid)
#include "tst_heatmapgrid.moc"
