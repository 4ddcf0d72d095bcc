// The text side of Hugging Face's tokenizer.json for byte-level BPE: its "normalizer" and
// its "pre_tokenizer", which cut a text into the pieces BPE merges within.
#pragma once

#include "base/jsonread.h"

#include <unicode/normalizer2.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// tokenizer.json's "normalizer": null, a Unicode normal form ("NFC", "NFD", "NFKC",
// "NFKD") or a "Sequence" of them. Thread-safe.
class HfNormalizer {
public:
    // Throws TokenizerFileError naming `file` for any other normalizer.
    HfNormalizer(const JsonValue* normalizer, const std::filesystem::path& file);
    // `text` (valid UTF-8) normalized.
    [[nodiscard]] std::string apply(std::string_view text) const;

private:
    std::vector<const icu::Normalizer2*> forms_; // ICU's own instances, in order
};

// tokenizer.json's "pre_tokenizer": a "ByteLevel" step (GPT-2's own pattern when
// use_regex, a space put before a piece that has none when add_prefix_space), "Split"
// steps with a pattern ({"Regex": …} or {"String": …}, behavior "Isolated", not inverted),
// or a "Sequence" of these; at least one ByteLevel step, as byte-level BPE needs.
//
// Regex patterns run on ICU's regular expressions as written: ICU's \s is Unicode's
// White_Space, as Oniguruma's (which Hugging Face's tokenizers use) is, and so are \p{L},
// \p{N}, (?i:…) and lookahead (tst_hftokenizer's U+0085 rows tell). Thread-safe.
class HfPreTokenizer {
public:
    // Throws TokenizerFileError naming `file` for a step of another type or option, or a
    // pattern ICU cannot compile.
    HfPreTokenizer(const JsonValue* preTokenizer, const std::filesystem::path& file);
    HfPreTokenizer(HfPreTokenizer&&) noexcept;
    HfPreTokenizer& operator=(HfPreTokenizer&&) noexcept;
    ~HfPreTokenizer();

    // The pieces of `text` (valid UTF-8), none empty, which together spell `text` (with
    // the spaces add_prefix_space puts in).
    [[nodiscard]] std::vector<std::string> pieces(std::string_view text) const;

private:
    struct Step;
    void addStep(const JsonValue& step, const std::filesystem::path& file);
    std::vector<std::unique_ptr<Step>> steps_;
};

} // namespace attn
