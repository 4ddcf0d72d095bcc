// The Qwen/Llama family's config.json (model_type "qwen2", "qwen3", "llama" or "mistral"): the
// sizes and numerics of a decoder with RMSNorm, rotary positions, grouped-query attention and
// SwiGLU, as Hugging Face's configuration_qwen2.py, configuration_qwen3.py,
// configuration_llama.py and configuration_mistral.py read them (Mistral: Llama's layers with
// a sliding window). No Qt.
#pragma once

#include "base/jsonread.h"
#include "models/configfields.h"
#include "models/modelattention.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace attn {

// The sizes (HfSizes): layers L, heads H (query heads), dModel C, inner (the MLP's width),
// vocabulary V, positions (max_position_embeddings).
struct LlamaConfig : HfSizes {
    std::string modelType; // "qwen2", "qwen3", "llama" or "mistral"
    int kvHeads = 0;       // num_key_value_heads (H when absent): H / kvHeads queries share one
    int headDim = 0;       // head_dim, or C / H when absent or null
    double epsilon = 1e-6; // rms_norm_eps
    double ropeTheta = 10000.0;  // rope_theta, or rope_parameters.rope_theta
    RopeScaling ropeScaling;     // rope_scaling or rope_parameters: default, linear, llama3
    bool tiedEmbeddings = false; // tie_word_embeddings: lm_head is embed_tokens
    bool qkvBias = false;        // q/k/v_proj biases: always in qwen2, attention_bias elsewhere
    bool outputBias = false;     // o_proj's bias: attention_bias (llama, qwen3)
    bool mlpBias = false;        // gate/up/down_proj biases: mlp_bias (llama)
    bool qkNorm = false;         // qwen3's self_attn.q_norm and k_norm over head_dim
    int slidingWindow = 0;       // mistral's sliding_window W (0: none, or null)

    // The K/V head query head `h` reads (repeat_kv): h / (H / kvHeads).
    [[nodiscard]] int kvHeadOf(int h) const { return h / (heads / kvHeads); }
};

// Reads config.json (`config`, an object); `file` names it in errors. Throws ModelError naming
// `file` and the fault: not JSON, a field missing or of the wrong type, a size not positive or over
// kMaxConfigSize, hidden_size not divisible by num_attention_heads (without head_dim),
// num_attention_heads not divisible by num_key_value_heads, an odd head_dim, a model_type
// other than qwen2, qwen3, llama or mistral, a hidden_act other than "silu", a rope type other than
// "default", "linear" and "llama3" (or one of these without its factors), Qwen2's sliding
// window switched on.
[[nodiscard]] LlamaConfig parseLlamaConfig(const JsonValue& config,
                                           const std::filesystem::path& file);

} // namespace attn
