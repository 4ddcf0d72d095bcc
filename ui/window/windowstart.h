// The window as `attnscope` opens it without a command: main() calls this, and so do the
// tests of the start-up, so that they walk the path a user's start takes.
#pragma once

#include <QString>
#include <QStringList>

#include <memory>

class QSettings;

namespace attn::ui {

class Language;
class MainWindow;

// Applies the saved interface language (at the first start the system locale's) and
// shows the main window. Then it opens `arguments` (session and attention files, model
// folders: openSessionArguments) — but when the last run did not close normally, it first
// asks whether to restore its autosaved work, and opens them only once that is answered,
// so that no other window hides the question; the question says what will open. The
// question waits window-modal, and nothing overwrites the autosave before it is answered.
// Restored work is not replaced by a session file among the arguments: that one is left
// unopened, and a message says so. `settings` null: the application's.
[[nodiscard]] std::unique_ptr<MainWindow> openMainWindow(Language& language,
                                                         QSettings* settings = nullptr,
                                                         const QStringList& arguments = {});

// The sentence the recovery question adds about `arguments` (empty when there are none):
// which files and folders open once it is answered, and that restoring leaves a session
// file among them unopened.
[[nodiscard]] QString recoveryFollowUp(const QStringList& arguments);

} // namespace attn::ui
