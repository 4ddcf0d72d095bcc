// GPT-2's config.json: the sizes of a GPT-2 family model (gpt2, gpt2-medium, -large, -xl,
// distilgpt2 differ in these only). No Qt.
#pragma once

#include "base/jsonread.h"

#include "models/configfields.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace attn {

struct Gpt2Config {
    std::string modelType = "gpt2";
    int layers = 0;        // n_layer
    int heads = 0;         // n_head
    int dModel = 0;        // n_embd, C
    int positions = 0;     // n_positions (older files: n_ctx)
    int vocabulary = 0;    // vocab_size, V
    int inner = 0;         // n_inner, the MLP's width; 4·C when null or absent
    double epsilon = 1e-5; // layer_norm_epsilon
    [[nodiscard]] int headDim() const { return heads > 0 ? dModel / heads : 0; }
};

// Reads config.json (`config`, an object); `file` names it in errors. Throws ModelError naming
// `file` and the fault: not JSON, not an object, a field missing or of the wrong type, a size not
// positive or over kMaxConfigSize, n_embd not divisible by n_head, a model_type other than
// "gpt2", an activation_function other than "gelu_new".
[[nodiscard]] Gpt2Config parseGpt2Config(const JsonValue& config,
                                         const std::filesystem::path& file);

} // namespace attn
