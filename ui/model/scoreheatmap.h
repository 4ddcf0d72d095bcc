// An experiment's numbers as a heatmap on screen (a head role's L × H scores, the rollout's
// T × T): a HeatmapView whose tooltip says what a cell means in the experiment's words.
#pragma once

#include "heatmapview.h"

#include <QString>

#include <functional>

namespace attn::ui {

class ScoreHeatmap : public HeatmapView {
    Q_OBJECT

public:
    // What the tooltip of cell (row, column) says.
    using Describe = std::function<QString(int row, int column)>;

    explicit ScoreHeatmap(QWidget* parent = nullptr);
    void setDescribe(Describe describe) { describe_ = std::move(describe); }
    // The tooltip of a cell (empty outside the cells or before any data).
    [[nodiscard]] QString cellText(int row, int column) const;

protected:
    bool event(QEvent* event) override;

private:
    Describe describe_;
};

} // namespace attn::ui
