#include "modelcomparebutton.h"

#include "languagemodelwindow.h"
#include "modelcomparedialog.h"
#include "modelcomparison.h"
#include "switchesform.h"

#include <QComboBox>
#include <QEvent>

#include <memory>

namespace attn::ui {

ModelCompareButton::ModelCompareButton(LanguageModelWindow* window) : window_(window)
{
    setObjectName("compareAB");
    connect(window_->switchesForm(), &SwitchesForm::switchesChanged, this,
            &ModelCompareButton::updateEnabled);
    connect(window_->scopeCombo(), &QComboBox::currentIndexChanged, this,
            &ModelCompareButton::updateEnabled);
    connect(window_, &LanguageModelWindow::runShown, this, [this] {
        updateEnabled(); // setSwitches() changes the form without its signal
        follow();
    });
    connect(this, &QPushButton::clicked, this, &ModelCompareButton::openDialog);
    updateEnabled();
    retranslate();
}

void ModelCompareButton::updateEnabled()
{
    setEnabled(!modelDepartures(window_->switches(), window_->model().info().causal,
                                window_->model().info().heads)
                    .isEmpty());
}

void ModelCompareButton::openDialog()
{
    if (!dialog_) {
        dialog_ = new ModelCompareDialog(window_);
        dialog_->setWindowFlag(Qt::Window);
    }
    dialog_->show();
    dialog_->raise();
    follow();
}

void ModelCompareButton::follow()
{
    if (dialog_ && dialog_->isVisible())
        dialog_->follow(std::make_shared<const ModelRun>(window_->shownRun()), window_->text());
}

void ModelCompareButton::retranslate()
{
    setText(tr("Compare A/&B…"));
    setToolTip(tr("The textbook model (A) beside the switched one (B): heads, B − A and both "
                  "predictions"));
}

void ModelCompareButton::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QPushButton::changeEvent(event);
}

} // namespace attn::ui
