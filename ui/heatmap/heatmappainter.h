// One attention head's T×T weight matrix drawn with a plain QPainter, so that the
// widget on screen and the PNG/SVG/PDF export paint the same figure.
#pragma once

#include "cellimage.h"
#include "heatmapdata.h"
#include "heatmaplayout.h"
#include "textcache.h"

#include <QChar>
#include <QFont>
#include <QRectF>

class QPainter;
class QPaintDevice;

namespace attn::ui {

// Values in cells (style.annotate): the smallest cell in which a weight is printed at
// least kMinValueScale of `labelFont`'s size (smaller cells print none), and the cell in
// which it is printed at the label font's own size, on `device` (nullptr: the screen).
inline constexpr double kMinValueScale = 0.75;
[[nodiscard]] double minimumValueCell(const QFont& labelFont, const QPaintDevice* device = nullptr);
[[nodiscard]] double fullValueCell(const QFont& labelFont, const QPaintDevice* device = nullptr);

// Paints `data` into `target`. Raster targets draw cells below ~3 device pixels as one
// scaled image; vector targets (and style.vectorCells) always draw one rectangle per cell.
void paintHeatmap(QPainter& painter, const QRectF& target, const HeatmapData& data,
                  const HeatmapStyle& style);
// The same, with a layout computed before (e.g. kept by a widget for hit testing), the
// cell image kept in `cache` and the lines of text in `texts` between paints when given.
void paintHeatmap(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                  const HeatmapStyle& style, CellImageCache* cache = nullptr,
                  TextCache* texts = nullptr);

// A character of a stacked key label as vertical text sets it: CJK punctuation and
// brackets by their vertical presentation forms (，→ ︐, 。→ ︒, （ → ︵, 《 → ︽), which put
// a comma or full stop in the upper right of its square and turn a bracket to open
// downwards; every other character as it is.
[[nodiscard]] QChar verticalForm(QChar c);

} // namespace attn::ui
