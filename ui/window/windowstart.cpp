#include "windowstart.h"

#include "attentionfileopener.h"
#include "desktopintegration.h"
#include "language.h"
#include "mainwindow.h"
#include "modelopener.h"
#include "sessionfiles.h"
#include "settings.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>

namespace attn::ui {
namespace {

bool isSession(const QString& path)
{
    return !isAttentionFileName(path) && !isModelPath(path);
}

QString names(const QStringList& paths)
{
    QStringList shown;
    for (const QString& path : paths) // "gpt2/" as gpt2
        shown << QFileInfo(QDir::cleanPath(path)).fileName();
    return shown.join(QStringLiteral(", "));
}

} // namespace

QString recoveryFollowUp(const QStringList& arguments)
{
    QStringList others;
    QStringList sessions;
    for (const QString& path : arguments)
        (isSession(path) ? sessions : others) << path;
    QStringList sentences;
    if (!others.isEmpty())
        sentences << SessionFiles::tr("Once you have answered, AttnScope opens %1.",
                                      "%1 lists model folders and attention files")
                         .arg(names(others));
    if (!sessions.isEmpty())
        sentences << SessionFiles::tr("Restore keeps that work and leaves %1 unopened; "
                                      "Discard opens it.",
                                      "%1 names session files")
                         .arg(names(sessions));
    return sentences.join(QLatin1Char(' '));
}

std::unique_ptr<MainWindow> openMainWindow(Language& language, QSettings* settings,
                                           const QStringList& arguments)
{
    // The saved language, or at the first start the system locale's.
    const QString saved = AppSettings(settings).language();
    if (!language.apply(saved.isEmpty() ? Language::systemDefault() : saved))
        language.apply(QStringLiteral("en"));

    auto window = std::make_unique<MainWindow>(&language, settings);
    window->show();
    if (!window->sessionFiles()->recoveryPending()) {
        openSessionArguments(*window, arguments);
        return window;
    }
    // The question first, alone: a model's window opened now could cover it.
    MainWindow* shown = window.get();
    QObject::connect(
        shown->sessionFiles(), &SessionFiles::recoveryAnswered, shown,
        [shown, arguments](bool restored) {
            QStringList opened;
            QStringList kept;
            for (const QString& path : arguments)
                (restored && isSession(path) ? kept : opened) << path;
            openSessionArguments(*shown, opened);
            if (kept.isEmpty())
                return;
            auto* box = new QMessageBox(
                QMessageBox::Information, SessionFiles::tr("Session Not Opened"),
                SessionFiles::tr("%1 was not opened, so that the restored work stays in the "
                                 "window. Save it if you want to keep it, then open %1 with "
                                 "File → Open Session.")
                    .arg(names(kept)),
                QMessageBox::Ok, shown);
            box->setObjectName(QStringLiteral("sessionArgumentsMessage"));
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        },
        Qt::SingleShotConnection);
    shown->offerRecovery(recoveryFollowUp(arguments));
    return window;
}

} // namespace attn::ui
