// A widget showing one head's heatmap; hovering a cell outlines its row and column. With
// the keyboard, Tab reaches it and the arrow keys move over its cells as the mouse does.
#pragma once

#include "heatmappainter.h"

#include <QPixmap>
#include <QWidget>

#include <optional>

class QPainter;

namespace attn::ui {

// What the tooltip says about cell (row, column), e.g.
// "query 它 (row 7) → key 猫 (column 1): weight 0.62 · logit 0.78 · score 3.12".
// Rows and columns are numbered from 0, as PyTorch indexes them.
[[nodiscard]] QString hoverText(const HeatmapData& data, int row, int column);

class HeatmapView : public QWidget {
    Q_OBJECT

public:
    explicit HeatmapView(QWidget* parent = nullptr);

    void setData(const HeatmapData& data);
    [[nodiscard]] const HeatmapData& data() const { return data_; }
    // The shape of the matrices it shows (columns × rows), or showed before it let go.
    [[nodiscard]] QSize cells() const
    {
        return letGo_ ? cellsBeforeLetGo_ : QSize(data_.columns(), data_.rows());
    }
    // Lets go of the matrices it shows (weights, scores, mask), so that a large switch of
    // the formula can reuse their memory, and keeps showing their last picture, without
    // hover, until setData() brings the new ones.
    void letGo();
    [[nodiscard]] bool hasLetGo() const { return letGo_; }
    // The part of the view it kept a picture of when it let go: what was in sight (in a
    // zoomed head dialog a corner of a heatmap many times the screen's size), in the
    // view's coordinates then; empty when none.
    [[nodiscard]] QRect keptPictureRect() const { return pictureRect_; }
    // Out of date (the newest input was refused): the view shows its picture in grey, its
    // cells give no values to the mouse or the keyboard, and its tooltip and description say
    // `reason` instead. An empty reason: current again. New data alone does not change it.
    void setStale(const QString& reason);
    [[nodiscard]] bool isStale() const { return !staleReason_.isEmpty(); }
    [[nodiscard]] QString staleReason() const { return staleReason_; }
    // The view paints with its own font() and palette, whatever the style's labelFont and
    // textColor say.
    void setHeatmapStyle(const HeatmapStyle& style);
    [[nodiscard]] const HeatmapStyle& heatmapStyle() const { return style_; }

    // The layout of the current size, for hit testing: cellAt(), cellRect().
    [[nodiscard]] const HeatmapLayout& heatmapLayout() const;
    // How many times the cells were coloured into an image: once per data, style or size,
    // not once per repaint (a hover repaints).
    [[nodiscard]] int cellImageRenders() const { return cellImage_.renders; }
    // How many times the layout was measured: not again for new cells in the same frame
    // (a switch of the formula keeps the labels).
    [[nodiscard]] int layoutBuilds() const { return layoutBuilds_; }

    // The cell the mouse or the keyboard is on, (−1, −1) when none.
    [[nodiscard]] QPoint currentCell() const { return {hoveredRow_, hoveredColumn_}; }

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

signals:
    // The cell under the mouse or the keyboard's, or (−1, −1) when it left the cells.
    void cellHovered(int row, int col);
    // The view was clicked, or Enter pressed on it, e.g. to open this head large.
    void activated();

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;

private:
    [[nodiscard]] HeatmapStyle paintedStyle() const;
    // What the view shows of `exposed`: the heatmap, or the picture it kept when it let go.
    void paintContent(QPainter& painter, const QRect& exposed);
    // The same in grey under a veil of the window's colour, for a stale view.
    void paintGreyed(QPainter& painter, const QRect& exposed);
    // What a view shows while let go without a picture: its title and "computing…".
    void paintComputing(QPainter& painter) const;
    void setHoveredCell(int row, int column);
    // The keyboard's cell: outlined, its values in a tooltip beside it and in the
    // accessible description, scrolled into view inside a scroll area.
    void showKeyboardCell(int row, int column);
    // The accessible name and description: the title, and the current cell's values (or
    // the matrix's shape).
    void describe();
    void invalidateLayout();
    // New data or style: only the cells again when the frame stays (sameLayout), else all.
    void changed(bool sameFrame);

    HeatmapData data_;
    HeatmapStyle style_;
    int hoveredRow_ = -1;
    int hoveredColumn_ = -1;
    bool keyboardCell_ = false; // the current cell came from the arrow keys, not the mouse
    mutable std::optional<HeatmapLayout> layout_;
    mutable std::optional<QSize> sizeHint_; // kept with the layout
    mutable int layoutBuilds_ = 0;
    CellImageCache cellImage_;
    TextCache texts_;
    bool letGo_ = false;
    QString staleReason_;    // why the view is out of date; empty while current
    QPixmap picture_;        // the part in sight when the view let go (none if out of sight)
    QRect pictureRect_;      // where that part was, in the view's coordinates then
    QSize sizeAtLetGo_;      // the view's size then: a zoom meanwhile scales the picture
    QSize cellsBeforeLetGo_; // the shape of the matrices it let go of
};

} // namespace attn::ui
