#include "windowstart.h"

#include "language.h"
#include "mainwindow.h"
#include "settings.h"

namespace attn::ui {

std::unique_ptr<MainWindow> openMainWindow(Language& language, QSettings* settings)
{
    // The saved language, or at the first start the system locale's.
    const QString saved = AppSettings(settings).language();
    if (!language.apply(saved.isEmpty() ? Language::systemDefault() : saved))
        language.apply(QStringLiteral("en"));

    auto window = std::make_unique<MainWindow>(&language, settings);
    window->show();
    window->offerRecovery();
    return window;
}

} // namespace attn::ui
