// What a language model needs of its tokenizer, whichever family it is: a text's ids, and
// each id's spelling, bytes and readable label. GPT-2's tokenizer (vocab.json + merges.txt)
// and Hugging Face's tokenizer.json (HfTokenizer) both implement it.
#pragma once

#include "text/gpt2labels.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// A text's ids and the label of each (same length).
struct TokenizedText {
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    bool operator==(const TokenizedText&) const = default;
};

class ModelTokenizer {
public:
    virtual ~ModelTokenizer() = default;

    // The ids of `text`, as the model reads it. Throws InputError (Refusal::InvalidUtf8)
    // for invalid UTF-8. Thread-safe.
    [[nodiscard]] virtual std::vector<int> encodeIds(std::string_view text) const = 0;
    // The text of `ids` (their bytes() joined), invalid UTF-8 replaced by U+FFFD. Throws
    // std::out_of_range for an id the vocabulary does not have.
    [[nodiscard]] std::string decode(std::span<const int> ids) const;
    // A readable label per id (see TokenLabel) from its bytes() and token(): a character
    // spread over several tokens is shown whole by the first. Throws std::out_of_range as
    // decode().
    [[nodiscard]] std::vector<TokenLabel> labels(std::span<const int> ids) const;

    // One more than the largest id.
    [[nodiscard]] virtual int vocabularySize() const = 0;
    // The vocabulary's spelling of `id` ("Ġthe", "<|im_start|>"); throws std::out_of_range
    // for an unknown id.
    [[nodiscard]] virtual const std::string& token(int id) const = 0;
    // The id of a spelling, if the vocabulary has it.
    [[nodiscard]] virtual std::optional<int> id(std::string_view token) const = 0;
    // The raw bytes `id` stands for (a special token's own text); throws std::out_of_range.
    [[nodiscard]] virtual const std::string& bytes(int id) const = 0;

    // encodeIds() and labels() at once.
    [[nodiscard]] TokenizedText tokenize(std::string_view text) const
    {
        TokenizedText out;
        out.ids = encodeIds(text);
        out.labels = labels(out.ids);
        return out;
    }
    // The label of one id on its own (bytes that are no whole character show as "‹E6 88›").
    [[nodiscard]] TokenLabel label(int id) const { return labels(std::span(&id, 1)).front(); }

protected:
    ModelTokenizer() = default;
    ModelTokenizer(const ModelTokenizer&) = default;
    ModelTokenizer(ModelTokenizer&&) = default;
    ModelTokenizer& operator=(const ModelTokenizer&) = default;
    ModelTokenizer& operator=(ModelTokenizer&&) = default;
};

} // namespace attn
