// `attnscope compare`: the Compare dialog's figure without a window — A (the textbook
// formula, or the --a-… switches), B (the given switches) and B − A for one head, as PNG,
// SVG or PDF.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Runs `attnscope compare` with `args` (after the command word); returns the exit status.
int compareCommand(const std::vector<std::string>& args);

// The compare usage for printHelp: its options and how A and B are made.
[[nodiscard]] std::string compareHelp();

} // namespace attn::cli
