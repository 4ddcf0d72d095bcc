// A hand-written scanner for GPT-2's pattern: one pass, each alternative tried in the
// pattern's order at every start, with the only backtracking the pattern needs (`\s+(?!\S)`
// gives back its last white space when a non-space follows the run).
#include "text/gpt2pretokenizer.h"

#include "base/utf8.h"
#include "engine/options.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace attn {
namespace {

enum class CharClass { Letter, Number, Space, Other };

CharClass classify(UChar32 c)
{
    // \s first: no White_Space code point is a letter or a number.
    if (u_hasBinaryProperty(c, UCHAR_WHITE_SPACE))
        return CharClass::Space;
    const auto mask = U_GET_GC_MASK(c);
    if ((mask & U_GC_L_MASK) != 0)
        return CharClass::Letter;
    if ((mask & U_GC_N_MASK) != 0)
        return CharClass::Number;
    return CharClass::Other;
}

// The text as code points with their byte offsets (one extra offset at the end).
struct CodePoints {
    std::vector<UChar32> chars;
    std::vector<CharClass> classes;
    std::vector<std::size_t> offsets;
};

CodePoints decode(std::string_view text)
{
    CodePoints cps;
    cps.chars.reserve(text.size());
    cps.offsets.reserve(text.size() + 1);
    std::size_t i = 0;
    while (i < text.size()) {
        const Utf8Char c = utf8CharAt(text, i);
        if (c.code < 0)
            throw InputError("the text is not valid UTF-8 at byte " + std::to_string(i),
                             Refusal::InvalidUtf8, {std::to_string(i)});
        cps.chars.push_back(c.code);
        cps.classes.push_back(classify(c.code));
        cps.offsets.push_back(i);
        i += c.length;
    }
    cps.offsets.push_back(text.size());
    return cps;
}

// The length in code points of the contraction ('s 't 're 've 'm 'll 'd) at `i`, or 0.
std::size_t contraction(const std::vector<UChar32>& c, std::size_t i)
{
    if (c[i] != '\'' || i + 1 >= c.size())
        return 0;
    const UChar32 a = c[i + 1];
    if (a == 's' || a == 't' || a == 'm' || a == 'd')
        return 2;
    if (i + 2 >= c.size())
        return 0;
    const UChar32 b = c[i + 2];
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l'))
        return 3;
    return 0;
}

// The end of the run of `cls` starting at `i`.
std::size_t runEnd(const std::vector<CharClass>& classes, std::size_t i, CharClass cls)
{
    while (i < classes.size() && classes[i] == cls)
        ++i;
    return i;
}

// The length in code points of the piece that starts at `i`.
std::size_t pieceLength(const CodePoints& cps, std::size_t i)
{
    const auto& cls = cps.classes;
    const std::size_t n = cls.size();
    // 1. The contractions, case-sensitive, before anything else.
    if (const std::size_t k = contraction(cps.chars, i); k > 0)
        return k;
    // 2.–4. ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`: an optional ASCII space, then a run
    // of one class. With the space taken the run must follow at once; without it, the run
    // starts here (a space itself is \s, so it cannot start a run of these three).
    const std::size_t first = (cps.chars[i] == ' ' && i + 1 < n) ? i + 1 : i;
    if (cls[first] != CharClass::Space)
        return runEnd(cls, first, cls[first]) - i;
    // 5. `\s+(?!\S)`: the whole white-space run when it ends the text or is followed by
    // more white space (never: the run is maximal); else the run less its last character,
    // which leaves that one to precede the next word — if that leaves anything.
    const std::size_t end = runEnd(cls, i, CharClass::Space);
    if (end == n || end - i >= 2)
        return end == n ? end - i : end - i - 1;
    // 6. `\s+`: a single white space before a non-space.
    return end - i;
}

} // namespace

std::vector<std::string_view> gpt2Pieces(std::string_view text)
{
    const CodePoints cps = decode(text);
    std::vector<std::string_view> pieces;
    for (std::size_t i = 0; i < cps.chars.size();) {
        const std::size_t next = i + pieceLength(cps, i);
        pieces.push_back(text.substr(cps.offsets[i], cps.offsets[next] - cps.offsets[i]));
        i = next;
    }
    return pieces;
}

} // namespace attn
