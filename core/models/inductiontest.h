// The induction test (Olsson et al. 2022; TransformerLens's head detector): random ordinary
// tokens, then the same tokens again. On the second copy an induction head attends to the
// token after the earlier occurrence of the current one, and the model predicts the copy.
// No Qt.
#pragma once

#include "models/languagemodel.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace attn {

// The positions [first, end) of `ids` that are the text's: after the template's first token
// (Llama's <s>, BERT's [CLS]) where the ids begin with it, and before its last (BERT's
// [SEP]) where the template has two or more and the ids end with it.
[[nodiscard]] std::pair<int, int> textPositions(const LanguageModel& model,
                                                const std::vector<int>& ids);

// The test's ids: the template's first token where the model has one, N ordinary ids drawn
// with `seed`, the same N again, and the template's last where it has two or more. An id
// is drawn as the next value of std::mt19937(seed) modulo V, drawn again when it is a
// control token (readsAsSpecial, spelt as its text) or one of the template's. Throws
// InputError for N < 2 or a test longer than the model reads.
[[nodiscard]] std::vector<int> inductionIds(const LanguageModel& model, int N, std::uint32_t seed);

} // namespace attn
