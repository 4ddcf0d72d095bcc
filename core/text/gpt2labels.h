// Readable labels for byte-level tokens: what a heatmap axis shows for each token.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attn {

// What a token shows when it only continues a character an earlier token began.
inline constexpr std::string_view kContinuationMark = "\u22EF"; // ⋯

// One token's label. A character whose UTF-8 bytes are spread over several tokens (a
// Chinese character, an emoji with its modifiers or ZWJ partners, a letter with its
// combining accent: one grapheme cluster) is shown whole by the token its first byte is
// in; a token holding only later bytes shows kContinuationMark. The tokens so joined form
// a run, whose characters runText spells for a hover.
struct TokenLabel {
    std::string label;   // the characters this token begins, control characters made
                         // visible (↵ ⇥ ␍, ␣ for a token of white space only)
    std::string piece;   // the vocabulary's spelling, e.g. "Ġthe" or "ä½"
    std::string bytes;   // the token's bytes in hex, "E4 BD"
    std::string runText; // the text of the whole run, as decode() gives it
    int runFirst = 0;    // index of the run's first token
    int runLength = 1;   // tokens in the run
    bool continuation = false;
    bool operator==(const TokenLabel&) const = default;
};

// The labels of tokens with these `bytes` (one string of raw bytes per token) and these
// vocabulary spellings (`pieces`, same length). Bytes that are not valid UTF-8 (a character
// cut short, as a predicted token often is, or a lone continuation byte) show as their hex
// in single guillemets, one pair per maximal invalid subsequence: "‹E6 88›", so that such
// tokens stay readable and distinct (U+FFFD would make them all alike). runText keeps
// decode()'s U+FFFD.
[[nodiscard]] std::vector<TokenLabel> labelTokens(const std::vector<std::string>& bytes,
                                                  const std::vector<std::string>& pieces);

// `bytes` as UTF-8 text, each maximal invalid subsequence replaced by U+FFFD (Python's
// bytes.decode("utf-8", errors="replace"), which GPT-2's decoder uses).
[[nodiscard]] std::string decodeUtf8Replacing(std::string_view bytes);

} // namespace attn
