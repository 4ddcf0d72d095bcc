// SentencePiece-style BPE as Hugging Face's tokenizers run it (models/bpe/model.rs and
// word.rs): a vocabulary spelt in Unicode characters, where "▁" stands for a space and
// "<0x0A>" … "<0xFF>" for single bytes; a piece starts as its characters and merges by
// rank, the lowest rank first and of equal ranks the leftmost. A character the vocabulary
// lacks is spelt by its UTF-8 bytes' tokens (byte_fallback), else by the unknown token (one
// for a run of them with fuse_unk), else dropped. Llama 2, TinyLlama and Mistral's
// tokenizer.json are of this kind; the normalizer or Metaspace pre-tokenizer that puts the
// "▁" in is hfpretokenizer.h's.
#pragma once

#include "text/bpevocabulary.h"
#include "text/gpt2files.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attn {

// The model's options in tokenizer.json, and how the vocabulary spells a space.
struct SentencePieceOptions {
    std::optional<std::string> unkToken; // model.unk_token
    bool byteFallback = false;           // a missing character as its bytes' "<0xNN>" tokens
    bool fuseUnk = false;                // a run of unknown characters as one unknown token
    bool ignoreMerges = false;           // a piece the vocabulary has whole is that token
    std::string spaceMark = "\u2581";    // "▁": a space, in the vocabulary's spellings
};

class SentencePieceBpe : public BpeVocabulary {
public:
    // Throws TokenizerFileError naming `file` when the vocabulary has a repeated id or one of
    // 10 million or more, when a merge's side or result is not in it, or when unk_token is
    // not in it.
    SentencePieceBpe(std::vector<VocabEntry> vocabulary,
                     const std::vector<std::pair<std::string, std::string>>& merges,
                     SentencePieceOptions options, const std::filesystem::path& file);

    // Appends the ids of one piece (valid UTF-8, with its spaces already spelt "▁").
    // Thread-safe.
    void appendPiece(std::string_view piece, std::vector<int>& ids) const;

private:
    struct Merge {
        int rank = 0;
        int result = 0; // the id of the merged token
    };
    struct Symbol;

    [[nodiscard]] std::vector<Symbol> symbolsOf(std::string_view piece) const;
    void mergeAll(std::vector<Symbol>& symbols) const;
    [[nodiscard]] const Merge* mergeOf(int left, int right) const;

    SentencePieceOptions options_;
    std::unordered_map<std::uint64_t, Merge> merges_; // (left id, right id) → merge
    std::array<std::optional<int>, 256> byteIds_{};   // byte → the id of "<0xNN>"
    std::optional<int> unkId_;
};

// The byte a SentencePiece byte token stands for ("<0x0A>" → 0x0A), or nothing.
[[nodiscard]] std::optional<unsigned char> sentencePieceByte(std::string_view spelling);

} // namespace attn
