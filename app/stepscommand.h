// `attnscope steps`: the Step by Step dialog's strip without a window — one head's
// pipeline from X to the output, each matrix with its formula and shape, as PNG, SVG or
// PDF for a handout.
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Runs `attnscope steps` with `args` (after the command word); returns the exit status.
int stepsCommand(const std::vector<std::string>& args);

// The steps usage for printHelp.
[[nodiscard]] std::string stepsHelp();

} // namespace attn::cli
