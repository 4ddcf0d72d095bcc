// The d_k sweep of exercise 1 as four charts over one logarithmic d_k axis, each asking
// one question: how wide are the logits (std of QKᵀ, with the √d_k it grows like), how
// spread is each row (entropy), how large is its largest weight, and how much gradient
// flows back through the softmax (‖diag(p) − ppᵀ‖). Every chart draws the unscaled
// points in vermilion and the scaled ones in blue; references are grey and dashed.
//
// The same charts make the figure of the sweep (sweepfigure.h).
#pragma once

#include "lab/sweep.h"

#include <QFont>
#include <QString>
#include <QWidget>

#include <array>
#include <vector>

class QChart;
class QChartView;
class QPainter;

namespace attn::ui {

// The four charts, in reading order (left to right, then top to bottom).
enum class SweepPanel { Spread, Entropy, RowMax, Jacobian };
inline constexpr std::array kSweepPanels = {SweepPanel::Spread, SweepPanel::Entropy,
                                            SweepPanel::RowMax, SweepPanel::Jacobian};

// The fonts and line width of the charts: the window's, or a figure's (in points).
struct SweepChartStyle {
    QFont titleFont;
    QFont labelFont; // axis labels, axis titles and the legend
    double lineWidth = 3;
    double markerSize = 6;
};

// How many points the √d_k reference draws per doubling of d_k, so that it looks smooth.
inline constexpr int kReferenceSamplesPerDoubling = 8;

// A new chart of `panel` for `points` (as sweepDk returns them). Its series are named for
// the legend and carry an objectName saying what they draw ("std-unscaled", "std-scaled",
// "std-reference", "entropy-unscaled", "entropy-scaled", "entropy-max", "rowmax-unscaled",
// "rowmax-scaled", "rowmax-saturated", "jacobian-unscaled", "jacobian-scaled"; with ALiBi
// or a soft-cap also "std-final-unscaled" and "std-final-scaled", the std of the logits after
// them, dashed). The caller owns the chart.
[[nodiscard]] QChart* createSweepChart(SweepPanel panel, const std::vector<SweepPoint>& points,
                                       const SweepChartStyle& style);

// The four charts in a 2 × 2 grid; empty axes until setPoints().
class SweepChart : public QWidget {
    Q_OBJECT

public:
    explicit SweepChart(QWidget* parent = nullptr);

    void setPoints(const std::vector<SweepPoint>& points);
    [[nodiscard]] const std::vector<SweepPoint>& points() const { return points_; }

    [[nodiscard]] QChart* chart(SweepPanel panel) const;
    [[nodiscard]] QChartView* view(SweepPanel panel) const;
    // What a screen reader hears of a chart besides its title (the view's accessible
    // description): each measured line's points, "unscaled: d_k 16 → 3.98, d_k 32 → …".
    [[nodiscard]] QString chartText(SweepPanel panel) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    std::vector<SweepPoint> points_;
    std::array<QChartView*, kSweepPanels.size()> views_{};
};

} // namespace attn::ui
