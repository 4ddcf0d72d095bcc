#include "figurewriter.h"

#include "systemerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QSaveFile>

namespace attn::ui {

QString writeFigureFile(const QString& path, const QByteArray& bytes)
{
    // QSaveFile writes a temporary file beside `path` and renames it on commit; until
    // then, and on any failure, an existing file stays as it was.
    QSaveFile file(path);
    const auto failure = [&] {
        return QCoreApplication::translate("Figure", "Cannot write %1: %2")
            .arg(QDir::toNativeSeparators(path), systemErrorText(file.errorString()));
    };
    if (!file.open(QIODevice::WriteOnly))
        return failure();
    if (file.write(bytes) != bytes.size()) {
        const QString reason = failure();
        file.cancelWriting();
        return reason;
    }
    if (!file.commit())
        return failure();
    return {};
}

} // namespace attn::ui
