// A model run by word (wordgroups.h, wordattention.h): its tokens grouped into ICU's words
// (WordPiece's way for BERT, the byte pieces' way for the others), and its attention made
// word by word. No Qt.
#pragma once

#include "attention/wordattention.h"
#include "models/languagemodel.h"
#include "text/wordgroups.h"

#include <memory>
#include <vector>

namespace attn {

// The words of `run`'s tokens, in order, covering each token once.
[[nodiscard]] std::vector<WordGroup> runWords(const ModelRun& run);

// `run`'s attention (L, 1, H, T, T) made (L, 1, H, W, W) for `words` (runWords(run)): the
// sum over a word's columns, the mean over its rows.
[[nodiscard]] std::shared_ptr<const MemoryAttentionStack>
runWordAttention(const ModelRun& run, const std::vector<WordGroup>& words);

} // namespace attn
