#include "systemerror.h"

#include <QCoreApplication>

#include <cerrno>
#include <cstring>

namespace attn::ui {
namespace {

struct KnownError {
    int code;            // errno
    const char* english; // the C library's words in English, as Qt spells some of them
    const char* reason;  // ours, translated
};

const KnownError kKnownErrors[] = {
    {EACCES, "Permission denied", QT_TRANSLATE_NOOP("SystemError", "no permission")},
    {EPERM, "Operation not permitted", QT_TRANSLATE_NOOP("SystemError", "no permission")},
    {ENOSPC, "No space left on device", QT_TRANSLATE_NOOP("SystemError", "the disk is full")},
#ifdef EDQUOT
    {EDQUOT, "Disk quota exceeded", QT_TRANSLATE_NOOP("SystemError", "the disk quota is used up")},
#endif
    {EFBIG, "File too large", QT_TRANSLATE_NOOP("SystemError", "the file is too large")},
    {ENOENT, "No such file or directory",
     QT_TRANSLATE_NOOP("SystemError", "no such file or folder")},
    {EROFS, "Read-only file system", QT_TRANSLATE_NOOP("SystemError", "the disk is read-only")},
    {ENOTDIR, "Not a directory",
     QT_TRANSLATE_NOOP("SystemError", "a part of the path is not a folder")},
    {EISDIR, "Is a directory", QT_TRANSLATE_NOOP("SystemError", "it is a folder")},
    {ENAMETOOLONG, "File name too long", QT_TRANSLATE_NOOP("SystemError", "the name is too long")},
    {EIO, "Input/output error",
     QT_TRANSLATE_NOOP("SystemError", "the disk cannot be read or written")},
};

} // namespace

QString systemErrorText(const QString& systemText)
{
    const QString trimmed = systemText.trimmed();
    for (const KnownError& known : kKnownErrors) {
        // The words of the C library in the process's locale, Qt's own English ones, or
        // these as Qt's translations put them (qtbase_zh_CN has a few: 此文件或目录不存在).
        const QString english = QLatin1String(known.english);
        if (trimmed != english && trimmed != QString::fromLocal8Bit(std::strerror(known.code)) &&
            trimmed != QCoreApplication::translate("QIODevice", known.english))
            continue;
        const QString reason = QCoreApplication::translate("SystemError", known.reason);
        if (reason == QLatin1String(known.reason)) // English: the system's words say it
            return systemText;
        // In brackets the system's own words, in English where Qt translated them.
        const QString original =
            trimmed == QCoreApplication::translate("QIODevice", known.english) ? english : trimmed;
        //: %1 is the reason in the interface's language, %2 the system's own words
        //: ("Permission denied"), kept for a search or a report.
        return QCoreApplication::translate("SystemError", "%1 (%2)").arg(reason, original);
    }
    return systemText;
}

QString systemErrorText(int code)
{
    return systemErrorText(QString::fromLocal8Bit(std::strerror(code)));
}

} // namespace attn::ui
