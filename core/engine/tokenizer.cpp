#include "engine/tokenizer.h"

#include "base/utf8.h"

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

namespace attn {
namespace {

// Which code points are never part of a token, in every mode:
//  * White space (the Unicode White_Space property: space, tab, U+3000 ideographic
//    space, no-break space, form feed, a stray '\r', …) separates tokens.
//  * Control characters (U+0000 NUL, ESC, DEL, the C1 controls, …) separate tokens
//    too. They cannot be seen, so a heatmap label made of them could not be read,
//    and text pasted from terminals or spreadsheets carries stray ones.
//  * U+FEFF is a byte order mark (files saved by Notepad start with one), not a
//    character of the first word.
bool isSeparator(UChar32 c)
{
    return u_isUWhiteSpace(c) || u_charType(c) == U_CONTROL_CHAR || c == 0xFEFF;
}

// Default-ignorable code points (zero width space, ZWJ, variation selectors, …) are
// kept inside a token — the ZWJ holds an emoji family together — but a token made of
// nothing else would be an invisible label, so it is dropped.
bool isInvisible(UChar32 c)
{
    return u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) != 0;
}

const std::uint8_t* bytesOf(std::string_view text)
{
    return reinterpret_cast<const std::uint8_t*>(text.data());
}

// Throws InputError naming the byte offset of the first ill-formed sequence of `text`.
// utf8.h (U8_NEXT) rejects overlongs, surrogates, code points above U+10FFFF, bytes 0xF5..0xFF,
// stray continuation bytes and truncated sequences; the offset is where the bad
// sequence starts, which is where an editor's cursor should go.
void requireUtf8(std::string_view text)
{
    // ICU indexes with int32_t; a text that long would never reach the heatmap anyway.
    if (text.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw InputError("the text is too long: more than 2 GiB", Refusal::TextTooLong);
    if (const std::size_t start = invalidUtf8At(text); start != std::string_view::npos)
        throw InputError("invalid UTF-8 at byte " + std::to_string(start), Refusal::InvalidUtf8,
                         {std::to_string(start)});
}

// Turns lines into tokens with one break iterator, created once and reused for every
// line, because creating one costs far more than segmenting a sentence.
class Segmenter {
public:
    explicit Segmenter(TokenizerMode mode)
    {
        // The root locale, not the process's default: under LC_ALL=C (as in CI) ICU's
        // default is en_US_POSIX, whose word rules split "e.g." into e | . | g | . —
        // and the same text must give the same tokens, hence the same embeddings, on
        // every machine. Chinese and Japanese words come from ICU's CJK dictionary,
        // which no locale changes.
        UErrorCode status = U_ZERO_ERROR;
        switch (mode) {
        case TokenizerMode::Auto:
            boundaries_.reset(
                icu::BreakIterator::createWordInstance(icu::Locale::getRoot(), status));
            break;
        case TokenizerMode::Chars:
            boundaries_.reset(
                icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
            break;
        case TokenizerMode::Spaces:
            return; // separators alone split the line
        }
        if (U_FAILURE(status) || !boundaries_)
            throw std::runtime_error(std::string("ICU cannot create a break iterator: ") +
                                     u_errorName(status));
    }

    // Calls emit(token) for every token of `line`, which is valid UTF-8.
    template <typename Emit> void forEachToken(std::string_view line, Emit&& emit)
    {
        if (!boundaries_) {
            emitPieces(line, emit);
            return;
        }
        // 1. Segment the UTF-8 bytes in place: with a UTF-8 UText the boundaries are
        //    byte offsets, so no copy to UTF-16 and back is needed.
        UErrorCode status = U_ZERO_ERROR;
        icu::LocalUTextPointer text(
            utext_openUTF8(nullptr, line.data(), static_cast<std::int64_t>(line.size()), &status));
        boundaries_->setText(text.getAlias(), status);
        if (U_FAILURE(status))
            throw std::runtime_error(std::string("ICU cannot segment the text: ") +
                                     u_errorName(status));
        // 2. Keep what is visible of each segment. ICU's rule status cannot tell
        //    white space from punctuation (both are UBRK_WORD_NONE), and "Hello, world!"
        //    must keep its comma, so the code points themselves decide.
        std::int32_t start = boundaries_->first();
        for (std::int32_t end = boundaries_->next(); end != icu::BreakIterator::DONE;
             start = end, end = boundaries_->next())
            emitPieces(
                line.substr(static_cast<std::size_t>(start), static_cast<std::size_t>(end - start)),
                emit);
    }

private:
    // Emits each run of non-separators of `segment` that has something visible. A
    // segment can hold a separator: a combining mark after a space is one grapheme
    // cluster, and a control character can carry one too.
    template <typename Emit> static void emitPieces(std::string_view segment, Emit& emit)
    {
        const auto* s = bytesOf(segment);
        const auto length = static_cast<std::int32_t>(segment.size());
        std::int32_t pieceStart = 0;
        bool visible = false;
        for (std::int32_t i = 0; i < length;) {
            const std::int32_t at = i;
            UChar32 c;
            U8_NEXT_UNSAFE(s, i, c); // requireUtf8() has checked the bytes
            if (isSeparator(c)) {
                if (visible)
                    emit(segment.substr(static_cast<std::size_t>(pieceStart),
                                        static_cast<std::size_t>(at - pieceStart)));
                pieceStart = i;
                visible = false;
            } else if (!isInvisible(c)) {
                visible = true;
            }
        }
        if (visible)
            emit(segment.substr(static_cast<std::size_t>(pieceStart)));
    }

    std::unique_ptr<icu::BreakIterator> boundaries_; // null in Spaces mode
};

} // namespace

std::vector<std::string> tokenizeLine(std::string_view line, TokenizerMode mode)
{
    requireUtf8(line);
    std::vector<std::string> tokens;
    Segmenter(mode).forEachToken(line, [&](std::string_view token) { tokens.emplace_back(token); });
    return tokens;
}

TokenBatch tokenize(std::string_view text, TokenizerMode mode)
{
    // 1. Check the whole text first, so an error's byte offset counts from its start.
    requireUtf8(text);

    // 2. One sequence per line that has a token. Line numbers count every line, blank
    //    ones too, so that they match the editor's.
    Segmenter segmenter(mode);
    TokenBatch batch;
    int lineNumber = 0;
    for (std::size_t lineStart = 0; lineStart <= text.size(); ++lineNumber) {
        std::size_t lineEnd = std::min(text.find('\n', lineStart), text.size());
        std::string_view line = text.substr(lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 1;
        if (line.ends_with('\r')) // Windows line ending
            line.remove_suffix(1);

        // Count every token but store no more than fit, so the error can say how many
        // a pasted book has without holding all of them.
        std::vector<std::string> tokens;
        int count = 0;
        segmenter.forEachToken(line, [&](std::string_view token) {
            if (count < kMaxTokens)
                tokens.emplace_back(token);
            ++count;
        });
        if (count > kMaxTokens)
            throw InputError("line " + std::to_string(lineNumber + 1) + " has " +
                                 std::to_string(count) + " tokens, more than the limit of " +
                                 std::to_string(kMaxTokens) + " per sequence",
                             Refusal::LineTooLong,
                             {std::to_string(lineNumber + 1), std::to_string(count),
                              std::to_string(kMaxTokens)});
        if (count == 0)
            continue;
        if (batch.batch() == kMaxSequences)
            throw InputError("the text has more than " + std::to_string(kMaxSequences) +
                                 " non-blank lines; each line is one sequence and the limit is " +
                                 std::to_string(kMaxSequences),
                             Refusal::TooManyLines, {std::to_string(kMaxSequences)});
        batch.tokens.push_back(std::move(tokens));
        batch.lengths.push_back(count);
    }
    if (batch.tokens.empty())
        throw InputError("the text is empty: type a sentence", Refusal::EmptyText);

    // 3. Pad every sequence to the longest one: (B, T).
    const int maxLength = *std::max_element(batch.lengths.begin(), batch.lengths.end());
    for (auto& tokens : batch.tokens)
        tokens.resize(static_cast<std::size_t>(maxLength), std::string(kPadToken));
    return batch;
}

} // namespace attn
