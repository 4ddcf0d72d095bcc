#include "desktopintegration.h"

#include "attentionfileopener.h"
#include "mainwindow.h"
#include "modelopener.h"
#include "sessionfiles.h"

#include <QFileInfo>
#include <QMessageBox>

#include <cctype>
#include <cstdio>

namespace attn::ui {

QIcon applicationIcon()
{
    QIcon bundled;
    for (const int size : {16, 22, 24, 32, 48, 64, 128, 256})
        bundled.addFile(QStringLiteral(":/icons/attnscope-%1.png").arg(size), QSize(size, size));
    return QIcon::fromTheme(QString::fromLatin1(kDesktopId), bundled);
}

bool isSessionArgument(std::string_view argument)
{
    constexpr std::string_view suffix = ".attnscope";
    if (argument.size() <= suffix.size())
        return false;
    const std::string_view end = argument.substr(argument.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(end[i])) != suffix[i])
            return false;
    return true;
}

bool isWindowArgument(std::string_view argument)
{
    const QString path = QString::fromUtf8(argument.data(), qsizetype(argument.size()));
    return isSessionArgument(argument) || isAttentionFileName(path) || isModelPath(path);
}

QString openSessionArguments(MainWindow& window, const QStringList& arguments)
{
    QStringList paths; // the sessions
    for (const QString& path : arguments) {
        if (isAttentionFileName(path))
            openAttentionFile(&window, QFileInfo(path).absoluteFilePath());
        else if (isModelPath(path))
            window.modelOpener()->open(QFileInfo(path).absoluteFilePath());
        else
            paths << path;
    }
    QStringList problems;
    qsizetype next = 0;
    QString opened;
    while (next < paths.size() && opened.isEmpty()) {
        QString error;
        // Absolute, so that the recent files still find it from another folder.
        const QString path = QFileInfo(paths[next]).absoluteFilePath();
        if (window.sessionFiles()->open(path, &error))
            opened = path;
        else
            problems << error;
        ++next;
    }
    const QStringList unopened = paths.mid(next);
    if (!unopened.isEmpty())
        //: Files named on the command line; %2 lists those left unopened.
        problems << SessionFiles::tr("One window shows one session: %1 is open, not %2.")
                        .arg(opened, unopened.join(QStringLiteral(", ")));
    if (problems.isEmpty())
        return {};
    const bool failed = opened.isEmpty() || next > 1;
    const QString message = problems.join(QLatin1Char('\n'));
    std::fprintf(stderr, "attnscope: %s\n", message.toUtf8().constData());
    auto* box = new QMessageBox(failed ? QMessageBox::Warning : QMessageBox::Information,
                                failed ? SessionFiles::tr("Cannot Open Session")
                                       : SessionFiles::tr("Session Opened"),
                                message, QMessageBox::Ok, &window);
    box->setObjectName(QStringLiteral("sessionArgumentsMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return message;
}

} // namespace attn::ui
