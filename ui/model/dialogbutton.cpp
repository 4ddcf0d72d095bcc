#include "dialogbutton.h"

#include "languagemodelwindow.h"

#include <QDialog>
#include <QEvent>

namespace attn::ui {

DialogButton::DialogButton(LanguageModelWindow* window, const char* name,
                           std::function<QDialog*()> make, std::function<void(QDialog&)> follow,
                           Follow when)
    : window_(window), make_(std::move(make)), follow_(std::move(follow)), when_(when)
{
    setObjectName(QString::fromLatin1(name));
    connect(window_, &LanguageModelWindow::runShown, this, &DialogButton::follow);
    connect(this, &QPushButton::clicked, this, &DialogButton::openDialog);
}

void DialogButton::openDialog()
{
    if (!dialog_) {
        dialog_ = make_();
        dialog_->setWindowFlag(Qt::Window);
    }
    dialog_->show();
    dialog_->raise();
    follow();
}

void DialogButton::follow()
{
    if (dialog_ && follow_ && (when_ == Follow::Always || dialog_->isVisible()))
        follow_(*dialog_);
}

void DialogButton::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QPushButton::changeEvent(event);
}

} // namespace attn::ui
