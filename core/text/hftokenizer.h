// A tokenizer read from Hugging Face's tokenizer.json, for byte-level BPE models (Qwen2,
// Qwen2.5, Qwen3, Llama 3, GPT-2's own tokenizer.json): what the file says, not one
// vocabulary.
//
// encode, as Hugging Face's tokenizers do with add_special_tokens:
//   1. the added tokens ("<|im_start|>", "<|endoftext|>" …) found whole in the raw text,
//      leftmost and then longest first (lstrip/rstrip swallow the white space beside them);
//   2. each stretch between them normalized ("normalizer") and cut into pieces
//      ("pre_tokenizer", hfpretokenizer.h);
//   3. each piece's UTF-8 bytes merged by the model's merges (bytebpe.h);
//   4. the post-processor's template around it (Llama 3's "<|begin_of_text|>"; Qwen adds
//      nothing).
// Added tokens are matched on the raw text even when marked "normalized" (NFC leaves the
// usual ones, <|…|> in ASCII, as they are).
#pragma once

#include "text/bytebpe.h"
#include "text/hfpretokenizer.h"
#include "text/modeltokenizer.h"

#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {

// One of tokenizer.json's "added_tokens".
struct HfAddedToken {
    int id = 0;
    std::string content;
    bool special = false; // a control token (<|im_start|>), not text a user writes
    bool lstrip = false;  // swallows the white space before it
    bool rstrip = false;  // swallows the white space after it
    bool operator==(const HfAddedToken&) const = default;
};

class HfTokenizer final : public ModelTokenizer {
public:
    // The tokenizer in `file` (a model folder's tokenizer.json). Throws TokenizerFileError
    // naming the file and its fault: missing, not JSON, a model other than byte-level BPE,
    // a normalizer, pre-tokenizer or post-processor it does not support, a vocabulary and
    // merges that do not fit together.
    [[nodiscard]] static HfTokenizer fromFile(const std::filesystem::path& file);
    // The tokenizer of the JSON text `json`; `file` only names it in errors.
    explicit HfTokenizer(std::string_view json,
                         const std::filesystem::path& file = "tokenizer.json");

    // The ids of `text` with the post-processor's special tokens (as the model is fed).
    [[nodiscard]] std::vector<int> encodeIds(std::string_view text) const override
    {
        return encodeIds(text, true);
    }
    // The ids of `text`, with the template's special tokens when `addSpecialTokens`.
    // Throws InputError (Refusal::InvalidUtf8) for invalid UTF-8.
    [[nodiscard]] std::vector<int> encodeIds(std::string_view text, bool addSpecialTokens) const;

    [[nodiscard]] int vocabularySize() const override { return vocabularySize_; }
    [[nodiscard]] const std::string& token(int id) const override;
    [[nodiscard]] std::optional<int> id(std::string_view token) const override;
    [[nodiscard]] const std::string& bytes(int id) const override;

    // The added tokens in the file's order.
    [[nodiscard]] const std::vector<HfAddedToken>& addedTokens() const { return added_; }
    // The ids the post-processor puts before and after a text.
    [[nodiscard]] const std::vector<int>& templatePrefix() const { return prefix_; }
    [[nodiscard]] const std::vector<int>& templateSuffix() const { return suffix_; }

private:
    HfTokenizer(const JsonValue& root, const std::filesystem::path& file);
    void readPostProcessor(const JsonValue* processor, const std::filesystem::path& file);
    [[nodiscard]] const HfAddedToken* addedAt(std::string_view text, std::size_t at) const;
    void appendText(std::string_view text, std::vector<int>& ids) const;

    // In the order they are read: the model's faults are told before the text steps'.
    std::vector<HfAddedToken> added_;
    ByteLevelBpe bpe_;
    HfNormalizer normalizer_;
    HfPreTokenizer preTokenizer_;
    std::unordered_map<int, std::size_t> addedById_;           // id → index into added_
    std::array<std::vector<std::size_t>, 256> addedByFirst_{}; // first byte → longest first
    std::vector<int> prefix_, suffix_;
    int vocabularySize_ = 0;
};

} // namespace attn
