// `attnscope export`: a figure (PNG, SVG, PDF) or the numbers (CSV, NPY, JSON) of one
// computation, written to a file without a window or a display.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Runs `attnscope export` with `args` (after the command word); returns the exit status.
int exportCommand(const std::vector<std::string>& args);

// The export usage for printHelp: its options and the order in which settings apply.
[[nodiscard]] std::string exportHelp();

} // namespace attn::cli
