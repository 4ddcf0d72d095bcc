// GPT-2's pre-tokenizer: the text cut into the pieces that BPE then merges within.
#pragma once

#include <string_view>
#include <vector>

namespace attn {

// The pieces GPT-2's regular expression
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// finds in `text`, as Python's `regex` module finds them (on code points, \s = White_Space,
// \p{L} and \p{N} by general category, from the Unicode version of the ICU linked: ICU 72
// knows Unicode 15.0, so a letter assigned later counts as neither). The pieces are views into
// `text` and cover it exactly. Throws InputError (Refusal::InvalidUtf8, with the byte offset) for
// invalid UTF-8.
[[nodiscard]] std::vector<std::string_view> gpt2Pieces(std::string_view text);

} // namespace attn
