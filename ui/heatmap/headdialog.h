// One head's heatmap, large, with zoom.
#pragma once

#include "heatmapview.h"

#include <QDialog>

class QLabel;
class QScrollArea;
class QSlider;

namespace attn::ui {

class HeadDialog : public QDialog {
    Q_OBJECT

public:
    explicit HeadDialog(QWidget* parent = nullptr);

    void setHeatmap(const HeatmapData& data, const HeatmapStyle& style);
    [[nodiscard]] HeatmapView* view() const { return view_; }

    // Cell size in pixels; zooming changes it. A heatmap of a new shape, or Fit to Window,
    // fits the window and keeps fitting it as the dialog is resized, until one zooms.
    [[nodiscard]] double cellSize() const { return cellSize_; }
    void setCellSize(double pixels);
    void zoomIn() { setCellSize(cellSize_ * 1.25); }
    void zoomOut() { setCellSize(cellSize_ / 1.25); }
    void fitToWindow();

signals:
    void hovered(const QString& text);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    // What hovering a cell tells, where it tells nothing yet (the lab's heatmaps hold
    // weights, logits and scores; a file's weights alone). Empty: the lab's words.
    void setHoverHint(const QString& hint);

private:
    void retranslateUi();
    // The cell size at which the whole heatmap fits the scroll area's room.
    [[nodiscard]] double fittingCellSize() const;
    void applyFit();
    void applyCellSize(double pixels);
    [[nodiscard]] QString zoomText() const;

    HeatmapView* view_;
    QScrollArea* scroll_;
    QSlider* zoom_;
    QLabel* zoomLabel_;
    QLabel* hover_;
    QString hoverHint_;
    double cellSize_ = 32;
    double fitCap_ = 0;      // while fitted, the largest cell the fit may give; else 0
    bool everyLabel_ = true; // the fit labels every token, scrolling (not Fit to Window)
};

} // namespace attn::ui
