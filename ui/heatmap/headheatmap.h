// One head of a result as a heatmap: its weights, scores and mask shared with the result,
// its token labels and title, and the colour range of the weights. What the grid, the
// figures and the lab draw; no widget.
#pragma once

#include "engine/engine.h"
#include "heatmapdata.h"

#include <QStringList>

#include <utility>
#include <vector>

namespace attn::ui {

// The token labels of sequence b: rows are the queries' tokens, columns the keys'.
struct HeatmapLabels {
    QStringList queries;
    QStringList keys;
};
[[nodiscard]] HeatmapLabels heatmapLabels(const Result& result, int b);

// The heatmap of head h of sequence b (h = -1: the mean over heads, which for a single
// head is that head), titled and labelled with the tokens.
[[nodiscard]] HeatmapData headHeatmap(const Result& result, int b, int h);
// The same with labels made before (shared by every head of a sequence) and, for h = -1,
// the mean over heads when the caller has it already (overviewOfHeads).
[[nodiscard]] HeatmapData headHeatmap(const Result& result, int b, int h,
                                      const HeatmapLabels& labels, SharedWeights mean = {});

// The colour range [0, max] of the weights of sequence b: over all heads, or of head h.
[[nodiscard]] std::pair<double, double> weightRange(const Result& result, int b, int h,
                                                    bool shared);
// The same from the heads' finiteMaxima(), taken once for every heatmap of a sequence.
[[nodiscard]] std::pair<double, double> weightRange(const std::vector<float>& maxima, int h,
                                                    bool shared);
// The colour scale of a heatmap of weights in `style`: weightRange()'s, or with `log` from
// logScaleFloor() for rows of `keys` weights up to the same maximum.
void setWeightScale(HeatmapStyle& style, const std::vector<float>& maxima, int h, bool shared,
                    bool log, int keys);

} // namespace attn::ui
