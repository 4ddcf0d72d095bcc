// What the step-by-step tiles of the 2017 formula (pipelinetiles.cpp) and those of today's
// models (pipelinetodays.cpp) share: labels, the diverging style and a tile's heatmap.
#pragma once

#include "engine/engine.h"
#include "heatmapdata.h"
#include "sharedmatrix.h"

#include <QString>
#include <QStringList>

namespace attn::ui::tileparts {

// A number in a formula: "0.25", "16", "0.125".
[[nodiscard]] QString number(double value);
// Sequence b's tokens.
[[nodiscard]] QStringList tokenLabels(const TokenBatch& batch, int b);
// The rows of Q_h (keys = false), or of K_h and V_h (keys = true; the second text's tokens
// in cross-attention): the tokens, or with head split "view" the piece of a token each row
// holds, "喜欢[16:32]".
[[nodiscard]] QStringList headRowLabels(const Result& result, int b, int h, bool keys = false);
// The largest |x| over the finite cells; 1 when there is none.
[[nodiscard]] double largestMagnitude(const Matrix& values);
// Signed values: blue below 0, white at 0, red above, from −largest to +largest.
[[nodiscard]] HeatmapStyle divergingStyle(double largest);
[[nodiscard]] HeatmapStyle divergingStyle(const Matrix& values);
// `values` with the `masked` cells hatched (none when empty), rows and columns labelled.
[[nodiscard]] HeatmapData heatmapOf(const SharedWeights& values, const MaskMatrix& masked,
                                    const QStringList& rows, const QStringList& columns);

} // namespace attn::ui::tileparts
