// The system's reason for a failed file operation, in the interface's language.
#pragma once

#include <QString>

namespace attn::ui {

// `systemText`, the C library's words for an error as QFileDevice::errorString() gives them
// ("Permission denied"), for a Chinese reader: the common reasons (no permission, disk full,
// no such file, read-only file system …) translated, the system's words kept in brackets
// ("没有权限（Permission denied）"); any other reason, and every reason in English, as the
// system says it.
[[nodiscard]] QString systemErrorText(const QString& systemText);
// The same for the system's error number `code` (errno), as core reports a failure.
[[nodiscard]] QString systemErrorText(int code);

} // namespace attn::ui
