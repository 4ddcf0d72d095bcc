// The text side of Hugging Face's tokenizer.json: its "normalizer" and its "pre_tokenizer",
// which cut a text into the pieces BPE merges within; for byte-level BPE (bytebpe.h) and
// for SentencePiece-style BPE (sentencepiecebpe.h).
#pragma once

#include "base/jsonread.h"

#include <unicode/normalizer2.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// tokenizer.json's "normalizer": null, a Unicode normal form ("NFC", "NFD", "NFKC",
// "NFKD"), "Prepend" (its text before a text that is not empty), "Replace" of a "String"
// pattern (every occurrence, left to right), or a "Sequence" of them. Llama 2's is
// Sequence[Prepend("▁"), Replace(" " → "▁")]. Thread-safe.
class HfNormalizer {
public:
    // Throws TokenizerFileError naming `file` for any other normalizer.
    HfNormalizer(const JsonValue* normalizer, const std::filesystem::path& file);
    // `text` (valid UTF-8) normalized.
    [[nodiscard]] std::string apply(std::string_view text) const;
    // What a Replace step puts for a space ("▁"), if one does.
    [[nodiscard]] std::optional<std::string> spaceMark() const;

private:
    struct Step {
        const icu::Normalizer2* form = nullptr; // ICU's own instance; null for the others
        std::string prepend;                    // Prepend's text
        std::string pattern, content;           // Replace's
    };
    std::vector<Step> steps_;
};

// tokenizer.json's "pre_tokenizer". For byte-level BPE: a "ByteLevel" step (GPT-2's own
// pattern when use_regex, a space put before a piece that has none when add_prefix_space),
// "Split" steps with a pattern ({"Regex": …} or {"String": …}, behavior "Isolated", not
// inverted), or a "Sequence" of these. For SentencePiece-style BPE: none, or "Metaspace"
// alone (every space made its replacement "▁", a "▁" put before the text by its
// prepend_scheme, and with split the text cut before every "▁"), as pre_tokenizers/
// metaspace.rs does.
//
// Regex patterns run on ICU's regular expressions as written: ICU's \s is Unicode's
// White_Space, as Oniguruma's (which Hugging Face's tokenizers use) is, and so are \p{L},
// \p{N}, (?i:…) and lookahead (tst_hftokenizer's U+0085 rows tell). Thread-safe.
class HfPreTokenizer {
public:
    // Throws TokenizerFileError naming `file` for a step of another type or option, a
    // pattern ICU cannot compile, or a Metaspace inside a Sequence.
    HfPreTokenizer(const JsonValue* preTokenizer, const std::filesystem::path& file);
    HfPreTokenizer(HfPreTokenizer&&) noexcept;
    HfPreTokenizer& operator=(HfPreTokenizer&&) noexcept;
    ~HfPreTokenizer();

    // The pieces of `text` (valid UTF-8), none empty, which together spell `text` (with
    // the spaces add_prefix_space puts in, or Metaspace's "▁"). `atStart`: the text begins
    // the input, where prepend_scheme "first" puts its "▁".
    [[nodiscard]] std::vector<std::string> pieces(std::string_view text, bool atStart = true) const;

    // What the steps are: none at all, a ByteLevel among them, a Metaspace.
    [[nodiscard]] bool empty() const { return steps_.empty(); }
    [[nodiscard]] bool byteLevel() const;
    [[nodiscard]] bool metaspace() const;
    // Metaspace's replacement ("▁"); empty without a Metaspace.
    [[nodiscard]] const std::string& spaceMark() const;

private:
    struct Step;
    void addStep(const JsonValue& step, const std::filesystem::path& file, bool alone);
    std::vector<std::unique_ptr<Step>> steps_;
};

} // namespace attn
