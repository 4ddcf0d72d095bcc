// The BERT family run natively (config model_type bert): the forward pass of Hugging Face's
// modeling_bert.py (BertForMaskedLM, eager attention), with the formula's switches inside every
// layer's attention (modelattention.h). An encoder: the textbook formula has no mask
// (bidirectional), so the causal switch is the one that breaks it; predictions() at a position
// are the masked-LM head's fill-ins there (cls.predictions). No Qt.
//
// Legend: T tokens, C = hidden_size, H heads, d_k = C / H, I = intermediate_size,
// V vocabulary, L layers.
#pragma once

#include "models/bertconfig.h"
#include "models/bertweights.h"
#include "models/languagemodel.h"
#include "text/modeltokenizer.h"

#include <memory>
#include <optional>

namespace attn {

// One forward pass's numbers, without tokens.
struct BertForward {
    FloatBuffer weights; // (L, 1, H, T, T) every layer's P
    Matrix hidden;       // (T, C) the last layer's output (after its LayerNorm)
};

// One layer's stages, captured by forward() for trace(): the numbers the run computes.
struct BertLayerCapture {
    int layer = 0;
    Matrix input;     // the layer's input x (T, C): post-LN, the previous layer's output
    Matrix queries;   // query(x) (T, C)
    Matrix keys;      // key(x) (T, C)
    Matrix values;    // value(x) (T, C)
    Matrix merged;    // the heads' P·V side by side (T, C)
    Matrix projected; // attention.output.dense(merged) (T, C), before the residual and norm
};

class BertModel final : public LanguageModel {
public:
    // A model of these parts; `tokenizer` may be null: the model then runs token ids only
    // (runIds), labelled by their numbers, and has no maskId().
    BertModel(ModelInfo info, BertConfig config, BertWeights weights,
              std::unique_ptr<const ModelTokenizer> tokenizer, std::optional<int> maskId);

    // Opens a folder: config.json, vocab.txt (+ tokenizer_config.json) and model.safetensors.
    // Throws ModelError naming the file and the fault.
    [[nodiscard]] static std::shared_ptr<const BertModel> open(const std::filesystem::path& folder);

    [[nodiscard]] const ModelInfo& info() const override { return info_; }
    [[nodiscard]] const BertConfig& config() const { return config_; }
    // Throws ModelError naming vocab.txt when the model has no tokenizer.
    void tokenize(const std::string& text, std::vector<int>& ids,
                  std::vector<TokenLabel>& labels) const override;
    [[nodiscard]] ModelRun run(const std::string& text, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel = nullptr) const override;
    [[nodiscard]] ModelRun runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const std::atomic<bool>* cancel = nullptr) const override;
    // The masked-LM head: GELU(transform.dense(h)), transform.LayerNorm, then the decoder
    // tied to the word embeddings plus cls.predictions.bias.
    [[nodiscard]] std::vector<float> logitsOf(const float* hiddenRow) const override;
    [[nodiscard]] std::string tokenSpelling(int id) const override;
    [[nodiscard]] std::string tokenLabel(int id) const override;
    [[nodiscard]] std::optional<int> maskId() const override { return maskId_; }
    // X is the layer's input (post-LN: no norm before the attention), Q_h, K_h and V_h the
    // head's slices of query, key and value as the head split cuts them; `output` is
    // attention.output.dense's, before the residual and its LayerNorm.
    [[nodiscard]] HeadTrace trace(const std::string& text, const ModelSwitches& switches, int layer,
                                  int head,
                                  const std::atomic<bool>* cancel = nullptr) const override;

    // The forward pass over token ids (1 … max_position_embeddings of them, each below V).
    // Throws std::out_of_range for other ids, Cancelled when `cancel` becomes true between
    // layers. With `capture`, its layer's stages are kept there.
    [[nodiscard]] BertForward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                      const std::atomic<bool>* cancel = nullptr,
                                      BertLayerCapture* capture = nullptr) const;

private:
    // BERT's tokenizer makes [CLS] [SEP] of a text of nothing but white space: refused
    // (InputError, Refusal::EmptyText) as the other families refuse an empty text.
    static void refuseBlankText(const std::string& text);

    ModelInfo info_;
    BertConfig config_;
    BertWeights weights_;
    std::unique_ptr<const ModelTokenizer> tokenizer_;
    std::optional<int> maskId_;
};

} // namespace attn
