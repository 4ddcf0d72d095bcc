// The one writer of figure files: every figure the window exports (a head's, Compare's,
// Step by step's, the d_k sweep's) and its numbers go to disk through it.
#pragma once

#include <QByteArray>
#include <QString>

namespace attn::ui {

// Writes `bytes` to `path` atomically (QSaveFile): on failure no partial file is left and an
// existing file is untouched. Returns an empty string on success, else a translated reason.
[[nodiscard]] QString writeFigureFile(const QString& path, const QByteArray& bytes);

} // namespace attn::ui
