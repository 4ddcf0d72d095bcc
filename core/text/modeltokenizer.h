// What a language model needs of its tokenizer, whatever the vocabulary's format: the small
// interface a model family takes its tokenizer through (the Qwen/Llama family's
// tokenizer.json byte-level BPE, core/text/hftokenizer, plugs in here). No Qt.
#pragma once

#include "gpt2labels.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

class ModelTokenizer {
public:
    virtual ~ModelTokenizer() = default;

    // The ids of `text`, special tokens the text spells included as the tokenizer's
    // added tokens say. Throws InputError (Refusal::InvalidUtf8) for invalid UTF-8.
    [[nodiscard]] virtual std::vector<int> encode(std::string_view text) const = 0;

    // A readable label per id (see TokenLabel: a run of byte tokens spelt out). Throws
    // std::out_of_range for an id the vocabulary does not have.
    [[nodiscard]] virtual std::vector<TokenLabel> labels(std::span<const int> ids) const = 0;

    // The vocabulary's spelling of `id` ("Ġthe", "<|im_start|>"); throws std::out_of_range
    // for an unknown id.
    [[nodiscard]] virtual std::string token(int id) const = 0;

    // One more than the largest id, added tokens included.
    [[nodiscard]] virtual int vocabularySize() const = 0;
};

} // namespace attn
