#include "viewtoolbar.h"

#include "engine/engine.h"
#include "settings.h"
#include "windowactions.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>

#include <algorithm>

namespace attn::ui {

ViewToolBar::ViewToolBar(const WindowActions& actions, QWidget* parent)
    : QToolBar(parent), sequenceLabel_(new QLabel), sequenceCombo_(new QComboBox),
      colormapCombo_(new QComboBox)
{
    setObjectName("viewToolBar");
    sequenceCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(sequenceCombo_, &QComboBox::activated, this, &ViewToolBar::sequenceChosen);
    for (ColormapName name : Colormap::names())
        colormapCombo_->addItem(QString(), int(name));
    connect(colormapCombo_, &QComboBox::activated, this, [this](int index) {
        emit colormapChosen(ColormapName(colormapCombo_->itemData(index).toInt()));
    });
    addWidget(sequenceLabel_);
    addWidget(sequenceCombo_);
    addSeparator();
    addWidget(colormapCombo_);
    for (const ViewToggle& toggle : kViewToggles)
        addAction(actions.action(toggle.id));
}

void ViewToolBar::setSequences(const Result& result, int current)
{
    sequenceCombo_->clear();
    for (int b = 0; b < result.batch(); ++b) {
        QStringList words;
        const auto& tokens = result.tokens->tokens[std::size_t(b)];
        for (int t = 0; t < std::min(result.tokens->lengths[std::size_t(b)], 4); ++t)
            words << QString::fromStdString(tokens[std::size_t(t)]);
        sequenceCombo_->addItem(
            tr("%1: %2…", "sequence number: first words").arg(b).arg(words.join(u' ')));
    }
    sequenceCombo_->setCurrentIndex(current);
    sequenceCombo_->setEnabled(result.batch() > 1);
}

void ViewToolBar::showView(const ViewOptions& view)
{
    colormapCombo_->setCurrentIndex(colormapCombo_->findData(int(view.colormap)));
    sequenceCombo_->setCurrentIndex(view.sequence);
}

void ViewToolBar::retranslate()
{
    setWindowTitle(tr("View"));
    sequenceLabel_->setText(tr("Sequence:") + u' ');
    sequenceCombo_->setToolTip(tr("Which line of the batch the heatmaps show"));
    colormapCombo_->setToolTip(tr("Colour scale of the heatmaps"));
    for (int k = 0; k < colormapCombo_->count(); ++k)
        colormapCombo_->setItemText(
            k, Colormap::displayName(ColormapName(colormapCombo_->itemData(k).toInt())));
}

} // namespace attn::ui
