// The window's writer of files: every figure it exports (a head's, Compare's, Step by
// step's, the d_k sweep's), its numbers and its sessions go to disk through core's one
// atomic writer (writeAtomically), its failure worded in the interface's language.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace attn::ui {

// Writes `bytes` to `path` with writeAtomically: on failure no partial file is left and an
// existing file is untouched. Nothing on success, else the system's reason, translated
// (systemErrorText).
[[nodiscard]] std::optional<QString> writeFile(const QString& path, const QByteArray& bytes);

// The same for a figure or numbers: an empty string on success, else a translated
// "Cannot write PATH: REASON".
[[nodiscard]] QString writeFigureFile(const QString& path, const QByteArray& bytes);

} // namespace attn::ui
