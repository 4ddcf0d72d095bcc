// What the figure-writing commands (export, compare, steps, sweep) share: no screen, Qt kept quiet
// on standard error, and failures as one line.
#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>
#include <string>

namespace attn::cli {

// Qt's notes (a missing XDG_RUNTIME_DIR, say) would break the promise of one line on
// standard error; the commands report their own failures. Only fatal ones pass.
void keepQtQuiet(QtMsgType type, const QMessageLogContext& context, const QString& message);

// Figures need fonts and a paint system, not a screen. Unless a platform is chosen, the
// offscreen one is used, display or not: a stale DISPLAY must not stop a batch export,
// and offscreen finds every font (CJK too) through fontconfig as a desktop session does.
// App is QGuiApplication, or QApplication where the figure has widgets (the charts).
template <typename App> void startOffscreen(std::optional<App>& app)
{
    static int argc = 1;
    static char name[] = "attnscope";
    static char* argv[] = {name, nullptr};
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(keepQtQuiet);
    app.emplace(argc, argv);
}

// Writes "attnscope: message" to standard error and returns `status`.
int fail(int status, const std::string& message);

} // namespace attn::cli
