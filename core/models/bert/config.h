// The BERT family's config.json (model_type "bert"): the sizes and numerics of a post-LN
// encoder with absolute positions, GELU and a masked-LM head, as Hugging Face's
// configuration_bert.py reads them. No Qt.
#pragma once

#include "base/jsonread.h"
#include "models/configfields.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace attn {

// The sizes (HfSizes): layers L, heads H (query heads), dModel C, inner (the MLP's width),
// vocabulary V, positions (max_position_embeddings).
struct BertConfig : HfSizes {
    int headDim = 0;        // C / H
    int tokenTypes = 2;     // type_vocab_size (every token here is of type 0)
    double epsilon = 1e-12; // layer_norm_eps
};

// Reads config.json (`config`, an object); `file` names it in errors. Throws ModelError naming
// `file` and the fault: not JSON, a field missing or of the wrong type, a size not positive or over
// kMaxConfigSize, hidden_size not divisible by num_attention_heads, a model_type other than
// bert, a hidden_act other than "gelu", a position_embedding_type other than "absolute".
[[nodiscard]] BertConfig parseBertConfig(const JsonValue& config,
                                         const std::filesystem::path& file);

} // namespace attn
