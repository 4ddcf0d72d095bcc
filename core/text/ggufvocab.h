// The tokenizer a GGUF file's metadata describes (tokenizer.ggml.*), spelt as the
// tokenizer.json Hugging Face would ship with the model, so that HfTokenizer reads it and
// gives llama.cpp's ids:
//   - "gpt2": byte-level BPE (Qwen2, Llama 3, GPT-2): tokens, merges ("a b"), token types;
//     tokenizer.ggml.pre names the pre-tokenizer's regular expressions as llama.cpp's
//     llama-vocab.cpp has them ("qwen2", "llama-bpe", "gpt-2", "default" and its aliases);
//   - "llama": SentencePiece BPE (Llama 2, TinyLlama, Mistral v0.1): tokens and scores, from
//     which the merges are made as Hugging Face's converter does (every split of a token into
//     two tokens, ranked by the whole token's score, llama.cpp's order of merging), "▁" for a
//     space, bytes as "<0xNN>".
// Control (3), user-defined (4) and unknown (2) tokens are added tokens, found whole in the
// text (as llama.cpp's tokenize with special tokens parsed), and so are the tokens llama.cpp
// makes control tokens by their text (ggufcontroltokens.h: Qwen2's "</s>"); merges that a
// token found whole makes unreachable are left out. add_bos_token / add_eos_token make the
// template around a text. Checked against llama.cpp's own ids on Qwen3's, Mistral 7B's and
// GPT-2's vocabularies (tests/core/tst_gguftokenizer.cpp). No Qt.
#pragma once

#include "io/gguf.h"

#include <string>
#include <vector>

namespace attn {

struct GgufVocabulary {
    std::string json;           // tokenizer.json's text
    int size = 0;               // the tokens' count
    std::vector<int> endTokens; // eos (and eot) ids
};

// Throws InputError ("<where>: <fault>"): no tokenizer.ggml.model, a model other than "gpt2"
// and "llama", a pre-tokenizer it does not know, tokens missing or not strings, token types
// or scores of another count, merges naming tokens the vocabulary lacks, special ids out of
// range.
[[nodiscard]] GgufVocabulary ggufVocabulary(const GgufFile& file, const std::string& where);

} // namespace attn
