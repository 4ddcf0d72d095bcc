#include "text/wordgroups.h"

#include "base/utf8.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>
#include <unicode/uscript.h>

#include <memory>
#include <stdexcept>

namespace attn {
namespace {

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// "E4 BD A0" → the three bytes.
std::string fromHex(std::string_view hex)
{
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 3) {
        const int high = hexDigit(hex[i]), low = hexDigit(hex[i + 1]);
        if (high < 0 || low < 0)
            break;
        bytes.push_back(static_cast<char>(high * 16 + low));
    }
    return bytes;
}

bool isNameCharacter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '|' || c == '/' || c == '.' || c == '-';
}

bool isHan(UChar32 c)
{
    UErrorCode status = U_ZERO_ERROR;
    return uscript_getScript(c, &status) == USCRIPT_HAN && U_SUCCESS(status);
}

UChar32 firstCharacter(std::string_view text)
{
    return text.empty() ? -1 : utf8CharAt(text, 0).code;
}

UChar32 lastCharacter(std::string_view text)
{
    std::size_t at = text.size();
    for (int back = 0; at > 0 && back < 4; ++back) {
        --at;
        if ((static_cast<unsigned char>(text[at]) & 0xC0) != 0x80)
            break;
    }
    if (at >= text.size())
        return -1;
    const Utf8Char ch = utf8CharAt(text, at);
    return at + ch.length == text.size() ? ch.code : -1;
}

std::string visibleLabel(const std::string& text)
{
    return labelTokens({text}, {text}).front().label;
}

// A stretch of ordinary tokens [first, end) cut into words and appended to `words`.
void groupStretch(const std::vector<WordToken>& tokens, int first, int end,
                  icu::BreakIterator& breaks, std::vector<WordGroup>& words)
{
    // 1. The stretch's text, each token's start and the start of its first character that
    // is not white space; where WordPiece's words meet, a space between them.
    std::string text;
    std::vector<std::size_t> starts, anchors;
    std::vector<bool> forced(static_cast<std::size_t>(end - first), false);
    for (int k = first; k < end; ++k) {
        const WordToken& token = tokens[static_cast<std::size_t>(k)];
        if (k > first && token.wordPiece && !token.continuation) {
            const std::string& before = tokens[static_cast<std::size_t>(k - 1)].text;
            if (!(isHan(lastCharacter(before)) && isHan(firstCharacter(token.text)))) {
                text.push_back(' ');
                forced[static_cast<std::size_t>(k - first)] = true;
            }
        }
        starts.push_back(text.size());
        std::size_t anchor = text.size();
        const std::size_t blank = token.text.find_first_not_of(" \t\r\n");
        if (blank != std::string::npos)
            anchor += blank;
        anchors.push_back(anchor);
        text += token.text;
    }
    // 2. ICU's boundaries as byte offsets (each invalid byte run read as U+FFFD).
    icu::UnicodeString unicode;
    std::vector<std::size_t> byteOf; // UTF-16 index → byte offset
    for (std::size_t at = 0; at < text.size();) {
        const Utf8Char ch = utf8CharAt(text, at);
        const UChar32 c = ch.code < 0 ? 0xFFFD : ch.code;
        for (int unit = 0; unit < U16_LENGTH(c); ++unit)
            byteOf.push_back(at);
        unicode.append(c);
        at += ch.length;
    }
    byteOf.push_back(text.size());
    std::vector<bool> boundary(text.size() + 1, false);
    breaks.setText(unicode);
    for (int32_t b = breaks.first(); b != icu::BreakIterator::DONE; b = breaks.next())
        boundary[byteOf[static_cast<std::size_t>(b)]] = true;
    // 3. A token starts a word when a boundary lies at its start or in its leading white
    // space; a "##" piece never does.
    for (int k = first; k < end; ++k) {
        const std::size_t i = static_cast<std::size_t>(k - first);
        const WordToken& token = tokens[static_cast<std::size_t>(k)];
        bool startsWord = k == first || forced[i];
        if (!startsWord && !token.continuation)
            for (std::size_t x = starts[i]; x <= anchors[i] && !startsWord; ++x)
                startsWord = boundary[x];
        if (startsWord)
            words.push_back({});
        WordGroup& word = words.back();
        word.tokens.push_back(k);
        word.text += token.text;
    }
}

} // namespace

bool readsAsSpecial(std::string_view text)
{
    if (text.size() < 3)
        return false;
    const bool square = text.front() == '[' && text.back() == ']';
    const bool angle = text.front() == '<' && text.back() == '>';
    if (!square && !angle)
        return false;
    const std::string_view inner = text.substr(1, text.size() - 2);
    for (const char c : inner)
        if (!isNameCharacter(c) || (square && (c == '|' || c == '/' || c == '.' || c == '-')))
            return false;
    // at least one letter: "[...]" or "<-->" are text
    for (const char c : inner)
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))
            return true;
    return false;
}

std::vector<WordToken> wordTokens(const std::vector<TokenLabel>& labels, bool wordPiece)
{
    std::vector<WordToken> tokens;
    tokens.reserve(labels.size());
    for (const TokenLabel& label : labels) {
        WordToken token;
        token.wordPiece = wordPiece;
        if (label.bytes.empty()) { // a model without a tokenizer: ids labelled by number
            token.text = label.label;
            token.special = true;
        } else {
            token.text = fromHex(label.bytes);
            token.special = label.piece == token.text && readsAsSpecial(token.text);
            token.continuation = wordPiece && label.piece.size() > 2 &&
                                 label.piece.starts_with("##") &&
                                 label.piece.substr(2) == token.text;
        }
        tokens.push_back(std::move(token));
    }
    return tokens;
}

std::vector<WordGroup> groupWords(const std::vector<WordToken>& tokens)
{
    UErrorCode status = U_ZERO_ERROR;
    const std::unique_ptr<icu::BreakIterator> breaks(
        icu::BreakIterator::createWordInstance(icu::Locale("zh"), status));
    if (U_FAILURE(status) || !breaks)
        throw std::runtime_error(std::string("ICU cannot make a word break iterator: ") +
                                 u_errorName(status));
    std::vector<WordGroup> words;
    const int count = static_cast<int>(tokens.size());
    for (int k = 0; k < count;) {
        if (tokens[static_cast<std::size_t>(k)].special) {
            words.push_back({tokens[static_cast<std::size_t>(k)].text, {}, {k}});
            ++k;
            continue;
        }
        int end = k;
        while (end < count && !tokens[static_cast<std::size_t>(end)].special)
            ++end;
        groupStretch(tokens, k, end, *breaks, words);
        k = end;
    }
    for (WordGroup& word : words)
        word.label = visibleLabel(word.text);
    return words;
}

bool usesWordPiece(const std::string& family)
{
    return family == "bert";
}

} // namespace attn
