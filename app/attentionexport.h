// `attnscope export --attention-file FILE`: a figure of a file's attention (one head of a
// layer, the layer's mean head, or the model: every layer and head as thumbnails) as PNG,
// SVG or PDF, or its numbers as CSV, NPY or JSON, without a window or a display.
#pragma once

#include "commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// Runs export with `args` (after the command word) that name an attention file
// (namesAttentionFile); returns the exit status as in clicommands.h.
int attentionExportCommand(const std::vector<std::string>& args);

// The help of these options (English; `translate` gives another language).
[[nodiscard]] std::string attentionExportHelp(const HelpTranslator& translate);

} // namespace attn::cli
