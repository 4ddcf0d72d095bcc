// .attnscope session files: the text, every switch, the hand-set embeddings and the
// view, so a lesson can be reopened exactly as it was left.
//
// The file is UTF-8 JSON:
//   {"format": "attnscope-session", "version": 1, "text": "…",
//    "config": {…the fields of core/formats/requestfields, as the command line spells them…},
//    "embedding_overrides": {"cat": [C numbers], …},
//    "view": {"colormap": "viridis", "shared-scale": true, "annotate": true, "sequence": 0,
//             "margin-sums": false, "color-scale": "linear"}}
// The seed is a decimal string: JSON readers (JavaScript, Qt) hold numbers as doubles,
// which cannot hold every seed above 2^53. A number is accepted when reading, as long
// as it is a whole number no larger than 2^53.
// "format", "version", "text" and every config key are required; "embedding_overrides"
// and "view", and each key of the view, may be left out of a hand-written file and
// then take their defaults. Unknown keys are ignored.
#pragma once

#include "engine/engine.h"
#include "settings.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace attn::ui {

inline constexpr int kSessionVersion = 1;
inline constexpr qint64 kMaxSessionBytes = 64LL * 1024 * 1024; // larger files are refused unread

// What a session file holds.
struct Session {
    attn::Request request;
    ViewOptions view;
    bool operator==(const Session&) const = default;
};

// The session as an indented JSON document.
[[nodiscard]] QByteArray sessionToJson(const Session& session);

// The session in `json`, or nothing with a translated one-line reason in `*error`
// (when error is not null) naming the problem: not JSON, not a session, a newer
// format, a missing or mistyped field, an unknown spelling, an invalid config.
[[nodiscard]] std::optional<Session> sessionFromJson(const QByteArray& json,
                                                     QString* error = nullptr);

// Writes `session` to `path` atomically (writeFile): the previous file is replaced only once
// the new one is complete, so a failed save never damages it. On failure returns
// false with a one-line reason naming the path in `*error`.
[[nodiscard]] bool saveSession(const QString& path, const Session& session,
                               QString* error = nullptr);

// Reads the session file at `path`; files over kMaxSessionBytes are refused before
// they are read. On failure `*error` names the path and the problem.
[[nodiscard]] std::optional<Session> loadSession(const QString& path, QString* error = nullptr);

} // namespace attn::ui
