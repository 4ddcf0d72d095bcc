// The heatmap's layout: cells under the pointer, key labels (rotated, upright, stacked),
// axis titles, the preferred size, and the margin sums beside the grid.
#include "heatmaptest.h"

using namespace attn::ui;
using namespace attn::ui::test;

class TestHeatmapLayout : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void oneLetterKeyStandsUpright();
    void chineseWordsStackInTheirColumns();
    void axisTitleClearOfTheKeyLabels_data();
    void axisTitleClearOfTheKeyLabels();
    void verticalForms_data();
    void verticalForms();
    void rememberedLabelWidthsFollowNewLabels();

    void cellAt_data();
    void cellAt();
    void labelRotation_data();
    void labelRotation();
    void preferredSizeFitsCells();

    void sumText_data();
    void sumText();
    void marginSumsLayout_data();
    void marginSumsLayout();
    void sumTitlesByTheirBars_data();
    void sumTitlesByTheirBars();
    void marginSumsOfTheSoftmaxAxis_data();
    void marginSumsOfTheSoftmaxAxis();
    void marginSumsNaN();
    void marginSumsInSvg_data();
    void marginSumsInSvg();
};

void TestHeatmapLayout::initTestCase()
{
    // Hover text and ticks use the default locale; pin it so that decimals are points.
    QLocale::setDefault(QLocale::c());
}

void TestHeatmapLayout::cellAt_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("columns");
    QTest::addColumn<QRectF>("target");

    QTest::newRow("1×1 in 100×100") << 1 << 1 << QRectF(0, 0, 100, 100);
    QTest::newRow("4×4 in 300×200") << 4 << 4 << QRectF(0, 0, 300, 200);
    QTest::newRow("3×7 offset target") << 3 << 7 << QRectF(40.5, 13.25, 500, 300);
    QTest::newRow("64×64 in 333×517") << 64 << 64 << QRectF(0, 0, 333, 517);
    QTest::newRow("2048×2048 in 800×800") << 2048 << 2048 << QRectF(0, 0, 800, 800);
}

void TestHeatmapLayout::cellAt()
{
    QFETCH(int, rows);
    QFETCH(int, columns);
    QFETCH(QRectF, target);

    HeatmapData data;
    data.weights = attn::Matrix::Zero(rows, columns);
    const HeatmapLayout layout(target, data, HeatmapStyle());
    QVERIFY(layout.cellSize() > 0);
    QVERIFY(target.contains(layout.gridRect()));
    QVERIFY(target.adjusted(-1, -1, 1, 1).contains(layout.boundingRect()));
    QVERIFY(!layout.gridRect().intersects(layout.rowLabelArea()));
    QVERIFY(!layout.gridRect().intersects(layout.columnLabelArea()));
    QVERIFY(!layout.gridRect().intersects(layout.colorbarRect()));
    for (const int i : {0, rows / 2, rows - 1})
        for (const int j : {0, columns / 3, columns - 1}) {
            const QRectF cell = layout.cellRect(i, j);
            QCOMPARE(cell.width(), cell.height());
            QCOMPARE(layout.cellAt(cell.center()), std::optional<QPoint>(QPoint(i, j)));
        }
    const QRectF grid = layout.gridRect();
    QCOMPARE(layout.cellAt(grid.topLeft() - QPointF(0.5, 0.5)), std::nullopt);
    QCOMPARE(layout.cellAt(grid.bottomRight() + QPointF(0.5, 0.5)), std::nullopt);
    QCOMPARE(layout.cellAt(layout.rowLabelArea().center()), std::nullopt);
}

void TestHeatmapLayout::labelRotation_data()
{
    QTest::addColumn<QStringList>("keys");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QList<int>>("angles"); // any of these
    QTest::addColumn<bool>("everyLabel");

    const QStringList shortKeys{"a", "b", "c", "d"};
    QStringList longKeys;
    for (int k = 0; k < 8; ++k)
        longKeys.append(QStringLiteral("representation%1").arg(k));
    QStringList manyKeys;
    for (int k = 0; k < 200; ++k)
        manyKeys.append(QStringLiteral("tok%1").arg(k));

    QTest::newRow("short tokens lie flat") << shortKeys << QSize(400, 400) << QList<int>{0} << true;
    QTest::newRow("long tokens in wide cells lean")
        << longKeys << QSize(900, 900) << QList<int>{45} << true;
    QTest::newRow("one letter among long tokens")
        << (QStringList{"I"} + longKeys.mid(0, 3)) << QSize(320, 320) << QList<int>{45} << true;
    QTest::newRow("long tokens in narrow cells stand")
        << longKeys << QSize(250, 250) << QList<int>{90} << true;
    QTest::newRow("200 tokens: every n-th label")
        << manyKeys << QSize(500, 500) << QList<int>{90} << false;
    // The tutorial's sentence in cells narrower than 坐在 but wider than one character.
    const QStringList chinese{"小猫", "坐在", "垫子", "上", "，", "因为", "它", "很", "累", "。"};
    const int stacked = HeatmapLayout::kStackedLabels;
    QTest::newRow("Chinese words in narrow cells stack")
        << chinese << QSize(300, 300) << QList<int>{stacked} << true;
    QTest::newRow("a Latin word among them leans")
        << (QStringList{"GPU"} + chinese.mid(1)) << QSize(300, 300) << QList<int>{45, 90} << true;
    QStringList manyWords;
    for (int k = 0; k < 200; ++k)
        manyWords.append(k % 2 ? QStringLiteral("注意力") : QStringLiteral("词"));
    QTest::newRow("200 Chinese words: every n-th, stacked")
        << manyWords << QSize(500, 500) << QList<int>{stacked} << false;
    QTest::newRow("a word of five characters leans")
        << (QStringList{"自注意力机"} + chinese.mid(1)) << QSize(300, 300) << QList<int>{45, 90}
        << true;
}

void TestHeatmapLayout::labelRotation()
{
    QFETCH(QStringList, keys);
    QFETCH(QSize, size);
    QFETCH(QList<int>, angles);
    QFETCH(bool, everyLabel);

    HeatmapData data;
    const auto tokens = static_cast<int>(keys.size());
    data.weights = attn::Matrix::Zero(tokens, tokens);
    data.queryLabels = data.keyLabels = keys;
    const HeatmapLayout layout(QRectF(QPointF(0, 0), size), data, HeatmapStyle());
    QVERIFY2(angles.contains(layout.columnLabelAngle()),
             qPrintable(QString::number(layout.columnLabelAngle())));
    QCOMPARE(layout.columnLabelStride() == 1, everyLabel);
    QCOMPARE(layout.rowLabelStride() == 1, everyLabel);
    QVERIFY(layout.columnLabelArea().bottom() <= layout.gridRect().top());
    QVERIFY(layout.rowLabelArea().right() <= layout.gridRect().left());
    // A one-letter key among leaning ones stands upright; a long key never does.
    const QFontMetricsF metrics(layout.labelFont());
    if (QTest::currentDataTag() == QStringLiteral("one letter among long tokens")) {
        QVERIFY(layout.keepsLabelUpright("I", metrics.horizontalAdvance("I")));
        QVERIFY(layout.keepsLabelUpright("猫", metrics.horizontalAdvance("猫")));
        QVERIFY(!layout.keepsLabelUpright("it", metrics.horizontalAdvance("it")));
    }
    QVERIFY(
        !layout.keepsLabelUpright("representation0", metrics.horizontalAdvance("representation0")));
}

// Drawn at 45°, the key "I" read as a backslash: among leaning keys it stands upright, a
// vertical stroke above its column, taller than wide.
void TestHeatmapLayout::oneLetterKeyStandsUpright()
{
    HeatmapData data;
    data.weights = attn::Matrix::Constant(4, 4, 0.25f);
    data.queryLabels = {"a", "b", "c", "d"};
    data.keyLabels = {"I", "representation", "machine", "learning"};
    HeatmapStyle style;
    style.colorbar = false;
    style.axisTitles = false;
    QImage image(320, 320, QImage::Format_RGB32);
    image.fill(Qt::white);
    const HeatmapLayout layout(QRectF(image.rect()), data, style, &image);
    QCOMPARE(layout.columnLabelAngle(), 45);
    {
        QPainter painter(&image);
        paintHeatmap(painter, layout, data, style);
    }
    // The ink in the label band over column 0, left of column 1's leaning label.
    const QRectF column = layout.cellRect(0, 0);
    const QRect band = QRectF(column.left(), layout.columnLabelArea().top(), column.width() / 2 + 6,
                              layout.columnLabelArea().height())
                           .toAlignedRect();
    int left = INT_MAX, right = -1, top = INT_MAX, bottom = -1;
    for (int y = band.top(); y <= band.bottom(); ++y)
        for (int x = band.left(); x <= band.right(); ++x)
            if (qGray(image.pixel(x, y)) < 128) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
    QVERIFY2(right >= 0, "no ink over column 0");
    QVERIFY2(
        bottom - top >= 2 * (right - left + 1),
        qPrintable(
            QStringLiteral("ink %1 wide, %2 tall").arg(right - left + 1).arg(bottom - top + 1)));
}

// Leaning at 45°, 因为 reached over the upright 它 beside it and read 因为它. Stacked, each
// word stays above its own column: its characters one above the other, a character's em
// apart, and blank space between it and the next column's word.
void TestHeatmapLayout::chineseWordsStackInTheirColumns()
{
    HeatmapData data;
    data.weights = attn::Matrix::Constant(6, 6, 1.0f / 6);
    data.queryLabels = data.keyLabels = {"因为", "它", "很", "累", "小猫", "。"};
    HeatmapStyle style;
    style.colorbar = false;
    style.axisTitles = false;
    // The smallest square in which every word shows: stacked, as they are narrower still
    // (every n-th word) and unlike the width of 因为 across.
    QImage image;
    HeatmapLayout layout;
    const auto everyWordStacked = [&] {
        return layout.columnLabelAngle() == HeatmapLayout::kStackedLabels &&
               layout.columnLabelStride() == 1;
    };
    for (int side = 80; side <= 800 && !everyWordStacked(); side += 10) {
        image = QImage(side, side, QImage::Format_RGB32);
        layout = HeatmapLayout(QRectF(image.rect()), data, style, &image);
    }
    QCOMPARE(layout.columnLabelAngle(), HeatmapLayout::kStackedLabels);
    QCOMPARE(layout.columnLabelStride(), 1);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        paintHeatmap(painter, layout, data, style);
    }
    const QRect band = layout.columnLabelArea().toAlignedRect();
    const auto inkIn = [&](int x0, int x1, int y0, int y1) {
        QRect ink;
        for (int y = std::max(0, y0); y <= std::min(image.height() - 1, y1); ++y)
            for (int x = std::max(0, x0); x <= std::min(image.width() - 1, x1); ++x)
                if (qGray(image.pixel(x, y)) < 128)
                    ink |= QRect(x, y, 1, 1);
        return ink;
    };
    const double pitch = layout.stackedPitch();
    QVERIFY(pitch > 0);
    // 因为 over column 0: two characters tall, one wide, within its column.
    const QRectF first = layout.cellRect(0, 0), second = layout.cellRect(0, 1);
    const QRect word = inkIn(int(first.left()), int(first.right()), band.top() - 2, band.bottom());
    QVERIFY2(word.height() >= 1.5 * pitch && word.width() <= 1.3 * pitch,
             qPrintable(QStringLiteral("ink %1 × %2, pitch %3")
                            .arg(word.width())
                            .arg(word.height())
                            .arg(pitch)));
    // No ink between the two words: some pixel column between their centres is blank.
    bool gap = false;
    for (int x = int(first.center().x()) + 1; x < int(second.center().x()) && !gap; ++x)
        gap = inkIn(x, x, band.top() - 2, band.bottom()).isEmpty();
    QVERIFY(gap);
    // 它 over column 1: one character, at the foot of the band beside 为.
    const QRect one = inkIn(int(second.left()), int(second.right()), band.top() - 2, band.bottom());
    QVERIFY(!one.isEmpty());
    QVERIFY(one.height() < pitch * 1.2);
    QVERIFY(std::abs(one.bottom() - word.bottom()) <= pitch / 3);
    // 。 over column 5 as vertical text sets it (︒): in the upper right of its square,
    // where across it sits in the lower left.
    const QRectF last = layout.cellRect(0, 5);
    const QRect stop = inkIn(int(last.left()), int(last.right()), band.top() - 2, band.bottom());
    QVERIFY(!stop.isEmpty());
    const double squareMiddle = band.bottom() - pitch / 2;
    QVERIFY2(stop.center().y() < squareMiddle && stop.center().x() > last.center().x(),
             qPrintable(QStringLiteral("。 inked around (%1, %2); the square's middle (%3, %4)")
                            .arg(stop.center().x())
                            .arg(stop.center().y())
                            .arg(last.center().x())
                            .arg(squareMiddle)));
}

void TestHeatmapLayout::axisTitleClearOfTheKeyLabels_data()
{
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("figure");
    QTest::addColumn<int>("angle"); // of the key labels
    const QStringList chinese = {"小猫", "坐在", "垫子", "上", "，",
                                 "因为", "它",   "很",   "累", "。"};
    const QStringList words = {"The", "cat", "sat", "on", "the", "mat"};
    const QStringList longWords = {"machine", "learning", "attention", "softmax"};
    QTest::newRow("window, Chinese words stacked")
        << chinese << QSize(300, 300) << false << int(HeatmapLayout::kStackedLabels);
    QTest::newRow("window, Chinese words across") << chinese << QSize(900, 900) << false << 0;
    QTest::newRow("window, English words at 45°") << longWords << QSize(260, 260) << false << 45;
    QTest::newRow("window, English words upright") << words << QSize(150, 150) << false << 90;
    QTest::newRow("figure, Chinese words") << chinese << QSize() << true << 0;
    QTest::newRow("figure, English words") << words << QSize() << true << 0;
}

void TestHeatmapLayout::axisTitleClearOfTheKeyLabels()
{
    QFETCH(QStringList, labels);
    QFETCH(QSize, size);
    QFETCH(bool, figure);
    QFETCH(int, angle);
    HeatmapData data;
    const auto n = int(labels.size());
    data.weights = attn::Matrix::Constant(n, n, 1.0f / float(n));
    data.queryLabels = data.keyLabels = labels;
    HeatmapStyle style;
    style.colorbar = false;
    HeatmapLayout layout;
    const QImage image = paintLaidOut(data, style, size, figure, &layout);
    QCOMPARE(layout.columnLabelAngle(), angle);
    // The key labels alone: the same heatmap without axis titles, whose labels stand as far
    // above the cells.
    style.axisTitles = false;
    HeatmapLayout untitled;
    const QImage labelsOnly = paintLaidOut(data, style, size, figure, &untitled);
    QCOMPARE(untitled.columnLabelAngle(), angle);

    // Over the first column: the top of the first key label's ink, then a gap up to the axis
    // title "key →", at least a quarter line as between the other parts.
    const auto column = [](const HeatmapLayout& of) {
        const QRectF first = of.cellRect(0, 0);
        return std::pair(int(first.left()) + 1, int(first.right()) - 1);
    };
    const auto [left, right] = column(untitled);
    const std::vector<bool> labelInk = inkRows(labelsOnly, left, right);
    int labelTop = int(untitled.gridRect().top()) - 1;
    for (int y = labelTop; y >= 0; --y)
        if (labelInk[std::size_t(y)])
            labelTop = y;
    labelTop += qRound(layout.gridRect().top() - untitled.gridRect().top());
    const auto [titledLeft, titledRight] = column(layout);
    const std::vector<bool> ink = inkRows(image, titledLeft, titledRight);
    int y = labelTop - 1;
    while (y >= 0 && !ink[std::size_t(y)])
        --y;
    QVERIFY2(y >= 0, "no axis title above the first key label");
    const int gap = labelTop - 1 - y;
    QVERIFY2(gap >= layout.lineHeight() / 4,
             qPrintable(QStringLiteral("%1 px between the axis title and the first key label, "
                                       "a line %2 px, labels at %3°")
                            .arg(gap)
                            .arg(layout.lineHeight())
                            .arg(layout.columnLabelAngle())));
}

void TestHeatmapLayout::verticalForms_data()
{
    QTest::addColumn<QString>("horizontal");
    QTest::addColumn<QString>("vertical");
    QTest::newRow("comma") << u"，"_qs << u"︐"_qs;
    QTest::newRow("enumeration comma") << u"、"_qs << u"︑"_qs;
    QTest::newRow("full stop") << u"。"_qs << u"︒"_qs;
    QTest::newRow("question mark") << u"？"_qs << u"︖"_qs;
    QTest::newRow("parentheses") << u"（）"_qs << u"︵︶"_qs;
    QTest::newRow("book title marks") << u"《》"_qs << u"︽︾"_qs;
    QTest::newRow("corner brackets") << u"「」『』"_qs << u"﹁﹂﹃﹄"_qs;
    QTest::newRow("lenticular brackets") << u"【】"_qs << u"︻︼"_qs;
    QTest::newRow("ideographs stay") << u"因为它"_qs << u"因为它"_qs;
    QTest::newRow("kana and hangul stay") << u"ねこ고양이"_qs << u"ねこ고양이"_qs;
    QTest::newRow("ASCII stays") << u",.()"_qs << u",.()"_qs;
}

void TestHeatmapLayout::verticalForms()
{
    QFETCH(QString, horizontal);
    QFETCH(QString, vertical);
    QString made;
    for (const QChar c : horizontal)
        made += verticalForm(c);
    QCOMPARE(made, vertical);
}

void TestHeatmapLayout::preferredSizeFitsCells()
{
    const HeatmapData data = ramp(6);
    const HeatmapStyle style;
    const QSizeF size = preferredSize(data, style, 40);
    const HeatmapLayout layout(QRectF(QPointF(0, 0), size), data, style);
    QVERIFY2(std::abs(layout.cellSize() - 40) < 1e-6,
             qPrintable(QString::number(layout.cellSize())));
    QVERIFY(preferredSize(data, style, 20).width() < size.width());
}

void TestHeatmapLayout::sumText_data()
{
    QTest::addColumn<double>("sum");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("unit"); // counts as 1, drawn without red

    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double infinity = std::numeric_limits<double>::infinity();
    QTest::newRow("1") << 1.0 << "1.00" << true;
    QTest::newRow("0.5") << 0.5 << "0.50" << false;
    QTest::newRow("0") << 0.0 << "0.00" << false;
    QTest::newRow("1 + 1e-4 counts as 1") << 1.0001 << "1.00" << true;
    QTest::newRow("1 - 5e-4 counts as 1") << 0.9995 << "1.00" << true;
    QTest::newRow("1.004 is not 1: a third decimal") << 1.004 << "1.004" << false;
    QTest::newRow("0.996 is not 1: a third decimal") << 0.996 << "0.996" << false;
    QTest::newRow("10: a column of ten queries") << 10.0 << "10.00" << false;
    QTest::newRow("12.3456") << 12.3456 << "12.35" << false;
    QTest::newRow("NaN") << nan << "NaN" << false;
    QTest::newRow("+inf") << infinity << "+inf" << false;
    QTest::newRow("-inf") << -infinity << "-inf" << false;
}

void TestHeatmapLayout::sumText()
{
    QFETCH(double, sum);
    QFETCH(QString, text);
    QFETCH(bool, unit);
    QCOMPARE(attn::ui::marginSumText(sum), text);
    QCOMPARE(isUnitSum(sum), unit);
}

void TestHeatmapLayout::marginSumsLayout_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("sums");
    QTest::addColumn<int>("valueAngle"); // of the column sums' values; −1 none

    QTest::newRow("off: no strips") << 6 << QSize(500, 420) << false << -1;
    QTest::newRow("6 tokens in 500×420: values across") << 6 << QSize(500, 420) << true << 0;
    QTest::newRow("24 tokens in 560×560: values upright") << 24 << QSize(560, 560) << true << 90;
    QTest::newRow("256 tokens in 600×600: bars only") << 256 << QSize(600, 600) << true << -1;
    QTest::newRow("1 token in 200×200") << 1 << QSize(200, 200) << true << 0;
}

void TestHeatmapLayout::marginSumsLayout()
{
    QFETCH(int, tokens);
    QFETCH(QSize, size);
    QFETCH(bool, sums);
    QFETCH(int, valueAngle);

    const HeatmapData data = ramp(tokens);
    const QRectF target(QPointF(0, 0), size);
    const HeatmapLayout plain(target, data, HeatmapStyle());
    HeatmapStyle style;
    style.marginSums = sums;
    const HeatmapLayout layout(target, data, style);
    QVERIFY(layout.cellSize() > 0);
    QVERIFY(target.adjusted(-1, -1, 1, 1).contains(layout.boundingRect()));
    if (!sums) {
        QVERIFY(layout.rowSumArea().isNull() && layout.columnSumArea().isNull());
        QVERIFY(layout.rowSums().empty() && layout.columnSums().empty());
        QCOMPARE(layout.gridRect(), plain.gridRect());
        QCOMPARE(layout.colorbarRect(), plain.colorbarRect());
        return;
    }
    QCOMPARE(layout.sumValueAngle(), valueAngle);
    QCOMPARE(int(layout.rowSums().size()), tokens);
    QCOMPARE(int(layout.columnSums().size()), tokens);
    QVERIFY2(layout.cellSize() < plain.cellSize(), "the strips take room from the cells");

    // The strips sit right of and below the cells, clear of them, the labels and the colorbar.
    const QRectF grid = layout.gridRect();
    const QRectF rows = layout.rowSumArea();
    const QRectF columns = layout.columnSumArea();
    QVERIFY(rows.left() > grid.right() && columns.top() > grid.bottom());
    QCOMPARE(rows.top(), grid.top());
    QCOMPARE(rows.height(), grid.height());
    QCOMPARE(columns.left(), grid.left());
    QCOMPARE(columns.width(), grid.width());
    QVERIFY(layout.colorbarRect().left() > rows.right());
    for (const QRectF& part :
         {rows, columns, layout.rowSumTitleRect(), layout.columnSumTitleRect()}) {
        QVERIFY(!part.isEmpty());
        QVERIFY(!part.intersects(grid));
        QVERIFY(!part.intersects(layout.colorbarRect()));
        QVERIFY(!part.intersects(layout.rowLabelArea()));
        QVERIFY(!part.intersects(layout.columnLabelArea()));
        QVERIFY(layout.boundingRect().adjusted(-0.01, -0.01, 0.01, 0.01).contains(part));
    }
    QVERIFY(!layout.rowSumTitleRect().intersects(columns));
    QVERIFY(!layout.columnSumTitleRect().intersects(columns));
    // Each bar in line with its row or column; the values beside the bars.
    for (const int k : {0, tokens / 2, tokens - 1}) {
        const QRectF rowBar = layout.rowSumBarSlot(k);
        const QRectF columnBar = layout.columnSumBarSlot(k);
        QVERIFY(rows.contains(rowBar));
        QVERIFY(columns.contains(columnBar));
        QVERIFY(std::abs(rowBar.center().y() - layout.cellRect(k, 0).center().y()) < 1e-6);
        QVERIFY(std::abs(columnBar.center().x() - layout.cellRect(0, k).center().x()) < 1e-6);
        if (valueAngle >= 0) {
            QVERIFY(layout.rowSumValueRect(k).left() >= rowBar.right());
            QVERIFY(layout.columnSumValueRect(k).top() >= columnBar.bottom());
            QVERIFY(columns.adjusted(-0.01, -0.01, 0.01, 0.01)
                        .contains(layout.columnSumValueRect(k).adjusted(0, 0, 0, -0.02)));
        }
    }
    // The same layout from the cell size, as exports and the head dialog make it.
    const HeatmapLayout sized = HeatmapLayout::forCellSize(data, style, layout.cellSize());
    QCOMPARE(sized.sumValueAngle(), layout.sumValueAngle());
    QVERIFY(std::abs(sized.boundingRect().width() - layout.boundingRect().width()) < 1e-6);
}

void TestHeatmapLayout::sumTitlesByTheirBars_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("figure");
    QTest::newRow("window, 4 tokens") << 4 << QSize(500, 420) << false;
    QTest::newRow("window, 24 tokens") << 24 << QSize(560, 560) << false;
    QTest::newRow("figure, 6 tokens") << 6 << QSize() << true;
}

void TestHeatmapLayout::sumTitlesByTheirBars()
{
    QFETCH(int, tokens);
    QFETCH(QSize, size);
    QFETCH(bool, figure);
    HeatmapStyle style;
    style.marginSums = true;
    HeatmapLayout layout;
    const QImage image = paintLaidOut(ramp(tokens), style, size, figure, &layout);
    const QRectF rows = layout.rowSumArea();
    const QRectF columns = layout.columnSumArea();
    const auto inkBox = [&image](const QRectF& rect) {
        QRect box;
        const QRect within = rect.toAlignedRect() & image.rect();
        for (int y = within.top(); y <= within.bottom(); ++y)
            for (int x = within.left(); x <= within.right(); ++x)
                if (qGray(image.pixel(x, y)) < 160)
                    box |= QRect(x, y, 1, 1);
        return box;
    };
    // "Σ row" heads the row sums' strip: over its bars, above the first, clear of the row
    // of column sums.
    const QRect row = inkBox(layout.rowSumTitleRect());
    QVERIFY2(!row.isEmpty(), "the row sums' title is not drawn");
    QVERIFY(row.left() >= rows.left() - 1 && row.right() <= rows.right() + 1);
    QVERIFY2(row.bottom() < rows.top() && row.bottom() > rows.top() - 2 * layout.lineHeight(),
             qPrintable(QStringLiteral("row sums' title inked down to y %1; their bars from %2")
                            .arg(row.bottom())
                            .arg(rows.top())));
    QVERIFY(!layout.rowSumTitleRect().intersects(layout.columnAxisTitleRect()));
    // "Σ column" left of the column sums' bars, level with them.
    const QRect column = inkBox(layout.columnSumTitleRect());
    QVERIFY2(!column.isEmpty(), "the column sums' title is not drawn");
    QVERIFY(column.right() < columns.left());
    QVERIFY(column.top() >= columns.top() - 1 && column.bottom() <= columns.bottom() + 1);
}

void TestHeatmapLayout::marginSumsOfTheSoftmaxAxis_data()
{
    QTest::addColumn<attn::SoftmaxAxis>("axis");
    QTest::addColumn<int>("head"); // −1: the mean of the heads
    QTest::addColumn<bool>("rowsAreOne");

    QTest::newRow("axis=keys (dim=-1), head 0: rows sum to 1")
        << attn::SoftmaxAxis::Keys << 0 << true;
    QTest::newRow("axis=keys, mean of the heads: rows sum to 1")
        << attn::SoftmaxAxis::Keys << -1 << true;
    QTest::newRow("axis=queries (dim=-2), head 0: columns sum to 1")
        << attn::SoftmaxAxis::Queries << 0 << false;
    QTest::newRow("axis=queries, mean of the heads: columns sum to 1")
        << attn::SoftmaxAxis::Queries << -1 << false;
}

void TestHeatmapLayout::marginSumsOfTheSoftmaxAxis()
{
    QFETCH(attn::SoftmaxAxis, axis);
    QFETCH(int, head);
    QFETCH(bool, rowsAreOne);

    attn::Request request;
    request.text = "the cat sat on the mat because it was tired";
    request.config.dModel = 16;
    request.config.heads = 2;
    request.config.axis = axis;
    attn::AttentionEngine engine;
    const attn::Result result = engine.compute(request);
    const HeatmapData data = headHeatmap(result, 0, head);
    HeatmapStyle style;
    style.marginSums = true;
    HeatmapLayout layout;
    const QImage image = paint(data, style, QSize(720, 640), &layout);
    QCOMPARE(layout.sumValueAngle(), 0);

    // The normalized strip: every sum "1.00", every bar grey, no red value.
    const bool columnsAreOne = !rowsAreOne;
    const std::vector<double>& ones = rowsAreOne ? layout.rowSums() : layout.columnSums();
    const std::vector<double>& others = rowsAreOne ? layout.columnSums() : layout.rowSums();
    QCOMPARE(int(ones.size()), data.rows());
    for (std::size_t k = 0; k < ones.size(); ++k) {
        const int index = static_cast<int>(k);
        const QString where = QStringLiteral("%1 %2").arg(rowsAreOne ? "row" : "column").arg(k);
        QCOMPARE(marginSumText(ones[k]) + " at " + where, "1.00 at " + where);
        QVERIFY2(isUnitSum(ones[k]), qPrintable(where));
        const QRectF slot =
            rowsAreOne ? layout.rowSumBarSlot(index) : layout.columnSumBarSlot(index);
        QCOMPARE(hex(pixelAt(image, slot.center())) + " at " + where,
                 hex(heatmapSumBar) + " at " + where);
        const QRectF value =
            rowsAreOne ? layout.rowSumValueRect(index) : layout.columnSumValueRect(index);
        QCOMPARE(countPixels(image, value, isReddish), 0);
    }
    // The other strip: the largest sum is not 1, its bar fills its slot in red and its value
    // is red; the sums are the matrix's, summed over the other axis.
    const auto largest = std::ranges::max_element(others) - others.begin();
    QVERIFY2(!isUnitSum(others[std::size_t(largest)]),
             qPrintable(QString::number(others[std::size_t(largest)])));
    const int index = static_cast<int>(largest);
    const QRectF slot =
        columnsAreOne ? layout.rowSumBarSlot(index) : layout.columnSumBarSlot(index);
    QCOMPARE(hex(pixelAt(image, slot.center())), hex(heatmapSumAlert));
    const QRectF value =
        columnsAreOne ? layout.rowSumValueRect(index) : layout.columnSumValueRect(index);
    QVERIFY(countPixels(image, value, isReddish) > 0);
    const double expected = columnsAreOne ? double(data.weights.row(index).sum())
                                          : double(data.weights.col(index).sum());
    QVERIFY2(
        std::abs(others[std::size_t(largest)] - expected) < 1e-5,
        qPrintable(QStringLiteral("%1 vs %2").arg(others[std::size_t(largest)]).arg(expected)));
}

void TestHeatmapLayout::marginSumsNaN()
{
    // Uniform 4×4 with one NaN at (1, 2): row 1 and column 2 sum to NaN, the rest to 1.
    HeatmapData data = uniform(4);
    data.weights.edit()(1, 2) = notANumber;
    HeatmapStyle style;
    style.marginSums = true;
    HeatmapLayout layout;
    const QImage image = paint(data, style, QSize(500, 420), &layout);
    QVERIFY(std::isnan(layout.rowSums()[1]) && std::isnan(layout.columnSums()[2]));
    QCOMPARE(marginSumText(layout.rowSums()[1]), QStringLiteral("NaN"));
    QCOMPARE(marginSumText(layout.columnSums()[2]), QStringLiteral("NaN"));
    QCOMPARE(marginSumText(layout.rowSums()[0]), QStringLiteral("1.00"));

    const auto isAlert = [](QRgb pixel) { return pixel == heatmapSumAlert; };
    // A NaN sum has no length: a red outline round an empty slot, and its value in red.
    for (const QRectF& slot : {layout.rowSumBarSlot(1), layout.columnSumBarSlot(2)}) {
        QVERIFY(countPixels(image, slot, isReddish) > 0);
        QCOMPARE(hex(pixelAt(image, slot.center())), hex(qRgb(255, 255, 255)));
    }
    QVERIFY(countPixels(image, layout.rowSumValueRect(1), isReddish) > 0);
    QVERIFY(countPixels(image, layout.columnSumValueRect(2), isReddish) > 0);
    // The others are grey, full length (the scale is 1), with no red about them.
    for (const int k : {0, 2, 3}) {
        QCOMPARE(hex(pixelAt(image, layout.rowSumBarSlot(k).center())), hex(heatmapSumBar));
        QCOMPARE(countPixels(image, layout.rowSumBarSlot(k), isAlert), 0);
        QCOMPARE(countPixels(image, layout.rowSumValueRect(k), isReddish), 0);
    }
}

void TestHeatmapLayout::marginSumsInSvg_data()
{
    QTest::addColumn<bool>("sums");
    QTest::newRow("with sums") << true;
    QTest::newRow("without") << false;
}

void TestHeatmapLayout::marginSumsInSvg()
{
    QFETCH(bool, sums);
    // Row 0 sums to 0.5: one red bar and value; the rest are 1.
    HeatmapData data = uniform(5);
    data.weights.edit().row(0) *= 0.5f;
    HeatmapStyle style;
    style.marginSums = sums;
    QBuffer buffer;
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(400, 360));
    svg.setViewBox(QRect(0, 0, 400, 360));
    {
        QPainter painter(&svg);
        paintHeatmap(painter, QRectF(0, 0, 400, 360), data, style);
    }
    // Vector output: the values and titles are text (split into runs by script), the bars
    // rectangles in the alert red.
    const QString text = QString::fromUtf8(buffer.data());
    QCOMPARE(text.contains(QStringLiteral("Σ")), sums);
    QCOMPARE(text.contains(QStringLiteral(">row<")), sums);
    QCOMPARE(text.contains(QStringLiteral(">column<")), sums);
    QCOMPARE(text.contains(QStringLiteral(">0.50<")), sums);
    QCOMPARE(text.contains(QStringLiteral(">1.00<")), sums);
    QCOMPARE(text.contains(hex(heatmapSumAlert)), sums);
    QVERIFY(!text.contains(QStringLiteral("<image")));
}

// Label widths are remembered per list of labels (a zoom step lays a heatmap out twice);
// a new list, even of the same length, is measured anew.
void TestHeatmapLayout::rememberedLabelWidthsFollowNewLabels()
{
    HeatmapData data;
    data.weights = attn::Matrix::Constant(2, 2, 0.5f);
    data.queryLabels = data.keyLabels = QStringList{QStringLiteral("a"), QStringLiteral("b")};
    const HeatmapStyle style;
    const double narrow = HeatmapLayout::forCellSize(data, style, 20).gridRect().left();
    QCOMPARE(HeatmapLayout::forCellSize(data, style, 20).gridRect().left(), narrow);
    data.queryLabels = data.keyLabels =
        QStringList{QStringLiteral("supercalifragilistic"), QStringLiteral("b")};
    const double wide = HeatmapLayout::forCellSize(data, style, 20).gridRect().left();
    QVERIFY2(wide > narrow + 20, qPrintable(QStringLiteral("%1 %2").arg(narrow).arg(wide)));
    data.queryLabels = data.keyLabels = QStringList{QStringLiteral("a"), QStringLiteral("b")};
    QCOMPARE(HeatmapLayout::forCellSize(data, style, 20).gridRect().left(), narrow);
}

QTEST_MAIN(TestHeatmapLayout)
#include "tst_heatmaplayout.moc"
