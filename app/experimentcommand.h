// `attnscope export --model DIR --text TEXT --experiment logit-lens|head-importance|
// head-roles|rollout --out FILE`: one experiment inside a real model (core/models:
// logitlens, headimportance; core/attention/headscores) as the window's dialog exports it
// (ui/model/experimentfiles) — a figure (PNG, SVG, PDF) or its numbers (CSV, JSON).
#pragma once

#include "formats/commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// export --model … --experiment …: exit status as in clicommands.h.
int experimentExportCommand(const std::vector<std::string>& args);

// The help of its options (English; `translate` gives another language).
[[nodiscard]] std::string experimentExportHelp(const HelpTranslator& translate);

} // namespace attn::cli
