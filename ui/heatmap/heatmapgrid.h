// Every head's heatmap of one sequence, plus their mean when there are several heads, in
// a grid that reflows with the width.
#pragma once

#include "engine/engine.h"
#include "headheatmap.h"
#include "heatmapview.h"
#include "viewoptions.h"

#include <QWidget>

#include <vector>

namespace attn::ui {

class HeatmapGrid : public QWidget {
    Q_OBJECT

public:
    explicit HeatmapGrid(QWidget* parent = nullptr);

    void setResult(const Result& result, const ViewOptions& view);
    void setViewOptions(const ViewOptions& view);
    void clear();
    // Lets go of the result's matrices (P, S, the mask, the mean over heads) so that a large
    // switch can reuse their memory; the tiles keep their pictures until setResult().
    void letGo();
    // What the tiles show: the last result given, or, after letGo(), its request and
    // tokens only (hasWeights() false).
    [[nodiscard]] const Result& result() const { return result_; }
    [[nodiscard]] bool hasLetGo() const { return !result_.hasWeights() && result_.tokens; }

    // Out of date: the newest input was refused for `reason` (in the interface language),
    // so the tiles show the last result in grey, with the reason over them, and give no
    // values to hover. An empty reason, or the next setResult(), makes them current again.
    void setStale(const QString& reason);
    [[nodiscard]] bool isStale() const { return !staleReason_.isEmpty(); }
    [[nodiscard]] QString staleReason() const { return staleReason_; }

    // Heads first, then their mean (none for one head: it would be the same picture).
    [[nodiscard]] int count() const { return static_cast<int>(views_.size()); }
    [[nodiscard]] HeatmapView* view(int index) const { return views_[std::size_t(index)]; }
    // The tiles of heads; count() less the mean's.
    [[nodiscard]] int headCount() const { return count() > 1 ? count() - 1 : count(); }
    // The tile of head h (-1: the mean, which for one head is the head's own tile).
    [[nodiscard]] int tileOf(int h) const { return h < 0 ? count() - 1 : h; }

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;

signals:
    // What the cell under the mouse holds, or an empty text when the mouse left.
    void hovered(const QString& text);
    // A head was clicked (-1: the mean).
    void headActivated(int head);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Tiling {
        int columns;
        int side; // of each square tile, in pixels
    };

    void rebuild();
    // Sequence b's mean over heads and maxima as the compute thread made them with the
    // result (Result::overviews), or null when it did not.
    [[nodiscard]] std::shared_ptr<const HeadsOverview> madeOverview(int b) const;
    void relayout();
    // The note with the stale reason, in the middle of the part of the grid in sight.
    void placeStaleNote();
    [[nodiscard]] Tiling tiling(QSize room) const;
    [[nodiscard]] QSize tileSize() const;
    [[nodiscard]] int columnsFor(int width) const;
    // The side of the largest tile whose cells are `cell(font)` wide, over the heads.
    [[nodiscard]] int tileSideFor(double (*cell)(const QFont&, const QPaintDevice*)) const;

    Result result_;
    ViewOptions view_;
    HeatmapLabels labels_; // of labelTokens_ / labelKeyTokens_, sequence labelSequence_
    std::shared_ptr<const TokenBatch> labelTokens_, labelKeyTokens_;
    int labelSequence_ = -1;
    std::vector<HeatmapView*> views_;
    QString staleReason_;
    QWidget* staleNote_;
    // Tiles whose cells hold their values at the label font, and at the smallest value
    // font (fullValueCell, minimumValueCell), measured with the data; 0 when longer
    // sentences make them larger than kMaxTile * 2.
    int valueTile_ = 0;
    int leastValueTile_ = 0;
};

} // namespace attn::ui
