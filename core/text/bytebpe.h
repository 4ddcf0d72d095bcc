// Byte-level BPE, the part GPT-2, Qwen and Llama 3 share: a vocabulary spelt in GPT-2's
// bytes-to-unicode alphabet, merges by rank, and the merge loop of OpenAI's encoder.py
// (bpe()) with a cache of merged pieces. The pre-tokenizer that cuts a text into pieces is
// each family's own (gpt2pretokenizer.h, hfpretokenizer.h).
#pragma once

#include "text/bpevocabulary.h"
#include "text/gpt2files.h"

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attn {

// Where a vocabulary and its merges come from, for messages: the files, and how a merge's
// message names the vocabulary ("vocab.json", "model.vocab").
struct BpeSources {
    std::filesystem::path vocabFile;
    std::filesystem::path mergesFile;
    std::string vocabName;
};

class ByteLevelBpe : public BpeVocabulary {
public:
    // Throws TokenizerFileError when the vocabulary has a repeated id, an id of 10 million
    // or more, a spelling outside the byte alphabet or lacks one of the 256 bytes' letters,
    // or when a merge's side or result is not in it. `ignoreMerges`: a piece the
    // vocabulary has whole is that token, unmerged (Hugging Face's BPE ignore_merges).
    ByteLevelBpe(std::vector<VocabEntry> vocabulary,
                 const std::vector<std::pair<std::string, std::string>>& merges,
                 const BpeSources& sources, bool ignoreMerges = false);
    ByteLevelBpe(ByteLevelBpe&&) noexcept;
    ByteLevelBpe& operator=(ByteLevelBpe&&) noexcept;
    ~ByteLevelBpe();

    // Appends the ids of one piece of raw bytes (not empty). Thread-safe.
    void appendPiece(std::string_view piece, std::vector<int>& ids) const;

private:
    struct Cache;

    [[nodiscard]] std::vector<int> mergePiece(std::string_view piece) const;

    std::unordered_map<std::string, int> ranks_; // "left right" → rank
    std::array<std::string, 256> byteSymbols_;   // byte → its letter in the alphabet
    std::array<int, 256> byteIds_{};             // byte → the id of that letter
    bool ignoreMerges_ = false;
    std::unique_ptr<Cache> cache_;
};

// The raw bytes a spelling in GPT-2's byte alphabet stands for, or nothing when it has a
// letter outside the alphabet or is not UTF-8.
[[nodiscard]] std::optional<std::string> byteLevelBytes(std::string_view spelling);

} // namespace attn
