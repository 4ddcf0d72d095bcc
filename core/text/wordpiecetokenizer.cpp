// BERT's basic tokenizer and WordPiece, after Hugging Face's tokenization_bert.py
// (BasicTokenizer, WordpieceTokenizer) and tokenizers' normalizers/bert.rs,
// pre_tokenizers/bert.rs and models/wordpiece: where the two differ (Python lower-cases
// final sigma as ς, Rust as σ), the Python one, which ICU's full case mapping shares.
#include "text/wordpiecetokenizer.h"

#include "base/jsonread.h"
#include "base/utf8.h"
#include "engine/options.h"
#include "text/gpt2files.h"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace attn {
namespace {

constexpr std::size_t kMaxCharactersPerWord = 100;
constexpr std::string_view kContinuation = "##";
constexpr std::array<std::string_view, 5> kSpecialTokens{"[PAD]", "[UNK]", "[CLS]", "[SEP]",
                                                         "[MASK]"};

// BERT's _is_chinese_char: the CJK Unified Ideographs blocks and their extensions A–E, the
// compatibility ideographs and their supplement (not kana, hangul or CJK punctuation).
bool isChineseCharacter(UChar32 c)
{
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
           (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0x2A700 && c <= 0x2B73F) ||
           (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B820 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// Python's unicodedata.category(c).startswith("C"), tab, newline and return excepted.
bool isControl(UChar32 c)
{
    if (c == '\t' || c == '\n' || c == '\r')
        return false;
    switch (u_charType(c)) {
    case U_CONTROL_CHAR:
    case U_FORMAT_CHAR:
    case U_UNASSIGNED:
    case U_PRIVATE_USE_CHAR:
    case U_SURROGATE:
        return true;
    default:
        return false;
    }
}

bool isWhiteSpace(UChar32 c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || u_isUWhiteSpace(c);
}

// BERT's _is_punctuation: every ASCII symbol that is not a letter or digit, and Unicode's P*.
bool isPunctuation(UChar32 c)
{
    if ((c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) ||
        (c >= 123 && c <= 126))
        return true;
    return (U_GET_GC_MASK(c) & U_GC_P_MASK) != 0;
}

// Step 2: clean, CJK apart, lower case, accents.
icu::UnicodeString normalized(std::string_view text, const WordPieceCasing& casing)
{
    icu::UnicodeString out;
    for (std::size_t at = 0; at < text.size();) {
        const Utf8Char ch = utf8CharAt(text, at);
        at += ch.length;
        const UChar32 c = ch.code;
        if (c == 0 || c == 0xFFFD || isControl(c))
            continue;
        if (isWhiteSpace(c))
            out.append(UChar32(' '));
        else if (casing.splitChineseCharacters && isChineseCharacter(c))
            out.append(UChar32(' ')).append(c).append(UChar32(' '));
        else
            out.append(c);
    }
    if (casing.lowerCase)
        out.toLower(icu::Locale::getRoot());
    if (casing.stripsAccents()) {
        UErrorCode status = U_ZERO_ERROR;
        const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
        icu::UnicodeString decomposed = U_SUCCESS(status) ? nfd->normalize(out, status) : out;
        if (U_FAILURE(status))
            throw std::runtime_error("ICU cannot decompose a text (NFD)");
        out.remove();
        for (int32_t i = 0; i < decomposed.length();) {
            const UChar32 c = decomposed.char32At(i);
            i += U16_LENGTH(c);
            if (u_charType(c) != U_NON_SPACING_MARK)
                out.append(c);
        }
    }
    return out;
}

// Step 3: the words of a normalized stretch.
template <class Word> void splitWords(const icu::UnicodeString& text, Word&& word)
{
    icu::UnicodeString current;
    const auto flush = [&] {
        if (current.isEmpty())
            return;
        std::string utf8;
        current.toUTF8String(utf8);
        word(utf8);
        current.remove();
    };
    for (int32_t i = 0; i < text.length();) {
        const UChar32 c = text.char32At(i);
        i += U16_LENGTH(c);
        if (isWhiteSpace(c)) {
            flush();
        } else if (isPunctuation(c)) {
            flush();
            current.append(c);
            flush();
        } else {
            current.append(c);
        }
    }
    flush();
}

const JsonValue* casingField(const JsonValue& root, std::string_view name, bool nullable,
                             const std::filesystem::path& file)
{
    const JsonValue* value = root.find(name);
    if (!value || (nullable && value->isNull()))
        return nullptr;
    if (value->kind() != JsonValue::Kind::Bool)
        throw TokenizerFileError(file, "\"" + std::string(name) + "\" is not true or false" +
                                           (nullable ? " (or null)" : ""));
    return value;
}

} // namespace

WordPieceCasing WordPieceTokenizer::readCasing(std::string_view json,
                                               const std::filesystem::path& file)
{
    JsonValue root;
    try {
        root = parseJson(json);
    } catch (const JsonParseError& error) {
        throw TokenizerFileError(file, std::string("not JSON: ") + error.what());
    }
    if (!root.isObject())
        throw TokenizerFileError(file, "not a JSON object");
    WordPieceCasing casing;
    if (const JsonValue* lower = casingField(root, "do_lower_case", false, file))
        casing.lowerCase = lower->boolean();
    if (const JsonValue* strip = casingField(root, "strip_accents", true, file))
        casing.stripAccents = strip->boolean();
    if (const JsonValue* chinese = casingField(root, "tokenize_chinese_chars", false, file))
        casing.splitChineseCharacters = chinese->boolean();
    return casing;
}

std::unique_ptr<WordPieceTokenizer> WordPieceTokenizer::fromText(
    std::string_view vocabTxt, std::optional<std::string_view> tokenizerConfigJson,
    const std::filesystem::path& vocabFile, const std::filesystem::path& configFile)
{
    // The vocabulary's faults first: it is the file the model cannot do without.
    auto tokenizer = std::unique_ptr<WordPieceTokenizer>(
        new WordPieceTokenizer(vocabTxt, WordPieceCasing{}, vocabFile));
    if (tokenizerConfigJson)
        tokenizer->casing_ = readCasing(*tokenizerConfigJson, configFile);
    return tokenizer;
}

std::unique_ptr<WordPieceTokenizer>
WordPieceTokenizer::fromTokens(const std::vector<std::string>& tokens, WordPieceCasing casing,
                               const std::filesystem::path& source)
{
    // vocab.txt's text of the tokens: one a line, so a token may not break one.
    std::string vocabTxt;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& token = tokens[i];
        if (token.find('\n') != std::string::npos || token.ends_with('\r'))
            throw TokenizerFileError(source, "token " + std::to_string(i) +
                                                 " holds a line break, which WordPiece's "
                                                 "vocabulary cannot");
        vocabTxt += token;
        vocabTxt += '\n';
    }
    return std::unique_ptr<WordPieceTokenizer>(new WordPieceTokenizer(vocabTxt, casing, source));
}

std::unique_ptr<WordPieceTokenizer>
WordPieceTokenizer::fromFolder(const std::filesystem::path& folder)
{
    const std::filesystem::path vocabFile = folder / "vocab.txt";
    const std::filesystem::path configFile = folder / "tokenizer_config.json";
    const std::string vocab = readTokenizerFile(vocabFile);
    std::error_code error;
    std::optional<std::string> config;
    if (std::filesystem::exists(configFile, error))
        config = readTokenizerFile(configFile);
    return fromText(vocab, config ? std::optional<std::string_view>(*config) : std::nullopt,
                    vocabFile, configFile);
}

WordPieceTokenizer::WordPieceTokenizer(std::string_view vocabTxt, WordPieceCasing casing,
                                       const std::filesystem::path& vocabFile)
    : casing_(casing)
{
    if (vocabTxt.empty())
        throw TokenizerFileError(vocabFile, "the file is empty");
    if (const auto bad = invalidUtf8At(vocabTxt); bad != std::string_view::npos) {
        const auto line = std::count(vocabTxt.begin(), vocabTxt.begin() + bad, '\n') + 1;
        throw TokenizerFileError(vocabFile, "line " + std::to_string(line) + " is not valid UTF-8");
    }
    // One token a line (a final line break ends the last line, it does not begin another);
    // "\r\n" ends a line as "\n" does.
    for (std::size_t start = 0; start < vocabTxt.size();) {
        std::size_t end = vocabTxt.find('\n', start);
        if (end == std::string_view::npos)
            end = vocabTxt.size();
        std::string_view line = vocabTxt.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const int lineId = static_cast<int>(tokens_.size());
        const auto [at, inserted] = ids_.emplace(std::string(line), lineId);
        if (!inserted)
            throw TokenizerFileError(vocabFile,
                                     "the token \"" + std::string(line) + "\" is on line " +
                                         std::to_string(at->second + 1) + " and again on line " +
                                         std::to_string(lineId + 1));
        tokens_.emplace_back(line);
        start = end + 1;
    }
    const auto required = [&](std::string_view name) {
        const auto found = id(name);
        if (!found)
            throw TokenizerFileError(vocabFile, "the vocabulary has no " + std::string(name) +
                                                    " token (a line of its own)");
        return *found;
    };
    unk_ = required("[UNK]");
    cls_ = required("[CLS]");
    sep_ = required("[SEP]");
    mask_ = id("[MASK]");
    pad_ = id("[PAD]");
    for (const std::string_view special : kSpecialTokens)
        if (const auto found = id(special))
            specials_.push_back(*found);
    std::stable_sort(specials_.begin(), specials_.end(),
                     [this](int a, int b) { return tokens_[a].size() > tokens_[b].size(); });
    bytes_.reserve(tokens_.size());
    for (int i = 0; i < static_cast<int>(tokens_.size()); ++i) {
        const std::string& token = tokens_[i];
        const bool special = std::find(specials_.begin(), specials_.end(), i) != specials_.end();
        if (!special && token.size() > kContinuation.size() && token.starts_with(kContinuation))
            bytes_.push_back(token.substr(kContinuation.size()));
        else
            bytes_.push_back(token);
    }
}

const std::string& WordPieceTokenizer::token(int id) const
{
    if (id < 0 || id >= vocabularySize())
        throw std::out_of_range("no token has the id " + std::to_string(id));
    return tokens_[static_cast<std::size_t>(id)];
}

const std::string& WordPieceTokenizer::bytes(int id) const
{
    if (id < 0 || id >= vocabularySize())
        throw std::out_of_range("no token has the id " + std::to_string(id));
    return bytes_[static_cast<std::size_t>(id)];
}

std::optional<int> WordPieceTokenizer::id(std::string_view token) const
{
    const auto found = ids_.find(std::string(token));
    if (found == ids_.end())
        return std::nullopt;
    return found->second;
}

int WordPieceTokenizer::specialAt(std::string_view text, std::size_t at) const
{
    if (text[at] != '[')
        return -1;
    for (const int special : specials_)
        if (text.substr(at).starts_with(tokens_[static_cast<std::size_t>(special)]))
            return special;
    return -1;
}

template <class Word, class Special>
void WordPieceTokenizer::forEachWord(std::string_view text, Word&& word, Special&& special) const
{
    if (const auto bad = invalidUtf8At(text); bad != std::string_view::npos)
        throw InputError("the text is not valid UTF-8 at byte " + std::to_string(bad),
                         Refusal::InvalidUtf8, {std::to_string(bad)});
    std::size_t stretch = 0;
    const auto words = [&](std::size_t end) {
        if (end > stretch)
            splitWords(normalized(text.substr(stretch, end - stretch), casing_), word);
    };
    for (std::size_t at = 0; at < text.size();) {
        const int found = specialAt(text, at);
        if (found < 0) {
            ++at;
            continue;
        }
        words(at);
        special(found);
        at += tokens_[static_cast<std::size_t>(found)].size();
        stretch = at;
    }
    words(text.size());
}

void WordPieceTokenizer::appendWordPieces(const std::string& word, std::vector<int>& ids) const
{
    // The byte offset of each character, and the word's end.
    std::vector<std::size_t> starts;
    for (std::size_t at = 0; at < word.size(); at += utf8CharAt(word, at).length)
        starts.push_back(at);
    if (starts.size() > kMaxCharactersPerWord) {
        ids.push_back(unk_);
        return;
    }
    starts.push_back(word.size());
    const std::size_t before = ids.size();
    std::string candidate;
    for (std::size_t first = 0; first + 1 < starts.size();) {
        std::size_t last = starts.size() - 1;
        for (; last > first; --last) {
            candidate.assign(first > 0 ? kContinuation : std::string_view());
            candidate.append(word, starts[first], starts[last] - starts[first]);
            if (const auto found = ids_.find(candidate); found != ids_.end()) {
                ids.push_back(found->second);
                break;
            }
        }
        if (last == first) { // no piece spells the rest: the whole word is unknown
            ids.resize(before);
            ids.push_back(unk_);
            return;
        }
        first = last;
    }
}

std::vector<int> WordPieceTokenizer::encodeIds(std::string_view text) const
{
    std::vector<int> ids{cls_};
    forEachWord(
        text, [&](const std::string& word) { appendWordPieces(word, ids); },
        [&](int special) { ids.push_back(special); });
    ids.push_back(sep_);
    return ids;
}

std::vector<std::string> WordPieceTokenizer::basicWords(std::string_view text) const
{
    std::vector<std::string> words;
    forEachWord(
        text, [&](const std::string& word) { words.push_back(word); },
        [&](int special) { words.push_back(tokens_[static_cast<std::size_t>(special)]); });
    return words;
}

} // namespace attn
