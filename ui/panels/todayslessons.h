// The lessons of today's models' switches (gqa … attention-sink), for the preset panel:
// lessonOf (presetlessons.h) asks here for the presets it does not know.
#pragma once

#include "presetlessons.h"

namespace attn::ui {

// The lesson of one of today's presets, translated; empty for any other name.
[[nodiscard]] Lesson todaysLessonOf(const QString& name);

} // namespace attn::ui
