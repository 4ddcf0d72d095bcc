// The cells of a heatmap as paintHeatmap draws them: colours, hatch, marks, values in the
// cells and the outlined row and column (not part of the ui API).
#pragma once

#include "cellimage.h"
#include "heatmapdata.h"
#include "heatmaplayout.h"
#include "textcache.h"

class QPainter;

namespace attn::ui::detail {

// A pen width that scales with the text, so that exports at high resolution keep proportions.
[[nodiscard]] double lineUnit(const HeatmapLayout& layout);
// The cells: rectangles on a vector device, one image when below ~3 device pixels, else a
// scaled image with the hatch and marks drawn over it.
void paintCells(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                const HeatmapStyle& style, CellImageCache* cache);
// Each weight with 2 decimals, in black or white, whichever contrasts more with the cell.
void paintAnnotations(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                      const HeatmapStyle& style, TextCache* texts);
// The highlighted row and column outlined, white under black.
void paintHighlight(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style);

} // namespace attn::ui::detail
