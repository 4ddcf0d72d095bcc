#include "generatebutton.h"

#include "generatedialog.h"
#include "languagemodelwindow.h"

#include <QEvent>

namespace attn::ui {

GenerateButton::GenerateButton(LanguageModelWindow* window) : window_(window)
{
    setObjectName("generate");
    setEnabled(window_->model().info().causal); // an encoder fills in [MASK] instead
    connect(window_, &LanguageModelWindow::runShown, this, [this] {
        if (dialog_)
            dialog_->follow();
    });
    connect(this, &QPushButton::clicked, this, &GenerateButton::openDialog);
    retranslate();
}

void GenerateButton::openDialog()
{
    if (!dialog_) {
        dialog_ = new GenerateDialog(window_);
        dialog_->setWindowFlag(Qt::Window);
    }
    dialog_->show();
    dialog_->raise();
}

void GenerateButton::retranslate()
{
    setText(tr("Let It &Write…"));
    setToolTip(isEnabled() ? tr("Let the model write on from this text, token by token, with "
                                "your switches and beside the model as trained")
                           : tr("An encoder (BERT) fills in [MASK] tokens; it does not write on"));
}

void GenerateButton::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QPushButton::changeEvent(event);
}

} // namespace attn::ui
