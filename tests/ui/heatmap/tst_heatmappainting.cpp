// The heatmap drawing layer: colormaps, cell colours (special, masked, as an image, in
// SVG), annotations, labels drawn from their cached layouts, the log scale and hatching.
#include "heatmaptest.h"

using namespace attn::ui;
using namespace attn::ui::test;

class TestHeatmapPainting : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void logScaleColoursByTheLogarithm();
    void cachedTextDrawsAsDrawText_data();
    void cachedTextDrawsAsDrawText();
    void hatchTiledOrDrawn_data();
    void hatchTiledOrDrawn();

    void colormapLut_data();
    void colormapLut();
    void colormapSpelling_data();
    void colormapSpelling();
    void colormapSpellingsAreStable();
    void contrast_data();
    void contrast();

    void cellColors_data();
    void cellColors();
    void specialCells_data();
    void specialCells();
    void smallCellsAsImage_data();
    void smallCellsAsImage();
    void svgHasOneRectanglePerCell();
    void annotationContrast_data();
    void annotationContrast();
    void highlight();
};

void TestHeatmapPainting::initTestCase()
{
    // Hover text and ticks use the default locale; pin it so that decimals are points.
    QLocale::setDefault(QLocale::c());
}

void TestHeatmapPainting::colormapLut_data()
{
    QTest::addColumn<ColormapName>("name");
    QTest::addColumn<double>("t");
    QTest::addColumn<QString>("expected");

    // Values of matplotlib.colors.to_hex(matplotlib.colormaps[name](t)).
    QTest::newRow("viridis(0)") << ColormapName::Viridis << 0.0 << "#440154";
    QTest::newRow("viridis(0.25)") << ColormapName::Viridis << 0.25 << "#3b528b";
    QTest::newRow("viridis(0.3): binned, not rounded") << ColormapName::Viridis << 0.3 << "#355f8d";
    QTest::newRow("viridis(0.5)") << ColormapName::Viridis << 0.5 << "#21918c";
    QTest::newRow("viridis(0.75)") << ColormapName::Viridis << 0.75 << "#5ec962";
    QTest::newRow("viridis(1)") << ColormapName::Viridis << 1.0 << "#fde725";
    QTest::newRow("viridis(-3) clamps") << ColormapName::Viridis << -3.0 << "#440154";
    QTest::newRow("viridis(7) clamps") << ColormapName::Viridis << 7.0 << "#fde725";
    QTest::newRow("magma(0)") << ColormapName::Magma << 0.0 << "#000004";
    QTest::newRow("magma(0.5)") << ColormapName::Magma << 0.5 << "#b73779";
    QTest::newRow("magma(1)") << ColormapName::Magma << 1.0 << "#fcfdbf";
    QTest::newRow("inferno(0)") << ColormapName::Inferno << 0.0 << "#000004";
    QTest::newRow("inferno(1)") << ColormapName::Inferno << 1.0 << "#fcffa4";
    QTest::newRow("cividis(0)") << ColormapName::Cividis << 0.0 << "#00224e";
    QTest::newRow("cividis(0.3)") << ColormapName::Cividis << 0.3 << "#4f576c";
    QTest::newRow("cividis(1)") << ColormapName::Cividis << 1.0 << "#fee838";
    QTest::newRow("grey(0)") << ColormapName::Grey << 0.0 << "#000000";
    QTest::newRow("grey(0.5)") << ColormapName::Grey << 0.5 << "#808080";
    QTest::newRow("grey(1)") << ColormapName::Grey << 1.0 << "#ffffff";
    QTest::newRow("diverging(0) blue") << ColormapName::Diverging << 0.0 << "#053061";
    QTest::newRow("diverging(0.5) white") << ColormapName::Diverging << 0.5 << "#f7f6f6";
    QTest::newRow("diverging(1) red") << ColormapName::Diverging << 1.0 << "#67001f";
}

void TestHeatmapPainting::colormapLut()
{
    QFETCH(ColormapName, name);
    QFETCH(double, t);
    QFETCH(QString, expected);
    QCOMPARE(hex(Colormap(name).color(t)), expected);
}

void TestHeatmapPainting::colormapSpelling_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("expected"); // −1: no such colormap

    for (const ColormapName name : Colormap::names())
        QTest::addRow("%s", qPrintable(Colormap::spelling(name)))
            << Colormap::spelling(name) << static_cast<int>(name);
    QTest::newRow("any case") << "Viridis" << static_cast<int>(ColormapName::Viridis);
    QTest::newRow("American gray") << "gray" << -1;
    QTest::newRow("matplotlib's RdBu_r") << "RdBu_r" << -1;
    QTest::newRow("empty") << "" << -1;
}

void TestHeatmapPainting::colormapSpelling()
{
    QFETCH(QString, text);
    QFETCH(int, expected);
    const std::optional<ColormapName> name = Colormap::fromSpelling(text);
    QCOMPARE(name.has_value(), expected >= 0);
    if (name) {
        QCOMPARE(static_cast<int>(*name), expected);
        QVERIFY(!Colormap::displayName(*name).isEmpty());
    }
}

void TestHeatmapPainting::colormapSpellingsAreStable()
{
    // Session files and scripts store these; changing one breaks them.
    QStringList all;
    for (const ColormapName name : Colormap::names())
        all.append(Colormap::spelling(name));
    QCOMPARE(all.join(QLatin1Char(',')),
             QStringLiteral("viridis,magma,inferno,cividis,grey,diverging"));
}

void TestHeatmapPainting::contrast_data()
{
    QTest::addColumn<QRgb>("background");
    QTest::addColumn<bool>("dark"); // black text

    QTest::newRow("black") << qRgb(0, 0, 0) << false;
    QTest::newRow("white") << qRgb(255, 255, 255) << true;
    // WCAG: black wins above relative luminance √(1.05·0.05) − 0.05 ≈ 0.179.
    QTest::newRow("#757575 (L 0.178)") << qRgb(0x75, 0x75, 0x75) << false;
    QTest::newRow("#767676 (L 0.181)") << qRgb(0x76, 0x76, 0x76) << true;
    QTest::newRow("viridis(0) purple") << Colormap(ColormapName::Viridis).color(0) << false;
    QTest::newRow("viridis(1) yellow") << Colormap(ColormapName::Viridis).color(1) << true;
    QTest::newRow("pure green") << qRgb(0, 255, 0) << true;
    QTest::newRow("pure blue") << qRgb(0, 0, 255) << false;
}

void TestHeatmapPainting::contrast()
{
    QFETCH(QRgb, background);
    QFETCH(bool, dark);
    QCOMPARE(Colormap::contrastIsDark(background), dark);
}

void TestHeatmapPainting::cellColors_data()
{
    QTest::addColumn<ColormapName>("name");
    QTest::addColumn<double>("vmin");
    QTest::addColumn<double>("vmax");
    QTest::addColumn<double>("low"); // weights run from low to high
    QTest::addColumn<double>("high");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QSize>("size");

    QTest::newRow("viridis 0..1, 5 tokens, 400×300")
        << ColormapName::Viridis << 0.0 << 1.0 << 0.0 << 1.0 << 5 << QSize(400, 300);
    QTest::newRow("magma 0..0.5 clamps the top half")
        << ColormapName::Magma << 0.0 << 0.5 << 0.0 << 1.0 << 6 << QSize(300, 300);
    QTest::newRow("inferno 0.2..0.4, wide")
        << ColormapName::Inferno << 0.2 << 0.4 << 0.1 << 0.5 << 4 << QSize(700, 200);
    QTest::newRow("cividis 0..1, 12 tokens")
        << ColormapName::Cividis << 0.0 << 1.0 << 0.0 << 1.0 << 12 << QSize(500, 500);
    QTest::newRow("grey 0..1, 3 tokens, tall")
        << ColormapName::Grey << 0.0 << 1.0 << 0.0 << 1.0 << 3 << QSize(250, 600);
    QTest::newRow("diverging −2..2")
        << ColormapName::Diverging << -2.0 << 2.0 << -2.0 << 2.0 << 7 << QSize(450, 380);
}

void TestHeatmapPainting::cellColors()
{
    QFETCH(ColormapName, name);
    QFETCH(double, vmin);
    QFETCH(double, vmax);
    QFETCH(double, low);
    QFETCH(double, high);
    QFETCH(int, tokens);
    QFETCH(QSize, size);

    const HeatmapData data = ramp(tokens, low, high);
    HeatmapStyle style;
    style.colormap = name;
    style.vmin = vmin;
    style.vmax = vmax;
    HeatmapLayout layout;
    const QImage image = paint(data, style, size, &layout);
    QVERIFY2(layout.cellSize() >= 8, qPrintable(QString::number(layout.cellSize())));
    for (int i = 0; i < tokens; ++i)
        for (int j = 0; j < tokens; ++j) {
            const QString where = QStringLiteral("cell (%1, %2)").arg(i).arg(j);
            QCOMPARE(hex(pixelAt(image, layout.cellRect(i, j).center())) + " at " + where,
                     hex(expectedColor(data, style, i, j)) + " at " + where);
        }
}

void TestHeatmapPainting::specialCells_data()
{
    QTest::addColumn<ColormapName>("name");
    for (const ColormapName name : Colormap::names())
        QTest::addRow("%s", qPrintable(Colormap::spelling(name))) << name;
}

void TestHeatmapPainting::specialCells()
{
    QFETCH(ColormapName, name);
    constexpr int tokens = 6;
    constexpr int nanRow = 2;
    const HeatmapData data = withSpecialCells(tokens, nanRow);
    HeatmapStyle style;
    style.colormap = name;
    HeatmapLayout layout;
    const QImage image = paint(data, style, QSize(500, 420), &layout);
    const Colormap colormap(name);
    const std::set<QRgb> scale(colormap.entries().begin(), colormap.entries().end());
    const std::set<QRgb> everyScale = allColormapColors();

    const QRectF masked = layout.cellRect(0, 4);
    const QRectF nanCell = layout.cellRect(nanRow, 1);
    const QRectF plusInf = layout.cellRect(tokens - 1, 0);
    const QRectF minusInf = layout.cellRect(tokens - 1, 1);
    for (const QRectF& cell : {masked, nanCell, plusInf, minusInf}) {
        const QList<QRgb> pixels = cellPixels(image, cell);
        for (const QRgb pixel : pixels)
            QVERIFY2(!everyScale.contains(pixel),
                     qPrintable(hex(pixel) + " is a colour of a scale"));
        // Hatch or mark: a second colour on the fill.
        QVERIFY(std::set<QRgb>(pixels.begin(), pixels.end()).size() >= 2);
    }
    QVERIFY(!scale.contains(pixelAt(image, masked.center())));
    QVERIFY(!scale.contains(pixelAt(image, nanCell.center())));
    QVERIFY(pixelAt(image, masked.center()) != pixelAt(image, nanCell.center()));
    // The marks tell NaN (×), +inf (+) and −inf (−) apart.
    const auto onMark = [&](const QRectF& cell, double x, double y) {
        return pixelAt(image, cell.topLeft() + QPointF(x * cell.width(), y * cell.height())) !=
               heatmapInvalidFill;
    };
    QVERIFY(onMark(nanCell, 0.3, 0.3) && !onMark(nanCell, 0.5, 0.3));
    QVERIFY(!onMark(plusInf, 0.3, 0.3) && onMark(plusInf, 0.5, 0.3) && onMark(plusInf, 0.3, 0.5));
    QVERIFY(!onMark(minusInf, 0.3, 0.3) && !onMark(minusInf, 0.5, 0.3) &&
            onMark(minusInf, 0.3, 0.5));
    // A NaN wins over the mask: a fully masked row's NaN must show.
    const QList<QRgb> maskedNan = cellPixels(image, layout.cellRect(nanRow, 5));
    QVERIFY(maskedNan.contains(heatmapInvalidFill) && !maskedNan.contains(heatmapMaskedFill));
    // The cells next to them still show their weights.
    QCOMPARE(hex(pixelAt(image, layout.cellRect(3, 2).center())),
             hex(expectedColor(data, style, 3, 2)));
}

void TestHeatmapPainting::smallCellsAsImage_data()
{
    QTest::addColumn<bool>("vectorCells");
    QTest::newRow("image") << false;
    QTest::newRow("one rectangle per cell") << true;
}

void TestHeatmapPainting::smallCellsAsImage()
{
    QFETCH(bool, vectorCells);
    // 256 tokens in 600 px: cells of about 2 px. Weights are constant over 16×16 blocks so
    // that a block's centre has one right colour however the cells round to pixels.
    constexpr int tokens = 256;
    constexpr int block = 16;
    HeatmapData data;
    data.weights.edit().resize(tokens, tokens);
    data.masked = attn::MaskMatrix::Zero(tokens, tokens);
    for (int i = 0; i < tokens; ++i)
        for (int j = 0; j < tokens; ++j) {
            data.weights.edit()(i, j) = static_cast<float>((i / block) * 16 + j / block) / 255.0f;
            data.masked.edit()(i, j) = j / block > i / block;
        }
    HeatmapStyle style;
    style.vectorCells = vectorCells;
    HeatmapLayout layout;
    const QImage image = paint(data, style, QSize(600, 600), &layout);
    QVERIFY(layout.cellSize() < 3);
    for (int bi = 0; bi < tokens / block; ++bi)
        for (int bj = 0; bj <= bi; ++bj) {
            const QPointF centre =
                layout.cellRect(bi * block + block / 2, bj * block + block / 2).topLeft();
            QCOMPARE(hex(pixelAt(image, centre)),
                     hex(expectedColor(data, style, bi * block, bj * block)));
        }
    const QRectF maskedBlock = layout.cellRect(block / 2, 3 * block + block / 2);
    QVERIFY(!allColormapColors().contains(pixelAt(image, maskedBlock.topLeft())));
}

void TestHeatmapPainting::svgHasOneRectanglePerCell()
{
    // Small cells in an SVG stay vectors even without vectorCells: no embedded image.
    const HeatmapData data = ramp(64);
    QBuffer buffer;
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(200, 200));
    svg.setViewBox(QRect(0, 0, 200, 200));
    {
        QPainter painter(&svg);
        paintHeatmap(painter, QRectF(0, 0, 200, 200), data, HeatmapStyle());
    }
    const QByteArray text = buffer.data();
    QVERIFY(!text.contains("<image"));
    // Every cell's colour is written out (64·64 cells, 4096 different values).
    const QString lastCell = hex(expectedColor(data, HeatmapStyle(), 63, 63));
    const QString firstCell = hex(expectedColor(data, HeatmapStyle(), 0, 0));
    QVERIFY(text.contains(lastCell.toLatin1()));
    QVERIFY(text.contains(firstCell.toLatin1()));
    QVERIFY2(text.count("<rect") + text.count("<path") >= 64 * 64,
             qPrintable(QString::number(text.count("<rect") + text.count("<path"))));
}

void TestHeatmapPainting::annotationContrast_data()
{
    QTest::addColumn<bool>("annotate");
    QTest::newRow("annotated") << true;
    QTest::newRow("plain") << false;
}

void TestHeatmapPainting::annotationContrast()
{
    QFETCH(bool, annotate);
    // Viridis: weight 0 is dark purple (white text), weight 1 yellow (black text).
    HeatmapData data;
    data.weights.edit().resize(1, 2);
    data.weights.edit() << 0.0f, 1.0f;
    HeatmapStyle style;
    style.annotate = annotate;
    HeatmapLayout layout;
    const QImage image = paint(data, style, QSize(400, 300), &layout);
    QVERIFY(layout.cellSize() >= 28);
    const auto count = [](const QList<QRgb>& pixels, QRgb color) {
        return std::count(pixels.begin(), pixels.end(), color);
    };
    const QList<QRgb> dark = cellPixels(image, layout.cellRect(0, 0));
    const QList<QRgb> bright = cellPixels(image, layout.cellRect(0, 1));
    QCOMPARE(count(dark, qRgb(0, 0, 0)), 0);
    QCOMPARE(count(bright, qRgb(255, 255, 255)), 0);
    QCOMPARE(count(dark, qRgb(255, 255, 255)) > 0, annotate);
    QCOMPARE(count(bright, qRgb(0, 0, 0)) > 0, annotate);
}

void TestHeatmapPainting::highlight()
{
    const HeatmapData data = ramp(5);
    HeatmapStyle style;
    HeatmapLayout layout;
    const QImage plain = paint(data, style, QSize(400, 400), &layout);
    style.highlightRow = 1;
    style.highlightCol = 3;
    const QImage outlined = paint(data, style, QSize(400, 400));
    const auto edgeOf = [&](int i, int j) {
        const QRectF cell = layout.cellRect(i, j);
        return QPointF(cell.center().x(), cell.top() + 0.5);
    };
    // The top edge of row 1 and of column 3 changes; a far cell's does not.
    QVERIFY(pixelAt(plain, edgeOf(1, 0)) != pixelAt(outlined, edgeOf(1, 0)));
    QVERIFY(pixelAt(plain, edgeOf(0, 3)) != pixelAt(outlined, edgeOf(0, 3)));
    QCOMPARE(pixelAt(plain, edgeOf(3, 0)), pixelAt(outlined, edgeOf(3, 0)));
    QCOMPARE(pixelAt(plain, layout.cellRect(1, 3).center()),
             pixelAt(outlined, layout.cellRect(1, 3).center()));
}

// At T = 2048 a tile's image colours 4 M cells; a hover highlight or a scroll repaints
// the tile and must reuse it. New data, a new style or a new size colour again.
void TestHeatmapPainting::cachedTextDrawsAsDrawText_data()
{
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("values"); // values printed in the cells
    QTest::addColumn<int>("highlight");
    const QStringList words = {"The", "cat", "sat", "on", "the", "mat", "because", "it"};
    QTest::newRow("upright labels, values") << words << QSize(520, 460) << true << 2;
    QTest::newRow("rotated labels") << words << QSize(300, 280) << false << -1;
    QTest::newRow("Chinese labels")
        << QStringList{"小猫", "坐在", "垫子", "上", "，", "因为", "它", "很", "累", "。"}
        << QSize(420, 400) << true << 6;
    QStringList many, elided;
    for (int t = 0; t < 300; ++t)
        many << QStringLiteral("w%1").arg(t);
    QTest::newRow("every tenth label of 300") << many << QSize(420, 420) << false << 150;
    for (int t = 0; t < 6; ++t)
        elided << QStringLiteral("antidisestablishmentarianism%1").arg(t);
    QTest::newRow("elided labels") << elided << QSize(300, 300) << false << 3;
}

// A view's labels, titles, ticks and values go through its TextCache, laid out once: the
// same pixels as drawText's, bold, elided, rotated, in cells and CJK (a fallback font)
// alike; a second paint from the lines kept, laying nothing out anew.
void TestHeatmapPainting::cachedTextDrawsAsDrawText()
{
    QFETCH(QStringList, labels);
    QFETCH(QSize, size);
    QFETCH(bool, values);
    QFETCH(int, highlight);
    const int tokens = int(labels.size());
    HeatmapData data;
    data.weights = attn::Matrix::Random(tokens, tokens).cwiseAbs();
    data.queryLabels = labels;
    data.keyLabels = labels;
    data.title = QStringLiteral("Head 0 — 头 0");
    HeatmapStyle style;
    style.annotate = values;
    style.highlightRow = highlight;
    style.highlightCol = highlight;
    auto paint = [&](TextCache* texts) {
        QImage image(size, QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        const HeatmapLayout layout(QRectF(QPointF(0, 0), size), data, style, &image);
        paintHeatmap(painter, layout, data, style, nullptr, texts);
        return image;
    };
    const QImage plain = paint(nullptr);
    TextCache texts;
    QCOMPARE(paint(&texts), plain);
    const int kept = texts.size();
    QVERIFY(kept > 0);
    QCOMPARE(paint(&texts), plain);
    QCOMPARE(texts.size(), kept);
}

// On a logarithmic scale each decade of weight takes the same share of the colormap, from
// logScaleFloor() (a decade more below the largest weight than the uniform weight 1/T_k
// lies) up to the largest; 0 and what lies below take the first colour. The cell image
// (level of detail, PNG) and the per-cell rectangles (SVG, PDF) colour alike.
void TestHeatmapPainting::logScaleColoursByTheLogarithm()
{
    QCOMPARE(logScaleFloor(1.0, 2048), 1e-5);
    QCOMPARE(logScaleFloor(1.0, 11), 1e-3);
    QCOMPARE(logScaleFloor(0.5, 1), 0.5e-2);        // at least two decades
    QCOMPARE(logScaleFloor(1.0, 10'000'000), 1e-6); // at most six

    // Decades from 1e-5 to 1, then 0, a weight below the floor, a masked cell and NaN.
    const std::vector<float> row = {
        1e-5f, 1e-4f, 1e-3f, 1e-2f, 1e-1f,
        1.0f,  0.0f,  1e-7f, 0.5f,  std::numeric_limits<float>::quiet_NaN()};
    attn::Matrix weights(1, Eigen::Index(row.size()));
    for (std::size_t j = 0; j < row.size(); ++j)
        weights(0, Eigen::Index(j)) = row[j];
    attn::MaskMatrix masked = attn::MaskMatrix::Constant(1, Eigen::Index(row.size()), false);
    masked(0, 8) = true;
    HeatmapData data;
    data.weights = weights;
    data.masked = masked;
    HeatmapStyle style;
    style.vmin = 1e-5;
    style.vmax = 1.0;
    style.logScale = true;
    const QImage image = cellImage(data, style, QSize());
    const Colormap viridis(ColormapName::Viridis);
    for (int k = 0; k <= 5; ++k) // bins 0, 51, 102, 153, 204 and 255 of 256
        QCOMPARE(hex(image.pixel(k, 0)), hex(viridis.color(k / 5.0)));
    QCOMPARE(hex(image.pixel(6, 0)), hex(viridis.color(0)));
    QCOMPARE(hex(image.pixel(7, 0)), hex(viridis.color(0)));
    QCOMPARE(hex(image.pixel(8, 0)), hex(heatmapMaskedFill));
    QCOMPARE(hex(image.pixel(9, 0)), hex(heatmapInvalidFill));
    // Linearly, everything below 0.1 is in the first 26 of 256 bins.
    style.logScale = false;
    style.vmin = 0;
    const QImage linear = cellImage(data, style, QSize());
    QCOMPARE(hex(linear.pixel(2, 0)), hex(viridis.color(0)));

    // One rectangle per cell (SVG, PDF) gives every cell the image's colour.
    style.logScale = true;
    style.vmin = 1e-5;
    style.vectorCells = true;
    style.colorbar = false;
    style.axisTitles = false;
    const HeatmapLayout layout = HeatmapLayout::forCellSize(data, style, 20);
    QImage painted(layout.boundingRect().size().toSize() + QSize(1, 1), QImage::Format_RGB32);
    painted.fill(Qt::white);
    {
        QPainter painter(&painted);
        paintHeatmap(painter, layout, data, style);
    }
    for (int j = 0; j < 8; ++j)
        QCOMPARE(hex(painted.pixel(layout.cellRect(0, j).center().toPoint())),
                 hex(image.pixel(j, 0)));

    // The colorbar marks each power of ten between its ends (here 1e-4 … 0.1), the linear
    // one has its two ends only.
    style.vectorCells = false;
    style.colorbar = true;
    const HeatmapData tall = ramp(12, 1e-5, 1.0);
    const HeatmapLayout barred = HeatmapLayout::forCellSize(tall, style, 20);
    const QRectF bar = barred.colorbarRect();
    QVERIFY(bar.height() > 50);
    auto ticks = [&](const HeatmapStyle& drawn) {
        QImage canvas(barred.boundingRect().size().toSize() + QSize(1, 1), QImage::Format_RGB32);
        canvas.fill(Qt::white);
        QPainter painter(&canvas);
        paintHeatmap(painter, barred, tall, drawn);
        painter.end();
        QList<int> marked;
        for (int y = int(bar.top()) + 3; y < int(bar.bottom()) - 3; ++y)
            if (qGray(canvas.pixel(int(bar.right()) + 1, y)) < 128)
                marked << y;
        return marked;
    };
    const QList<int> decades = ticks(style);
    QCOMPARE(decades.size(), 4); // one pixel line each
    for (int k = 1; k <= 4; ++k)
        QVERIFY2(std::abs(decades[k - 1] - (bar.bottom() - bar.height() * (5 - k) / 5)) < 1.5,
                 qPrintable(QStringLiteral("decade %1 at y %2").arg(k).arg(decades[k - 1])));
    HeatmapStyle linearBar = style;
    linearBar.logScale = false;
    linearBar.vmin = 0;
    QVERIFY(ticks(linearBar).isEmpty());

    // A view colours anew when only the scale's kind changes.
    HeatmapView view;
    view.resize(300, 120);
    style.vectorCells = false;
    view.setData(data);
    view.setHeatmapStyle(style);
    (void)view.grab();
    const int renders = view.cellImageRenders();
    style.logScale = false;
    view.setHeatmapStyle(style);
    (void)view.grab();
    QCOMPARE(view.cellImageRenders(), renders + 1);
}

void TestHeatmapPainting::hatchTiledOrDrawn_data()
{
    QTest::addColumn<double>("scale");
    QTest::newRow("painter that only moves: a tiled brush") << 1.0;
    QTest::newRow("scaled painter: lines") << 2.0;
}

// Masked cells carry the hatch however they are painted: a tiled brush per run of masked
// cells on a painter that only moves, lines otherwise. Either way it stays inside them:
// the hatch's colour never reaches an unmasked cell, and every masked cell shows it on
// the masked fill, one diagonal line per period (a run of ten cells crosses several).
void TestHeatmapPainting::hatchTiledOrDrawn()
{
    QFETCH(double, scale);
    constexpr int tokens = 10;
    HeatmapData data = ramp(tokens);
    data.masked = attn::MaskMatrix::Zero(tokens, tokens);
    for (int i = 0; i < tokens; ++i)
        data.masked.edit().row(i).tail(tokens - i - 1).setConstant(true);
    HeatmapStyle style;
    const QSize size(460, 420);
    QImage image(size * scale, QImage::Format_RGB32);
    image.fill(Qt::white);
    const HeatmapLayout layout(QRectF(QPointF(0, 0), size), data, style, &image);
    {
        QPainter painter(&image);
        painter.scale(scale, scale);
        paintHeatmap(painter, layout, data, style);
    }
    QVERIFY(layout.cellSize() * scale >= 3); // the raster path with a hatch
    // A cell in device pixels, less the edge an anti-aliased line end may touch.
    auto onDevice = [&](const QRectF& cell) {
        return QRectF(cell.topLeft() * scale, cell.size() * scale).adjusted(1, 1, -1, -1);
    };
    for (int i = 0; i < tokens; ++i)
        for (int j = 0; j < tokens; ++j) {
            const QList<QRgb> pixels = cellPixels(image, onDevice(layout.cellRect(i, j)));
            const std::set<QRgb> colours(pixels.begin(), pixels.end());
            if (j <= i) {
                QVERIFY2(colours.size() == 1,
                         qPrintable(QStringLiteral("(%1, %2): %3 colours")
                                        .arg(i)
                                        .arg(j)
                                        .arg(colours.size()))); // its weight's colour only
                continue;
            }
            QVERIFY2(colours.contains(heatmapMaskedFill),
                     qPrintable(QStringLiteral("masked (%1, %2)").arg(i).arg(j)));
            QVERIFY2(colours.size() >= 2,
                     qPrintable(QStringLiteral("hatch in (%1, %2)").arg(i).arg(j)));
        }
    // Along the first row's run, the hatch's darkest pixels come back once a period.
    const QRectF run = onDevice(layout.cellRect(0, 1).united(layout.cellRect(0, tokens - 1)));
    const int y = int(run.center().y());
    int lines = 0;
    bool onLine = false;
    for (int x = int(run.left()) + 2; x < int(run.right()) - 2; ++x) {
        const bool dark = qGray(image.pixel(x, y)) < qGray(heatmapMaskedFill) - 20;
        lines += dark && !onLine;
        onLine = dark;
    }
    const double period = layout.lineHeight() * 0.3 * std::sqrt(2.0) * scale;
    QVERIFY2(std::abs(lines - run.width() / period) <= 2,
             qPrintable(QStringLiteral("%1 lines over %2 px").arg(lines).arg(run.width())));
}

QTEST_MAIN(TestHeatmapPainting)
#include "tst_heatmappainting.moc"
