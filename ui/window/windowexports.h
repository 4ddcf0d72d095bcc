// The window's File → Export Figure…, File → Export Numbers… and Edit → Copy Figure. Each
// says in `window`'s status bar when there is nothing to export yet (at the start, or
// while a large switch computes).
#pragma once

class QMainWindow;

namespace attn {
struct Result;
}

namespace attn::ui {

struct ViewOptions;

// The export dialog with its preview; `head` is the head the head dialog shows.
void exportFigure(QMainWindow* window, const Result& result, const ViewOptions& view, int head);
void exportNumbers(QMainWindow* window, const Result& result);
void copyFigure(QMainWindow* window, const Result& result, const ViewOptions& view);

} // namespace attn::ui
