// `attnscope compute --attention-file FILE`: the weights of a file (any model's, computed
// elsewhere) as JSON or a summary, instead of the formula's.
#pragma once

#include "formats/commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// compute with --attention-file: exit status as in clicommands.h.
int attentionFileCommand(const std::vector<std::string>& args);

// The help of these options (English; `translate` gives another language).
[[nodiscard]] std::string attentionFileHelp(const HelpTranslator& translate);

} // namespace attn::cli
