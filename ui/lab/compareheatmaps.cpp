// Compare's heatmaps: the head and sequence choosers, and A, B and B − A side by side with
// one cell size, one hover and one tooltip that reads a cell on all three.
#include "comparedialog.h"

#include "heatmapview.h"

#include <QComboBox>
#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolTip>

#include <algorithm>

namespace attn::ui {

int CompareDialog::head() const
{
    return headCombo_->currentData().toInt();
}

void CompareDialog::setHead(int head)
{
    if (const int found = headCombo_->findData(head); found >= 0)
        headCombo_->setCurrentIndex(found);
}

int CompareDialog::sequence() const
{
    return std::max(0, sequenceCombo_->currentData().toInt());
}

void CompareDialog::setSequence(int sequence)
{
    wantedSequence_ = sequence;
    if (const int found = sequenceCombo_->findData(sequence); found >= 0)
        sequenceCombo_->setCurrentIndex(found);
}

HeatmapView* CompareDialog::view(int index) const
{
    return views_[std::clamp(index, 0, 2)];
}

QString CompareDialog::captionText() const
{
    return captionLabel_->text();
}

bool CompareDialog::eventFilter(QObject* watched, QEvent* event)
{
    // The views' own tooltips would call B − A a weight: each cell's tooltip gives all three.
    auto* view = qobject_cast<HeatmapView*>(watched);
    if (view && event->type() == QEvent::Resize && shown_ && alignCells())
        applyStyles();
    if (view && event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::optional<QPoint> cell = view->heatmapLayout().cellAt(help->pos());
        if (cell && shown_)
            QToolTip::showText(
                help->globalPos(), comparisonHoverText(comparison_, cell->x(), cell->y()), view,
                view->heatmapLayout().cellRect(cell->x(), cell->y()).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QDialog::eventFilter(watched, event);
}

void CompareDialog::showComparison()
{
    shown_ = false;
    const Result& a = results_[0];
    const Result& b = results_[1];
    if (!comparable(a, b) || a.request != request(Side::A) || b.request != request(Side::B)) {
        updateEnabled();
        return;
    }
    comparison_ = compareResults(a, b, sequence(), head());
    views_[0]->setData(comparison_.a);
    views_[1]->setData(comparison_.b);
    views_[2]->setData(comparison_.difference);
    alignCells();
    applyStyles();
    captionLabel_->setText(differenceCaption(comparison_));
    shown_ = true;
    hoverLabel_->setText(comparisonHoverText(comparison_, hoverRow_, hoverColumn_));
    updateEnabled();
    emit comparisonChanged();
}

void CompareDialog::setColourScale(ColormapName colormap, bool logScale)
{
    if (colormap == colormap_ && logScale == logScale_)
        return;
    colormap_ = colormap;
    logScale_ = logScale;
    if (shown_) {
        alignCells(); // the colorbar's ticks change, and with them the room for cells
        applyStyles();
    }
}

HeatmapStyle CompareDialog::style(int index) const
{
    HeatmapStyle style =
        index < 2 ? weightStyle(comparison_, colormap_, logScale_) : differenceStyle(comparison_);
    style.annotate = true;
    style.maxCellSize = cellSize_;
    return style;
}

bool CompareDialog::alignCells()
{
    // Each view alone would fit its own cells: B − A's longer colorbar ticks leave it less
    // width, smaller cells, labels leaning and its rows lower than A's and B's. All three
    // take the largest cell that fits in every one, so that their rows line up.
    double cell = 0;
    for (int k = 0; k < 3; ++k) {
        HeatmapStyle natural = style(k);
        natural.maxCellSize = 0;
        natural.labelFont = views_[k]->font(); // as the view paints it
        const double fits =
            HeatmapLayout(QRectF(views_[k]->rect()), views_[k]->data(), natural, views_[k])
                .cellSize();
        cell = k == 0 ? fits : std::min(cell, fits);
    }
    if (cell == cellSize_)
        return false;
    cellSize_ = cell;
    return true;
}

void CompareDialog::applyStyles()
{
    for (int k = 0; k < 3; ++k) {
        HeatmapStyle style = this->style(k);
        style.highlightRow = hoverRow_;
        style.highlightCol = hoverColumn_;
        views_[k]->setHeatmapStyle(style);
    }
}

void CompareDialog::rebuildHeads()
{
    const int heads = std::max(1, base_.config.heads);
    const int previous = headCombo_->count() > 0 ? head() : 0;
    {
        const QSignalBlocker blocker(headCombo_);
        headCombo_->clear();
        for (int h = 0; h < heads; ++h)
            headCombo_->addItem(tr("Head %1", "head chooser").arg(h), h);
        if (heads > 1)
            headCombo_->addItem(tr("Mean of the heads", "head chooser"), -1);
        const int found = headCombo_->findData(previous < heads ? previous : 0);
        headCombo_->setCurrentIndex(std::max(0, found));
    }
    showComparison();
}

void CompareDialog::rebuildSequences(int batch)
{
    batch = std::max(1, batch);
    if (sequenceCombo_->count() != batch) {
        const QSignalBlocker blocker(sequenceCombo_);
        sequenceCombo_->clear();
        for (int b = 0; b < batch; ++b)
            sequenceCombo_->addItem(tr("%1 of %2", "sequence chooser").arg(b + 1).arg(batch), b);
        sequenceCombo_->setCurrentIndex(std::clamp(wantedSequence_, 0, batch - 1));
    }
    sequenceLabel_->setVisible(batch > 1);
    sequenceCombo_->setVisible(batch > 1);
}

void CompareDialog::hoverCell(int row, int column)
{
    if (row == hoverRow_ && column == hoverColumn_)
        return;
    hoverRow_ = row;
    hoverColumn_ = column;
    if (!shown_)
        return;
    applyStyles();
    hoverLabel_->setText(comparisonHoverText(comparison_, row, column));
}

} // namespace attn::ui
