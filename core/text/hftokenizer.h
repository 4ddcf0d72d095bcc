// A tokenizer read from Hugging Face's tokenizer.json: what the file says, not one
// vocabulary. Two kinds of BPE model:
//   - byte-level BPE (a ByteLevel pre-tokenizer: Qwen2, Qwen2.5, Qwen3, Llama 3, GPT-2's own
//     tokenizer.json), merging a piece's UTF-8 bytes (bytebpe.h);
//   - SentencePiece-style BPE (no pre-tokenizer or a Metaspace one, with byte_fallback or
//     spaces spelt "▁": Llama 2, TinyLlama, Mistral), merging a piece's characters and
//     spelling a character the vocabulary lacks by its bytes' "<0xNN>" tokens
//     (sentencepiecebpe.h).
//
// encode, as Hugging Face's tokenizers do with add_special_tokens:
//   1. the added tokens ("<|im_start|>", "<s>" …) not marked "normalized" found whole in the
//      raw text, leftmost and then longest first (lstrip/rstrip swallow the white space
//      beside them);
//   2. each stretch between them normalized ("normalizer": Llama 2's puts "▁" before it and
//      for each space), then cut at the added tokens marked "normalized", found as the
//      normalizer spells them ("<s>" as "▁<s>" after Llama 2's);
//   3. each stretch cut into pieces ("pre_tokenizer", hfpretokenizer.h);
//   4. each piece merged by the model's merges;
//   5. the post-processor's template around it (Llama 3's "<|begin_of_text|>", Llama 2's
//      "<s>"; Qwen adds nothing).
//
// bytes(id) is the text a token stands for: a SentencePiece token's "▁" a space, a byte
// token "<0xE6>" the byte E6. So Llama 2's "▁cat" is labelled " cat", and the "▁" the
// normalizer puts before a text shows as its first token's leading space: each label is its
// token's own text wherever the token stands, as GPT-2's " cat" is, and as Hugging Face's
// decode shows it after "<s>" ("<s> The cat"; its Strip decoder drops that space only when
// the text is decoded without "<s>"). decode() joins these bytes.
#pragma once

#include "text/bytebpe.h"
#include "text/hfpretokenizer.h"
#include "text/modeltokenizer.h"
#include "text/sentencepiecebpe.h"

#include <array>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace attn {

// One of tokenizer.json's "added_tokens".
struct HfAddedToken {
    int id = 0;
    std::string content;
    bool special = false;    // a control token (<|im_start|>), not text a user writes
    bool lstrip = false;     // swallows the white space before it
    bool rstrip = false;     // swallows the white space after it
    bool normalized = false; // found in the normalized text, as the normalizer spells it
    bool operator==(const HfAddedToken&) const = default;
};

class HfTokenizer final : public ModelTokenizer {
public:
    // The tokenizer in `file` (a model folder's tokenizer.json). Throws TokenizerFileError
    // naming the file and its fault: missing, not JSON, a model other than byte-level or
    // SentencePiece-style BPE (a Unigram, BPE with dropout …), a normalizer, pre-tokenizer
    // or post-processor it does not support, a vocabulary and merges that do not fit
    // together.
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

    // Whether the model is SentencePiece-style BPE (else byte-level).
    [[nodiscard]] bool sentencePiece() const
    {
        return std::holds_alternative<SentencePieceBpe>(model_);
    }

private:
    // Added tokens by the first byte of the spelling they are found by, longest first:
    // (spelling, index into added_).
    using AddedTable = std::array<std::vector<std::pair<std::string, std::size_t>>, 256>;

    HfTokenizer(const JsonValue& root, const std::filesystem::path& file);
    void readPostProcessor(const JsonValue* processor, const std::filesystem::path& file);
    [[nodiscard]] bool modelHas(int id) const;
    template <typename OnStretch>
    void cutAtAdded(std::string_view text, const AddedTable& table, std::vector<int>& ids,
                    OnStretch&& onStretch) const;
    void appendText(std::string_view text, bool atStart, std::vector<int>& ids) const;

    // In the order they are read: the text steps decide which kind of model the file has.
    std::vector<HfAddedToken> added_;
    HfNormalizer normalizer_;
    HfPreTokenizer preTokenizer_;
    std::variant<ByteLevelBpe, SentencePieceBpe> model_;
    std::unordered_map<int, std::size_t> addedById_; // id → index into added_
    AddedTable rawAdded_, normalizedAdded_;          // found before and after normalizing
    std::vector<int> prefix_, suffix_;
    int vocabularySize_ = 0;
};

} // namespace attn
