// Step by step drawn without a widget: one tile under its title, formula and shape
// (placeTile, paintTile), the tiles left to right in wrapped lines with an arrow between
// neighbours (flowTiles, paintArrows), and the strip with the arithmetic of the outlined
// cell as a figure file (pipelineFigureBytes). The widgets on screen, PipelineTile and
// PipelineStrip, draw with the same functions, so screen and file look the same.
#pragma once

#include "cellimage.h"
#include "figureformat.h"
#include "heatmaplayout.h"
#include "pipelinetiles.h"
#include "textcache.h"

#include <QByteArray>
#include <QFont>
#include <QPalette>
#include <QPoint>
#include <QRect>
#include <QRectF>
#include <QSize>
#include <QString>

#include <optional>
#include <vector>

class QColor;
class QPaintDevice;
class QPainter;

namespace attn::ui {

// Between tiles on a line (room for the arrow), and between lines.
inline constexpr int kTileColumnGap = 32;
inline constexpr int kTileLineGap = 18;

// Where the parts of one tile go, in the tile's coordinates.
struct TilePlacement {
    HeatmapLayout heatmap; // placed at the origin, painted at heatmapOrigin
    QPointF heatmapOrigin;
    QRectF title, formula, shape, note, axes;
    QSize size;

    // Where cell (row, column) is drawn.
    [[nodiscard]] QRectF cellRect(int row, int column) const;
};

// The style `tile`'s matrix is painted in: its own, with labels in `font`, text in
// `palette`'s, and row highlight.x(), column highlight.y() outlined (−1: none).
[[nodiscard]] HeatmapStyle paintedTileStyle(const StageTile& tile, const QFont& font,
                                            const QPalette& palette, QPoint highlight);

// `tile` laid out in `font` on `device` (nullptr: the screen), its matrix in `painted`
// (paintedTileStyle): the matrix at a cell size that shows every token label, the header
// wrapped at its width, what its axes are below it.
[[nodiscard]] TilePlacement placeTile(const StageTile& tile, const HeatmapStyle& painted,
                                      const QFont& font, const QPaintDevice* device);

// Paints `tile` as placed, at the painter's origin: a card in `palette`'s base colour
// (framed in the accent colour where a click explains a cell), the header, the matrix,
// the outlined block of columns; `focused` adds the keyboard's dashed frame. The caches,
// when given, are kept between paints.
void paintTile(QPainter& painter, const StageTile& tile, const TilePlacement& placement,
               const HeatmapStyle& painted, const QFont& font, const QPalette& palette,
               bool focused = false, CellImageCache* cache = nullptr, TextCache* texts = nullptr);

// Tiles of `sizes` left to right, wrapped into lines `width` wide.
struct TileFlow {
    std::vector<QRect> places; // each tile's
    int height = 0;            // of all the lines
};
[[nodiscard]] TileFlow flowTiles(const std::vector<QSize>& sizes, int width);

// An arrow from each place to the next one on the same line: the data flows along them.
void paintArrows(QPainter& painter, const std::vector<QRect>& places, const QColor& color);

// How the strip is drawn into a figure.
struct PipelineLook {
    QFont font;
    QPalette palette;
    const QPaintDevice* device = nullptr; // whose fonts are measured; nullptr: the screen
};

// `tiles` (numberedPipelineTiles) as a figure file for a handout, flowed `area.width()`
// wide and at least as large as `area`, with query i and key j outlined (pipelineHighlight):
// PNG at `pixelsPerPixel` image pixels a screen pixel, or SVG or PDF, on white;
// `appendixHtml` (the arithmetic of the outlined cell), if any, below it at the strip's
// width. Nothing, with a translated reason in `*error`, when there are no tiles, when it is
// larger than kMaxFigurePixels, or has too many cells for a vector file.
[[nodiscard]] std::optional<QByteArray>
pipelineFigureBytes(FigureFormat format, const std::vector<StageTile>& tiles, QSize area,
                    QPoint cell, const PipelineLook& look, double pixelsPerPixel, QString* error,
                    const QString& appendixHtml = {});

} // namespace attn::ui
