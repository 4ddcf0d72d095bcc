// attnscope: the window without arguments, or a command (compute, presets, help).
#include "clicommands.h"
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
    QGuiApplication::setDesktopFileName(QStringLiteral("attnscope"));
    attn::ui::useInterfaceFont();

    attn::ui::Language language;
    const std::unique_ptr<attn::ui::MainWindow> window = attn::ui::openMainWindow(language);
    return app.exec();
}

} // namespace

int main(int argc, char* argv[])
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    // Qt's own options (-platform, -style …) also open the window.
    if (args.empty() || args[0].starts_with("-platform") || args[0].starts_with("-style"))
        return runWindow(argc, argv);
    return attn::cli::run(args);
}
