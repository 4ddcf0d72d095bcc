// The Qwen/Llama family run natively (config model_type qwen2, qwen3, llama, mistral): the
// forward pass of Hugging Face's modeling_qwen2.py, modeling_qwen3.py, modeling_llama.py and
// modeling_mistral.py (eager attention), with the formula's switches inside every layer's
// attention (modelattention.h) and the RoPE switch. Everything around the forward
// (tokenizer, run, trace, logits) is LanguageModel's. No Qt.
//
// Legend: T tokens, C = hidden_size, H query heads, H_kv K/V heads, d_k = head_dim,
// I = intermediate_size, V vocabulary, L layers.
#pragma once

#include "models/languagemodel.h"
#include "models/llama/config.h"
#include "models/llama/weights.h"

#include <memory>

namespace attn {

struct ModelFolder;

class LlamaModel final : public LanguageModel {
public:
    // A model of these parts; `tokenizer` may be null: the model then runs token ids only
    // (runIds), labelled by their numbers.
    LlamaModel(ModelInfo info, LlamaConfig config, LlamaWeights weights,
               std::unique_ptr<const ModelTokenizer> tokenizer);

    // Opens a folder: config.json (read), tokenizer.json, model.safetensors. Throws
    // ModelError naming the file and the fault.
    [[nodiscard]] static std::shared_ptr<const LanguageModel> open(const ModelFolder& folder);
    // What config.json (read) says of a model of this family, without opening the rest.
    [[nodiscard]] static ModelInfo describe(const ModelFolder& folder);
    // `info` (family, name, folder, end tokens) with the sizes `config` gives.
    [[nodiscard]] static ModelInfo infoOf(ModelInfo info, const LlamaConfig& config);

    [[nodiscard]] const LlamaConfig& config() const { return config_; }
    // The weights' views (in a mapped file, converted, or a GGUF's blocks).
    [[nodiscard]] const LlamaWeights& weights() const { return weights_; }

    // Captured, a layer's Q is after q_norm and the rotation, K after k_norm and the
    // rotation (H_kv heads), X the input_layernorm's output.
    [[nodiscard]] Forward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const ForwardHooks& hooks = {}) const override;
    // The final RMSNorm (model.norm).
    void finalNorm(const Matrix& residual, Matrix& out) const override;

private:
    // lm_head, or embed_tokens when tie_word_embeddings.
    [[nodiscard]] WeightView outputEmbedding() const override { return weights_.outputEmbedding; }

    LlamaConfig config_;
    LlamaWeights weights_;
};

} // namespace attn
