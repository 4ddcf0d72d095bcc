// Where everything of one heatmap goes: title, axis titles, labels, cells, margin sums and
// colorbar, measured in a font on a device.
#pragma once

#include "heatmapdata.h"

#include <QFont>
#include <QPoint>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QString>

#include <optional>
#include <vector>

class QPaintDevice;

namespace attn::ui {

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

// Whether a layout made for (a, aStyle) is also the layout of (b, bStyle): the same shape,
// labels, title and parts, and colorbar ticks printed alike. A switch of the formula keeps
// all of these, so a widget need not measure 2·T labels again (the fonts are the widget's).
[[nodiscard]] bool sameLayout(const HeatmapData& a, const HeatmapStyle& aStyle,
                              const HeatmapData& b, const HeatmapStyle& bStyle);
// The same with the shapes (columns × rows of cells) given: a view that let go of its
// matrices (HeatmapView::letGo) remembers theirs.
[[nodiscard]] bool sameLayout(const HeatmapData& a, QSize aCells, const HeatmapStyle& aStyle,
                              const HeatmapData& b, QSize bCells, const HeatmapStyle& bStyle);

// The size of the whole figure when each cell is `cellSize` wide, for export.
[[nodiscard]] QSizeF preferredSize(const HeatmapData& data, const HeatmapStyle& style,
                                   double cellSize);

} // namespace attn::ui
