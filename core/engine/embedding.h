// Stage 2: tokens → X (B, T, C).
#pragma once

#include "base/tensor.h"
#include "engine/options.h"
#include "engine/tokenizer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn {

class TorchGenerator;

// The vector (C) that embedding mode "table" gives `token`: drawn from a generator
// seeded by (seed, token) alone, so a word keeps its vector in every sentence.
[[nodiscard]] Vector tokenVector(std::uint64_t seed, const std::string& token, int dModel);

// Sinusoidal positional encoding (Vaswani et al. 2017, 3.5), (T, C).
[[nodiscard]] Matrix sinusoidalEncoding(int length, int dModel);
// The same, at least `length` rows (its first `length` rows are the encoding): the
// longest made so far for this C, kept for the process while it is at most 64 MB.
[[nodiscard]] std::shared_ptr<const Matrix> sharedSinusoidalEncoding(int length, int dModel);

// X for every sequence, B × (T, C). In mode "torch" the values come from `generator`
// (torch.randn(B, T, C) right after manual_seed) and the tokens are ignored.
[[nodiscard]] std::vector<Matrix> embed(const TokenBatch& tokens, const Config& config,
                                        const std::map<std::string, std::vector<float>>& overrides,
                                        TorchGenerator& generator);

} // namespace attn
