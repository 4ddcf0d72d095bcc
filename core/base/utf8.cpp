#include "base/utf8.h"

#include <unicode/utf8.h>

#include <algorithm>

namespace attn {

Utf8Char utf8CharAt(std::string_view text, std::size_t at)
{
    const auto* s = reinterpret_cast<const std::uint8_t*>(text.data() + at);
    const auto window = static_cast<std::int32_t>(std::min<std::size_t>(text.size() - at, 4));
    std::int32_t used = 0;
    UChar32 c = 0;
    U8_NEXT(s, used, window, c);
    return {c, static_cast<std::size_t>(used)};
}

std::size_t invalidUtf8At(std::string_view text)
{
    for (std::size_t at = 0; at < text.size();) {
        if (static_cast<unsigned char>(text[at]) < 0x80) {
            ++at;
            continue;
        }
        const Utf8Char c = utf8CharAt(text, at);
        if (c.code < 0)
            return at;
        at += c.length;
    }
    return std::string_view::npos;
}

void appendUtf8(std::string& out, char32_t c)
{
    char buffer[U8_MAX_LENGTH];
    std::int32_t length = 0;
    U8_APPEND_UNSAFE(buffer, length, static_cast<UChar32>(c)); // c is a scalar value
    out.append(buffer, static_cast<std::size_t>(length));
}

} // namespace attn
