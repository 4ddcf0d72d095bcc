// The cells of a heatmap as an image with level of detail, and the cache a widget keeps
// of it between paints.
#pragma once

#include "heatmapdata.h"

#include <QImage>
#include <QSize>

namespace attn::ui {

// The colormapped cells of a widget's last paint, so that a repaint for a hover
// highlight or a scroll does not colour every cell again (4 M cells at T = 2048). Kept
// for the same cells (the same matrices, unedited: the widget clears it when its data
// changes), the same colormap and range, and the same size in device pixels.
struct CellImageCache {
    QImage image; // kept when cleared, so that the next image reuses its memory
    bool stale = true;
    QSize pixels; // the image's size: the grid's in device pixels, at most a pixel per cell
    const float* weights = nullptr;
    const bool* masked = nullptr;
    ColormapName colormap = ColormapName::Viridis;
    double vmin = 0;
    double vmax = 0;
    bool logScale = false;
    int renders = 0; // how many times the image was made, for tests

    void clear()
    {
        stale = true;
        weights = nullptr;
    }
};

// The cells as an image, one pixel per cell; when the matrix has more cells than
// `maxSize` has pixels, one pixel per block of cells showing the block's largest weight,
// so that peaks stay visible (level of detail). NaN or ±inf anywhere in a block shows
// as invalid; a block is drawn masked only when all its cells are.
// `reuse`, when of the same size and held by nobody else, is written into instead of
// new memory (a fresh image costs a page fault per 4 KiB).
[[nodiscard]] QImage cellImage(const HeatmapData& data, const HeatmapStyle& style,
                               QSize maxSize = {}, QImage reuse = {});

} // namespace attn::ui
