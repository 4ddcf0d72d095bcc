// attnscope: the window (with the session and attention files given, if any), or a command
// (compute, help …).
#include "clicommands.h"
#include "desktopintegration.h"
#include "interfacefont.h"
#include "language.h"
#include "mainwindow.h"
#include "windowstart.h"

#include <QApplication>

#include <memory>
#include <string>
#include <vector>

namespace {

int runWindow(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("AttnScope"));
    QCoreApplication::setApplicationName(QStringLiteral("AttnScope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTNSCOPE_VERSION));
    QGuiApplication::setDesktopFileName(QString::fromLatin1(attn::ui::kDesktopId));
    QApplication::setWindowIcon(attn::ui::applicationIcon());
    attn::ui::useInterfaceFont();

    attn::ui::Language language;
    // Session and attention files and model folders (a double click, the desktop entry's
    // %F); Qt took its own options. After a crash they open once the restore question is
    // answered, and its autosave stays until then.
    const std::unique_ptr<attn::ui::MainWindow> window =
        attn::ui::openMainWindow(language, nullptr, QCoreApplication::arguments().mid(1));
    return app.exec();
}

} // namespace

int main(int argc, char* argv[])
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    // Qt's own options (-platform, -style …), session and attention files also open the
    // window.
    if (args.empty() || args[0].starts_with("-platform") || args[0].starts_with("-style") ||
        attn::ui::isWindowArgument(args[0]))
        return runWindow(argc, argv);
    return attn::cli::run(args);
}
