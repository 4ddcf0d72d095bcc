// The command-line commands: each returns the process's exit status
// (0 success, 1 a file could not be written, 2 bad arguments).
#pragma once

#include <string>
#include <vector>

namespace attn::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitWriteFailed = 1;
inline constexpr int kExitUsage = 2;

// Dispatches on args[0], the command word.
int run(const std::vector<std::string>& args);

int compute(const std::vector<std::string>& args);
int listPresets(const std::vector<std::string>& args);

} // namespace attn::cli
