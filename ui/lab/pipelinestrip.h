// "Step by step": the whole attention pipeline of one head as a row of matrices that
// wraps with the width — X, Q_h, K_h, V_h, S, L, the mask, P, O_h, the concatenation
// and the output — each with its formula and its shape written as the tutorial prints it.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H.
//
// pipelinetiles.cpp makes the tiles (pipelineTiles), pipelinetilewidget.cpp draws one
// (PipelineTile), pipelinestrip.cpp lines them up (PipelineStrip) and writes its figure.
#pragma once

#include "engine.h"
#include "figureformat.h"
#include "heatmappainter.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace attn::ui {

// The stages the strip shows, in the pipeline's order.
enum class PipelineStage {
    Input,      // X (B, T, C)
    Queries,    // Q_h (B, H, T, d_k)
    Keys,       // K_h
    Values,     // V_h
    Scores,     // S = Q_h K_hᵀ (B, H, T, T)
    Logits,     // L = S·scale/τ, before any mask
    Masked,     // what the softmax gets: L filled where M hides a key (or L as it is)
    Weights,    // P = softmax(…, dim=axis), masked after it when that stage is set
    HeadOutput, // O_h = P·V_h (B, H, T, d_k)
    Concat,     // the heads side by side (B, T, C)
    Output,     // concat·W_oᵀ + b_o (B, T, C)
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

// One stage drawn with paintHeatmap under its title, formula and shape. With the keyboard,
// Tab reaches it and the arrow keys move a cell over its matrix, its value in a tooltip and
// the accessible description; on a tile whose cells are explained (S, L, the mask, P) each
// move explains the cell, as a click does.
class PipelineTile : public QWidget {
    Q_OBJECT

public:
    explicit PipelineTile(QWidget* parent = nullptr);

    void setTile(StageTile tile);
    [[nodiscard]] const StageTile& tile() const { return tile_; }

    // Outlines row and column (−1: none), e.g. the cell being explained.
    void setHighlight(int row, int column);
    [[nodiscard]] int highlightRow() const { return highlightRow_; }
    [[nodiscard]] int highlightColumn() const { return highlightColumn_; }
    // How many times the cells were coloured into an image (kept between paints: a scroll
    // or an outlined cell at T = 2048 does not colour 4 M cells again), for tests.
    [[nodiscard]] int cellImageRenders() const { return cellImage_.renders; }
    // Where cell (row, column) is drawn, in the widget's coordinates.
    [[nodiscard]] QRectF cellRect(int row, int column) const;
    [[nodiscard]] std::optional<QPoint> cellAt(const QPointF& pos) const;
    // The cell the arrow keys are on (x the row, y the column), (−1, −1) when none: it is
    // outlined instead of the highlight while the tile has the focus.
    [[nodiscard]] QPoint keyboardCell() const { return keyboardCell_; }
    // What the tooltip says about cell (row, column): where it is and its value, and on a
    // tile that explains cells, with `clickHint`, that a click explains it.
    [[nodiscard]] QString cellText(int row, int column, bool clickHint = true) const;

    [[nodiscard]] QSize sizeHint() const override;

signals:
    // A cell was clicked, or reached with the keyboard on a tile that explains cells.
    void cellClicked(int row, int column);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    void relayout();
    [[nodiscard]] HeatmapStyle paintedStyle() const;
    // The keyboard's cell: outlined, scrolled into view, its text in a tooltip and the
    // accessible description; or none (−1, −1).
    void showKeyboardCell(int row, int column);
    // The accessible name (the title) and description (the formula and shape, or the
    // keyboard cell's text).
    void describe();

    StageTile tile_;
    int highlightRow_ = -1;
    int highlightColumn_ = -1;
    QPoint keyboardCell_{-1, -1};
    HeatmapLayout heatmapLayout_; // placed at the origin, painted at heatmapOrigin_
    CellImageCache cellImage_;
    TextCache texts_;
    QPointF heatmapOrigin_;
    QRectF titleRect_, formulaRect_, shapeRect_, noteRect_, axesRect_;
    QSize size_;
};

class PipelineStrip : public QWidget {
    Q_OBJECT

public:
    explicit PipelineStrip(QWidget* parent = nullptr);

    // Shows sequence b and head h of `result`, which must have its weights.
    void setResult(const Result& result, int b, int h);
    void clear();
    // Lets go of the result (a large switch reuses its memory); the tiles keep their own
    // copies of the head's matrices and stay as they are until setResult().
    void letGo() { result_ = Result{}; }
    // Recolours the weights' tile (also one kept through letGo()).
    void setWeightColours(const WeightColours& colours);
    [[nodiscard]] const WeightColours& weightColours() const { return colours_; }

    [[nodiscard]] int count() const { return static_cast<int>(tiles_.size()); }
    [[nodiscard]] PipelineTile* tileAt(int index) const { return tiles_[std::size_t(index)]; }
    // The tile of `stage`, or nullptr when the result does not have it.
    [[nodiscard]] PipelineTile* tile(PipelineStage stage) const;

    // Outlines query i and key j: their row and column in S, L, the mask and P, q_i in
    // Q_h, k_j in K_h and row i of O_h. (−1, −1) clears.
    void setSelectedCell(int i, int j);

    // Lays the strip out `width` pixels wide (wider where a tile needs it) at once, shown
    // or not: for a figure made without a window.
    void layOut(int width);

    // The strip as it is laid out now, as a figure file for a handout: PNG at
    // `pixelsPerPixel` image pixels a screen pixel, or SVG or PDF painted as on screen (the
    // outlined cell too), on white; `appendixHtml` (the arithmetic of the outlined cell),
    // if any, below it at the strip's width. Nothing, with a translated reason in
    // `*error`, when it is empty, larger than kMaxFigurePixels, or has too many cells for a
    // vector file.
    [[nodiscard]] std::optional<QByteArray> figureBytes(FigureFormat format, double pixelsPerPixel,
                                                        QString* error,
                                                        const QString& appendixHtml = {});

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;

signals:
    // A cell of the tile of `stage` was clicked.
    void cellClicked(attn::ui::PipelineStage stage, int row, int column);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Flow {
        std::vector<QRect> places; // each tile's
        int height = 0;            // of all the lines
    };
    // The tiles left to right, wrapped into lines `width` wide.
    [[nodiscard]] Flow flow(int width) const;
    void rebuild();
    void relayout();

    Result result_;
    int b_ = 0;
    int h_ = 0;
    int selectedRow_ = -1;
    int selectedColumn_ = -1;
    WeightColours colours_;
    std::vector<PipelineTile*> tiles_;
};

} // namespace attn::ui
