// Head patterns: four numbers that say what a trained head does, for teaching.
//
// For a head's weights P (T_q, T_k), row i the query, column j the key, the measures are
// means over the head's measured queries:
//   previous  P[i][i−1]                      the weight on the token just before
//   self      P[i][i]                        the weight on the token itself
//   first     P[i][0]                        the weight on the first token (the "sink")
//   entropy   −Σ_j P[i][j]·log2 P[i][j]      in bits, 0·log2 0 = 0; 0 when a query looks
//                                            at one key, log2 T_k when at all alike
//   entropyMax  log2 (keys with weight > 0)   the most the entropy could be for the keys
//                                            the query weighs (a masked key weighs 0)
// A head whose first exceeds kSinkThreshold is named an attention sink: it parks most of
// its weight on the first token, whatever that token is (Xiao et al. 2023, "Efficient
// Streaming Language Models with Attention Sinks": trained decoders' heads do so because
// the softmax must put its weight somewhere, and every query sees the first token).
// headRole() names what a head does most, for the table a learner reads (below).
// The measured queries are i = 1 … T_q − 1 in self-attention (query 0 has no previous
// token, and under a causal mask its one key makes it trivially "self" and "first"),
// and all queries in cross-attention, where previous and self have no meaning (NaN).
// A query whose row holds a NaN or an infinity is left out; `queries` counts the rest.
// The weights are taken as stored: rows that do not sum to 1 are not rescaled.
#pragma once

#include "attention/attentionstack.h"
#include "base/tensor.h"

#include <vector>

namespace attn {

struct HeadPatterns {
    double previous = 0;
    double self = 0;
    double first = 0;
    double entropy = 0;    // bits
    double entropyMax = 0; // bits: the mean of log2 (keys each query weighs)
    int queries = 0;       // queries measured; the means are NaN when 0
};

// More than half of the measured queries' weight on the first token, on average.
inline constexpr double kSinkThreshold = 0.5;

// What a head does most, in the order headRole() decides it:
//   PreviousToken, Self, FirstToken  that measure exceeds kRoleThreshold (more than half of
//                                    the measured queries' weight, on average); of two,
//                                    the larger, ties in this order. FirstToken is the
//                                    attention sink.
//   Broad          else, mean entropy ≥ kBroadThreshold · entropyMax: each query spreads
//                  its weight nearly evenly over the keys it weighs
//   NoClearPattern the rest, and a head with no measured query
enum class HeadRole { PreviousToken, Self, FirstToken, Broad, NoClearPattern };

inline constexpr double kRoleThreshold = kSinkThreshold;
inline constexpr double kBroadThreshold = 0.8;

[[nodiscard]] HeadRole headRole(const HeadPatterns& patterns);
// "previous_token", "self", "first_token", "broad", "none": the JSON's and the report's.
[[nodiscard]] const char* headRoleSpelling(HeadRole role);

// first > kSinkThreshold (false when first is NaN).
[[nodiscard]] inline bool isAttentionSink(const HeadPatterns& patterns)
{
    return patterns.first > kSinkThreshold;
}

// The patterns of one head's weights (T_q, T_k).
[[nodiscard]] HeadPatterns headPatterns(const Matrix& weights, bool cross);

// Every head of `sequence`, [l·H + h], on every core, each head converted once. Throws
// Cancelled (engine.h) when `cancel` becomes true.
[[nodiscard]] std::vector<HeadPatterns> stackPatterns(const AttentionStack& stack, int sequence,
                                                      const std::atomic<bool>* cancel = nullptr);

// The heads ordered by how like head `index` they are ("show heads like this one"): the
// Euclidean distance over previous, self, first and entropy / log2 T_k (each in [0, 1]
// for rows that sum to 1), the measures NaN in either left out. Head `index` comes first.
[[nodiscard]] std::vector<int> headsLike(const std::vector<HeadPatterns>& patterns, int index,
                                         int keys);

} // namespace attn
