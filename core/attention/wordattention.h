// Attention by word (Clark et al. 2019, "What Does BERT Look At?", §3; bertviz#40): a
// (T, T) attention matrix made (W, W) for the W words its tokens are grouped into
// (wordgroups.h). Attention TO a word is the SUM of the attention to its tokens (its
// columns added), attention FROM a word the MEAN of its tokens' rows: so every row of the
// word matrix still sums to 1 when the token rows did. No Qt.
#pragma once

#include "attention/attentionstack.h"
#include "base/tensor.h"
#include "text/wordgroups.h"

#include <memory>
#include <vector>

namespace attn {

// `weights` (T_q, T_k) by the words `queries` (covering the T_q rows) and `keys` (the
// T_k columns). A NaN or ±inf weight carries into its word's cells. Throws
// std::invalid_argument when a group names a row or column outside the matrix, or the
// groups do not cover every one once.
[[nodiscard]] Matrix wordAttention(const Matrix& weights, const std::vector<WordGroup>& queries,
                                   const std::vector<WordGroup>& keys);
// Self-attention: the same words for rows and columns.
[[nodiscard]] Matrix wordAttention(const Matrix& weights, const std::vector<WordGroup>& words);

// Every head of every layer of `stack` by `words` (self-attention, each sequence grouped
// alike): (L, B, H, W, W), the words' labels as its tokens. Throws std::invalid_argument
// as wordAttention().
[[nodiscard]] std::shared_ptr<const MemoryAttentionStack>
wordAttentionStack(const AttentionStack& stack, const std::vector<WordGroup>& words);

} // namespace attn
