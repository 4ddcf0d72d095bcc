// A file's bytes, as the tests read back what the program wrote and write their inputs.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace attn::test {

// The whole file, or nothing when it cannot be read.
inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// True when `bytes` are all written to `path`.
inline bool writeAll(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace attn::test
