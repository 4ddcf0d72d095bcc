// `attnscope compute --model DIR --text TEXT` (and export --model): a real model (GPT-2) run
// natively, with the formula's switches inside every layer (or one layer, --only-layer), written as
// JSON.
#pragma once

#include "commandline.h"

#include <string>
#include <vector>

namespace attn::cli {

// compute with --model: exit status as in clicommands.h.
int modelCommand(const std::vector<std::string>& args);

// export with --model: the run's attention as `export --attention-file` draws a file's
// (--layer, --what head:H|mean|model, --out FIG or numbers); exit status as in clicommands.h.
int modelExportCommand(const std::vector<std::string>& args);

// The help of these options (English; `translate` gives another language).
[[nodiscard]] std::string modelHelp(const HelpTranslator& translate);
// export's with --model.
[[nodiscard]] std::string modelExportHelp(const HelpTranslator& translate);

} // namespace attn::cli
