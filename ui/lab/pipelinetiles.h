// What Step by step shows, as data: the stages of one head's pipeline — X, Q_h, K_h, V_h,
// S, L, the mask, P, O_h, the concatenation and the output — each a StageTile with its
// formula and its shape written as the tutorial prints it. No widget: the strip on screen
// (PipelineStrip) and the figure file (pipelinefigure.h) draw the same tiles.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H.
#pragma once

#include "colormap.h"
#include "engine/engine.h"
#include "heatmapdata.h"
#include "sharedmatrix.h"

#include <QList>
#include <QPoint>
#include <QString>
#include <QStringList>

#include <vector>

namespace attn::ui {

// The stages the strip shows, in the pipeline's order.
enum class PipelineStage {
    Input,   // X (B, T, C)
    Queries, // Q_h (B, H, T, d_k)
    Keys,    // K_h
    Values,  // V_h
    // Today's models' stage 4, each shown when its switch is on (Q_h and K_h then drawn
    // as split, before it):
    QueriesNormed,  // Q̂_h: QK-norm
    KeysNormed,     // K̂_h
    QueriesRotated, // R_i·Q_h: RoPE (of Q̂_h with QK-norm): the Q_h of S
    KeysRotated,    // R_j·K_h
    Scores,         // S = Q_h K_hᵀ (B, H, T, T)
    Logits,         // L = S·scale/τ, before any mask
    Alibi,          // ALiBi's bias −m_h·|i − j| of head h (T_q, T_k)
    Shifted,        // L after ALiBi's bias and the soft-cap c·tanh(L/c)
    Masked,         // what the softmax gets: L filled where M hides a key (or L as it is)
    Weights,        // P = softmax(…, dim=axis), masked after it when that stage is set
    Sink,           // the weight each row gave the sink (T_q, 1)
    HeadOutput,     // O_h = P·V_h (B, H, T, d_k)
    Concat,         // the heads side by side (B, T, C)
    Output,         // concat·W_oᵀ + b_o (B, T, C)
};

// One stage of sequence b and head h, ready to draw.
struct StageTile {
    PipelineStage stage = PipelineStage::Input;
    QString title;             // "Q_h — queries, head 1"
    QString formula;           // "Q = X·W_qᵀ + b_q → view(B, T, H, d_k).transpose(1, 2)"
    QString shape;             // "(B, H, T, d_k) = (2, 4, 6, 16)": the whole tensor
    QString note;              // which slice is drawn, the factor, the mask
    QString axes;              // "↓ token i   → feature k"
    SharedWeights values;      // the engine's matrix of this stage for b (and h), a copy
    HeatmapData heatmap;       // what is drawn: the values (masked cells hatched), the labels;
                               // its weights share `values` where nothing is hatched
    HeatmapStyle style;        // diverging around 0, or weightStyle() for the weights
    int blockFirstColumn = -1; // an outlined block of columns (head h in the concatenation)
    int blockColumns = 0;

    // Rows and columns are tokens (S, L, the mask and P): a click explains the cell.
    [[nodiscard]] bool explainsCells() const;
};

// "(B, T, C) = (2, 4, 16)". `names` and `sizes` have the same length.
[[nodiscard]] QString shapeLine(const QStringList& names, const QList<int>& sizes);

// The colours of the weights' tile: the main window's colormap and colour scale.
struct WeightColours {
    ColormapName colormap = ColormapName::Viridis;
    bool logScale = false;
    bool operator==(const WeightColours&) const = default;
};

// The style of the weights' tile: 0 to 1 in `colours` (by the logarithm from
// logScaleFloor(1, keys) with logScale), values printed in cells large enough.
[[nodiscard]] HeatmapStyle weightStyle(const WeightColours& colours, int keys);

// The tiles of sequence b and head h: every stage `result` has (the aggregation may be
// missing when the result stops after the softmax).
[[nodiscard]] std::vector<StageTile> pipelineTiles(const Result& result, int b, int h,
                                                   const WeightColours& colours = {});

// Each title numbered as the strip shows it: "3. K_h — keys".
void numberTiles(std::vector<StageTile>& tiles);

// The tiles of sequence b and head h, numbered (numberTiles).
[[nodiscard]] std::vector<StageTile> numberedPipelineTiles(const Result& result, int b, int h,
                                                           const WeightColours& colours = {});

// What a tile of `stage` outlines when query i and key j are chosen (x the row, y the
// column, −1 none): their row and column in S, L, the mask and P, q_i in Q_h, k_j in K_h
// and row i of O_h. (−1, −1) chooses none.
[[nodiscard]] QPoint pipelineHighlight(PipelineStage stage, int i, int j);

} // namespace attn::ui
