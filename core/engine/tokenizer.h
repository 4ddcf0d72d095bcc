// UTF-8 text to tokens, one sequence per line, with ICU's break iterators.
#pragma once

#include "engine/options.h"

#include <string>
#include <string_view>
#include <vector>

namespace attn {

inline constexpr std::string_view kPadToken = "<pad>";

// The batch of token sequences made from one text, padded to a common length T.
struct TokenBatch {
    std::vector<std::vector<std::string>> tokens; // B × T, padded with kPadToken
    std::vector<int> lengths;                     // real tokens per sequence (≤ T)

    [[nodiscard]] int batch() const { return static_cast<int>(tokens.size()); }
    [[nodiscard]] int length() const
    {
        return tokens.empty() ? 0 : static_cast<int>(tokens[0].size());
    }
    [[nodiscard]] bool isPad(int b, int t) const
    {
        return t >= lengths[static_cast<std::size_t>(b)];
    }
    bool operator==(const TokenBatch&) const = default;
};

// The tokens of one line (no line breaks inside). White space is never a token.
// Throws InputError naming the byte offset when `line` is not valid UTF-8.
[[nodiscard]] std::vector<std::string> tokenizeLine(std::string_view line, TokenizerMode mode);

// Every non-blank line of `text` becomes one sequence; shorter ones are padded.
// Throws InputError for invalid UTF-8 (with the byte offset in the whole text), for a
// text without any token, and for more than kMaxSequences lines or kMaxTokens tokens.
[[nodiscard]] TokenBatch tokenize(std::string_view text, TokenizerMode mode);

} // namespace attn
