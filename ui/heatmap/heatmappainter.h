// One attention head's T×T weight matrix drawn with a plain QPainter, so that the
// widget on screen and the PNG/SVG/PDF export paint the same figure.
#pragma once

#include "colormap.h"
#include "sharedmatrix.h"
#include "softmax.h"
#include "tensor.h"

#include <QColor>
#include <QFont>
#include <QHash>
#include <QImage>
#include <QPoint>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QTextLayout>

#include <memory>
#include <optional>
#include <vector>

class QPainter;
class QPaintDevice;

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
    // S's masked cells are not computed yet (Result::maskedScoresPending: the heatmaps come
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
        return (*logitRule)(scores(row, column), false);
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

// Where everything of one heatmap goes inside a target rectangle: title, axis titles,
// labels (rotated 45° or 90° when they do not fit across a column), square cells
// centred in what is left, the margin sums, and the colorbar.
class HeatmapLayout {
public:
    HeatmapLayout() = default;
    // `device` supplies the font metrics; nullptr means the screen's.
    HeatmapLayout(const QRectF& target, const HeatmapData& data, const HeatmapStyle& style,
                  const QPaintDevice* device = nullptr);

    // The layout whose cells are exactly `cellSize` wide, placed at the origin.
    [[nodiscard]] static HeatmapLayout forCellSize(const HeatmapData& data,
                                                   const HeatmapStyle& style, double cellSize,
                                                   const QPaintDevice* device = nullptr);
    // The same with cells `cell.width()` wide and `cell.height()` tall: a matrix of a few
    // tokens by hundreds of features keeps a readable height per token.
    [[nodiscard]] static HeatmapLayout forCellSize(const HeatmapData& data,
                                                   const HeatmapStyle& style, QSizeF cell,
                                                   const QPaintDevice* device = nullptr);
    // The smallest cell in which every key label (elided as drawn) lies across its column.
    [[nodiscard]] static double cellForLabelsAcross(const HeatmapData& data,
                                                    const HeatmapStyle& style,
                                                    const QPaintDevice* device = nullptr);

    [[nodiscard]] int rows() const { return rows_; }
    [[nodiscard]] int columns() const { return columns_; }
    // A cell's width, and its height: the same but in a layout of forCellSize(QSizeF).
    [[nodiscard]] double cellSize() const { return cell_; }
    [[nodiscard]] double rowHeight() const { return rowHeight_; }
    [[nodiscard]] QRectF boundingRect() const { return bounds_; }
    [[nodiscard]] QRectF gridRect() const;
    [[nodiscard]] QRectF cellRect(int row, int column) const;
    // The cell under `pos` as QPoint(row i, column j) — x() is the row — or nothing.
    [[nodiscard]] std::optional<QPoint> cellAt(const QPointF& pos) const;

    [[nodiscard]] QRectF titleRect() const { return titleRect_; }
    [[nodiscard]] QRectF rowAxisTitleRect() const { return rowAxisTitleRect_; }
    [[nodiscard]] QRectF columnAxisTitleRect() const { return columnAxisTitleRect_; }
    [[nodiscard]] QRectF rowLabelArea() const { return rowLabelArea_; }
    [[nodiscard]] QRectF columnLabelArea() const { return columnLabelArea_; }
    [[nodiscard]] QRectF colorbarRect() const { return colorbarRect_; }
    [[nodiscard]] QRectF colorbarMaxLabelRect() const { return colorbarMaxLabelRect_; }
    [[nodiscard]] QRectF colorbarMinLabelRect() const { return colorbarMinLabelRect_; }

    // The key labels' angle: 0 across their columns, 45 leaning, 90 standing, or
    // kStackedLabels: Chinese, Japanese or Korean words of up to kMaxStackedCharacters
    // characters written top to bottom, each character upright on its own line, as such
    // signs and spines are written. Among narrow columns this keeps every word within its
    // own column, where a word leaning at 45° reaches over its neighbours' and reads as one
    // with them (因为 leaning over 它 read 因为它); in columns narrower than a character,
    // every n-th word stacked stands in for every n-th turned on its side.
    [[nodiscard]] int columnLabelAngle() const { return columnLabelAngle_; }
    static constexpr int kStackedLabels = -90;
    static constexpr int kMaxStackedCharacters = 4;
    // How far apart stacked characters are: one em, no leading, so that a word's
    // characters stand closer to each other than to the next column's.
    [[nodiscard]] double stackedPitch() const { return stackedPitch_; }
    // Every n-th token label is shown, n as small as lets neighbours clear each other (1:
    // every token), in the token fonts below; an axis of indices (no labels given) counts
    // in 1, 2, 5, 10, 20…
    [[nodiscard]] int rowLabelStride() const { return rowLabelStride_; }
    [[nodiscard]] int columnLabelStride() const { return columnLabelStride_; }
    // The fonts the token labels are drawn in: labelFont(), or where rows (columns) are
    // narrower than its line, smaller down to kMinLabelScale of it, so that more tokens
    // fit; and their line heights.
    [[nodiscard]] QFont rowLabelFont() const { return rowLabelFont_; }
    [[nodiscard]] QFont columnLabelFont() const { return columnLabelFont_; }
    [[nodiscard]] double rowLabelLineHeight() const { return lineHeight_ * rowLabelScale_; }
    [[nodiscard]] double columnLabelLineHeight() const { return lineHeight_ * columnLabelScale_; }
    static constexpr double kMinLabelScale = 0.8;
    // The smallest cell in which every token label shows (stride 1 on both axes at the
    // smallest token font), whatever the angle of the key labels.
    [[nodiscard]] static double cellForEveryLabel(const HeatmapStyle& style,
                                                  const QPaintDevice* device = nullptr);
    [[nodiscard]] double labelElideWidth() const { return labelElideWidth_; }
    [[nodiscard]] QFont labelFont() const { return labelFont_; }
    [[nodiscard]] QFont titleFont() const { return titleFont_; }
    [[nodiscard]] double lineHeight() const { return lineHeight_; }
    // Whether a key label stands upright although the others lean or stand: one character
    // (one grapheme) no wider than a line's height and its column, such as "I" (which at
    // 45° reads as a backslash), "." or one Chinese character.
    [[nodiscard]] bool keepsLabelUpright(const QString& text, double textWidth) const;

    // Margin sums (style.marginSums), else empty: a strip of bars right of the cells, one
    // per row, and one below them, one per column. The sums are taken from the weights
    // drawn, so that they agree with the cells whichever matrix a tile shows (the mean of
    // the heads has no statistics of its own) and before the statistics stage is done.
    [[nodiscard]] const std::vector<double>& rowSums() const { return rowSums_; }       // (T_q)
    [[nodiscard]] const std::vector<double>& columnSums() const { return columnSums_; } // (T_k)
    [[nodiscard]] QRectF rowSumArea() const { return rowSumArea_; }
    [[nodiscard]] QRectF columnSumArea() const { return columnSumArea_; }
    [[nodiscard]] QRectF rowSumTitleRect() const { return rowSumTitleRect_; }
    [[nodiscard]] QRectF columnSumTitleRect() const { return columnSumTitleRect_; }
    // Where bar i (or j) may reach: its full length and thickness. A sum of
    // max(1, largest sum) fills it.
    [[nodiscard]] QRectF rowSumBarSlot(int row) const;
    [[nodiscard]] QRectF columnSumBarSlot(int column) const;
    // Where a sum's value is printed; for upright values the rotated text's bounds.
    [[nodiscard]] QRectF rowSumValueRect(int row) const;
    [[nodiscard]] QRectF columnSumValueRect(int column) const;
    // Column sums' values lie across (0) or stand upright (90); −1: cells too small, no
    // values (rows' values show whenever the columns' do).
    [[nodiscard]] int sumValueAngle() const { return sumValueAngle_; }
    [[nodiscard]] QFont sumValueFont() const { return sumValueFont_; }

private:
    struct Metrics;
    struct Margins {
        double left = 0, top = 0, right = 0, bottom = 0;
    };

    HeatmapLayout(const Metrics& metrics, const HeatmapData& data, const HeatmapStyle& style);
    [[nodiscard]] Margins margins(const Metrics& metrics, int angle, int sumAngle,
                                  double cell) const;
    [[nodiscard]] bool columnLabelsFit(const Metrics& metrics, int angle, double cell) const;
    void place(const Metrics& metrics, const QRectF& target, const Margins& margins, int angle,
               int sumAngle);
    [[nodiscard]] double sumBarThickness() const;

    int rows_ = 0;
    int columns_ = 0;
    double cell_ = 0;
    QPointF gridOrigin_;
    QRectF bounds_;
    QRectF titleRect_;
    QRectF rowAxisTitleRect_;
    QRectF columnAxisTitleRect_;
    QRectF rowLabelArea_;
    QRectF columnLabelArea_;
    QRectF colorbarRect_;
    QRectF colorbarMaxLabelRect_;
    QRectF colorbarMinLabelRect_;
    std::vector<double> rowSums_;
    std::vector<double> columnSums_;
    QRectF rowSumArea_;
    QRectF columnSumArea_;
    QRectF rowSumTitleRect_;
    QRectF columnSumTitleRect_;
    double sumBarLength_ = 0;
    double sumValueWidth_ = 0; // the widest column sum as printed
    double sumValueHeight_ = 0;
    int sumValueAngle_ = -1;
    QFont sumValueFont_;
    int columnLabelAngle_ = 0;
    double stackedPitch_ = 0;
    double rowHeight_ = 0;
    int rowLabelStride_ = 1;
    int columnLabelStride_ = 1;
    double rowLabelScale_ = 1;
    double columnLabelScale_ = 1;
    QFont rowLabelFont_;
    QFont columnLabelFont_;
    double labelElideWidth_ = 0;
    double lineHeight_ = 0;
    bool hasTitle_ = false;
    bool hasColorbar_ = false;
    bool hasAxisTitles_ = false;
    bool hasSums_ = false;
    QFont labelFont_;
    QFont titleFont_;
};

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

// Lines of text laid out once and drawn again: the labels, titles and ticks of a widget
// that repaints the same heatmap for every hover, scroll and switch of the formula.
// QPainter::drawText lays its text out and shapes it anew on every call (two thirds of a
// tile's repaint at T = 2048); a QTextLayout laid out once keeps its glyphs, and draws
// the same pixels. Raster painters only: paintHeatmap draws plain drawText on a vector
// device (SVG, PDF) and without a cache.
class TextCache {
public:
    // `text` in the painter's font and pen, placed as painter.drawText(rect, flags, text)
    // places one line (flags: alignment), and clipped to `rect` as drawText clips text that
    // overflows it.
    void draw(QPainter& painter, const QRectF& rect, int flags, const QString& text);
    // The lines kept, over every font, for tests.
    [[nodiscard]] int size() const;

private:
    struct FontLines {
        QFont font;
        int dpi = 0;
        QHash<QString, std::shared_ptr<QTextLayout>> lines;
    };
    // A few fonts (labels, bold labels, titles, italic axis titles, values in cells) of
    // at most kLinesPerFont lines each: values in cells change with every switch.
    static constexpr int kFonts = 8;
    static constexpr int kLinesPerFont = 4096;
    std::vector<FontLines> fonts_;
};

// Whether a layout made for (a, aStyle) is also the layout of (b, bStyle): the same shape,
// labels, title and parts, and colorbar ticks printed alike. A switch of the formula keeps
// all of these, so a widget need not measure 2·T labels again (the fonts are the widget's).
[[nodiscard]] bool sameLayout(const HeatmapData& a, const HeatmapStyle& aStyle,
                              const HeatmapData& b, const HeatmapStyle& bStyle);
// The same with the shapes (columns × rows of cells) given: a view that let go of its
// matrices (HeatmapView::letGo) remembers theirs.
[[nodiscard]] bool sameLayout(const HeatmapData& a, QSize aCells, const HeatmapStyle& aStyle,
                              const HeatmapData& b, QSize bCells, const HeatmapStyle& bStyle);

// Values in cells (style.annotate): the smallest cell in which a weight is printed at
// least kMinValueScale of `labelFont`'s size (smaller cells print none), and the cell in
// which it is printed at the label font's own size, on `device` (nullptr: the screen).
inline constexpr double kMinValueScale = 0.75;
[[nodiscard]] double minimumValueCell(const QFont& labelFont, const QPaintDevice* device = nullptr);
[[nodiscard]] double fullValueCell(const QFont& labelFont, const QPaintDevice* device = nullptr);

// Paints `data` into `target`. Raster targets draw cells below ~3 device pixels as one
// scaled image; vector targets (and style.vectorCells) always draw one rectangle per cell.
void paintHeatmap(QPainter& painter, const QRectF& target, const HeatmapData& data,
                  const HeatmapStyle& style);
// The same, with a layout computed before (e.g. kept by a widget for hit testing), the
// cell image kept in `cache` and the lines of text in `texts` between paints when given.
void paintHeatmap(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                  const HeatmapStyle& style, CellImageCache* cache = nullptr,
                  TextCache* texts = nullptr);

// A character of a stacked key label as vertical text sets it: CJK punctuation and
// brackets by their vertical presentation forms (，→ ︐, 。→ ︒, （ → ︵, 《 → ︽), which put
// a comma or full stop in the upper right of its square and turn a bracket to open
// downwards; every other character as it is.
[[nodiscard]] QChar verticalForm(QChar c);

// The cells as an image, one pixel per cell; when the matrix has more cells than
// `maxSize` has pixels, one pixel per block of cells showing the block's largest weight,
// so that peaks stay visible (level of detail). NaN or ±inf anywhere in a block shows
// as invalid; a block is drawn masked only when all its cells are.
// `reuse`, when of the same size and held by nobody else, is written into instead of
// new memory (a fresh image costs a page fault per 4 KiB).
[[nodiscard]] QImage cellImage(const HeatmapData& data, const HeatmapStyle& style,
                               QSize maxSize = {}, QImage reuse = {});

// The size of the whole figure when each cell is `cellSize` wide, for export.
[[nodiscard]] QSizeF preferredSize(const HeatmapData& data, const HeatmapStyle& style,
                                   double cellSize);

} // namespace attn::ui
