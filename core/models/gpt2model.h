// The GPT-2 family run natively: the forward pass of Hugging Face's modeling_gpt2.py
// (eager attention) and llm.c's train_gpt2.c, with the formula's switches inside every
// layer's attention (modelattention.h). No Qt.
//
// Legend: T tokens, C = d_model, H heads, d_k = C / H (64 in every GPT-2), V vocabulary,
// L layers.
#pragma once

#include "models/gpt2config.h"
#include "models/gpt2weights.h"
#include "models/languagemodel.h"
#include "text/gpt2tokenizer.h"

#include <memory>

namespace attn {

// One forward pass's numbers, without tokens.
struct Gpt2Forward {
    FloatBuffer weights; // (L, 1, H, T, T) every layer's P
    Matrix hidden;       // (T, C) after ln_f
};

// What forward() keeps of one layer when asked (HeadTrace is made of it): the layer's
// intermediates, after which the forward stops.
struct Gpt2LayerCapture {
    int layer = 0;
    Matrix input;     // ln_1(x) (T, C)
    Matrix qkv;       // c_attn's output (T, 3C)
    Matrix merged;    // the heads' P·V side by side (T, C)
    Matrix projected; // c_proj(merged) (T, C)
};

class Gpt2Model final : public LanguageModel {
public:
    // A model of these parts; `tokenizer` may be null (forward() needs none: the
    // benchmark's random model).
    Gpt2Model(ModelInfo info, Gpt2Config config, Gpt2Weights weights,
              std::unique_ptr<Gpt2Tokenizer> tokenizer);

    // Opens a folder: config.json, model.safetensors, vocab.json and merges.txt.
    [[nodiscard]] static std::shared_ptr<const Gpt2Model> open(const std::filesystem::path& folder);

    [[nodiscard]] const ModelInfo& info() const override { return info_; }
    void tokenize(const std::string& text, std::vector<int>& ids,
                  std::vector<TokenLabel>& labels) const override;
    [[nodiscard]] ModelRun run(const std::string& text, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel = nullptr) const override;
    [[nodiscard]] ModelRun runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const std::atomic<bool>* cancel = nullptr) const override;
    [[nodiscard]] std::vector<float> logitsOf(const float* hiddenRow) const override;
    [[nodiscard]] std::string tokenSpelling(int id) const override;
    [[nodiscard]] std::string tokenLabel(int id) const override;

    [[nodiscard]] HeadTrace trace(const std::string& text, const ModelSwitches& switches, int layer,
                                  int head,
                                  const std::atomic<bool>* cancel = nullptr) const override;

    // The forward pass over token ids (1 … n_positions of them, each below V). Throws
    // Cancelled when `cancel` becomes true between layers. With `capture`, it stops after
    // the attention of layer capture->layer, having kept that layer's intermediates there
    // (the weights of the layers up to it are made, `hidden` is not).
    [[nodiscard]] Gpt2Forward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                      const std::atomic<bool>* cancel = nullptr,
                                      Gpt2LayerCapture* capture = nullptr) const;

private:
    ModelInfo info_;
    Gpt2Config config_;
    Gpt2Weights weights_;
    std::unique_ptr<Gpt2Tokenizer> tokenizer_;
};

} // namespace attn
