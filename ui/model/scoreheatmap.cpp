#include "scoreheatmap.h"

#include <QHelpEvent>
#include <QToolTip>

namespace attn::ui {

ScoreHeatmap::ScoreHeatmap(QWidget* parent) : HeatmapView(parent) {}

QString ScoreHeatmap::cellText(int row, int column) const
{
    if (!describe_ || row < 0 || column < 0 || row >= data().rows() || column >= data().columns())
        return {};
    return describe_(row, column);
}

bool ScoreHeatmap::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && describe_ && !isStale() && !hasLetGo()) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<QPoint> cell = heatmapLayout().cellAt(help->pos())) {
            const QRect rect = heatmapLayout().cellRect(cell->x(), cell->y()).toAlignedRect();
            QToolTip::showText(help->globalPos(), cellText(cell->x(), cell->y()), this, rect);
            return true;
        }
    }
    return HeatmapView::event(event);
}

} // namespace attn::ui
