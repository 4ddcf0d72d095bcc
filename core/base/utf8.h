// UTF-8 in one place, over ICU's U8_ macros: decoding one character, checking a text,
// and writing a code point. No Qt. Offsets are std::size_t, so any length is fine
// (ICU's own indexes are int32_t; each call here looks at four bytes at the most).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace attn {

// The character at byte `at` of `text` (at < text.size()): its code point, negative when
// the bytes there are not well-formed UTF-8 (an overlong form, a surrogate, a code point
// above U+10FFFF, a stray continuation byte, a cut sequence), and its length in bytes
// (when ill-formed, the maximal ill-formed subsequence: at least 1).
struct Utf8Char {
    std::int32_t code;
    std::size_t length;
};
[[nodiscard]] Utf8Char utf8CharAt(std::string_view text, std::size_t at);

// The byte offset where the first ill-formed sequence of `text` starts, or npos.
[[nodiscard]] std::size_t invalidUtf8At(std::string_view text);
[[nodiscard]] inline bool validUtf8(std::string_view text)
{
    return invalidUtf8At(text) == std::string_view::npos;
}

// Appends the code point `c` as UTF-8. `c` must be a Unicode scalar value (at most
// U+10FFFF, not a surrogate).
void appendUtf8(std::string& out, char32_t c);

} // namespace attn
