// tokenizer.json's normalizer and pre-tokenizer, after Hugging Face's tokenizers
// (normalizers/{unicode,prepend,replace}.rs, pre_tokenizers/{split,byte_level,metaspace,
// sequence}.rs).
#include "text/hfpretokenizer.h"

#include "base/utf8.h"
#include "engine/options.h"
#include "text/gpt2files.h"
#include "text/gpt2pretokenizer.h"

#include <unicode/regex.h>
#include <unicode/unistr.h>

namespace attn {
namespace {

std::string typeOf(const JsonValue& step)
{
    const JsonValue* type = step.isObject() ? step.find("type") : nullptr;
    return type && type->isString() ? type->text() : std::string();
}

bool flag(const JsonValue& step, std::string_view name, bool absent)
{
    const JsonValue* value = step.find(name);
    return value && value->kind() == JsonValue::Kind::Bool ? value->boolean() : absent;
}

} // namespace

HfNormalizer::HfNormalizer(const JsonValue* normalizer, const std::filesystem::path& file)
{
    if (!normalizer || normalizer->isNull())
        return;
    const std::string type = typeOf(*normalizer);
    if (type == "Sequence") {
        const JsonValue* steps = normalizer->find("normalizers");
        if (!steps || !steps->isArray())
            throw TokenizerFileError(file, "the normalizer Sequence has no \"normalizers\" list");
        for (const JsonValue& step : steps->items()) {
            HfNormalizer inner(&step, file);
            steps_.insert(steps_.end(), inner.steps_.begin(), inner.steps_.end());
        }
        return;
    }
    Step step;
    if (type == "Prepend") {
        const JsonValue* prepend = normalizer->find("prepend");
        if (!prepend || !prepend->isString())
            throw TokenizerFileError(file, "the normalizer Prepend has no \"prepend\" text");
        step.prepend = prepend->text();
        steps_.push_back(std::move(step));
        return;
    }
    if (type == "Replace") {
        const JsonValue* pattern = normalizer->find("pattern");
        const JsonValue* literal =
            pattern && pattern->isObject() ? pattern->find("String") : nullptr;
        const JsonValue* content = normalizer->find("content");
        if (!literal || !literal->isString() || literal->text().empty() || !content ||
            !content->isString())
            throw TokenizerFileError(file, "a Replace normalizer is supported with a pattern "
                                           "{\"String\": …} and a \"content\" only");
        step.pattern = literal->text();
        step.content = content->text();
        steps_.push_back(std::move(step));
        return;
    }
    UErrorCode status = U_ZERO_ERROR;
    if (type == "NFC")
        step.form = icu::Normalizer2::getNFCInstance(status);
    else if (type == "NFD")
        step.form = icu::Normalizer2::getNFDInstance(status);
    else if (type == "NFKC")
        step.form = icu::Normalizer2::getNFKCInstance(status);
    else if (type == "NFKD")
        step.form = icu::Normalizer2::getNFKDInstance(status);
    else
        throw TokenizerFileError(file, "the normalizer \"" + type +
                                           "\" is not supported (supported: NFC, NFD, NFKC, "
                                           "NFKD, Prepend, Replace, a Sequence of them, or none)");
    if (U_FAILURE(status) || !step.form)
        throw TokenizerFileError(file, "ICU has no " + type + " normalizer");
    steps_.push_back(std::move(step));
}

namespace {

std::string normalForm(const icu::Normalizer2& form, std::string_view text)
{
    const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
    UErrorCode status = U_ZERO_ERROR;
    const icu::UnicodeString normalized = form.normalize(unicode, status);
    if (U_FAILURE(status))
        throw InputError("the text could not be normalized: " + std::string(u_errorName(status)));
    std::string out;
    normalized.toUTF8String(out);
    return out;
}

// `text` with every `pattern` (not empty) replaced by `content`, left to right.
std::string replaceAll(std::string_view text, std::string_view pattern, std::string_view content)
{
    std::string out;
    std::size_t from = 0;
    for (std::size_t at = text.find(pattern); at != std::string_view::npos;
         at = text.find(pattern, from)) {
        out.append(text, from, at - from).append(content);
        from = at + pattern.size();
    }
    return out.append(text.substr(from));
}

} // namespace

std::string HfNormalizer::apply(std::string_view text) const
{
    std::string out(text);
    for (const Step& step : steps_) {
        if (step.form)
            out = normalForm(*step.form, out);
        else if (!step.pattern.empty())
            out = replaceAll(out, step.pattern, step.content);
        else if (!out.empty()) // Prepend leaves an empty text empty
            out.insert(0, step.prepend);
    }
    return out;
}

std::optional<std::string> HfNormalizer::spaceMark() const
{
    for (const Step& step : steps_)
        if (step.pattern == " ")
            return step.content;
    return std::nullopt;
}

namespace {

enum class StepKind { ByteLevel, Split, Metaspace };

// How a Metaspace step puts "▁" before a text (its "prepend_scheme").
enum class PrependScheme { Always, First, Never };

} // namespace

struct HfPreTokenizer::Step {
    StepKind kind = StepKind::ByteLevel;
    std::unique_ptr<icu::RegexPattern> split; // a Split step's pattern
    bool addPrefixSpace = false;              // ByteLevel's
    bool useRegex = true;                     // ByteLevel's
    std::string replacement;                  // Metaspace's "▁"
    PrependScheme prependScheme = PrependScheme::Always;
    bool splitAtReplacement = true; // Metaspace's split
};

HfPreTokenizer::HfPreTokenizer(HfPreTokenizer&&) noexcept = default;
HfPreTokenizer& HfPreTokenizer::operator=(HfPreTokenizer&&) noexcept = default;
HfPreTokenizer::~HfPreTokenizer() = default;

HfPreTokenizer::HfPreTokenizer(const JsonValue* preTokenizer, const std::filesystem::path& file)
{
    if (preTokenizer && !preTokenizer->isNull())
        addStep(*preTokenizer, file, true);
}

bool HfPreTokenizer::byteLevel() const
{
    for (const auto& step : steps_)
        if (step->kind == StepKind::ByteLevel)
            return true;
    return false;
}

bool HfPreTokenizer::metaspace() const
{
    return !steps_.empty() && steps_.front()->kind == StepKind::Metaspace;
}

const std::string& HfPreTokenizer::spaceMark() const
{
    static const std::string none;
    return metaspace() ? steps_.front()->replacement : none;
}

namespace {

// Metaspace's options as metaspace.rs reads them: one character of replacement,
// prepend_scheme "always" unless given, the older add_prefix_space false meaning "never"
// (and contradicting any other scheme), split unless false.
void readMetaspace(const JsonValue& step, std::string& replacement, PrependScheme& scheme,
                   bool& split, const std::filesystem::path& file)
{
    const JsonValue* mark = step.find("replacement");
    if (!mark || !mark->isString() || mark->text().empty() ||
        utf8CharAt(mark->text(), 0).length != mark->text().size())
        throw TokenizerFileError(file, "the Metaspace pre-tokenizer's replacement is not one "
                                       "character");
    replacement = mark->text();
    const JsonValue* name = step.find("prepend_scheme");
    const std::string text = name && name->isString() ? name->text() : "always";
    if (text == "always")
        scheme = PrependScheme::Always;
    else if (text == "first")
        scheme = PrependScheme::First;
    else if (text == "never")
        scheme = PrependScheme::Never;
    else
        throw TokenizerFileError(file, "the Metaspace prepend_scheme \"" + text +
                                           "\" is not one of always, first, never");
    if (!flag(step, "add_prefix_space", true)) {
        if (scheme != PrependScheme::Never)
            throw TokenizerFileError(file, "the Metaspace's add_prefix_space false does not "
                                           "match its prepend_scheme \"" +
                                               text + "\"");
    }
    split = flag(step, "split", true);
}

} // namespace

void HfPreTokenizer::addStep(const JsonValue& step, const std::filesystem::path& file, bool alone)
{
    const std::string type = typeOf(step);
    if (type == "Sequence") {
        const JsonValue* steps = step.find("pretokenizers");
        if (!steps || !steps->isArray())
            throw TokenizerFileError(file,
                                     "the pre_tokenizer Sequence has no \"pretokenizers\" list");
        for (const JsonValue& inner : steps->items())
            addStep(inner, file, false);
        return;
    }
    auto added = std::make_unique<Step>();
    if (type == "ByteLevel") {
        added->addPrefixSpace = flag(step, "add_prefix_space", false);
        added->useRegex = flag(step, "use_regex", true);
    } else if (type == "Metaspace" && alone) {
        added->kind = StepKind::Metaspace;
        readMetaspace(step, added->replacement, added->prependScheme, added->splitAtReplacement,
                      file);
    } else if (type == "Split") {
        added->kind = StepKind::Split;
        const JsonValue* behavior = step.find("behavior");
        if (!behavior || !behavior->isString() || behavior->text() != "Isolated")
            throw TokenizerFileError(
                file, "a Split pre-tokenizer's behavior \"" +
                          (behavior && behavior->isString() ? behavior->text() : std::string()) +
                          "\" is not supported (supported: Isolated)");
        if (flag(step, "invert", false))
            throw TokenizerFileError(file, "an inverted Split pre-tokenizer is not supported");
        const JsonValue* pattern = step.find("pattern");
        const JsonValue* regex = pattern && pattern->isObject() ? pattern->find("Regex") : nullptr;
        const JsonValue* literal =
            pattern && pattern->isObject() ? pattern->find("String") : nullptr;
        const JsonValue* text = regex ? regex : literal;
        if (!text || !text->isString() || text->text().empty())
            throw TokenizerFileError(file, "a Split pre-tokenizer has no pattern "
                                           "({\"Regex\": …} or {\"String\": …})");
        UErrorCode status = U_ZERO_ERROR;
        UParseError where{};
        added->split.reset(icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(text->text()),
                                                      regex ? 0 : UREGEX_LITERAL, where, status));
        if (U_FAILURE(status) || !added->split)
            throw TokenizerFileError(file, "ICU cannot compile the Split pattern \"" +
                                               text->text() + "\" (" + u_errorName(status) +
                                               " at offset " + std::to_string(where.offset) + ")");
    } else {
        throw TokenizerFileError(file, "the pre-tokenizer \"" + type +
                                           "\" is not supported (supported: ByteLevel, Split, "
                                           "Sequence; Metaspace as the whole pre_tokenizer)");
    }
    steps_.push_back(std::move(added));
}

namespace {

// The pieces of `text` a Split step with `pattern` and behavior Isolated makes: each
// match, and each stretch between matches.
void appendSplit(const icu::RegexPattern& pattern, std::string_view text,
                 std::vector<std::string>& out)
{
    const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::RegexMatcher> matcher(pattern.matcher(unicode, status));
    const auto emit = [&](int32_t from, int32_t to) {
        if (to > from) {
            out.emplace_back();
            unicode.tempSubStringBetween(from, to).toUTF8String(out.back());
        }
    };
    int32_t last = 0;
    while (U_SUCCESS(status) && matcher->find(status)) {
        const int32_t start = matcher->start(status);
        const int32_t end = matcher->end(status);
        emit(last, start);
        emit(start, end);
        last = end;
    }
    if (U_FAILURE(status))
        throw InputError("the tokenizer's pattern failed on the text (" +
                         std::string(u_errorName(status)) + ")");
    emit(last, unicode.length());
}

} // namespace

namespace {

// The pieces a Metaspace step makes of `text`: its spaces made `mark`, one put before it by
// the prepend scheme, and with `split` a new piece before every one of them (metaspace.rs,
// SplitDelimiterBehavior::MergedWithNext).
void appendMetaspace(std::string_view mark, PrependScheme scheme, bool split, std::string_view text,
                     bool atStart, std::vector<std::string>& out)
{
    std::string spaced;
    for (const char c : text)
        if (c == ' ')
            spaced.append(mark);
        else
            spaced.push_back(c);
    const bool prepend =
        scheme == PrependScheme::Always || (scheme == PrependScheme::First && atStart);
    if (prepend && !spaced.starts_with(mark))
        spaced.insert(0, mark);
    if (!split) {
        out.push_back(std::move(spaced));
        return;
    }
    std::size_t start = 0;
    for (std::size_t at = spaced.find(mark, mark.size()); at != std::string::npos;
         at = spaced.find(mark, at + mark.size())) {
        if (at > start)
            out.push_back(spaced.substr(start, at - start));
        start = at;
    }
    out.push_back(spaced.substr(start));
}

} // namespace

std::vector<std::string> HfPreTokenizer::pieces(std::string_view text, bool atStart) const
{
    std::vector<std::string> current;
    if (!text.empty())
        current.emplace_back(text);
    for (const auto& step : steps_) {
        std::vector<std::string> next;
        for (std::string& piece : current) {
            if (step->kind == StepKind::Metaspace) {
                appendMetaspace(step->replacement, step->prependScheme, step->splitAtReplacement,
                                piece, atStart, next);
                continue;
            }
            if (step->kind == StepKind::Split) {
                appendSplit(*step->split, piece, next);
                continue;
            }
            if (step->addPrefixSpace && piece.front() != ' ')
                piece.insert(piece.begin(), ' ');
            if (!step->useRegex) {
                next.push_back(std::move(piece));
                continue;
            }
            for (const std::string_view part : gpt2Pieces(piece))
                next.emplace_back(part);
        }
        current = std::move(next);
    }
    return current;
}

} // namespace attn
