// The one writer of AttnScope's files: the command line's figures, numbers and reports,
// and the window's exports. A temporary file beside the target, flushed to disk, then
// renamed over it, so that a failure never leaves a partial file and an existing file
// stays as it was until the new one is whole.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace attn {

// Why a file could not be written: the path as given ("-" for standard output) and the
// system's error number, for the window to word in its language.
struct WriteFailure {
    std::string path;
    int code = 0; // errno
};

// Writes `content` to `path` atomically; "-" writes to standard output. A link is
// written through, and a replaced file keeps its permissions. Nothing on success, else
// the failure.
[[nodiscard]] std::optional<WriteFailure> writeAtomically(const std::string& path,
                                                          std::string_view content);

// The failure in one line of English: "cannot write PATH: REASON" (the C library's
// words), or "cannot write to standard output".
[[nodiscard]] std::string failureMessage(const WriteFailure& failure);

// writeAtomically, then an empty string on success, else failureMessage().
[[nodiscard]] std::string writeFileAtomically(const std::string& path, const std::string& content);

} // namespace attn
