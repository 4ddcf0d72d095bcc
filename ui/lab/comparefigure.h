// Two configurations of the same text compared: the heatmaps of A and B and of their
// difference B − A (diverging colours, symmetric around 0), each titled with its formula,
// and the figure of the three for slides and handouts (PNG, SVG, PDF).
#pragma once

#include "engine/engine.h"
#include "figurefile.h"
#include "heatmappainter.h"
#include "lab/comparison.h"

#include <QByteArray>
#include <QSize>
#include <QString>

#include <optional>

namespace attn::ui {

// One head (or the mean of the heads) of one sequence, of both sides and their difference.
struct Comparison {
    HeatmapData a;          // titled "A: softmax(…)·V"
    HeatmapData b;          // titled "B: softmax(…)·V"
    HeatmapData difference; // weights B − A, masked where either side is, titled "B − A …"
    WeightDifference stats; // the difference's largest magnitude and where it is
    double weightMax = 1;   // the colour range [0, weightMax] that A and B share
};

// The formula `config` computes in plain text, as FormulaBar draws it, e.g.
// "softmax(QKᵀ/√d_k + M, dim=-1)·V" or "softmax(QKᵀ/τ, dim=-2)·V  (τ = 0.5)";
// `hasPadding` says whether the text has <pad> tokens for a padding mask.
[[nodiscard]] QString formulaText(const Config& config, bool hasPadding);

// Whether some sequence of `tokens` is padded with <pad>.
[[nodiscard]] bool hasPadding(const TokenBatch& tokens);

// Whether `a` and `b` have their weights for the same text, seed and sizes, differing in
// formula switches only, so that B − A means something.
[[nodiscard]] bool comparable(const Result& a, const Result& b);

// The heatmaps of head `head` (−1: the mean of the heads) of sequence `sequence` of both
// results, which must be comparable(). The head and the sequence are clamped to the results'
// ranges.
[[nodiscard]] Comparison compareResults(const Result& a, const Result& b, int sequence, int head);

// Two heatmaps of one shape compared: `a` and `b` as they are, their difference B − A
// (masked where either is, titled as compareResults titles it) and the shared colour range.
// compareResults() and a language model's Compare A/B (modelcomparison.h) both make theirs
// here.
[[nodiscard]] Comparison compareHeatmaps(HeatmapData a, HeatmapData b);

// The colour style of each of the three heatmaps: A and B on [0, weightMax] in
// `colormap` (with `logScale` by the logarithm from logScaleFloor() up, as the main
// window's heatmaps), B − A on [−max|B − A|, +max|B − A|] in ColormapName::Diverging,
// always linear: a difference has signs.
[[nodiscard]] HeatmapStyle weightStyle(const Comparison& comparison, ColormapName colormap,
                                       bool logScale = false);
[[nodiscard]] HeatmapStyle differenceStyle(const Comparison& comparison);

// "largest |B − A| = 0.37 at query 它 (row 7), key 猫 (column 1): 0.52 in A, 0.15 in B",
// or that the two give the same weights; NaN cells are counted after it.
[[nodiscard]] QString differenceCaption(const Comparison& comparison);

// What cell (row, column) holds on each side, for the status line and the tooltips, e.g.
// "query 它 (row 7) → key 猫 (column 1): A 0.52 · B 0.15 · B − A −0.37".
[[nodiscard]] QString comparisonHoverText(const Comparison& comparison, int row, int column);

// The switches of one side as the caption lists them: "scaling … · axis … · mask … · τ …",
// with the mask stage and fill, the head split and the padding mask where they apply, and
// QK-norm, ALiBi, the soft-cap, the window and the sink where they are on.
[[nodiscard]] QString switchesCaption(const Config& config, bool hasPadding);

struct ComparisonOptions {
    int head = 0;     // h, or −1 for the mean of the heads
    int sequence = 0; // b, the line of the batch
    QString title;    // empty: no title line
    bool caption = true;
    bool annotate = false; // each weight printed in its cell (cells are made large enough)
    ColormapName colormap = ColormapName::Viridis; // of A and B; B − A is always Diverging
    bool logScale = false;                         // A and B by the logarithm; B − A linear
    double labelPointSize = 10;
    double scale = 2.0; // PNG pixels per point
    int dpi = 0;        // if > 0, overrides scale for PNG: pixels = points · dpi / 72
};

// The caption under the figure: what both sides share, then "A: …" and "B: …" with
// switchesCaption(), then differenceCaption(), one per line.
[[nodiscard]] QString comparisonCaption(const Result& a, const Result& b,
                                        const ComparisonOptions& options);

// The figure: A, B and B − A side by side, each tile wide enough for its title, with
// the caption below; laid out in points as figureLayout() lays out a head's figure.
// Empty unless the results are comparable() and `a` is valid() (complete).
[[nodiscard]] FigureLayout comparisonLayout(const Result& a, const Result& b,
                                            const ComparisonOptions& options);

// Lays out `comparison`'s three tiles (A, B, B − A) in one row in `figure`, whose title,
// caption and fonts are set: one cell size for `tokens` tokens, widened until every title
// shows whole, labels in `labelFont`, then arrangeFigure(). The labels must be printable
// (printableToken).
void arrangeComparison(FigureLayout& figure, const Comparison& comparison, const QFont& labelFont,
                       int tokens, const ComparisonOptions& options);

// The size of the PNG in pixels: the figure's size in points times scale (or dpi / 72).
[[nodiscard]] QSize comparisonPixelSize(const Result& a, const Result& b,
                                        const ComparisonOptions& options);

// The file's bytes in `format` (PNG, SVG or PDF); on failure nothing, with a translated
// one-line reason in `*error`.
[[nodiscard]] std::optional<QByteArray> comparisonBytes(FigureFormat format, const Result& a,
                                                        const Result& b,
                                                        const ComparisonOptions& options,
                                                        QString* error = nullptr);

// Writes comparisonBytes() to `path` atomically, as exportFigure() does. Returns an empty
// string on success, else a translated one-line reason.
[[nodiscard]] QString exportComparison(const QString& path, FigureFormat format, const Result& a,
                                       const Result& b, const ComparisonOptions& options);

} // namespace attn::ui
