// `attnscope generate --model DIR --text TEXT --tokens N [--greedy | --temperature X --top-k K
// --top-p P --seed S] [switches, knock-outs] --json OUT`: a decoder writes N new tokens under
// the formula's switches (core/models/generation), as JSON.
#pragma once

#include "formats/commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// generate: exit status as in clicommands.h.
int generateCommand(const std::vector<std::string>& args);

// The help of its options (English; `translate` gives another language).
[[nodiscard]] std::string generateHelp(const HelpTranslator& translate);

} // namespace attn::cli
