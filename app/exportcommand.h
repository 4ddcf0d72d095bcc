// `attnscope export`: a figure (PNG, SVG, PDF) or the numbers (CSV, NPY, JSON) of one
// computation, written to a file without a window or a display.
#pragma once

#include "formats/commandline.h"
#include "session.h"

#include <optional>
#include <string>
#include <vector>

namespace attn::cli {

// Parses `args` as export does, `extra` being the command's own options: a --session
// FILE's whole request first, its texts, every switch and its embedding overrides (unless
// a --preset replaces it; --text replaces its text, --cross-text its keys' text), then
// every option given. The session, if any, in `session`.
[[nodiscard]] ComputeOptions parseWithSession(const std::vector<std::string>& args,
                                              const std::vector<Option>& extra,
                                              std::optional<ui::Session>& session);

// Runs `attnscope export` with `args` (after the command word); returns the exit status.
int exportCommand(const std::vector<std::string>& args);

// The export usage for printHelp: its options and the order in which settings apply.
[[nodiscard]] std::string exportHelp();

} // namespace attn::cli
