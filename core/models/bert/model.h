// The BERT family run natively (config model_type bert): the forward pass of Hugging Face's
// modeling_bert.py (BertForMaskedLM, eager attention), with the formula's switches inside every
// layer's attention (modelattention.h). An encoder: the textbook formula has no mask
// (bidirectional), so the causal switch is the one that breaks it; predictions() at a position
// are the masked-LM head's fill-ins there (cls.predictions). Everything around the forward
// (tokenizer, run, trace) is LanguageModel's. No Qt.
//
// Legend: T tokens, C = hidden_size, H heads, d_k = C / H, I = intermediate_size,
// V vocabulary, L layers.
#pragma once

#include "models/bert/config.h"
#include "models/bert/weights.h"
#include "models/languagemodel.h"

#include <memory>
#include <optional>

namespace attn {

struct ModelFolder;

class BertModel final : public LanguageModel {
public:
    // A model of these parts; `tokenizer` may be null: the model then runs token ids only
    // (runIds), labelled by their numbers, and has no maskId().
    BertModel(ModelInfo info, BertConfig config, BertWeights weights,
              std::unique_ptr<const ModelTokenizer> tokenizer, std::optional<int> maskId);

    // Opens a folder: config.json (read), vocab.txt (+ tokenizer_config.json),
    // model.safetensors. Throws ModelError naming the file and the fault.
    [[nodiscard]] static std::shared_ptr<const LanguageModel> open(const ModelFolder& folder);
    // What config.json (read) says of a model of this family, without opening the rest.
    [[nodiscard]] static ModelInfo describe(const ModelFolder& folder);

    [[nodiscard]] const BertConfig& config() const { return config_; }
    // Whether the weights have the masked-LM head (a GGUF file's have none: info().predicts
    // is false, maskId() none, and logitsOf throws ModelError).
    [[nodiscard]] bool hasHead() const { return weights_.headWeight.present(); }

    // Captured, a layer's X is its input (post-LN: no norm before the attention) and its
    // projection attention.output.dense's, before the residual and its LayerNorm.
    [[nodiscard]] Forward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const ForwardHooks& hooks = {}) const override;
    // None: BERT's layers end in their own LayerNorm (post-LN); the masked-LM head's
    // transform is in logitsOf.
    void finalNorm(const Matrix& residual, Matrix& out) const override { out = residual; }

    // The masked-LM head: GELU(transform.dense(h)), transform.LayerNorm, then the decoder
    // tied to the word embeddings plus cls.predictions.bias. Throws ModelError (kNoOutputHead)
    // without the head.
    [[nodiscard]] std::vector<float> logitsOf(const float* hiddenRow) const override;
    [[nodiscard]] Matrix logitsOfRows(const Matrix& hidden) const override;

private:
    [[nodiscard]] WeightView outputEmbedding() const override { return weights_.wordEmbedding; }

    BertConfig config_;
    BertWeights weights_;
};

} // namespace attn
