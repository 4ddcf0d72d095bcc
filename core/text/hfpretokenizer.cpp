// tokenizer.json's normalizer and pre-tokenizer, after Hugging Face's tokenizers
// (normalizers/unicode.rs, pre_tokenizers/{split,byte_level,sequence}.rs).
#include "text/hfpretokenizer.h"

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
            forms_.insert(forms_.end(), inner.forms_.begin(), inner.forms_.end());
        }
        return;
    }
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* form = nullptr;
    if (type == "NFC")
        form = icu::Normalizer2::getNFCInstance(status);
    else if (type == "NFD")
        form = icu::Normalizer2::getNFDInstance(status);
    else if (type == "NFKC")
        form = icu::Normalizer2::getNFKCInstance(status);
    else if (type == "NFKD")
        form = icu::Normalizer2::getNFKDInstance(status);
    else
        throw TokenizerFileError(file, "the normalizer \"" + type +
                                           "\" is not supported (supported: NFC, NFD, NFKC, "
                                           "NFKD, a Sequence of them, or none)");
    if (U_FAILURE(status) || !form)
        throw TokenizerFileError(file, "ICU has no " + type + " normalizer");
    forms_.push_back(form);
}

std::string HfNormalizer::apply(std::string_view text) const
{
    if (forms_.empty())
        return std::string(text);
    icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
    for (const icu::Normalizer2* form : forms_) {
        UErrorCode status = U_ZERO_ERROR;
        icu::UnicodeString normalized = form->normalize(unicode, status);
        if (U_FAILURE(status))
            throw InputError("the text could not be normalized: " +
                             std::string(u_errorName(status)));
        unicode = std::move(normalized);
    }
    std::string out;
    unicode.toUTF8String(out);
    return out;
}

struct HfPreTokenizer::Step {
    std::unique_ptr<icu::RegexPattern> split; // a Split step's pattern; null for ByteLevel
    bool addPrefixSpace = false;
    bool useRegex = true;
};

HfPreTokenizer::HfPreTokenizer(HfPreTokenizer&&) noexcept = default;
HfPreTokenizer& HfPreTokenizer::operator=(HfPreTokenizer&&) noexcept = default;
HfPreTokenizer::~HfPreTokenizer() = default;

HfPreTokenizer::HfPreTokenizer(const JsonValue* preTokenizer, const std::filesystem::path& file)
{
    if (!preTokenizer || preTokenizer->isNull())
        throw TokenizerFileError(file, "there is no pre_tokenizer: byte-level BPE needs a "
                                       "ByteLevel pre-tokenizer");
    addStep(*preTokenizer, file);
    bool byteLevel = false;
    for (const auto& step : steps_)
        byteLevel = byteLevel || !step->split;
    if (!byteLevel)
        throw TokenizerFileError(file, "the pre_tokenizer has no ByteLevel step: only "
                                       "byte-level BPE (GPT-2, Qwen, Llama 3) is supported");
}

void HfPreTokenizer::addStep(const JsonValue& step, const std::filesystem::path& file)
{
    const std::string type = typeOf(step);
    if (type == "Sequence") {
        const JsonValue* steps = step.find("pretokenizers");
        if (!steps || !steps->isArray())
            throw TokenizerFileError(file,
                                     "the pre_tokenizer Sequence has no \"pretokenizers\" list");
        for (const JsonValue& inner : steps->items())
            addStep(inner, file);
        return;
    }
    auto added = std::make_unique<Step>();
    if (type == "ByteLevel") {
        added->addPrefixSpace = flag(step, "add_prefix_space", false);
        added->useRegex = flag(step, "use_regex", true);
    } else if (type == "Split") {
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
                                           "Sequence)");
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

std::vector<std::string> HfPreTokenizer::pieces(std::string_view text) const
{
    std::vector<std::string> current;
    if (!text.empty())
        current.emplace_back(text);
    for (const auto& step : steps_) {
        std::vector<std::string> next;
        for (std::string& piece : current) {
            if (step->split) {
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
