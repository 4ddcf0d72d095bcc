// A path as the model windows show it: "~/…" under the home folder (the way a terminal and the
// README write it, shorter and the same on every machine), elsewhere in full.
#pragma once

#include <QString>

namespace attn::ui {

[[nodiscard]] QString shownPath(const QString& path);

} // namespace attn::ui
