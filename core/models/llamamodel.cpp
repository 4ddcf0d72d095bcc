#include "models/llamamodel.h"

#include "engine/engine.h"
#include "engine/softmax.h"
#include "models/modelattention.h"
#include "models/modelkernels.h"
#include "models/modelrun.h"
#include "text/gpt2files.h"
#include "text/hftokenizer.h"

#include <cmath>
#include <stdexcept>

namespace attn {
namespace {

// The folder's tokenizer: its tokenizer.json (byte-level BPE with its pre-tokenizer and
// added tokens, core/text/hftokenizer). Throws ModelError naming tokenizer.json when the
// file is missing or broken.
std::unique_ptr<const ModelTokenizer> openTokenizer(const std::filesystem::path& folder)
{
    try {
        return std::make_unique<const HfTokenizer>(
            HfTokenizer::fromFile(folder / "tokenizer.json"));
    } catch (const TokenizerFileError& error) {
        throw ModelError(error.file(), error.fault());
    }
}

} // namespace

LlamaModel::LlamaModel(ModelInfo info, LlamaConfig config, LlamaWeights weights,
                       std::unique_ptr<const ModelTokenizer> tokenizer)
    : info_(std::move(info)), config_(std::move(config)), weights_(std::move(weights)),
      tokenizer_(std::move(tokenizer))
{}

std::shared_ptr<const LlamaModel> LlamaModel::open(const std::filesystem::path& folder)
{
    // 1. config.json.
    const std::filesystem::path configFile = folder / "config.json";
    std::string configText;
    try {
        configText = readTokenizerFile(configFile);
    } catch (const TokenizerFileError& error) {
        throw ModelError(configFile, error.fault());
    }
    LlamaConfig config = parseLlamaConfig(configText, configFile);
    // 2. The tokenizer, before the weights: a broken one fails at once.
    std::unique_ptr<const ModelTokenizer> tokenizer = openTokenizer(folder);
    if (tokenizer && tokenizer->vocabularySize() > config.vocabulary)
        throw ModelError(
            folder / "tokenizer.json",
            "the vocabulary has ids up to " + std::to_string(tokenizer->vocabularySize() - 1) +
                ", more than config.json's vocab_size " + std::to_string(config.vocabulary));
    // 3. The weights, mapped.
    LlamaWeights weights = loadLlamaWeights(folder / "model.safetensors", config);

    ModelInfo info;
    info.family = config.modelType;
    info.folder = folder;
    info.name = modelName(folder);
    info.layers = config.layers;
    info.heads = config.heads;
    info.kvHeads = config.kvHeads;
    info.dModel = config.dModel;
    info.headDim = config.headDim;
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    info.weightType = weights.storedType;
    info.causal = true;
    info.rotary = true;
    return std::make_shared<const LlamaModel>(std::move(info), std::move(config),
                                              std::move(weights), std::move(tokenizer));
}

void LlamaModel::tokenize(const std::string& text, std::vector<int>& ids,
                          std::vector<TokenLabel>& labels) const
{
    if (!tokenizer_)
        throw ModelError(info_.folder / "tokenizer.json", "the model has no tokenizer");
    ids = tokenizer_->encodeIds(text);
    labels = tokenizer_->labels(ids);
}

LlamaForward LlamaModel::forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                 const std::atomic<bool>* cancel, LlamaLayerCapture* capture) const
{
    const LlamaConfig& c = config_;
    const int T = int(ids.size()), C = c.dModel, H = c.heads, L = c.layers;
    const LlamaWeights& w = weights_;
    if (T < 1 || T > c.positions)
        throw std::out_of_range(c.modelType + ": " + std::to_string(T) + " tokens, at most " +
                                std::to_string(c.positions));
    // The switched formula and the textbook one, sized to the heads (d_k = head_dim, which
    // may differ from C / H); √d_model is the hidden size C.
    Config switched = switches.formula, textbook = ModelSwitches::textbookFormula(true);
    LogitRule rules[2];
    for (int n = 0; n < 2; ++n) {
        Config& formula = n == 0 ? switched : textbook;
        formula.dModel = H * c.headDim;
        formula.heads = H;
        rules[n] = logitRule(formula);
        if (formula.scale == ScaleMode::SqrtDModel)
            rules[n].scale = float(1.0 / std::sqrt(double(C)));
    }
    const MaskMatrix switchedMask = attentionMask(switched, T);
    const MaskMatrix textbookMask = attentionMask(textbook, T);
    const RotaryTable rope = rotaryTable(T, c.headDim, c.ropeTheta, c.ropeScaling);

    LlamaForward out;
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    out.weights = attentionBuffer(L, H, T);

    // 1. x = embed_tokens[ids]                                             (T, C)
    Matrix x(T, C);
    const auto embedding = w.tokenEmbedding.matrix();
    for (int t = 0; t < T; ++t) {
        const int id = ids[std::size_t(t)];
        if (id < 0 || id >= c.vocabulary)
            throw std::out_of_range(c.modelType + ": token id " + std::to_string(id) +
                                    " outside the vocabulary (0 … " +
                                    std::to_string(c.vocabulary - 1) + ")");
        x.row(t) = embedding.row(id);
    }

    Matrix normed, q, k, v, merged, gate, projected; // (T, C), (T, H·d), (T, H_kv·d), …, (T, I)
    AttentionBuffers buffers;
    for (int l = 0; l < L; ++l) {
        if (cancel && cancel->load())
            throw Cancelled();
        const LlamaBlock& b = w.blocks[std::size_t(l)];
        const bool broken = switches.onlyLayer < 0 || switches.onlyLayer == l;
        // 2. attention: x += o_proj(attention(input_layernorm(x)))
        rmsNorm(x, b.inputNorm, c.epsilon, normed);
        // q (T, H·d), k and v (T, H_kv·d): one loop over the three products' tiles.
        linearEach(
            normed,
            {{&b.qWeight, &b.qBias, &q}, {&b.kWeight, &b.kBias, &k}, {&b.vWeight, &b.vBias, &v}});
        GroupedQuery grouped;
        grouped.kvHeads = c.kvHeads;
        grouped.rope = !broken || switches.rope ? &rope : nullptr;
        grouped.qNorm = c.qkNorm ? &b.qNorm : nullptr;
        grouped.kNorm = c.qkNorm ? &b.kNorm : nullptr;
        grouped.epsilon = c.epsilon;
        groupedQueryAttention(q, k, v, broken ? switched : textbook, rules[broken ? 0 : 1],
                              broken ? switchedMask : textbookMask, grouped, buffers,
                              out.weights.data() + std::size_t(l) * std::size_t(H) * headSize,
                              merged);
        if (capture && capture->layer == l) {
            linear(merged, b.oWeight, b.oBias, projected);
            capture->input = normed;
            capture->queries = buffers.heads[0];
            capture->keys = buffers.grouped[0];
            capture->values = buffers.grouped[1];
            capture->merged = merged;
            capture->projected = projected;
            x += projected;
        } else {
            linearAdd(merged, b.oWeight, b.oBias, x); // the residual summed in each tile
        }
        // 3. MLP: x += down_proj(silu(gate_proj(h)) · up_proj(h)), h = post_attention_layernorm(x)
        rmsNorm(x, b.postNorm, c.epsilon, normed);
        linearSwiGlu(normed, b.gateWeight, b.gateBias, b.upWeight, b.upBias, gate); // (T, I)
        linearAdd(gate, b.downWeight, b.downBias, x);
    }
    // 4. The final RMSNorm; the logits are made from it on demand (logitsOf).
    rmsNorm(x, w.finalNorm, c.epsilon, out.hidden);
    return out;
}

ModelRun LlamaModel::run(const std::string& text, const ModelSwitches& switches,
                         const std::atomic<bool>* cancel) const
{
    if (!tokenizer_)
        throw ModelError(info_.folder / "tokenizer.json", "the model has no tokenizer");
    // runIds labels the ids with the same tokenizer.
    return runIds(tokenizer_->encodeIds(text), switches, cancel);
}

ModelRun LlamaModel::runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                            const std::atomic<bool>* cancel) const
{
    checkTokenCount(ids.size(), config_.positions);
    LlamaForward forwarded = forward(ids, switches, cancel);
    return packRun(*this, ids, labelIds(tokenizer_.get(), ids), std::move(forwarded.weights),
                   std::move(forwarded.hidden), switches);
}

std::vector<float> LlamaModel::logitsOf(const float* hiddenRow) const
{
    // logits = h · lm_headᵀ (lm_head is embed_tokens when tie_word_embeddings)   (V)
    return embeddingLogits(weights_.outputEmbedding, hiddenRow);
}

std::string LlamaModel::tokenSpelling(int id) const
{
    return tokenSpellingOf(tokenizer_.get(), id);
}

std::string LlamaModel::tokenLabel(int id) const
{
    return tokenLabelOf(tokenizer_.get(), id);
}

} // namespace attn
