// The margin sums of a heatmap: each row's sum as a bar right of the cells and each
// column's below them, with a reference line at 1 and the values printed. A softmax over
// the keys (dim=-1) makes every row sum 1, over the queries (dim=-2) every column, over
// the batch (dim=0 of a (B, T, T) tensor, the tutorials' exercise) neither: the red bars
// show at a glance which sums stopped being 1. The layout places the strips
// (heatmappainter.cpp); heatmapsums.cpp places each bar and value in them.
#pragma once

#include "heatmappainter.h"

#include <QRgb>
#include <QString>

class QPainter;

namespace attn::ui {

inline constexpr QRgb heatmapSumBar = 0xff78909c;   // a neutral blue grey…
inline constexpr QRgb heatmapSumAlert = 0xffd32f2f; // …and red where a sum is not 1

// True when `sum` is 1 within attn::kSumTolerance, as the statistics count it.
[[nodiscard]] bool isUnitSum(double sum);

// The sum as printed: 2 decimals ("1.00"), 3 when 2 would round a sum that is not 1 to
// "1.00"; "NaN", "+inf" and "-inf" spelled out.
[[nodiscard]] QString marginSumText(double sum);

// "Σ row" and "Σ column", translated: the titles of the two strips.
[[nodiscard]] QString rowSumTitle();
[[nodiscard]] QString columnSumTitle();

// Draws the sums' titles, bars, reference lines and values where `layout` put them;
// nothing when the layout has no margin sums.
void paintMarginSums(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style);

} // namespace attn::ui
