// `attnscope sweep`: exercise 1 of the tutorial ("把C从 16 改到 512，观察缩放前后标准差的变化")
// on the command line: one sentence at d_k = 16 … 1024 with and without the 1/√d_k
// scaling, as a table, as JSON (--json) or as a figure of the charts (--out).
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

// Runs `attnscope sweep` with `args` (after the command word); returns the exit status.
int sweepCommand(const std::vector<std::string>& args);

// The sweep usage for printHelp: its options and what it does with those of compute.
[[nodiscard]] std::string sweepHelp();

} // namespace attn::cli
