// Ready-made configurations, each showing one lesson of the tutorial.
#pragma once

#include "engine/engine.h"

#include <string_view>
#include <vector>

namespace attn {

// The context under which the window and `attnscope presets --language` translate a
// preset's tagline.
inline constexpr const char* kPresetContext = "Presets";

struct Preset {
    std::string_view name;    // as --preset spells it
    std::string_view summary; // one English line for --help and the CLI report
    // What the preset shows, in a line: the window's preset menu (status tip) and panel, and
    // `attnscope presets` in another language. English, marked for translation in
    // kPresetContext (QT_TRANSLATE_NOOP).
    const char* tagline;
    Request request;
};

// Every preset, in menu order.
[[nodiscard]] const std::vector<Preset>& presets();

// The preset called `name`, or nullptr.
[[nodiscard]] const Preset* findPreset(std::string_view name);

} // namespace attn
