// The main window's status line: a message never runs into the readouts on its right.
#pragma once

#include <QString>

class QMainWindow;
class QStatusBar;
class QWidget;

namespace attn::ui {

// Marks `widget` as one of the permanent readouts at the right of `bar` (the shape, the
// busy sign), and adds it there.
void addStatusReadout(QStatusBar* bar, QWidget* widget);

// The width a message has in `bar`, left of the readouts shown; 0 while the bar is not laid
// out yet.
[[nodiscard]] int statusMessageRoom(const QStatusBar* bar);

// Shows `text` (a status tip, a hover's values, a refusal) in `window`'s status bar for
// `timeout` ms (0: until the next), cut with "…" where it would reach the readouts, the
// whole text then its tooltip.
void showStatusMessage(QMainWindow* window, const QString& text, int timeout = 0);

} // namespace attn::ui
