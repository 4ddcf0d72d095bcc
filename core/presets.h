// Ready-made configurations, each showing one lesson of the tutorial.
#pragma once

#include "engine.h"

#include <string_view>
#include <vector>

namespace attn {

struct Preset {
    std::string_view name;    // as --preset spells it
    std::string_view summary; // one English line for --help and the CLI report
    Request request;
};

// Every preset, in menu order.
[[nodiscard]] const std::vector<Preset>& presets();

// The preset called `name`, or nullptr.
[[nodiscard]] const Preset* findPreset(std::string_view name);

} // namespace attn
