#include "figurewriter.h"

#include "io/atomicwrite.h"
#include "systemerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>

namespace attn::ui {

std::optional<QString> writeFile(const QString& path, const QByteArray& bytes)
{
    // The window's "-" is a file of that name, not standard output as on the command line.
    const QString target = path == QLatin1String("-") ? QStringLiteral("./-") : path;
    const std::optional<WriteFailure> failure =
        writeAtomically(QFile::encodeName(target).toStdString(),
                        std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (!failure)
        return std::nullopt;
    return systemErrorText(failure->code);
}

QString writeFigureFile(const QString& path, const QByteArray& bytes)
{
    const std::optional<QString> reason = writeFile(path, bytes);
    if (!reason)
        return {};
    return QCoreApplication::translate("Figure", "Cannot write %1: %2")
        .arg(QDir::toNativeSeparators(path), *reason);
}

} // namespace attn::ui
