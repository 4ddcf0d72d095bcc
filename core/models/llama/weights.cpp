#include "models/llama/weights.h"

#include "models/modeltensors.h"

namespace attn {

LlamaWeights loadLlamaWeights(const std::filesystem::path& file, const LlamaConfig& config)
{
    LlamaWeights w;
    ModelTensors read(file, w);
    const std::int64_t C = config.dModel, V = config.vocabulary, I = config.inner;
    const std::int64_t d = config.headDim, Q = config.heads * d, KV = config.kvHeads * d;
    // 1. The embedding.
    w.tokenEmbedding = read("model.embed_tokens.weight", {V, C});
    w.storedType = read.dtypeOf("model.embed_tokens.weight");
    // 2. The layers.
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "model.layers." + std::to_string(l) + ".";
        LlamaBlock b;
        b.inputNorm = read(p + "input_layernorm.weight", {C});
        b.qWeight = read(p + "self_attn.q_proj.weight", {Q, C});
        b.kWeight = read(p + "self_attn.k_proj.weight", {KV, C});
        b.vWeight = read(p + "self_attn.v_proj.weight", {KV, C});
        b.oWeight = read(p + "self_attn.o_proj.weight", {C, Q});
        if (config.qkvBias) {
            b.qBias = read(p + "self_attn.q_proj.bias", {Q});
            b.kBias = read(p + "self_attn.k_proj.bias", {KV});
            b.vBias = read(p + "self_attn.v_proj.bias", {KV});
        }
        if (config.outputBias)
            b.oBias = read(p + "self_attn.o_proj.bias", {C});
        if (config.qkNorm) {
            b.qNorm = read(p + "self_attn.q_norm.weight", {d});
            b.kNorm = read(p + "self_attn.k_norm.weight", {d});
        }
        b.postNorm = read(p + "post_attention_layernorm.weight", {C});
        b.gateWeight = read(p + "mlp.gate_proj.weight", {I, C});
        b.upWeight = read(p + "mlp.up_proj.weight", {I, C});
        b.downWeight = read(p + "mlp.down_proj.weight", {C, I});
        if (config.mlpBias) {
            b.gateBias = read(p + "mlp.gate_proj.bias", {I});
            b.upBias = read(p + "mlp.up_proj.bias", {I});
            b.downBias = read(p + "mlp.down_proj.bias", {C});
        }
        w.blocks.push_back(b);
    }
    // 3. The final norm and the output embedding.
    w.finalNorm = read("model.norm.weight", {C});
    w.outputEmbedding = config.tiedEmbeddings ? w.tokenEmbedding : read("lm_head.weight", {V, C});
    return w;
}

} // namespace attn
