// The heatmap view: hover text, pixels, hover and click, the keyboard, tool tips, and
// the repaints a hover or a switch of the formula makes.
#include "heatmaptest.h"

using namespace attn::ui;
using namespace attn::ui::test;

class TestHeatmapView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void hoverRepaintsKeepTheCellImage();
    void aSwitchKeepsTheLayout();

    void hoverText_data();
    void hoverText();
    void viewPixels();
    void viewHoverAndClick();
    void viewKeyboard();
    void keyboardScrollsTheCellIntoView();
    void viewToolTip();
};

void TestHeatmapView::initTestCase()
{
    // Hover text and ticks use the default locale; pin it so that decimals are points.
    QLocale::setDefault(QLocale::c());
}

void TestHeatmapView::hoverText_data()
{
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("column");
    QTest::addColumn<bool>("withLogits");
    QTest::addColumn<float>("fill");
    QTest::addColumn<bool>("pending");
    QTest::addColumn<QString>("expected");

    // The logit comes from the score through the rule: 3.12 · 0.25 = 0.78.
    QTest::newRow("CJK tokens with logit and score")
        << 2 << 1 << true << -inf << false
        << "query 它 (row 2) → key 猫 (column 1): weight 0.62 · logit 0.78 · "
           "score 3.12";
    QTest::newRow("masked cell") << 0 << 2 << true << -inf << false
                                 << "query 我 (row 0) → key 它 (column 2): masked · weight 0.00 · "
                                    "logit -inf · score -1.50";
    QTest::newRow("NaN weight, masked with -1e9")
        << 1 << 0 << true << -1e9f << false
        << "query 猫 (row 1) → key 我 (column 0): masked · weight NaN · logit "
           "-1e+09 · score 0.25";
    QTest::newRow("mean over heads: weight only")
        << 2 << 1 << false << -inf << false << "query 它 (row 2) → key 猫 (column 1): weight 0.62";
    // Before the statistics, S's masked cells may not be computed yet: their score is left
    // out (the fill needs none), the unmasked cells' kept.
    QTest::newRow("masked cell, scores pending")
        << 0 << 2 << true << -inf << true
        << "query 我 (row 0) → key 它 (column 2): masked · weight 0.00 · logit -inf";
    // ALiBi's bias of the cell's distance (a slope of 0.5, one key away): 0.78 − 0.5.
    QTest::newRow("alibi: the cell's own distance")
        << 2 << 1 << true << -inf << false
        << "query 它 (row 2) → key 猫 (column 1): weight 0.62 · logit 0.28 · score 3.12";
    QTest::newRow("unmasked cell, scores pending")
        << 2 << 1 << true << -inf << true
        << "query 它 (row 2) → key 猫 (column 1): weight 0.62 · logit 0.78 · score 3.12";
}

void TestHeatmapView::hoverText()
{
    QFETCH(int, row);
    QFETCH(int, column);
    QFETCH(bool, withLogits);
    QFETCH(float, fill);
    QFETCH(bool, pending);
    QFETCH(QString, expected);

    HeatmapData data;
    data.maskedScoresPending = pending;
    data.queryLabels = data.keyLabels = QStringList{"我", "猫", "它"};
    data.weights.edit().resize(3, 3);
    data.weights.edit() << 1.0f, 0.0f, 0.0f, notANumber, 0.5f, 0.0f, 0.2f, 0.62f, 0.18f;
    data.masked = attn::MaskMatrix::Zero(3, 3);
    data.masked.edit()(0, 2) = true;
    data.masked.edit()(1, 0) = true;
    if (withLogits) {
        data.scores.edit().resize(3, 3);
        data.scores.edit() << 0.4f, 1.0f, pending ? notANumber : -1.5f, 0.25f, 1.2f, 2.0f, 0.0f,
            3.12f, -2.0f;
        attn::LogitRule rule;
        rule.scale = 0.25f;
        rule.fill = fill;
        if (QByteArray(QTest::currentDataTag()).startsWith("alibi"))
            rule.slope = 0.5f;
        data.logitRule = rule;
    }
    QCOMPARE(attn::ui::hoverText(data, row, column), expected);
}

void TestHeatmapView::viewPixels()
{
    const HeatmapData data = ramp(6);
    HeatmapStyle style;
    style.colormap = ColormapName::Magma;
    HeatmapView view;
    view.setData(data);
    view.setHeatmapStyle(style);
    view.resize(480, 400);
    const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
    const HeatmapLayout& layout = view.heatmapLayout();
    QVERIFY(layout.cellSize() > 10);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            QCOMPARE(hex(pixelAt(image, layout.cellRect(i, j).center())),
                     hex(expectedColor(data, style, i, j)));
    QVERIFY(view.sizeHint().width() > 6 * 20);
}

void TestHeatmapView::viewHoverAndClick()
{
    HeatmapView view;
    view.setData(ramp(4));
    view.resize(400, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    QSignalSpy activated(&view, &HeatmapView::activated);

    const QPoint cell = view.heatmapLayout().cellRect(2, 3).center().toPoint();
    QTest::mouseMove(&view, cell);
    QTRY_COMPARE(hovered.size(), 1);
    QCOMPARE(hovered.at(0), (QVariantList{2, 3}));
    QTest::mouseMove(&view, cell + QPoint(1, 1)); // same cell: no new signal
    QTest::mouseMove(&view, view.heatmapLayout().cellRect(0, 1).center().toPoint());
    QTRY_COMPARE(hovered.size(), 2);
    QCOMPARE(hovered.at(1), (QVariantList{0, 1}));

    // New numbers under a mouse that stayed: the same cell again, then none when it is gone.
    view.setData(ramp(4, 0.5, 1));
    QCOMPARE(hovered.size(), 3);
    QCOMPARE(hovered.at(2), (QVariantList{0, 1}));
    view.setData(ramp(1));
    QCOMPARE(hovered.size(), 4);
    QCOMPARE(hovered.at(3), (QVariantList{-1, -1}));
    view.setData(ramp(4));

    QTest::mouseMove(&view, cell);
    QTRY_COMPARE(hovered.size(), 5);
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(&view, &leave);
    QCOMPARE(hovered.size(), 6);
    QCOMPARE(hovered.at(5), (QVariantList{-1, -1}));

    QTest::mouseClick(&view, Qt::LeftButton, {}, cell);
    QCOMPARE(activated.size(), 1);
}

// The keyboard's way to a cell's values: Tab to the heatmap, arrow keys over its cells,
// each step as a hover (the row and column outlined, the values in the status line and a
// tooltip) and told to screen readers; Enter opens the head.
void TestHeatmapView::viewKeyboard()
{
    HeatmapData data = ramp(5);
    data.title = QStringLiteral("Head 2");
    data.masked = attn::MaskMatrix::Zero(5, 5);
    data.masked.edit()(0, 4) = true;
    QWidget window;
    auto* before = new QLineEdit(&window); // Tab leaves it for the heatmap
    auto* view = new HeatmapView(&window);
    view->setData(data);
    view->setGeometry(0, 30, 400, 400);
    before->setGeometry(0, 0, 100, 25);
    window.resize(400, 440);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QCOMPARE(view->accessibleName(), QStringLiteral("Head 2"));
    QCOMPARE(view->accessibleDescription(), QStringLiteral("5 queries × 5 keys"));
    QSignalSpy hovered(view, &HeatmapView::cellHovered);
    QSignalSpy activated(view, &HeatmapView::activated);
    before->setFocus();
    QTest::keyClick(&window, Qt::Key_Tab);
    QVERIFY(view->hasFocus());
    QCOMPARE(view->currentCell(), QPoint(0, 0)); // tabbed to: the first cell
    QCOMPARE(hovered.last(), (QVariantList{0, 0}));
    QTRY_COMPARE(QToolTip::text(), attn::ui::hoverText(data, 0, 0));

    const auto press = [&](Qt::Key key, Qt::KeyboardModifiers modifiers = {}) {
        QTest::keyClick(view, key, modifiers);
        return view->currentCell();
    };
    QCOMPARE(press(Qt::Key_Left), QPoint(0, 0)); // stays in the heatmap
    QCOMPARE(press(Qt::Key_Up), QPoint(0, 0));
    QCOMPARE(press(Qt::Key_Right), QPoint(0, 1));
    QCOMPARE(press(Qt::Key_Down), QPoint(1, 1));
    QCOMPARE(press(Qt::Key_End), QPoint(1, 4));
    QCOMPARE(press(Qt::Key_Right), QPoint(1, 4));
    QCOMPARE(press(Qt::Key_Home), QPoint(1, 0));
    QCOMPARE(press(Qt::Key_End, Qt::ControlModifier), QPoint(4, 4));
    QCOMPARE(press(Qt::Key_Down), QPoint(4, 4));
    QCOMPARE(press(Qt::Key_PageUp), QPoint(0, 4)); // all five rows are in sight
    QCOMPARE(press(Qt::Key_PageDown), QPoint(4, 4));
    QCOMPARE(press(Qt::Key_Home, Qt::ControlModifier), QPoint(0, 0));
    QCOMPARE(press(Qt::Key_End), QPoint(0, 4));
    // Each step a hover: the signal the status line listens to, the tooltip, the outline
    // and the description a screen reader reads (a masked cell says so).
    QCOMPARE(hovered.last(), (QVariantList{0, 4}));
    QTRY_COMPARE(QToolTip::text(), attn::ui::hoverText(data, 0, 4));
    QVERIFY(QToolTip::text().contains(QStringLiteral("masked")));
    QCOMPARE(view->accessibleDescription(), attn::ui::hoverText(data, 0, 4));
    // What a screen reader asks the accessibility interface for.
    QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(view);
    QVERIFY(accessible);
    QCOMPARE(accessible->text(QAccessible::Name), QStringLiteral("Head 2"));
    QCOMPARE(accessible->text(QAccessible::Description), attn::ui::hoverText(data, 0, 4));
    const QRect grid = view->heatmapLayout().gridRect().toAlignedRect();
    const QImage outlined = view->grab().toImage().copy(grid);

    QTest::keyClick(view, Qt::Key_Return);
    QCOMPARE(activated.size(), 1);
    QTest::keyClick(view, Qt::Key_Space);
    QCOMPARE(activated.size(), 2);

    // Leaving the heatmap leaves the cell.
    QTest::keyClick(&window, Qt::Key_Tab);
    QVERIFY(!view->hasFocus());
    QCOMPARE(view->currentCell(), QPoint(-1, -1));
    QCOMPARE(hovered.last(), (QVariantList{-1, -1}));
    QCOMPARE(view->accessibleDescription(), QStringLiteral("5 queries × 5 keys"));
    QVERIFY(view->grab().toImage().copy(grid) != outlined); // the outline went with the cell
}

// A head zoomed larger than its window (the head dialog's scroll area): the cell the arrow
// keys reach comes into view.
void TestHeatmapView::keyboardScrollsTheCellIntoView()
{
    QScrollArea area;
    auto* view = new HeatmapView;
    view->setData(ramp(60));
    view->resize(3000, 3000);
    area.setWidget(view);
    area.resize(300, 300);
    area.show();
    QVERIFY(QTest::qWaitForWindowExposed(&area));
    QCOMPARE(area.horizontalScrollBar()->value(), 0);
    QTest::keyClick(view, Qt::Key_End, Qt::ControlModifier);
    QCOMPARE(view->currentCell(), QPoint(59, 59));
    const auto inSight = [&](int row, int column) {
        const QRect cell = view->heatmapLayout().cellRect(row, column).toAlignedRect();
        return QRect(view->mapTo(area.viewport(), cell.topLeft()), cell.size())
            .intersects(area.viewport()->rect());
    };
    QTRY_VERIFY(inSight(59, 59));
    QVERIFY(area.horizontalScrollBar()->value() > 0 && area.verticalScrollBar()->value() > 0);
    QTest::keyClick(view, Qt::Key_Home);
    QTRY_VERIFY(inSight(59, 0));
    QCOMPARE(area.horizontalScrollBar()->value(), 0);
}

void TestHeatmapView::viewToolTip()
{
    HeatmapData data = ramp(3);
    data.queryLabels = data.keyLabels = QStringList{"我", "爱", "猫"};
    HeatmapView view;
    view.setData(data);
    view.resize(300, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QPoint cell = view.heatmapLayout().cellRect(2, 0).center().toPoint();
    QHelpEvent help(QEvent::ToolTip, cell, view.mapToGlobal(cell));
    QCoreApplication::sendEvent(&view, &help);
    QTRY_COMPARE(QToolTip::text(), attn::ui::hoverText(data, 2, 0));
    QVERIFY(QToolTip::text().startsWith(QStringLiteral("query 猫 (row 2) → key 我 (column 0)")));
}

void TestHeatmapView::hoverRepaintsKeepTheCellImage()
{
    const int tokens = 600; // more cells than the view's pixels: the image path
    HeatmapData data;
    data.weights = attn::Matrix::Random(tokens, tokens).cwiseAbs();
    data.masked = attn::MaskMatrix::Constant(tokens, tokens, false);
    HeatmapView view;
    view.resize(420, 420);
    view.setData(data);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage first = view.grab().toImage();
    QCOMPARE(view.cellImageRenders(), 1);

    const QRectF grid = view.heatmapLayout().gridRect();
    QTest::mouseMove(&view, grid.center().toPoint());
    QTest::mouseMove(&view, (grid.center() + QPointF(7, 3)).toPoint());
    const QImage hovered = view.grab().toImage();
    QVERIFY(hovered != first);            // the highlight was painted…
    QCOMPARE(view.cellImageRenders(), 1); // …over the same cell image

    HeatmapStyle style = view.heatmapStyle();
    style.colormap = ColormapName::Magma;
    view.setHeatmapStyle(style);
    (void)view.grab();
    QCOMPARE(view.cellImageRenders(), 2);

    data.weights = attn::Matrix::Random(tokens, tokens).cwiseAbs();
    view.setData(data);
    (void)view.grab();
    QCOMPARE(view.cellImageRenders(), 3);

    view.resize(360, 360);
    (void)view.grab();
    QCOMPARE(view.cellImageRenders(), 4);

    // Past a pixel per cell the image has a pixel per cell whatever the size: a zoom step
    // (the head dialog resizes its view) or a larger window keeps it, and shows it.
    view.resize(1400, 1400);
    const QImage large = view.grab().toImage();
    QCOMPARE(view.cellImageRenders(), 5);
    view.resize(1500, 1500);
    const QImage larger = view.grab().toImage();
    QCOMPARE(view.cellImageRenders(), 5);
    const QRectF cells = view.heatmapLayout().gridRect();
    const QRgb corner = larger.pixel(cells.topLeft().toPoint() + QPoint(1, 1));
    const HeatmapStyle shown = view.heatmapStyle();
    QCOMPARE(corner, Colormap(ColormapName::Magma)
                         .color((data.weights(0, 0) - shown.vmin) / (shown.vmax - shown.vmin)));
    QVERIFY(large != larger);
}

// A switch of the formula brings new weights under the same labels: the view colours the
// new cells without measuring its labels again, and paints them (and only them) anew,
// from the grid's very first to its last whole pixel. New labels or a new colorbar tick
// lay it out again.
void TestHeatmapView::aSwitchKeepsTheLayout()
{
    attn::Request r = causalRequest("the cat sat on the mat because it was tired", 2);
    attn::AttentionEngine engine;
    const attn::Result first = engine.compute(r);
    HeatmapView view;
    view.resize(420, 420);
    HeatmapStyle style;
    view.setHeatmapStyle(style);
    view.setData(headHeatmap(first, 0, 1));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    (void)view.grab();
    const int builds = view.layoutBuilds();
    QCOMPARE(builds, 1);

    r.config.scale = attn::ScaleMode::None;
    const attn::Result switched = engine.compute(r);
    const HeatmapData data = headHeatmap(switched, 0, 1);
    view.setData(data);
    const QImage image = view.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(view.layoutBuilds(), builds);
    const HeatmapLayout& layout = view.heatmapLayout();
    const int T = data.rows();
    for (int i = 0; i < T; ++i)
        for (int j = 0; j <= i; ++j) // the unmasked cells (the masked ones are hatched)
            QCOMPARE(hex(pixelAt(image, layout.cellRect(i, j).center())),
                     hex(expectedColor(data, style, i, j)));
    // The cells reach the grid's edges: its outermost whole pixels show the corner cells.
    const QRectF grid = layout.gridRect();
    const QPoint topLeft(int(std::ceil(grid.left())), int(std::ceil(grid.top())));
    const QPoint bottomRight(int(std::floor(grid.right())) - 1, int(std::floor(grid.bottom())) - 1);
    QCOMPARE(hex(image.pixel(topLeft)), hex(expectedColor(data, style, 0, 0)));
    QCOMPARE(hex(image.pixel(bottomRight)), hex(expectedColor(data, style, T - 1, T - 1)));

    style.vmax = 0.5; // a new tick on the colorbar: measured again
    view.setHeatmapStyle(style);
    (void)view.grab();
    QCOMPARE(view.layoutBuilds(), builds + 1);
    r.text = "a dog sat on the mat because it was tired";
    view.setData(headHeatmap(engine.compute(r), 0, 1)); // new labels
    (void)view.grab();
    QCOMPARE(view.layoutBuilds(), builds + 2);
}

QTEST_MAIN(TestHeatmapView)
#include "tst_heatmapview.moc"
