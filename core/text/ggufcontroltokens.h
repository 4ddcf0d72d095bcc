// The tokens llama.cpp makes control tokens by their text, whatever type a GGUF file gives
// them (llama-vocab.cpp's llama_vocab::load, "auto-detect special tokens by text"): Qwen2's
// "</s>" is a normal token of its vocabulary, but llama.cpp finds it whole in a text. No Qt.
#pragma once

#include "io/gguf.h"

#include <string_view>
#include <vector>

namespace attn {

// One flag a token: whether llama.cpp makes it a control token by its text. The
// end-of-generation names always ("<|im_end|>", "<|endoftext|>", "</s>" …); a
// fill-in-the-middle group's names ("<|fim_prefix|>" …) unless the metadata names that token
// itself (tokenizer.ggml.fim_pre_token_id …).
[[nodiscard]] std::vector<bool> llamaCppControlTokens(const GgufFile& file,
                                                      const std::vector<std::string_view>& tokens);

} // namespace attn
