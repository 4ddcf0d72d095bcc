// Step by step's tile: the widget that shows one stage (a StageTile) as paintTile draws it,
// and reads its cells to the mouse, the keyboard and a screen reader.
#pragma once

#include "pipelinefigure.h"
#include "pipelinetiles.h"

#include <QPoint>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QWidget>

#include <optional>

namespace attn::ui {

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
    TilePlacement placement_;
    CellImageCache cellImage_;
    TextCache texts_;
};

} // namespace attn::ui
