// What one heatmap shows (HeatmapData: the weights, scores, mask and labels of one head)
// and how it is coloured (HeatmapStyle): shared by the widgets, the figures and the lab.
#pragma once

#include "base/tensor.h"
#include "colormap.h"
#include "engine/softmax.h"
#include "sharedmatrix.h"

#include <QColor>
#include <QFont>
#include <QRgb>
#include <QString>
#include <QStringList>

#include <optional>

namespace attn::ui {

// One heatmap. Row i is query token i, column j is key token j.
struct HeatmapData {
    // Shared with the result they come from, not copied (see SharedMatrix).
    SharedWeights weights; // (T_q, T_k) P, the softmax output
    SharedWeights scores;  // (T_q, T_k) S = Q_h K_hᵀ, or empty (e.g. mean over heads)
    SharedMask masked;     // (T_q, T_k) true where the mask hides key j from query i, or empty
    // How S becomes L (scaling, τ, the fill before the softmax), when the scores are given:
    // a hover shows L without a stored copy of it.
    std::optional<LogitRule> logitRule;
    // S's masked cells are not computed yet (Result::scoresPending(): the heatmaps come
    // before the statistics): a hover leaves their score out until the complete result.
    bool maskedScoresPending = false;
    QStringList queryLabels; // T_q tokens; a missing one is shown as its index
    QStringList keyLabels;   // T_k tokens
    QString title;

    [[nodiscard]] int rows() const { return static_cast<int>(weights.rows()); }
    [[nodiscard]] int columns() const { return static_cast<int>(weights.cols()); }
    [[nodiscard]] bool isMasked(int row, int column) const
    {
        return masked.size() != 0 && masked(row, column);
    }
    // The cell's score S, when the scores are given and it is computed.
    [[nodiscard]] std::optional<float> score(int row, int column) const
    {
        if (row >= scores.rows() || column >= scores.cols() ||
            (maskedScoresPending && isMasked(row, column)))
            return std::nullopt;
        return scores(row, column);
    }
    // The cell's logit L, when the scores and the rule are given. A masked cell's fill
    // needs no score.
    [[nodiscard]] std::optional<float> logit(int row, int column) const
    {
        if (!logitRule || row >= scores.rows() || column >= scores.cols())
            return std::nullopt;
        if (isMasked(row, column) && logitRule->fill)
            return *logitRule->fill;
        return (*logitRule)(scores(row, column), false, row, column);
    }
    [[nodiscard]] QString queryLabel(int row) const;
    [[nodiscard]] QString keyLabel(int column) const;
};

struct HeatmapStyle {
    ColormapName colormap = ColormapName::Viridis;
    double vmin = 0.0;        // drawn with the first colour; Diverging wants vmin = −vmax
    double vmax = 1.0;        // drawn with the last colour
    bool logScale = false;    // colours by log10 of the weight from vmin (> 0) up to vmax
    bool annotate = false;    // print each weight (2 decimals) in cells that hold it readably
    bool colorbar = true;     // the scale with its vmin and vmax ticks, right of the cells
    bool axisTitles = true;   // "query ↓" over the row labels, "key →" over the column labels
    bool vectorCells = false; // one rectangle per cell even when cells are below a pixel (SVG/PDF)
    bool marginSums = false;  // each row's sum right of the cells, each column's below them
    double maxCellSize = 0;   // > 0: a layout fitted to a rectangle makes no larger cells
    QFont labelFont;          // tokens, ticks and titles (CJK comes by font fallback)
    QColor textColor = Qt::black; // of the same; cell annotations pick black or white
    int highlightRow = -1;        // outlined row, or −1
    int highlightCol = -1;        // outlined column, or −1
};

// Colours that are never on a scale: masked cells, and NaN or ±inf weights.
inline constexpr QRgb heatmapMaskedFill = 0xffdddbd6;  // light neutral grey…
inline constexpr QRgb heatmapMaskedHatch = 0xffa9a69f; // …with a diagonal hatch
inline constexpr QRgb heatmapInvalidFill = 0xffff00ff; // magenta…
inline constexpr QRgb heatmapInvalidMark = 0xff200020; // …with × for NaN, + for +inf, − for −inf

// The bottom of a logarithmic colour scale up to `vmax` for rows of `keys` weights: a
// decade more below vmax than the uniform weight 1/keys lies (at least 2, at most 6
// decades), so that uniform attention shows in the lower part of the scale and stronger
// weights above it; weights below take the first colour.
[[nodiscard]] double logScaleFloor(double vmax, int keys);

} // namespace attn::ui
