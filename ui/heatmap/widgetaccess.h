// Keyboard and screen-reader access to widgets that draw what they show: a cell of a
// drawn matrix moved with the keys, as the heatmaps and Step by Step's tiles move it (the
// arrow keys a cell, Page Up/Down a page of rows, Home/End to the row's ends,
// Ctrl+Home/End to the matrix's corners), and accessible text told when it changes.
#pragma once

#include <QPoint>

#include <optional>

class QFocusEvent;
class QKeyEvent;
class QRect;
class QString;
class QWidget;

namespace attn::ui {

// Where `event` takes the cell `current` (x the row, y the column; (−1, −1) for none) in
// a matrix of `rows` × `columns`, `page` rows a page; nullopt for a key that does not
// move a cell. Without a cell a step lands on the first; Home and End go where they go
// from it. The result stays inside the matrix.
[[nodiscard]] std::optional<QPoint> keyboardCellStep(const QKeyEvent& event, QPoint current,
                                                     int rows, int columns, int page);

// Return, Enter and Space: the keys that activate what has the focus (open a head,
// explain a cell).
[[nodiscard]] bool isActivationKey(const QKeyEvent& event);
// The rows Page Up and Page Down move in `widget`, whose rows are `rowHeight` high: the
// rows in sight less one, at least one.
[[nodiscard]] int keyboardPage(const QWidget* widget, double rowHeight);
// Focus that came with Tab or Backtab (not with a window, a click or a popup).
[[nodiscard]] bool isTabFocus(const QFocusEvent& event);
// Focus that left for another widget of the window, not with the window going inactive
// or a popup opening: the keyboard's cell is then given up.
[[nodiscard]] bool leftWithinWindow(const QFocusEvent& event);
// The keyboard's cell `cell` (in `widget`'s coordinates) brought into view
// (revealInScrollArea) and its words `text` in a tooltip beside it.
void showKeyboardCellTip(QWidget* widget, const QRect& cell, const QString& text);

// Scrolls `rect` (in `widget`'s coordinates) and a margin of two of its sizes into view
// in the nearest scroll area holding `widget`, if any.
void revealInScrollArea(QWidget* widget, const QRect& rect);

// Sets `widget`'s accessible name and description, telling a screen reader of each real
// change through an event (and of no other: it would read the same text again).
void setAccessibleText(QWidget* widget, const QString& name, const QString& description);

} // namespace attn::ui
