// The Qwen/Llama family's weights from model.safetensors, as float views the forward reads
// (read by modeltensors: F32 in place from the mapped file, F16 and BF16 converted once).
// nn.Linear weights are stored [out, in]. No Qt.
#pragma once

#include "io/mappedfile.h"
#include "models/llama/config.h"
#include "models/modelkernels.h"
#include "models/modeltensors.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// One decoder layer's tensors (HF's names under model.layers.N.); a bias or norm the config
// does not have stays empty (data null).
struct LlamaBlock {
    WeightView inputNorm;            // input_layernorm (C)
    WeightView qWeight, qBias;       // self_attn.q_proj (H·d, C), (H·d)
    WeightView kWeight, kBias;       // self_attn.k_proj (H_kv·d, C), (H_kv·d)
    WeightView vWeight, vBias;       // self_attn.v_proj (H_kv·d, C), (H_kv·d)
    WeightView oWeight, oBias;       // self_attn.o_proj (C, H·d), (C)
    WeightView qNorm, kNorm;         // qwen3: self_attn.q_norm, k_norm (d)
    WeightView postNorm;             // post_attention_layernorm (C)
    WeightView gateWeight, gateBias; // mlp.gate_proj (I, C), (I)
    WeightView upWeight, upBias;     // mlp.up_proj (I, C), (I)
    WeightView downWeight, downBias; // mlp.down_proj (C, I), (C)
};

struct LlamaWeights : StoredWeights {
    WeightView tokenEmbedding;  // model.embed_tokens (V, C)
    WeightView outputEmbedding; // lm_head (V, C), or embed_tokens when tied
    std::vector<LlamaBlock> blocks;
    WeightView finalNorm; // model.norm (C)
};

// Reads `file` (model.safetensors, or a sharded model's index) for a model of `config`.
// lm_head.weight is read only when the embeddings are not tied. Throws ModelError naming the file
// and the tensor: missing, of the wrong shape, of a dtype other than F32, F16 or BF16, or a file
// that is not safetensors.
[[nodiscard]] LlamaWeights loadLlamaWeights(const std::filesystem::path& file,
                                            const LlamaConfig& config);

} // namespace attn
