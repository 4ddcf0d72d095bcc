// Figures for slides and handouts: one head, every head as a grid, or their mean, with
// a title and a caption naming the configuration, laid out and painted; figurefile.h
// makes their files (PNG, SVG, PDF) and those of the numbers (CSV, NPY, JSON).
//
// A figure is laid out in points (1/72 inch): the label size is in points, an SVG or
// PDF page is as many points wide, and a PNG has scale (or dpi/72) pixels per point.
#pragma once

#include "colormap.h"
#include "engine/engine.h"
#include "figureencoding.h"
#include "heatmappainter.h"
#include "viewoptions.h"

#include <QFont>
#include <QImage>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>
#include <vector>

class QPainter;
class QPaintDevice;

namespace attn::ui {

// What a figure shows: one head, all heads as a grid (their mean as the last tile), or
// the mean of the heads.
enum class FigureWhat { Head, Grid, Mean };

// What to show, as the command line's --what spells it: "heads", "mean" or "head:N".
struct FigureSelection {
    FigureWhat what = FigureWhat::Grid;
    int head = 0; // for FigureWhat::Head
    bool operator==(const FigureSelection&) const = default;
};
[[nodiscard]] QString selectionSpelling(const FigureSelection& selection);
// The selection spelled `text`, or nothing (head numbers are not checked against H here).
[[nodiscard]] std::optional<FigureSelection> selectionFromSpelling(QStringView text);
// "heads|mean|head:N".
[[nodiscard]] QString allSelectionSpellings();

struct FigureOptions {
    FigureWhat what = FigureWhat::Grid;
    int head = 0;     // for FigureWhat::Head
    int sequence = 0; // b, the line of the batch
    QString title;    // empty: no title line
    bool caption = true;
    bool colorbar = true;
    bool annotate = false;   // each weight printed in its cell (cells are made large enough)
    bool marginSums = false; // each row's sum right of the cells, each column's below them
    ColormapName colormap = ColormapName::Viridis;
    bool sharedScale = true; // one colour range for all heads (one colorbar per grid row)
    bool logScale = false;   // colours by the weights' logarithm (heatmapgrid's setWeightScale)
    double labelPointSize = 10;
    double scale = 2.0; // PNG pixels per point (the device-pixel ratio)
    int dpi = 0;        // if > 0, overrides scale for PNG: pixels = points · dpi / 72
};

// The figure options that show what the window shows (all heads as a grid).
[[nodiscard]] FigureOptions figureOptions(const ViewOptions& view);

// One heatmap of a figure: painted by paintHeatmap(layout) with the painter moved to
// `origin`, so cell (i, j) covers layout.cellRect(i, j).translated(origin) in points.
struct FigureTile {
    HeatmapData data;
    HeatmapStyle style;
    HeatmapLayout layout;
    QPointF origin;
};

// The device every figure is measured on, so that its layout depends neither on the
// screen nor on the output format.
[[nodiscard]] const QPaintDevice* figureReferenceDevice();

// A figure's cell for `tokens` tokens in `tileCount` tiles: wide enough that a handful of
// tokens fill a slide and every label shows, yet a long sentence stays on the page;
// annotated cells hold a printed weight.
[[nodiscard]] double figureCellSize(int tokens, int tileCount, double labelPointSize,
                                    bool annotate);

// A figure's cell for a sentence of `tokens` tokens, `cell` by its size alone: a short
// sentence's (up to 24 tokens) is widened until every key label of `tile` lies across its
// column, as long as that takes at most 3.5 label heights (a three-character Chinese
// word). A label leaning among upright ones reads as part of its neighbour — 因为
// leaning over an upright 它 reads 因为它 — which misleads a lesson about tokens.
[[nodiscard]] double cellWithLabelsAcross(double cell, int tokens, const FigureTile& tile,
                                          double labelPointSize);

// Where everything of a figure goes, in points, the figure's top left corner at (0, 0).
struct FigureLayout {
    QSizeF size; // whole points
    QString title;
    QFont titleFont;
    QRectF titleRect; // empty without a title
    QString caption;
    QFont captionFont;
    QRectF captionRect; // empty without a caption
    std::vector<FigureTile> tiles;
};

// Lays a figure out around its body, the tiles in a block `block` points large with their
// origins relative to the block's top left corner: figure.title (in titleFont) above,
// figure.caption (in captionFont, one part a line, wrapped) below, both widening the figure
// up to a readable line, the block centred between them, all within a margin. Sets the
// title's and caption's rectangles, moves the tiles into place and sets the size. Every
// figure of heatmaps (a head's, the grid's, Compare's) is laid out by it; a body of its own
// (the model figure's thumbnails) goes to `*blockOrigin`, the block's top left corner.
void arrangeFigure(FigureLayout& figure, QSizeF block, double labelPointSize,
                   QPointF* blockOrigin = nullptr);

// The caption: "d_model 64 · heads 4 · d_k 16 · seed 42 · scaling … · axis … · mask … · τ 1.00",
// translated, with the non-default switches (a mask after the softmax, the view-only head
// split, …) and the sequence appended when they apply.
[[nodiscard]] QString figureCaption(const Result& result, int sequence);

// The layout of the figure of `result` (which must be valid()).
[[nodiscard]] FigureLayout figureLayout(const Result& result, const FigureOptions& options);

// The size of the figure in points.
[[nodiscard]] QSizeF figureSize(const Result& result, const FigureOptions& options);

// The size of the PNG in pixels: the figure size times scale, or times dpi / 72.
[[nodiscard]] QSize figurePixelSize(const Result& result, const FigureOptions& options);

// Paints the figure on a white background, scaled to fit `target` and centred in it.
void paintFigure(QPainter& painter, const QRectF& target, const Result& result,
                 const FigureOptions& options);
// The same, laid out before.
void paintFigure(QPainter& painter, const QRectF& target, const FigureLayout& layout);

// The font families of a figure's text, tried in order for each character: the Latin sans
// found on this system first, then Simplified Chinese ones. Needs a QGuiApplication.
[[nodiscard]] const QStringList& figureFontFamilies();

// A figure's font of `points` points (bold for titles), measured alike on every device.
[[nodiscard]] QFont figureFont(double points, bool bold = false);
// `token` as a figure prints it: control characters as their pictures (␁), characters an
// SVG may not hold left out.
[[nodiscard]] QString printableToken(const QString& token);

// The figure as a document for the encoders: its size, its title (or "Attention weights"),
// its caption as the description, and its painting. It refers to `layout`, which must
// outlive it.
[[nodiscard]] FigureDocument figureDocument(const FigureLayout& layout);

// The figure as a raster image of figurePixelSize(), its device-pixel ratio and dots per
// metre set so a saved PNG carries its DPI. Null when the size is beyond kMaxFigurePixels.
[[nodiscard]] QImage renderFigureImage(const Result& result, const FigureOptions& options);
// The same for a figure laid out before, with `pixelsPerPoint` pixels per point.
[[nodiscard]] QImage renderFigureImage(const FigureLayout& layout, double pixelsPerPoint);

} // namespace attn::ui
