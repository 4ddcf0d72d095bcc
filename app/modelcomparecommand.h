// `attnscope compare --model DIR --text TEXT [switches] --layer L --what head:H|mean --out FIG`:
// the window's Compare A/B without a window — the model run with its textbook formula (A)
// and with the switches given (B), one head (or a layer's mean head) of both and B − A, and
// both top-10 next tokens in the caption, as PNG, SVG or PDF.
#pragma once

#include "formats/commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// compare with --model: exit status as in clicommands.h.
int modelCompareCommand(const std::vector<std::string>& args);

// The help of these options (English; `translate` gives another language).
[[nodiscard]] std::string modelCompareHelp(const HelpTranslator& translate);

} // namespace attn::cli
