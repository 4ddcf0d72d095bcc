#include "openingindicator.h"

#include "modelopener.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

namespace attn::ui {

OpeningIndicator::OpeningIndicator(ModelOpener* opener, QWidget* parent)
    : QWidget(parent), opener_(opener), label_(new QLabel), bar_(new QProgressBar)
{
    setObjectName("modelOpening");
    bar_->setRange(0, 0); // busy: how long mapping and the first run take is not known
    bar_->setTextVisible(false);
    bar_->setMaximumWidth(80);
    bar_->setMaximumHeight(label_->sizeHint().height());
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    connect(opener_, &ModelOpener::openingChanged, this, &OpeningIndicator::refresh);
    refresh();
}

QString OpeningIndicator::text() const
{
    return label_->text();
}

void OpeningIndicator::refresh()
{
    const QStringList opening = opener_->opening();
    if (opening.isEmpty()) {
        label_->clear();
        hide();
        return;
    }
    QString text = tr("Opening %1…", "a language model's name").arg(opening.first());
    if (opening.size() > 1)
        text += u' ' +
                tr("(%n more waiting)", "models to open after this one", int(opening.size()) - 1);
    label_->setText(text);
    setToolTip(opening.join(u'\n'));
    show();
}

void OpeningIndicator::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        refresh();
    QWidget::changeEvent(event);
}

} // namespace attn::ui
