// The heatmap drawing layer: colormaps, layout, painting, margin sums, the view and its
// hover text.
#include "colormap.h"
#include "engine.h"
#include "figure.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"
#include "heatmapsums.h"
#include "heatmapview.h"

#include <QAccessible>
#include <QBuffer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTest>
#include <QToolTip>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>

using namespace attn::ui;

Q_DECLARE_METATYPE(attn::ui::ColormapName)
Q_DECLARE_METATYPE(attn::SoftmaxAxis)

namespace {

constexpr float notANumber = std::numeric_limits<float>::quiet_NaN();
constexpr float inf = std::numeric_limits<float>::infinity();

QString hex(QRgb color)
{
    return QColor::fromRgb(color).name();
}

// (T, T) weights w(i, j) = (i·T + j) / (T·T − 1): every cell a different value in [0, 1].
// A causal self-attention request over `text` with d_model 32.
attn::Request causalRequest(const std::string& text, int heads)
{
    attn::Request r;
    r.text = text;
    r.config.dModel = 32;
    r.config.heads = heads;
    r.config.mask = attn::MaskKind::Causal;
    return r;
}

HeatmapData ramp(int tokens, double low = 0, double high = 1)
{
    HeatmapData data;
    data.weights.edit().resize(tokens, tokens);
    const double last = std::max(1, tokens * tokens - 1);
    for (int i = 0; i < tokens; ++i)
        for (int j = 0; j < tokens; ++j)
            data.weights.edit()(i, j) =
                static_cast<float>(low + (high - low) * (i * tokens + j) / last);
    for (int k = 0; k < tokens; ++k) {
        data.queryLabels.append(QStringLiteral("q%1").arg(k));
        data.keyLabels.append(QStringLiteral("k%1").arg(k));
    }
    return data;
}

// Rows 0..T−1 causal-masked above the diagonal, row `nanRow` all NaN, two infinities.
HeatmapData withSpecialCells(int tokens, int nanRow)
{
    HeatmapData data = ramp(tokens);
    data.masked = attn::MaskMatrix::Zero(tokens, tokens);
    for (int i = 0; i < tokens; ++i)
        for (int j = i + 1; j < tokens; ++j)
            data.masked.edit()(i, j) = true;
    data.weights.edit().row(nanRow).setConstant(notANumber);
    data.weights.edit()(tokens - 1, 0) = inf;
    data.weights.edit()(tokens - 1, 1) = -inf;
    return data;
}

QImage paint(const HeatmapData& data, const HeatmapStyle& style, QSize size,
             HeatmapLayout* layout = nullptr)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    const HeatmapLayout computed(QRectF(QPointF(0, 0), size), data, style, &image);
    paintHeatmap(painter, computed, data, style);
    if (layout)
        *layout = computed;
    return image;
}

QRgb pixelAt(const QImage& image, QPointF point)
{
    return image.pixel(static_cast<int>(std::floor(point.x())),
                       static_cast<int>(std::floor(point.y())));
}

QRgb expectedColor(const HeatmapData& data, const HeatmapStyle& style, int i, int j)
{
    return Colormap(style.colormap)
        .color((data.weights(i, j) - style.vmin) / (style.vmax - style.vmin));
}

// Every pixel of the cell's inside (one pixel in from its edges).
QList<QRgb> cellPixels(const QImage& image, const QRectF& cell)
{
    QList<QRgb> pixels;
    const QRect inside = cell.toAlignedRect().adjusted(1, 1, -2, -2);
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            pixels.append(image.pixel(x, y));
    return pixels;
}

// (T, T) weights of 1/T each: every row and column sums to exactly 1.
// The rows of `image` within the columns [x0, x1] that hold ink (grey below 160), top down.
std::vector<bool> inkRows(const QImage& image, int x0, int x1)
{
    std::vector<bool> rows(std::size_t(image.height()), false);
    for (int y = 0; y < image.height(); ++y)
        for (int x = std::max(0, x0); x <= std::min(image.width() - 1, x1); ++x)
            if (qGray(image.pixel(x, y)) < 160)
                rows[std::size_t(y)] = true;
    return rows;
}

// A heatmap laid out as the window does (in `size`) or as a figure does (from the cell
// size, in the figures' fonts), painted on white.
QImage paintLaidOut(const HeatmapData& data, HeatmapStyle style, QSize size, bool figure,
                    HeatmapLayout* layout)
{
    if (figure) {
        QFont font;
        font.setFamilies(figureFontFamilies());
        font.setPixelSize(13);
        style.labelFont = font;
        *layout = HeatmapLayout::forCellSize(data, style, 44);
        size = layout->boundingRect().size().toSize() + QSize(2, 2);
    }
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    if (!figure)
        *layout = HeatmapLayout(QRectF(QPointF(0, 0), size), data, style, &image);
    QPainter painter(&image);
    paintHeatmap(painter, *layout, data, style);
    return image;
}

HeatmapData uniform(int tokens)
{
    HeatmapData data;
    data.weights = attn::Matrix::Constant(tokens, tokens, 1.0f / static_cast<float>(tokens));
    return data;
}

// Red text is anti-aliased: any clearly red pixel counts.
bool isReddish(QRgb pixel)
{
    return qRed(pixel) > 150 && qGreen(pixel) < 130 && qBlue(pixel) < 130;
}

int countPixels(const QImage& image, const QRectF& rect, bool (*wanted)(QRgb))
{
    int count = 0;
    const QRect inside = rect.toAlignedRect().intersected(image.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            count += wanted(image.pixel(x, y)) ? 1 : 0;
    return count;
}

std::set<QRgb> allColormapColors()
{
    std::set<QRgb> colors;
    for (const ColormapName name : Colormap::names())
        for (const QRgb color : Colormap(name).entries())
            colors.insert(color);
    return colors;
}

} // namespace

class TestHeatmap : public QObject {
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
    void oneLetterKeyStandsUpright();
    void chineseWordsStackInTheirColumns();
    void axisTitleClearOfTheKeyLabels_data();
    void axisTitleClearOfTheKeyLabels();
    void verticalForms_data();
    void verticalForms();
    void hoverRepaintsKeepTheCellImage();
    void letGoKeepsWhatIsInSight();
    void letGoOutOfSightSaysItIsComputing();
    void logScaleColoursByTheLogarithm();
    void cachedTextDrawsAsDrawText_data();
    void cachedTextDrawsAsDrawText();
    void rememberedLabelWidthsFollowNewLabels();
    void aSwitchKeepsTheLayout();
    void hatchTiledOrDrawn_data();
    void hatchTiledOrDrawn();
    void editingAViewCopiesFirst();

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

    void hoverText_data();
    void hoverText();
    void viewPixels();
    void viewHoverAndClick();
    void viewKeyboard();
    void keyboardScrollsTheCellIntoView();
    void viewToolTip();
};

void TestHeatmap::initTestCase()
{
    // Hover text and ticks use the default locale; pin it so that decimals are points.
    QLocale::setDefault(QLocale::c());
}

void TestHeatmap::colormapLut_data()
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

void TestHeatmap::colormapLut()
{
    QFETCH(ColormapName, name);
    QFETCH(double, t);
    QFETCH(QString, expected);
    QCOMPARE(hex(Colormap(name).color(t)), expected);
}

void TestHeatmap::colormapSpelling_data()
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

void TestHeatmap::colormapSpelling()
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

void TestHeatmap::colormapSpellingsAreStable()
{
    // Session files and scripts store these; changing one breaks them.
    QStringList all;
    for (const ColormapName name : Colormap::names())
        all.append(Colormap::spelling(name));
    QCOMPARE(all.join(QLatin1Char(',')),
             QStringLiteral("viridis,magma,inferno,cividis,grey,diverging"));
}

void TestHeatmap::contrast_data()
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

void TestHeatmap::contrast()
{
    QFETCH(QRgb, background);
    QFETCH(bool, dark);
    QCOMPARE(Colormap::contrastIsDark(background), dark);
}

void TestHeatmap::cellColors_data()
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

void TestHeatmap::cellColors()
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

void TestHeatmap::specialCells_data()
{
    QTest::addColumn<ColormapName>("name");
    for (const ColormapName name : Colormap::names())
        QTest::addRow("%s", qPrintable(Colormap::spelling(name))) << name;
}

void TestHeatmap::specialCells()
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

void TestHeatmap::smallCellsAsImage_data()
{
    QTest::addColumn<bool>("vectorCells");
    QTest::newRow("image") << false;
    QTest::newRow("one rectangle per cell") << true;
}

void TestHeatmap::smallCellsAsImage()
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

void TestHeatmap::svgHasOneRectanglePerCell()
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

void TestHeatmap::annotationContrast_data()
{
    QTest::addColumn<bool>("annotate");
    QTest::newRow("annotated") << true;
    QTest::newRow("plain") << false;
}

void TestHeatmap::annotationContrast()
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

void TestHeatmap::highlight()
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

void TestHeatmap::cellAt_data()
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

void TestHeatmap::cellAt()
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

void TestHeatmap::labelRotation_data()
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

void TestHeatmap::labelRotation()
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
void TestHeatmap::oneLetterKeyStandsUpright()
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
void TestHeatmap::chineseWordsStackInTheirColumns()
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

void TestHeatmap::axisTitleClearOfTheKeyLabels_data()
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

void TestHeatmap::axisTitleClearOfTheKeyLabels()
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

void TestHeatmap::verticalForms_data()
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

void TestHeatmap::verticalForms()
{
    QFETCH(QString, horizontal);
    QFETCH(QString, vertical);
    QString made;
    for (const QChar c : horizontal)
        made += verticalForm(c);
    QCOMPARE(made, vertical);
}

void TestHeatmap::preferredSizeFitsCells()
{
    const HeatmapData data = ramp(6);
    const HeatmapStyle style;
    const QSizeF size = preferredSize(data, style, 40);
    const HeatmapLayout layout(QRectF(QPointF(0, 0), size), data, style);
    QVERIFY2(std::abs(layout.cellSize() - 40) < 1e-6,
             qPrintable(QString::number(layout.cellSize())));
    QVERIFY(preferredSize(data, style, 20).width() < size.width());
}

void TestHeatmap::sumText_data()
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

void TestHeatmap::sumText()
{
    QFETCH(double, sum);
    QFETCH(QString, text);
    QFETCH(bool, unit);
    QCOMPARE(attn::ui::marginSumText(sum), text);
    QCOMPARE(isUnitSum(sum), unit);
}

void TestHeatmap::marginSumsLayout_data()
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

void TestHeatmap::marginSumsLayout()
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

void TestHeatmap::sumTitlesByTheirBars_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<bool>("figure");
    QTest::newRow("window, 4 tokens") << 4 << QSize(500, 420) << false;
    QTest::newRow("window, 24 tokens") << 24 << QSize(560, 560) << false;
    QTest::newRow("figure, 6 tokens") << 6 << QSize() << true;
}

void TestHeatmap::sumTitlesByTheirBars()
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

void TestHeatmap::marginSumsOfTheSoftmaxAxis_data()
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

void TestHeatmap::marginSumsOfTheSoftmaxAxis()
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

void TestHeatmap::marginSumsNaN()
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

void TestHeatmap::marginSumsInSvg_data()
{
    QTest::addColumn<bool>("sums");
    QTest::newRow("with sums") << true;
    QTest::newRow("without") << false;
}

void TestHeatmap::marginSumsInSvg()
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

void TestHeatmap::hoverText_data()
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
    QTest::newRow("unmasked cell, scores pending")
        << 2 << 1 << true << -inf << true
        << "query 它 (row 2) → key 猫 (column 1): weight 0.62 · logit 0.78 · score 3.12";
}

void TestHeatmap::hoverText()
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
        data.logitRule = attn::LogitRule{0.25f, 1.0f, fill};
    }
    QCOMPARE(attn::ui::hoverText(data, row, column), expected);
}

void TestHeatmap::viewPixels()
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

void TestHeatmap::viewHoverAndClick()
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
void TestHeatmap::viewKeyboard()
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
void TestHeatmap::keyboardScrollsTheCellIntoView()
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

void TestHeatmap::viewToolTip()
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

void TestHeatmap::levelOfDetailKeepsPeaks_data()
{
    QTest::addColumn<int>("cells");  // T × T
    QTest::addColumn<int>("pixels"); // image side
    QTest::newRow("one pixel per cell") << 40 << 40;
    QTest::newRow("512 cells on 456 pixels (blocks of 1-2)") << 512 << 456;
    QTest::newRow("2048 cells on 300 pixels") << 2048 << 300;
    QTest::newRow("1000 cells on 10 pixels") << 1000 << 10;
}

void TestHeatmap::levelOfDetailKeepsPeaks()
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
void TestHeatmap::headDialogOpensWholeAndZoomsToDetail()
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

void TestHeatmap::levelOfDetailIsTheBlockMaximum_data()
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
void TestHeatmap::levelOfDetailIsTheBlockMaximum()
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
void TestHeatmap::viewsShareTheResultsMatrices()
{
    attn::Request r = causalRequest("the cat sat on the mat", 4);
    attn::AttentionEngine engine;
    HeatmapData shown;
    attn::Matrix expected;
    {
        const attn::Result first = engine.compute(r);
        shown = headHeatmap(first, 0, 2);
        QVERIFY(shown.weights.sharesWith(first.weights->at(0, 2)));
        QCOMPARE(shown.logitRule, attn::logitRule(first.config()));
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
void TestHeatmap::theMeanTileOnlyForSeveralHeads_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<QStringList>("titles");
    QTest::newRow("1 head: the head alone") << 1 << QStringList{"Head 0"};
    QTest::newRow("2 heads: both and their mean")
        << 2 << QStringList{"Head 0", "Head 1", "Mean of the heads"};
    QTest::newRow("4 heads: all and their mean")
        << 4 << QStringList{"Head 0", "Head 1", "Head 2", "Head 3", "Mean of the heads"};
}

void TestHeatmap::theMeanTileOnlyForSeveralHeads()
{
    QFETCH(int, heads);
    QFETCH(QStringList, titles);
    attn::AttentionEngine engine;
    const attn::Result result = engine.compute(causalRequest("the cat sat on the mat", heads));
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

// At T = 2048 a tile's image colours 4 M cells; a hover highlight or a scroll repaints
// the tile and must reuse it. New data, a new style or a new size colour again.
void TestHeatmap::cachedTextDrawsAsDrawText_data()
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
void TestHeatmap::cachedTextDrawsAsDrawText()
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

// A view letting go of its matrices keeps a picture of the part in sight only (a head
// dialog zoomed into a long sentence is a view far larger than the screen), shows it
// where it was, and scales it with a zoom made before the new data comes.
void TestHeatmap::letGoKeepsWhatIsInSight()
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
void TestHeatmap::letGoOutOfSightSaysItIsComputing()
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

// On a logarithmic scale each decade of weight takes the same share of the colormap, from
// logScaleFloor() (a decade more below the largest weight than the uniform weight 1/T_k
// lies) up to the largest; 0 and what lies below take the first colour. The cell image
// (level of detail, PNG) and the per-cell rectangles (SVG, PDF) colour alike.
void TestHeatmap::logScaleColoursByTheLogarithm()
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

void TestHeatmap::hoverRepaintsKeepTheCellImage()
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

// Label widths are remembered per list of labels (a zoom step lays a heatmap out twice);
// a new list, even of the same length, is measured anew.
void TestHeatmap::rememberedLabelWidthsFollowNewLabels()
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

// A switch of the formula brings new weights under the same labels: the view colours the
// new cells without measuring its labels again, and paints them (and only them) anew,
// from the grid's very first to its last whole pixel. New labels or a new colorbar tick
// lay it out again.
void TestHeatmap::aSwitchKeepsTheLayout()
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

void TestHeatmap::hatchTiledOrDrawn_data()
{
    QTest::addColumn<double>("scale");
    QTest::newRow("painter that only moves: a tiled brush") << 1.0;
    QTest::newRow("scaled painter: lines") << 2.0;
}

// Masked cells carry the hatch however they are painted: a tiled brush per run of masked
// cells on a painter that only moves, lines otherwise. Either way it stays inside them:
// the hatch's colour never reaches an unmasked cell, and every masked cell shows it on
// the masked fill, one diagonal line per period (a run of ten cells crosses several).
void TestHeatmap::hatchTiledOrDrawn()
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

void TestHeatmap::editingAViewCopiesFirst()
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

QTEST_MAIN(TestHeatmap)
#include "tst_heatmap.moc"
