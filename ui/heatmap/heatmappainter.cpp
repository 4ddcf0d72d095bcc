#include "heatmappainter.h"

#include "heatmapsums.h"
#include "heatmaptext.h"

#include <QFontMetricsF>
#include <QImage>
#include <QLineF>
#include <QLocale>
#include <QPaintEngine>
#include <QPainter>
#include <QTextLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn::ui {
namespace {

using detail::columnAxisTitle;
using detail::LabelWidths;
using detail::rowAxisTitle;
using detail::sqrt2;
using detail::tickText;

} // namespace

namespace {

enum class CellKind { Value, Masked, NaN, PlusInf, MinusInf };

CellKind cellKind(const HeatmapData& data, int row, int column)
{
    const float weight = data.weights(row, column);
    if (std::isnan(weight))
        return CellKind::NaN;
    if (std::isinf(weight))
        return weight > 0 ? CellKind::PlusInf : CellKind::MinusInf;
    return data.isMasked(row, column) ? CellKind::Masked : CellKind::Value;
}

// Where `value` sits between vmin and vmax (their logarithms on a logarithmic scale, where
// 0 and below sit at the bottom); a degenerate range maps to the middle.
double normalized(double value, const HeatmapStyle& style)
{
    if (style.logScale && style.vmin > 0) {
        const double span = std::log2(style.vmax) - std::log2(style.vmin);
        if (!(span > 0))
            return 0.5;
        return value > 0 ? (std::log2(value) - std::log2(style.vmin)) / span : 0.0;
    }
    const double span = style.vmax - style.vmin;
    return span > 0 ? (value - style.vmin) / span : 0.5;
}

QRgb cellColor(CellKind kind, float weight, const Colormap& colormap, const HeatmapStyle& style)
{
    switch (kind) {
    case CellKind::Value:
        return colormap.color(normalized(weight, style));
    case CellKind::Masked:
        return heatmapMaskedFill;
    default:
        return heatmapInvalidFill;
    }
}

bool isVectorDevice(const QPainter& painter)
{
    const QPaintEngine* engine = painter.paintEngine();
    if (!engine)
        return false;
    const auto type = engine->type();
    return type == QPaintEngine::SVG || type == QPaintEngine::Pdf || type == QPaintEngine::Picture;
}

// One line of text as painter.drawText(rect, flags, text) draws it: through `texts` on a
// raster painter, plain drawText on a vector device or without a cache.
void drawLine(QPainter& painter, TextCache* texts, const QRectF& rect, int flags,
              const QString& text)
{
    if (texts && !isVectorDevice(painter))
        texts->draw(painter, rect, flags, text);
    else
        painter.drawText(rect, flags, text);
}

} // namespace

void TextCache::draw(QPainter& painter, const QRectF& rect, int flags, const QString& text)
{
    if (text.isEmpty())
        return;
    // Lines are kept per font and per resolution (a window moved to another screen).
    const QFont& font = painter.font();
    const int dpi = painter.device()->logicalDpiY();
    auto entry = std::find_if(fonts_.begin(), fonts_.end(), [&](const FontLines& lines) {
        return lines.dpi == dpi && lines.font == font;
    });
    if (entry == fonts_.end()) {
        if (int(fonts_.size()) >= kFonts)
            fonts_.erase(fonts_.begin());
        fonts_.push_back({font, dpi, {}});
        entry = fonts_.end() - 1;
    }
    auto found = entry->lines.find(text);
    if (found == entry->lines.end()) {
        if (entry->lines.size() >= kLinesPerFont)
            entry->lines.clear();
        // Laid out as drawText lays out one line (qt_format_text): a QTextLayout of the
        // painter's font, one line as wide as it likes, its glyphs kept (cache enabled).
        auto layout = std::make_shared<QTextLayout>(text, font, painter.device());
        layout->setCacheEnabled(true);
        layout->beginLayout();
        QTextLine line = layout->createLine();
        if (line.isValid()) {
            line.setLineWidth(0x01000000);
            line.setPosition(QPointF(0, 0));
        }
        layout->endLayout();
        found = entry->lines.insert(text, layout);
    }
    const QTextLayout& layout = **found;
    if (layout.lineCount() == 0)
        return;
    const QTextLine line = layout.lineAt(0);
    // drawText's placement of one line: its advance and height aligned in the rectangle
    // (the height unrounded, ascent + descent: QTextLine::height() rounds it up).
    const double advance = line.horizontalAdvance(), height = line.ascent() + line.descent();
    double x = 0, y = 0;
    if (flags & Qt::AlignRight)
        x = rect.width() - advance;
    else if (flags & Qt::AlignHCenter)
        x = (rect.width() - advance) / 2;
    if (flags & Qt::AlignBottom)
        y = rect.height() - height;
    else if (flags & Qt::AlignVCenter)
        y = (rect.height() - height) / 2;
    const bool overflows =
        !rect.contains(QRectF(rect.x() + x, rect.y() + y, line.naturalTextWidth(), height));
    if (overflows) {
        painter.save();
        painter.setClipRect(rect, Qt::IntersectClip);
    }
    line.draw(&painter, QPointF(rect.x() + x, rect.y() + y));
    if (overflows)
        painter.restore();
}

int TextCache::size() const
{
    int lines = 0;
    for (const FontLines& font : fonts_)
        lines += int(font.lines.size());
    return lines;
}

namespace {

// A pen width that scales with the text, so that exports at high resolution keep proportions.
double lineUnit(const HeatmapLayout& layout)
{
    return std::max(0.5, layout.lineHeight() / 14);
}

// The cell image over the grid: scaled without smoothing, or, when it already has the
// grid's size in device pixels (level of detail) on an untransformed painter, copied
// pixel for pixel at the grid's corner rounded to a pixel (a scaled draw costs more
// than making the image).
void drawCellImage(QPainter& painter, const HeatmapLayout& layout, const QImage& image,
                   QSize pixels)
{
    const QRectF grid = layout.gridRect();
    if (image.size() == pixels && painter.transform().type() <= QTransform::TxTranslate &&
        painter.device()->devicePixelRatioF() == 1.0) {
        painter.drawImage(QPointF(std::round(grid.left()), std::round(grid.top())), image);
        return;
    }
    painter.drawImage(grid, image);
}

// Cells too small to draw one by one: at most one image pixel per device pixel, the
// image scaled without smoothing.
void paintCellImage(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style, CellImageCache* cache)
{
    const QSize pixels =
        painter.deviceTransform().mapRect(layout.gridRect()).size().toSize().expandedTo({1, 1});
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (!cache) {
        drawCellImage(painter, layout, cellImage(data, style, pixels), pixels);
        return;
    }
    // The image has a pixel per cell at most: zoomed in past that, a larger grid takes
    // the same image (a zoom step at T = 2048 made 4 M cells' colours again).
    const QSize made(std::min(data.columns(), pixels.width()),
                     std::min(data.rows(), pixels.height()));
    const bool current = !cache->stale && !cache->image.isNull() && cache->pixels == made &&
                         cache->weights == data.weights.data() &&
                         cache->masked == data.masked.data() && cache->colormap == style.colormap &&
                         cache->vmin == style.vmin && cache->vmax == style.vmax &&
                         cache->logScale == style.logScale;
    if (!current) {
        cache->image = cellImage(data, style, pixels, std::move(cache->image));
        cache->stale = false;
        cache->pixels = made;
        cache->weights = data.weights.data();
        cache->masked = data.masked.data();
        cache->colormap = style.colormap;
        cache->vmin = style.vmin;
        cache->vmax = style.vmax;
        cache->logScale = style.logScale;
        ++cache->renders;
    }
    drawCellImage(painter, layout, cache->image, pixels);
}

// Diagonal hatch lines x + y = c (c a multiple of `step` from the grid's corner) inside one
// cell or a run of cells; the common phase makes the hatch run on across neighbouring
// masked cells.
void appendHatch(QList<QLineF>& lines, const QRectF& cells, const QPointF& origin, double step)
{
    const double width = cells.width(), height = cells.height();
    const double a = cells.left() - origin.x();
    const double b = cells.top() - origin.y();
    for (double c = std::floor((a + b) / step + 1) * step; c < a + b + width + height; c += step) {
        const double u = c - (a + b); // 0 < u < width + height: the line x + y = u from the corner
        // It enters through the left or bottom edge and leaves through the top or right one.
        const QPointF from = u <= height ? QPointF(cells.left(), cells.top() + u)
                                         : QPointF(cells.left() + u - height, cells.bottom());
        const QPointF to = u <= width ? QPointF(cells.left() + u, cells.top())
                                      : QPointF(cells.right(), cells.top() + u - width);
        lines.append(QLineF(from, to));
    }
}

// The hatch lines of masked cells and the marks of NaN and ±inf cells, anti-aliased, with
// pens as wide as `unit` suggests.
void drawHatchAndMarks(QPainter& painter, double unit, const QList<QLineF>& hatch,
                       const QList<QLineF>& invalid)
{
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(QColor::fromRgb(heatmapMaskedHatch), unit, Qt::SolidLine, Qt::FlatCap));
    painter.drawLines(hatch);
    painter.setPen(
        QPen(QColor::fromRgb(heatmapInvalidMark), 1.5 * unit, Qt::SolidLine, Qt::RoundCap));
    painter.drawLines(invalid);
}

// × for NaN, + for +inf, − for −inf.
void appendInvalidMark(QList<QLineF>& lines, CellKind kind, const QRectF& cell)
{
    const QRectF mark =
        cell.adjusted(cell.width() / 5, cell.height() / 5, -cell.width() / 5, -cell.height() / 5);
    const QPointF centre = cell.center();
    if (kind == CellKind::NaN) {
        lines.append(QLineF(mark.topLeft(), mark.bottomRight()));
        lines.append(QLineF(mark.bottomLeft(), mark.topRight()));
        return;
    }
    lines.append(QLineF(mark.left(), centre.y(), mark.right(), centre.y()));
    if (kind == CellKind::PlusInf)
        lines.append(QLineF(centre.x(), mark.top(), centre.x(), mark.bottom()));
}

// The rows [top, bottom) and columns [left, right) of the cells that meet the painter's
// clip, or all of them without one. A zoomed head dialog is far larger than the part
// that shows (3000 tokens at 32 px make 96 000 px a side): painting only what meets the
// exposed rectangle keeps every repaint as cheap as one screenful.
struct CellRange {
    int top, bottom, left, right;
};

CellRange cellsToPaint(const QPainter& painter, const HeatmapLayout& layout)
{
    CellRange all{0, layout.rows(), 0, layout.columns()};
    if (!painter.hasClipping() || layout.cellSize() <= 0 || layout.rowHeight() <= 0)
        return all;
    const QRectF clip = painter.clipBoundingRect().intersected(layout.gridRect());
    if (clip.isEmpty())
        return {0, 0, 0, 0};
    const QPointF origin = layout.gridRect().topLeft();
    auto first = [](double offset, double cell, int count) {
        return std::clamp(static_cast<int>(std::floor(offset / cell)), 0, count);
    };
    auto end = [](double offset, double cell, int count) {
        return std::clamp(static_cast<int>(std::ceil(offset / cell)), 0, count);
    };
    const double width = layout.cellSize(), height = layout.rowHeight();
    return {first(clip.top() - origin.y(), height, all.bottom),
            end(clip.bottom() - origin.y(), height, all.bottom),
            first(clip.left() - origin.x(), width, all.right),
            end(clip.right() - origin.x(), width, all.right)};
}

void paintCellRects(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style, bool vector)
{
    const Colormap colormap(style.colormap);
    const double cell = layout.cellSize();
    // Vector viewers anti-alias each rectangle's edges; a small overlap hides the hairlines.
    const double overlap = vector ? cell / 50 : 0;
    const double unit = lineUnit(layout);
    const double hatchStep = layout.lineHeight() * 0.3 * sqrt2;
    const bool marks = std::min(cell, layout.rowHeight()) >= 6 * unit;
    QList<QLineF> hatch;
    QList<QLineF> invalid;

    const CellRange cells = cellsToPaint(painter, layout);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int i = cells.top; i < cells.bottom; ++i) {
        for (int j = cells.left; j < cells.right; ++j) {
            const CellKind kind = cellKind(data, i, j);
            const QRectF rect = layout.cellRect(i, j);
            const QRectF filled = rect.adjusted(0, 0, j + 1 < data.columns() ? overlap : 0,
                                                i + 1 < data.rows() ? overlap : 0);
            painter.fillRect(filled,
                             QColor::fromRgb(cellColor(kind, data.weights(i, j), colormap, style)));
            if (kind == CellKind::Masked)
                appendHatch(hatch, rect, layout.gridRect().topLeft(), hatchStep);
            else if (kind != CellKind::Value && marks)
                appendInvalidMark(invalid, kind, rect);
        }
    }
    drawHatchAndMarks(painter, unit, hatch, invalid);
}

// Cells of a few device pixels or more on a raster target look as paintCellRects draws
// them, in a handful of calls instead of one fillRect per cell (16 000 for each head at
// T = 128, most of a switch's time): the colours as the cell image scaled up without
// smoothing, the hatch as one lattice of lines clipped to the masked cells' runs, and the
// marks of the few NaN and ±inf cells.
// The hatch of masked cells as a tile of one period: x + y ≡ 0 (mod period), so that tiles
// side by side make the lines of appendHatch, anti-aliased alike.
QImage hatchTile(int period, double width)
{
    QImage tile(period, period, QImage::Format_ARGB32_Premultiplied);
    tile.fill(Qt::transparent);
    QPainter painter(&tile);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(QColor::fromRgb(heatmapMaskedHatch), width, Qt::SolidLine, Qt::FlatCap));
    for (int c = 0; c <= 2 * period; c += period) // the line through the tile and its wraps
        painter.drawLine(QLineF(c + 1.0, -1.0, -1.0, c + 1.0));
    return tile;
}

void paintRasterCells(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                      const HeatmapStyle& style, CellImageCache* cache)
{
    paintCellImage(painter, layout, data, style, cache);
    const CellRange cells = cellsToPaint(painter, layout);
    const double unit = lineUnit(layout);
    const bool marks = std::min(layout.cellSize(), layout.rowHeight()) >= 6 * unit;
    const QPointF origin = layout.gridRect().topLeft();
    const double step = layout.lineHeight() * 0.3 * sqrt2;
    // On a painter that only moves (a widget, an image at its own size) the hatch is a
    // tiled brush over each run, one fill instead of a line per period; otherwise lines.
    const bool tiled = painter.transform().type() <= QTransform::TxTranslate &&
                       painter.device()->devicePixelRatioF() == 1.0;
    QList<QRectF> runs;
    QList<QLineF> hatch;
    QList<QLineF> invalid;
    for (int i = cells.top; i < cells.bottom; ++i) {
        const float* weights = data.weights.data() + qsizetype(i) * data.columns();
        for (int j = cells.left; j < cells.right;) {
            if (!std::isfinite(weights[j])) {
                if (marks)
                    appendInvalidMark(invalid, cellKind(data, i, j), layout.cellRect(i, j));
                ++j;
                continue;
            }
            if (!data.isMasked(i, j)) {
                ++j;
                continue;
            }
            // A run of cells drawn masked (masked, with a finite weight): one stretch of the
            // hatch, whose lines run on across it as across the cells one by one.
            const int first = j;
            while (j < cells.right && data.isMasked(i, j) && std::isfinite(weights[j]))
                ++j;
            const QRectF run = layout.cellRect(i, first).united(layout.cellRect(i, j - 1));
            if (tiled)
                runs.append(run);
            else
                appendHatch(hatch, run, origin, step);
        }
    }
    if (!runs.isEmpty()) {
        const QBrush brush(hatchTile(std::max(3, qRound(step)), unit));
        painter.setBrushOrigin(origin); // the lattice's phase, as appendHatch has it
        for (const QRectF& run : runs)
            painter.fillRect(run, brush);
    }
    drawHatchAndMarks(painter, unit, hatch, invalid);
}

void paintCells(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                const HeatmapStyle& style, CellImageCache* cache)
{
    const bool vector = style.vectorCells || isVectorDevice(painter);
    const QRectF cell =
        painter.deviceTransform().mapRect(QRectF(0, 0, layout.cellSize(), layout.rowHeight()));
    const double devicePixels = std::min(cell.width(), cell.height());
    painter.save();
    if (vector)
        paintCellRects(painter, layout, data, style, vector);
    else if (devicePixels < 3)
        paintCellImage(painter, layout, data, style, cache);
    else
        paintRasterCells(painter, layout, data, style, cache);
    painter.restore();
}

// Each weight with 2 decimals, in black or white, whichever contrasts more with the cell.
void paintAnnotations(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                      const HeatmapStyle& style, TextCache* texts)
{
    const double cell = std::min(layout.cellSize(), layout.rowHeight());
    QFont font = layout.labelFont();
    if (!style.annotate || cell < minimumValueCell(font, painter.device()))
        return;
    const double shrink = std::min(1.0, cell / fullValueCell(font, painter.device()));
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * shrink);
    else
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * shrink)));

    const Colormap colormap(style.colormap);
    painter.save();
    painter.setFont(font);
    const CellRange cells = cellsToPaint(painter, layout);
    for (int i = cells.top; i < cells.bottom; ++i) {
        for (int j = cells.left; j < cells.right; ++j) {
            if (cellKind(data, i, j) != CellKind::Value)
                continue;
            const float weight = data.weights(i, j);
            const QRgb background = colormap.color(normalized(weight, style));
            painter.setPen(Colormap::contrastIsDark(background) ? Qt::black : Qt::white);
            drawLine(painter, texts, layout.cellRect(i, j), Qt::AlignCenter,
                     QLocale().toString(weight, 'f', 2));
        }
    }
    painter.restore();
}

// White under black: visible on every colour of every scale.
void paintHighlight(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style)
{
    QVarLengthArray<QRectF, 2> strips;
    const QRectF grid = layout.gridRect();
    if (style.highlightRow >= 0 && style.highlightRow < layout.rows())
        strips.append(QRectF(grid.left(), layout.cellRect(style.highlightRow, 0).top(),
                             grid.width(), layout.rowHeight()));
    if (style.highlightCol >= 0 && style.highlightCol < layout.columns())
        strips.append(QRectF(layout.cellRect(0, style.highlightCol).left(), grid.top(),
                             layout.cellSize(), grid.height()));
    if (strips.isEmpty())
        return;
    const double unit = lineUnit(layout);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(Qt::white, 3 * unit, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRects(strips.data(), static_cast<int>(strips.size()));
    painter.setPen(QPen(Qt::black, unit, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRects(strips.data(), static_cast<int>(strips.size()));
    painter.restore();
}

} // namespace

QChar verticalForm(QChar c)
{
    // Unicode's Vertical Forms (FE10–FE19) and CJK Compatibility Forms (FE30–FE4F).
    static constexpr std::pair<char16_t, char16_t> kForms[] = {
        {u'，', u'︐'}, {u'、', u'︑'}, {u'。', u'︒'}, {u'：', u'︓'}, {u'；', u'︔'},
        {u'！', u'︕'}, {u'？', u'︖'}, {u'〖', u'︗'}, {u'〗', u'︘'}, {u'（', u'︵'},
        {u'）', u'︶'}, {u'｛', u'︷'}, {u'｝', u'︸'}, {u'〔', u'︹'}, {u'〕', u'︺'},
        {u'【', u'︻'}, {u'】', u'︼'}, {u'《', u'︽'}, {u'》', u'︾'}, {u'〈', u'︿'},
        {u'〉', u'﹀'}, {u'「', u'﹁'}, {u'」', u'﹂'}, {u'『', u'﹃'}, {u'』', u'﹄'},
        {u'［', u'﹇'}, {u'］', u'﹈'},
    };
    for (const auto& [horizontal, vertical] : kForms)
        if (c.unicode() == horizontal)
            return QChar(vertical);
    return c;
}

namespace {

// `centre` moved the least so that ±halfExtent around it stays within [low, high].
double clampedCentre(double centre, double low, double high, double halfExtent)
{
    const double least = low + halfExtent;
    return std::clamp(centre, least, std::max(least, high - halfExtent));
}

QFont labelFontFor(QFont font, bool highlighted)
{
    font.setBold(highlighted);
    return font;
}

// The highlighted row's or column's label where the stride skips it (the mouse or the arrow
// keys are on a cell of it): whether label k is then left out for overlapping it.
struct SkippedHighlight {
    int index = -1;  // the highlighted row or column, −1 when shown anyway or none
    double centre{}; // where its label goes
    double extent{}; // how near another label's centre may come
    [[nodiscard]] bool hides(int k, double centreOfK) const
    {
        return index >= 0 && k != index && std::abs(centreOfK - centre) < extent;
    }
};

void paintRowLabels(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style, TextCache* texts)
{
    const QRectF area = layout.rowLabelArea();
    const double lineHeight = layout.rowLabelLineHeight();
    const int stride = layout.rowLabelStride();
    LabelWidths boldWidths(labelFontFor(layout.rowLabelFont(), true), painter.device());
    // Labels taller than their row stay within the rows, clear of the axis title above.
    const auto centreOf = [&](int i) {
        return clampedCentre(layout.cellRect(i, 0).center().y(), area.top(), area.bottom(),
                             lineHeight / 2);
    };
    const auto draw = [&](int i) {
        const QFont font = labelFontFor(layout.rowLabelFont(), i == style.highlightRow);
        // Most labels fit as they are (measured bold, the wider): no eliding to work out.
        const QString label = data.queryLabel(i);
        const QString text = boldWidths(label) <= area.width()
                                 ? label
                                 : QFontMetricsF(font, painter.device())
                                       .elidedText(label, Qt::ElideRight, area.width());
        const double centre = centreOf(i);
        painter.setFont(font);
        drawLine(painter, texts,
                 QRectF(area.left(), centre - lineHeight / 2, area.width(), lineHeight),
                 Qt::AlignRight | Qt::AlignVCenter, text);
    };
    SkippedHighlight skipped;
    if (style.highlightRow >= 0 && style.highlightRow < data.rows() &&
        style.highlightRow % stride != 0)
        skipped = {style.highlightRow, centreOf(style.highlightRow), lineHeight};
    for (int i = 0; i < data.rows(); i += stride)
        if (!skipped.hides(i, centreOf(i)))
            draw(i);
    if (skipped.index >= 0)
        draw(skipped.index);
}

void paintColumnLabels(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                       const HeatmapStyle& style, TextCache* texts)
{
    const QRectF area = layout.columnLabelArea();
    const double lineHeight = layout.columnLabelLineHeight();
    const int angle = layout.columnLabelAngle();
    const int stride = layout.columnLabelStride();
    const double span = stride * layout.cellSize();
    const double pitch = layout.stackedPitch();
    // Read upwards from the column; at 45° the text's lower corner reaches h/(2√2) below
    // its anchor, so the anchor is raised by that much.
    const double drop = angle == 45 ? lineHeight / (2 * sqrt2) : 0;
    LabelWidths widths(labelFontFor(layout.columnLabelFont(), false), painter.device());
    LabelWidths boldWidths(labelFontFor(layout.columnLabelFont(), true), painter.device());
    const auto textOf = [&](int j, const QFont& font) {
        const QString label = data.keyLabel(j);
        return boldWidths(label) <= layout.labelElideWidth()
                   ? label
                   : QFontMetricsF(font, painter.device())
                         .elidedText(label, Qt::ElideRight, layout.labelElideWidth());
    };
    // Where label j's centre goes across the band, and how wide it is there.
    const auto place = [&](int j, const QString& text, bool highlighted) {
        const double column = layout.cellRect(0, j).center().x();
        if (angle == HeatmapLayout::kStackedLabels)
            return std::pair{clampedCentre(column, area.left(), area.right(), pitch / 2), pitch};
        const double width = highlighted ? boldWidths(text) : widths(text);
        if (angle == 0 || layout.keepsLabelUpright(text, width))
            return std::pair{clampedCentre(column, area.left(), area.right(), width / 2), width};
        return std::pair{
            clampedCentre(column, area.left(), area.right(), angle == 45 ? drop : lineHeight / 2),
            angle == 45 ? lineHeight * sqrt2 : lineHeight};
    };
    const auto draw = [&](int j) {
        const bool highlighted = j == style.highlightCol;
        const QFont font = labelFontFor(layout.columnLabelFont(), highlighted);
        const QString text = textOf(j, font);
        const double centre = place(j, text, highlighted).first;
        painter.setFont(font);
        if (angle == HeatmapLayout::kStackedLabels) {
            // A character a line, upright, the word's last just above the cells.
            // Kept inside the band, as the first and last columns' other labels are, where
            // columns are narrower than a character.
            const QString label = data.keyLabel(j);
            const qsizetype lines = label.size();
            for (qsizetype k = 0; k < lines; ++k) {
                const double middle = area.bottom() - (double(lines - k) - 0.5) * pitch;
                drawLine(painter, texts,
                         QRectF(centre - span / 2, middle - lineHeight / 2, span, lineHeight),
                         Qt::AlignCenter, QString(verticalForm(label[k])));
            }
            return;
        }
        if (angle == 0 ||
            layout.keepsLabelUpright(text, highlighted ? boldWidths(text) : widths(text))) {
            drawLine(painter, texts,
                     QRectF(centre - span / 2, area.bottom() - lineHeight, span, lineHeight),
                     Qt::AlignCenter, text);
            return;
        }
        painter.save();
        painter.translate(centre, area.bottom() - drop);
        painter.rotate(-angle);
        drawLine(painter, texts, QRectF(0, -lineHeight / 2, layout.labelElideWidth(), lineHeight),
                 Qt::AlignLeft | Qt::AlignVCenter, text);
        painter.restore();
    };
    SkippedHighlight skipped;
    const int hovered = style.highlightCol;
    if (hovered >= 0 && hovered < data.columns() && hovered % stride != 0) {
        const auto [centre, extent] =
            place(hovered, textOf(hovered, labelFontFor(layout.columnLabelFont(), true)), true);
        skipped = {hovered, centre, extent};
    }
    for (int j = 0; j < data.columns(); j += stride) {
        if (skipped.index >= 0 &&
            skipped.hides(j, place(j, textOf(j, layout.columnLabelFont()), false).first))
            continue;
        draw(j);
    }
    if (skipped.index >= 0)
        draw(skipped.index);
}

void paintTitles(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                 TextCache* texts)
{
    if (!layout.titleRect().isEmpty()) {
        painter.setFont(layout.titleFont());
        const QString title =
            QFontMetricsF(layout.titleFont(), painter.device())
                .elidedText(data.title, Qt::ElideRight, layout.titleRect().width());
        drawLine(painter, texts, layout.titleRect(), Qt::AlignCenter, title);
    }
    if (!layout.rowAxisTitleRect().isEmpty()) {
        QFont font = layout.labelFont();
        font.setItalic(true);
        painter.setFont(font);
        drawLine(painter, texts, layout.rowAxisTitleRect(), Qt::AlignRight | Qt::AlignVCenter,
                 rowAxisTitle());
        drawLine(painter, texts, layout.columnAxisTitleRect(), Qt::AlignLeft | Qt::AlignVCenter,
                 columnAxisTitle());
    }
}

// 256 bands from vmin at the bottom to vmax at the top, framed, with two ticks.
void paintColorbar(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style,
                   TextCache* texts)
{
    const QRectF bar = layout.colorbarRect();
    if (bar.isEmpty())
        return;
    const Colormap colormap(style.colormap);
    const double band = bar.height() / Colormap::size;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int k = 0; k < Colormap::size; ++k) {
        const double overlap = k + 1 < Colormap::size ? band / 2 : 0;
        painter.fillRect(QRectF(bar.left(), bar.bottom() - (k + 1) * band - overlap, bar.width(),
                                band + overlap),
                         QColor::fromRgb(colormap.entry(k)));
    }
    const double unit = lineUnit(layout);
    const double tick = layout.lineHeight() / 4;
    painter.setPen(QPen(style.textColor, unit, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.drawLine(QLineF(bar.right(), bar.top(), bar.right() + tick, bar.top()));
    painter.drawLine(QLineF(bar.right(), bar.bottom(), bar.right() + tick, bar.bottom()));
    // On a logarithmic scale a shorter tick at each power of ten between the ends, so
    // that the equal steps of the decades show.
    if (style.logScale && style.vmin > 0 && style.vmax > style.vmin) {
        const double low = std::log10(style.vmin), high = std::log10(style.vmax);
        for (double decade = std::floor(low) + 1; decade < high; ++decade) {
            const double y = bar.bottom() - (decade - low) / (high - low) * bar.height();
            painter.drawLine(QLineF(bar.right(), y, bar.right() + tick / 2, y));
        }
    }
    painter.setFont(layout.labelFont());
    drawLine(painter, texts, layout.colorbarMaxLabelRect(), Qt::AlignLeft | Qt::AlignTop,
             tickText(style.vmax));
    drawLine(painter, texts, layout.colorbarMinLabelRect(), Qt::AlignLeft | Qt::AlignBottom,
             tickText(style.vmin));
    painter.restore();
}

} // namespace

double fullValueCell(const QFont& labelFont, const QPaintDevice* device)
{
    // The widest value printed (a signed one of a step's matrix) in 85 % of the cell's
    // width, and a line in its height.
    const QFontMetricsF metrics = detail::fontMetrics(labelFont, device);
    return std::max(metrics.horizontalAdvance(QLocale().toString(-0.99, 'f', 2)) / 0.85,
                    1.2 * metrics.height());
}

double minimumValueCell(const QFont& labelFont, const QPaintDevice* device)
{
    return kMinValueScale * fullValueCell(labelFont, device);
}

double logScaleFloor(double vmax, int keys)
{
    const int decades = std::clamp(int(std::ceil(std::log10(std::max(keys, 1)))) + 1, 2, 6);
    return vmax * std::pow(10.0, -decades);
}

void paintHeatmap(QPainter& painter, const QRectF& target, const HeatmapData& data,
                  const HeatmapStyle& style)
{
    paintHeatmap(painter, HeatmapLayout(target, data, style, painter.device()), data, style);
}

void paintHeatmap(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                  const HeatmapStyle& style, CellImageCache* cache, TextCache* texts)
{
    Q_ASSERT(data.masked.size() == 0 || (data.masked.rows() == data.weights.rows() &&
                                         data.masked.cols() == data.weights.cols()));
    painter.save();
    painter.setPen(style.textColor);
    paintTitles(painter, layout, data, texts);
    if (layout.rows() > 0 && layout.columns() > 0 && layout.cellSize() > 0) {
        paintCells(painter, layout, data, style, cache);
        paintAnnotations(painter, layout, data, style, texts);
        paintHighlight(painter, layout, style);
        painter.setPen(style.textColor);
        paintRowLabels(painter, layout, data, style, texts);
        paintColumnLabels(painter, layout, data, style, texts);
        paintColorbar(painter, layout, style, texts);
        paintMarginSums(painter, layout, style);
    }
    painter.restore();
}

} // namespace attn::ui
