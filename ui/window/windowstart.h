// The window as `attnscope` opens it without a command: main() calls this, and so do the
// tests of the start-up, so that they walk the path a user's start takes.
#pragma once

#include <QString>

#include <memory>

class QSettings;

namespace attn::ui {

class Language;
class MainWindow;

// Applies the saved interface language (at the first start the system locale's),
// shows the main window and, when the last run did not close normally, asks whether to
// restore its autosaved work; the question waits window-modal, and nothing overwrites
// the autosave before it is answered. `settings` null: the application's.
[[nodiscard]] std::unique_ptr<MainWindow> openMainWindow(Language& language,
                                                         QSettings* settings = nullptr);

} // namespace attn::ui
