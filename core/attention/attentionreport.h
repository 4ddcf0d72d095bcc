// What `attnscope compute --attention-file` writes: one sequence of an attention stack as
// JSON (every weight, each head's statistics and patterns), or a short text summary.
#pragma once

#include "attention/attentionstack.h"
#include "engine/statistics.h"

#include <optional>
#include <string>

namespace attn {

// {"file", "dtype", "shape": {layers, sequences, heads, queries, keys}, "sequence",
//  "cross", "tokens" (when known), "key_tokens" (cross, when known), "layers": [{"layer",
//  "heads": [{"head", "weights": T_q × T_k nested lists, "statistics": {…},
//  "patterns": {previous, self, first, entropy, queries}}]}]}. Weights are printed as the
// shortest decimals that read back as the same floats; NaN and ±inf as null (counted in
// the statistics). `layer`: that layer alone, else all; `head`: that head of each layer
// alone, else all. Throws InputError for a sequence, layer or head outside the stack.
[[nodiscard]] std::string attentionJson(const AttentionStack& stack, int sequence,
                                        std::optional<int> layer = std::nullopt,
                                        std::optional<int> head = std::nullopt);

// The mean of layer `layer`'s heads (meanHead) as attentionJson writes a layer, its one
// head {"head": "mean", "weights", "statistics", "patterns"}. Throws as attentionJson.
[[nodiscard]] std::string attentionMeanJson(const AttentionStack& stack, int sequence, int layer);

// The file's shape and tokens, and a table of every head's patterns, for a terminal.
[[nodiscard]] std::string attentionSummary(const AttentionStack& stack, int sequence,
                                           std::optional<int> layer = std::nullopt);

// The statistics of a head known by its weights alone (T_q, T_k): no scores, no mask. The
// figures of the scores (std_scores, std_scaled) are NaN; every key counts as unmasked.
[[nodiscard]] HeadStatistics weightStatistics(const Matrix& weights);

// Throws InputError unless 0 ≤ sequence < B and (when given) 0 ≤ layer < L and
// 0 ≤ head < H; the message names the option (--sequence, --layer, --what head:N), the
// file and the range.
void checkSequenceAndLayer(const AttentionStack& stack, int sequence, std::optional<int> layer,
                           std::optional<int> head = std::nullopt);

} // namespace attn
