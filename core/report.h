// What `attnscope compute` prints: a readable report, or every number as JSON.
#pragma once

#include "engine.h"

#include <string>

namespace attn {

// The tutorial-style report: tokens, shapes, std before and after scaling, row sums,
// a per-head table of statistics, and the warnings.
[[nodiscard]] std::string textReport(const Result& result);

// One JSON object: tokens, config, shape, stats, warnings, heads (scores, scaled,
// weights and per-head stats as T×T nested lists), output (B×T×C) and nonfinite.
// Non-finite numbers are written as null and counted in "nonfinite".
[[nodiscard]] std::string jsonReport(const Result& result);

// "(2, 4, 16)": a shape as PyTorch prints torch.Size.
[[nodiscard]] std::string shapeText(std::initializer_list<long long> dims);

} // namespace attn

namespace attn {
class JsonWriter;
// The "config" object: every switch, keyed and spelled as on the command line.
void writeConfig(JsonWriter& json, const Config& config);
} // namespace attn
