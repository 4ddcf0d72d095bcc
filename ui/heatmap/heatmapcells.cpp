// The cells of a heatmap: as rectangles (vector devices), as one image (cells below a few
// device pixels) or as a scaled image with the hatch and marks over it; their values and
// the outlined row and column.
#include "heatmapcells.h"

#include "colormap.h"
#include "heatmappainter.h"
#include "heatmaptext.h"
#include "textcache.h"

#include <QImage>
#include <QLineF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn::ui::detail {
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

} // namespace

// A pen width that scales with the text, so that exports at high resolution keep proportions.
double lineUnit(const HeatmapLayout& layout)
{
    return std::max(0.5, layout.lineHeight() / 14);
}

namespace {

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

} // namespace

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

} // namespace attn::ui::detail
