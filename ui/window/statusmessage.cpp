#include "statusmessage.h"

#include <QFontMetrics>
#include <QMainWindow>
#include <QStatusBar>

#include <algorithm>
#include <limits>

namespace attn::ui {
namespace {

constexpr const char* kReadout = "attnStatusReadout";

} // namespace

void addStatusReadout(QStatusBar* bar, QWidget* widget)
{
    widget->setProperty(kReadout, true);
    bar->addPermanentWidget(widget);
}

int statusMessageRoom(const QStatusBar* bar)
{
    // QStatusBar draws the message from 6 px in, up to 2 px before the first readout.
    int right = bar->width() - 12;
    for (const QWidget* child : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (child->property(kReadout).toBool() && child->isVisible())
            right = std::min(right, child->x() - 2);
    return std::max(0, right - 6 - 4); // and a little air before it
}

void showStatusMessage(QMainWindow* window, const QString& text, int timeout)
{
    QStatusBar* bar = window->statusBar();
    const int room = statusMessageRoom(bar);
    const QString shown =
        room > 0 ? bar->fontMetrics().elidedText(text, Qt::ElideRight, room) : text;
    bar->setToolTip(shown == text ? QString() : text);
    if (text.isEmpty())
        bar->clearMessage();
    else
        bar->showMessage(shown, timeout);
}

} // namespace attn::ui
