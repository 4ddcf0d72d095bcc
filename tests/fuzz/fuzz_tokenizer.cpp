// libFuzzer target: the tokenizer on arbitrary bytes, in every TokenizerMode.
//
// A text either gives InputError (invalid UTF-8, no token, too many lines or tokens) or
// a batch that keeps tokenize()'s promises: B × T padded with <pad>, every real token
// non-empty, visible, free of separators and found in the text in order, and each
// sequence equal to tokenizeLine() of its line. Any other exception, a crash or a
// sanitizer report is a finding.
#include "engine/options.h"
#include "engine/tokenizer.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using attn::TokenizerMode;

[[noreturn]] void broken(const char* promise, TokenizerMode mode)
{
    std::fprintf(stderr, "tokenize (%s) broke its promise: %s\n",
                 std::string(attn::spellingOf(mode)).c_str(), promise);
    std::abort();
}

// tokenizer.cpp's rules, restated: white space, control characters and U+FEFF are
// never part of a token; a token has a code point that is not default-ignorable.
bool isSeparator(UChar32 c)
{
    return u_isUWhiteSpace(c) || u_charType(c) == U_CONTROL_CHAR || c == 0xFEFF;
}

void checkToken(std::string_view token, TokenizerMode mode)
{
    if (token.empty())
        broken("a token is empty", mode);
    const auto* s = reinterpret_cast<const std::uint8_t*>(token.data());
    const auto length = static_cast<std::int32_t>(token.size());
    bool visible = false;
    for (std::int32_t i = 0; i < length;) {
        UChar32 c;
        U8_NEXT(s, i, length, c);
        if (c < 0)
            broken("a token is not valid UTF-8", mode);
        if (isSeparator(c))
            broken("a token holds white space or a control character", mode);
        if (!u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT))
            visible = true;
    }
    if (!visible)
        broken("a token has nothing visible", mode);
}

// The lines tokenize() reads: split at '\n', a trailing '\r' dropped.
std::vector<std::string_view> linesOf(std::string_view text)
{
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        if (line.ends_with('\r'))
            line.remove_suffix(1);
        lines.push_back(line);
        start = end + 1;
    }
    return lines;
}

void checkBatch(std::string_view text, const attn::TokenBatch& batch, TokenizerMode mode)
{
    // 1. The shape: B × T, B and T within the limits, T the longest sequence.
    const int b = batch.batch();
    const int t = batch.length();
    if (b < 1 || b > attn::kMaxSequences || t < 1 || t > attn::kMaxTokens)
        broken("B or T outside the limits", mode);
    if (batch.lengths.size() != batch.tokens.size())
        broken("lengths and tokens differ in size", mode);
    int longest = 0;
    for (int k = 0; k < b; ++k) {
        const auto& row = batch.tokens[static_cast<std::size_t>(k)];
        const int length = batch.lengths[static_cast<std::size_t>(k)];
        if (static_cast<int>(row.size()) != t || length < 1 || length > t)
            broken("a sequence is not padded to T", mode);
        longest = std::max(longest, length);
        for (int j = length; j < t; ++j)
            if (row[static_cast<std::size_t>(j)] != attn::kPadToken || !batch.isPad(k, j))
                broken("padding is not <pad>", mode);
    }
    if (longest != t)
        broken("T is not the longest sequence", mode);

    // 2. Each sequence is tokenizeLine() of the next line that has tokens, and its
    //    tokens appear in that line in order.
    std::size_t next = 0;
    for (std::string_view line : linesOf(text)) {
        const std::vector<std::string> tokens = attn::tokenizeLine(line, mode);
        if (tokens.empty())
            continue;
        if (next >= batch.tokens.size())
            broken("a line with tokens has no sequence", mode);
        const auto& row = batch.tokens[next];
        const auto length = static_cast<std::size_t>(batch.lengths[next]);
        if (tokens.size() != length || !std::equal(tokens.begin(), tokens.end(), row.begin()))
            broken("a sequence differs from tokenizeLine() of its line", mode);
        std::size_t at = 0;
        for (const std::string& token : tokens) {
            checkToken(token, mode);
            at = line.find(token, at);
            if (at == std::string_view::npos)
                broken("a token is not in its line, in order", mode);
            at += token.size();
        }
        ++next;
    }
    if (next != batch.tokens.size())
        broken("more sequences than lines with tokens", mode);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    for (const auto& row : attn::EnumTable<TokenizerMode>::rows) {
        attn::TokenBatch batch;
        try {
            batch = attn::tokenize(text, row.value);
        } catch (const attn::InputError&) {
            // The line-level API must still cope with the whole text as one line.
            try {
                (void)attn::tokenizeLine(text, row.value);
            } catch (const attn::InputError&) {
            }
            continue;
        }
        checkBatch(text, batch, row.value);
    }
    return 0;
}
