// `attnscope steps --model DIR --text TEXT --layer L --head H --out FIG`: the Step by Step
// strip of one head inside a real model (LanguageModel::trace), with the model's own
// numbers under the formula's switches.
#pragma once

#include "formats/commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// steps with --model: exit status as in clicommands.h.
int modelStepsCommand(const std::vector<std::string>& args);

// The help of its options (English; `translate` gives another language).
[[nodiscard]] std::string modelStepsHelp(const HelpTranslator& translate);

} // namespace attn::cli
