// Token labels: the byte stream of all tokens cut into characters, each character given to
// the token its first byte is in.
#include "text/gpt2labels.h"

#include "base/utf8.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace attn {
namespace {

constexpr std::string_view kReplacement = "\uFFFD";

// How a character shows on an axis: line breaks and other control characters as their
// pictures, so that a label never breaks a line or vanishes.
void appendVisible(std::string& out, UChar32 c)
{
    if (c == '\n')
        out += "\u21B5"; // ↵
    else if (c == '\t')
        out += "\u21E5"; // ⇥
    else if (c < 0x20)
        appendUtf8(out, static_cast<char32_t>(0x2400 + c)); // ␀ … ␟, ␍ for \r
    else if (c == 0x7F)
        out += "\u2421"; // ␡
    else
        appendUtf8(out, static_cast<char32_t>(c));
}

std::string hex(std::string_view bytes)
{
    static constexpr char digits[] = "0123456789ABCDEF";
    std::string out;
    for (const char b : bytes) {
        if (!out.empty())
            out += ' ';
        const auto u = static_cast<unsigned char>(b);
        out += digits[u >> 4];
        out += digits[u & 15];
    }
    return out;
}

// The characters of `bytes` in order (invalid subsequences as negative code points).
std::vector<Utf8Char> codePoints(std::string_view bytes)
{
    std::vector<Utf8Char> chars;
    for (std::size_t pos = 0; pos < bytes.size();) {
        chars.push_back(utf8CharAt(bytes, pos));
        pos += chars.back().length;
    }
    return chars;
}

// Where each grapheme cluster of `chars` ends (an index into `chars`), by ICU's rules for
// the root locale; an invalid subsequence counts as U+FFFD.
std::vector<std::size_t> graphemeClusterEnds(const std::vector<Utf8Char>& chars)
{
    icu::UnicodeString text;
    std::vector<std::size_t> charAtUnit; // UTF-16 index → index into chars
    for (std::size_t i = 0; i < chars.size(); ++i) {
        text.append(chars[i].code < 0 ? UChar32{0xFFFD} : chars[i].code);
        charAtUnit.resize(static_cast<std::size_t>(text.length()), i);
    }
    charAtUnit.push_back(chars.size());
    std::vector<std::size_t> ends;
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> clusters(
        icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) {
        // No break iterator: each code point is its own cluster.
        for (std::size_t i = 1; i <= chars.size(); ++i)
            ends.push_back(i);
        return ends;
    }
    clusters->setText(text);
    clusters->first();
    for (std::int32_t end = clusters->next(); end != icu::BreakIterator::DONE;
         end = clusters->next())
        ends.push_back(charAtUnit[static_cast<std::size_t>(end)]);
    return ends;
}

} // namespace

std::string decodeUtf8Replacing(std::string_view bytes)
{
    std::string out;
    out.reserve(bytes.size());
    for (std::size_t pos = 0; pos < bytes.size();) {
        const Utf8Char ch = utf8CharAt(bytes, pos);
        if (ch.code < 0)
            out += kReplacement;
        else
            out.append(bytes.substr(pos, ch.length));
        pos += ch.length;
    }
    return out;
}

std::vector<TokenLabel> labelTokens(const std::vector<std::string>& bytes,
                                    const std::vector<std::string>& pieces)
{
    // 1. Every token's first byte in the joined stream.
    const std::size_t n = bytes.size();
    std::vector<std::size_t> starts(n + 1, 0);
    std::string stream;
    for (std::size_t t = 0; t < n; ++t) {
        starts[t] = stream.size();
        stream += bytes[t];
    }
    starts[n] = stream.size();
    auto tokenAt = [&](std::size_t pos) {
        // The last token starting at or before `pos` (empty tokens own nothing).
        return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end() - 1, pos) -
                                        starts.begin() - 1);
    };

    std::vector<TokenLabel> labels(n);
    std::vector<bool> allSpace(n, true);
    std::vector<std::size_t> runOf(n);
    for (std::size_t t = 0; t < n; ++t) {
        labels[t].piece = t < pieces.size() ? pieces[t] : std::string();
        labels[t].bytes = hex(bytes[t]);
        labels[t].continuation = true;
        runOf[t] = t;
    }
    // 2. Each user-perceived character (a grapheme cluster: an emoji with its modifiers
    // or ZWJ partners, a letter with its combining accents) goes to the token its first
    // byte is in; the tokens its other bytes fall in join that token's run.
    const std::vector<Utf8Char> chars = codePoints(stream);
    const std::vector<std::size_t> clusterEnds = graphemeClusterEnds(chars);
    std::size_t pos = 0;
    for (std::size_t first = 0, k = 0; k < clusterEnds.size(); first = clusterEnds[k++]) {
        const std::size_t start = pos;
        const std::size_t owner = tokenAt(start);
        TokenLabel& label = labels[owner];
        label.continuation = false;
        for (std::size_t i = first; i < clusterEnds[k]; ++i) {
            if (chars[i].code < 0) // the bytes themselves: U+FFFD would make them all alike
                label.label += "\u2039" +
                               hex(std::string_view(stream).substr(pos, chars[i].length)) +
                               "\u203A"; // ‹E6 88›
            else
                appendVisible(label.label, chars[i].code);
            if (chars[i].code < 0 || !u_hasBinaryProperty(chars[i].code, UCHAR_WHITE_SPACE))
                allSpace[owner] = false;
            pos += chars[i].length;
        }
        for (std::size_t t = owner + 1; t <= tokenAt(pos - 1); ++t)
            runOf[t] = runOf[owner];
    }
    // 3. A token of white space only shows ␣ for each space-like character, else it would
    // be blank; line breaks and tabs already have their pictures.
    for (std::size_t t = 0; t < n; ++t) {
        if (!allSpace[t] || labels[t].continuation)
            continue;
        std::string visible;
        for (std::size_t pos = 0; pos < labels[t].label.size();) {
            const Utf8Char ch = utf8CharAt(labels[t].label, pos);
            if (ch.code >= 0 && u_hasBinaryProperty(ch.code, UCHAR_WHITE_SPACE))
                visible += "\u2423"; // ␣
            else
                visible.append(labels[t].label, pos, ch.length);
            pos += ch.length;
        }
        labels[t].label = std::move(visible);
    }
    // 4. Runs: their extent and the text they spell together.
    for (std::size_t first = 0; first < n;) {
        std::size_t end = first + 1;
        while (end < n && runOf[end] == first)
            ++end;
        const std::string text = decodeUtf8Replacing(
            std::string_view(stream).substr(starts[first], starts[end] - starts[first]));
        for (std::size_t t = first; t < end; ++t) {
            labels[t].runFirst = static_cast<int>(first);
            labels[t].runLength = static_cast<int>(end - first);
            labels[t].runText = text;
        }
        if (labels[first].continuation)
            labels[first].label = kContinuationMark; // an empty token, or bytes with no start
        for (std::size_t t = first + 1; t < end; ++t)
            if (labels[t].continuation)
                labels[t].label = kContinuationMark;
        first = end;
    }
    return labels;
}

} // namespace attn
