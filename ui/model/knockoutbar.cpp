#include "knockoutbar.h"

#include "modelgrid.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>

namespace attn::ui {

KnockOutBar::KnockOutBar(QWidget* parent)
    : QWidget(parent), label_(new QLabel), mode_(new QComboBox), restore_(new QPushButton)
{
    label_->setObjectName("knockOutCount");
    mode_->setObjectName("knockOutMode");
    restore_->setObjectName("restoreHeads");
    label_->setWordWrap(true);
    mode_->addItem(QString(), int(KnockOutMode::Zero));
    mode_->addItem(QString(), int(KnockOutMode::Mean));
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(mode_, 1);
    row->addWidget(restore_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addLayout(row);
    connect(mode_, &QComboBox::currentIndexChanged, this, [this] {
        if (!heads_.empty())
            emit changed();
    });
    connect(restore_, &QPushButton::clicked, this, [this] {
        heads_.clear();
        show();
        emit changed();
    });
    show();
}

void KnockOutBar::attach(ModelGrid* grid)
{
    grid_ = grid;
    grid_->setKnockable(true);
    connect(grid_, &ModelGrid::knockOutRequested, this, &KnockOutBar::request);
    show();
}

void KnockOutBar::request(int layer, int head, bool out)
{
    const int first = head < 0 ? 0 : head, last = head < 0 ? grid_->heads() - 1 : head;
    for (int h = first; h <= last; ++h) {
        const HeadIndex index{layer, h};
        const auto at = std::lower_bound(heads_.begin(), heads_.end(), index);
        const bool there = at != heads_.end() && *at == index;
        if (out && !there)
            heads_.insert(at, index);
        else if (!out && there)
            heads_.erase(at);
    }
    show();
    emit changed();
}

void KnockOutBar::set(std::vector<HeadIndex> heads, KnockOutMode mode)
{
    std::sort(heads.begin(), heads.end());
    heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
    heads_ = std::move(heads);
    const QSignalBlocker blocker(mode_);
    mode_->setCurrentIndex(std::max(0, mode_->findData(int(mode))));
    show();
}

void KnockOutBar::show()
{
    if (grid_)
        grid_->setKnockedOut(heads_);
    restore_->setEnabled(!heads_.empty());
    retranslateUi();
}

KnockOutMode KnockOutBar::mode() const
{
    return KnockOutMode(mode_->currentData().toInt());
}

void KnockOutBar::retranslateUi()
{
    const int count = int(heads_.size());
    label_->setText(count == 0   ? tr("No head knocked out: right-click a head or a layer in "
                                        "the model view, or press K on one.")
                    : count == 1 ? tr("1 head knocked out: its output P·V")
                                 : tr("%1 heads knocked out: their outputs P·V").arg(count));
    mode_->setItemText(0, tr("set to 0 (zero ablation)"));
    mode_->setItemText(1, tr("replaced by their mean over the text (mean ablation)"));
    mode_->setToolTip(tr("What a knocked-out head's output becomes before the layer's output "
                         "projection"));
    restore_->setText(tr("Restore &All"));
}

void KnockOutBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace attn::ui
