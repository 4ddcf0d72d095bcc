#include "widgetaccess.h"

#include <QAccessible>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QRect>
#include <QScrollArea>
#include <QString>
#include <QToolTip>

#include <algorithm>

namespace attn::ui {

std::optional<QPoint> keyboardCellStep(const QKeyEvent& event, QPoint current, int rows,
                                       int columns, int page)
{
    if (rows <= 0 || columns <= 0)
        return std::nullopt;
    const bool none = current.x() < 0 || current.y() < 0;
    int row = none ? 0 : current.x(), column = none ? 0 : current.y();
    bool step = true;
    const bool control = event.modifiers() & Qt::ControlModifier;
    switch (event.key()) {
    case Qt::Key_Left:
        column -= 1;
        break;
    case Qt::Key_Right:
        column += 1;
        break;
    case Qt::Key_Up:
        row -= 1;
        break;
    case Qt::Key_Down:
        row += 1;
        break;
    case Qt::Key_PageUp:
        row -= std::max(1, page);
        break;
    case Qt::Key_PageDown:
        row += std::max(1, page);
        break;
    case Qt::Key_Home:
        column = 0;
        row = control ? 0 : row;
        step = false;
        break;
    case Qt::Key_End:
        column = columns - 1;
        row = control ? rows - 1 : row;
        step = false;
        break;
    default:
        return std::nullopt;
    }
    if (none && step) {
        row = 0;
        column = 0;
    }
    return QPoint(std::clamp(row, 0, rows - 1), std::clamp(column, 0, columns - 1));
}

void revealInScrollArea(QWidget* widget, const QRect& rect)
{
    for (QWidget* ancestor = widget->parentWidget(); ancestor; ancestor = ancestor->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(ancestor);
            area && area->widget() &&
            (area->widget() == widget || area->widget()->isAncestorOf(widget))) {
            const QPoint centre = widget->mapTo(area->widget(), rect.center());
            const int margin = std::max(rect.width(), rect.height()) * 2;
            area->ensureVisible(centre.x(), centre.y(), margin, margin);
            return;
        }
}

void setAccessibleText(QWidget* widget, const QString& name, const QString& description)
{
    if (widget->accessibleName() != name) {
        widget->setAccessibleName(name);
        QAccessibleEvent event(widget, QAccessible::NameChanged);
        QAccessible::updateAccessibility(&event);
    }
    if (widget->accessibleDescription() != description) {
        widget->setAccessibleDescription(description);
        QAccessibleEvent event(widget, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&event);
    }
}

bool isActivationKey(const QKeyEvent& event)
{
    return event.key() == Qt::Key_Return || event.key() == Qt::Key_Enter ||
           event.key() == Qt::Key_Space;
}

int keyboardPage(const QWidget* widget, double rowHeight)
{
    const double cell = std::max(1.0, rowHeight);
    return std::max(1, int(widget->visibleRegion().boundingRect().height() / cell) - 1);
}

bool isTabFocus(const QFocusEvent& event)
{
    return event.reason() == Qt::TabFocusReason || event.reason() == Qt::BacktabFocusReason;
}

bool leftWithinWindow(const QFocusEvent& event)
{
    return event.reason() != Qt::ActiveWindowFocusReason && event.reason() != Qt::PopupFocusReason;
}

void showKeyboardCellTip(QWidget* widget, const QRect& cell, const QString& text)
{
    // Inside a scroll area (the grid of heads, a zoomed head, the strip), the cell and a
    // margin of a few cells come into view.
    revealInScrollArea(widget, cell);
    if (widget->isVisible())
        QToolTip::showText(widget->mapToGlobal(cell.bottomRight()), text, widget, cell);
}

} // namespace attn::ui
