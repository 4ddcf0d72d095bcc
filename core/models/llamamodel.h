// The Qwen/Llama family run natively (config model_type qwen2, qwen3, llama): the forward pass
// of Hugging Face's modeling_qwen2.py, modeling_qwen3.py and modeling_llama.py (eager
// attention), with the formula's switches inside every layer's attention (modelattention.h)
// and the RoPE switch. No Qt.
//
// Legend: T tokens, C = hidden_size, H query heads, H_kv K/V heads, d_k = head_dim,
// I = intermediate_size, V vocabulary, L layers.
#pragma once

#include "models/languagemodel.h"
#include "models/llamaconfig.h"
#include "models/llamaweights.h"
#include "text/modeltokenizer.h"

#include <memory>

namespace attn {

// One forward pass's numbers, without tokens.
struct LlamaForward {
    FloatBuffer weights; // (L, 1, H, T, T) every layer's P, every query head
    Matrix hidden;       // (T, C) after model.norm
};

// One layer's attention as forward() ran it, for trace(): what the layer's heads read
// and wrote.
struct LlamaLayerCapture {
    int layer = 0;
    Matrix input;      // input_layernorm(x) (T, C)
    HeadStack queries; // Q (1, H, T, d_k) after q_norm and the rotation
    HeadStack keys;    // K (1, H_kv, T, d_k) after k_norm and the rotation
    HeadStack values;  // V (1, H_kv, T, d_k)
    Matrix merged;     // the heads' P·V side by side (T, H·d_k)
    Matrix projected;  // o_proj(merged) (T, C)
};

class LlamaModel final : public LanguageModel {
public:
    // A model of these parts; `tokenizer` may be null: the model then runs token ids only
    // (runIds), labelled by their numbers.
    LlamaModel(ModelInfo info, LlamaConfig config, LlamaWeights weights,
               std::unique_ptr<const ModelTokenizer> tokenizer);

    // Opens a folder: config.json, model.safetensors and the tokenizer (see openTokenizer in
    // llamamodel.cpp). Throws ModelError naming the file and the fault.
    [[nodiscard]] static std::shared_ptr<const LlamaModel>
    open(const std::filesystem::path& folder);

    [[nodiscard]] const ModelInfo& info() const override { return info_; }
    [[nodiscard]] const LlamaConfig& config() const { return config_; }
    [[nodiscard]] bool hasTokenizer() const { return tokenizer_ != nullptr; }
    // Throws ModelError naming tokenizer.json when the model has no tokenizer.
    void tokenize(const std::string& text, std::vector<int>& ids,
                  std::vector<TokenLabel>& labels) const override;
    [[nodiscard]] ModelRun run(const std::string& text, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel = nullptr) const override;
    [[nodiscard]] ModelRun runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const std::atomic<bool>* cancel = nullptr) const override;
    // Layer `layer`'s stages for head `head` (llamatrace.cpp): X is the layer's
    // input_layernorm output, Q_h after q_norm and the rotation, K_h and V_h the K/V head
    // it shares (K after k_norm and the rotation), the output o_proj's.
    [[nodiscard]] HeadTrace trace(const std::string& text, const ModelSwitches& switches, int layer,
                                  int head,
                                  const std::atomic<bool>* cancel = nullptr) const override;
    [[nodiscard]] std::vector<float> logitsOf(const float* hiddenRow) const override;
    [[nodiscard]] std::string tokenSpelling(int id) const override;
    [[nodiscard]] std::string tokenLabel(int id) const override;

    // The forward pass over token ids (1 … max_position_embeddings of them, each below V).
    // Throws std::out_of_range for other ids, Cancelled when `cancel` becomes true between
    // layers. `capture`, when given, keeps its layer's attention (LlamaLayerCapture).
    [[nodiscard]] LlamaForward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                       const std::atomic<bool>* cancel = nullptr,
                                       LlamaLayerCapture* capture = nullptr) const;

private:
    ModelInfo info_;
    LlamaConfig config_;
    LlamaWeights weights_;
    std::unique_ptr<const ModelTokenizer> tokenizer_;
};

} // namespace attn
