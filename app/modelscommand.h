// `attnscope models`: the models already on this computer, in every folder where Hugging
// Face, ModelScope, Ollama and LM Studio keep them (core/models/modelcaches), one a line:
// name, tool, size, quantization and the path that --model and the window open. Nothing is
// downloaded.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::cli {

// A size in bytes as `ollama list` shows it: "397 MB", "1.1 GB", "48 B" (powers of 1000).
[[nodiscard]] std::string bytesText(std::uint64_t bytes);

// Lists them on standard output; exit status as in clicommands.h (2 for an argument).
int modelsCommand(const std::vector<std::string>& args);

} // namespace attn::cli
