// GPT-2's byte-level BPE tokenizer, as OpenAI's encoder.py: the pre-tokenizer's pieces,
// each piece's UTF-8 bytes spelt in the bytes-to-unicode alphabet, merged by rank.
#pragma once

#include "text/bytebpe.h"
#include "text/gpt2files.h"
#include "text/gpt2labels.h"
#include "text/modeltokenizer.h"

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// A text as GPT-2's tokens.
struct Gpt2Encoding {
    std::vector<int> ids;
    std::vector<std::string> tokens; // each id's spelling in the vocabulary, "Ġthe"
    bool operator==(const Gpt2Encoding&) const = default;
};

// GPT-2's tokenizer. Thread-safe: encode() shares a cache of merged pieces under a lock.
// "<|endoftext|>" in a text is ordinary text, as in encoder.py's encode().
class Gpt2Tokenizer final : public ModelTokenizer {
public:
    // The tokenizer of a model folder in Hugging Face's layout: `folder`/vocab.json and
    // `folder`/merges.txt. Throws TokenizerFileError naming the file and its fault.
    [[nodiscard]] static Gpt2Tokenizer fromFolder(const std::filesystem::path& folder);

    // A tokenizer from the two files' contents; the paths only name them in errors.
    // Throws TokenizerFileError when either is corrupt or they do not fit together (a
    // byte or a merge's result missing from the vocabulary).
    Gpt2Tokenizer(std::string_view vocabJson, std::string_view mergesText,
                  const std::filesystem::path& vocabPath = "vocab.json",
                  const std::filesystem::path& mergesPath = "merges.txt");

    // The ids and tokens of `text`. Throws InputError (Refusal::InvalidUtf8) for invalid
    // UTF-8.
    [[nodiscard]] Gpt2Encoding encode(std::string_view text) const;
    [[nodiscard]] std::vector<int> encodeIds(std::string_view text) const override
    {
        return encode(text).ids;
    }

    // decode() (encoder.py's errors="replace") and labels() are ModelTokenizer's.

    // One more than the largest id.
    [[nodiscard]] int vocabularySize() const override { return bpe_.vocabularySize(); }
    // The spelling of `id` ("Ġthe"); throws std::out_of_range for an unknown id.
    [[nodiscard]] const std::string& token(int id) const override { return bpe_.token(id); }
    // The id of a spelling, if the vocabulary has it.
    [[nodiscard]] std::optional<int> id(std::string_view token) const override
    {
        return bpe_.id(token);
    }
    // The raw bytes `id` stands for; throws std::out_of_range for an unknown id.
    [[nodiscard]] const std::string& bytes(int id) const override { return bpe_.bytes(id); }

private:
    ByteLevelBpe bpe_;
};

} // namespace attn
