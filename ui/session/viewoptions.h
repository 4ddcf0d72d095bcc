// How the heatmaps are drawn: kept in the settings and in session files, read by the grid
// and the figures.
#pragma once

#include "colormap.h"

namespace attn::ui {

// How the heatmaps are drawn; not part of the numbers.
struct ViewOptions {
    ColormapName colormap = ColormapName::Viridis;
    bool sharedScale = true; // one colour scale for all heads, else one per head
    bool annotate = true;    // print values in cells that are large enough
    int sequence = 0;        // which sequence of the batch the heatmaps show
    bool marginSums = false; // each row's and column's sum beside the cells
    bool logScale = false;   // colours by the weights' logarithm (long sentences, causal masks)
    bool operator==(const ViewOptions&) const = default;
};

} // namespace attn::ui
