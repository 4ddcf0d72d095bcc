// The GPT-2 family run natively: the forward pass of Hugging Face's modeling_gpt2.py (eager
// attention) and llm.c's train_gpt2.c, with the formula's switches inside every layer's
// attention (modelattention.h). Everything around the forward (tokenizer, run, trace,
// logits) is LanguageModel's. No Qt.
//
// Legend: T tokens, C = d_model, H heads, d_k = C / H (64 in every GPT-2), V vocabulary,
// L layers.
#pragma once

#include "models/gpt2/config.h"
#include "models/gpt2/weights.h"
#include "models/languagemodel.h"

#include <memory>

namespace attn {

struct ModelFolder;

class Gpt2Model final : public LanguageModel {
public:
    // A model of these parts; `tokenizer` (GPT-2's vocab.json + merges.txt, or a
    // tokenizer.json) may be null: the benchmark's random model runs ids only.
    Gpt2Model(ModelInfo info, Gpt2Config config, Gpt2Weights weights,
              std::unique_ptr<const ModelTokenizer> tokenizer);

    // Opens a folder: config.json (read), vocab.json and merges.txt, model.safetensors. (A
    // GGUF file of the gpt2 architecture: openGgufModel.)
    [[nodiscard]] static std::shared_ptr<const LanguageModel> open(const ModelFolder& folder);
    // What config.json (read) says of a model of this family, without opening the rest.
    [[nodiscard]] static ModelInfo describe(const ModelFolder& folder);
    // `info` (family, name, folder, end tokens) with the sizes `config` gives.
    [[nodiscard]] static ModelInfo infoOf(ModelInfo info, const Gpt2Config& config);

    [[nodiscard]] Forward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const ForwardHooks& hooks = {}) const override;
    // ln_f.
    void finalNorm(const Matrix& residual, Matrix& out) const override;

    // The weights as read: where each is held, in which layout.
    [[nodiscard]] const Gpt2Weights& weights() const { return weights_; }

private:
    // lm_head: tied to the token embedding wte, unless the file keeps its own.
    [[nodiscard]] WeightView outputEmbedding() const override
    {
        return weights_.outputEmbedding.present() ? weights_.outputEmbedding
                                                  : weights_.tokenEmbedding;
    }

    Gpt2Config config_;
    Gpt2Weights weights_;
};

} // namespace attn
