#include "models/gpt2model.h"

#include "engine/engine.h"
#include "models/modelattention.h"
#include "models/modelkernels.h"
#include "models/modelrun.h"

#include <stdexcept>

namespace attn {

Gpt2Model::Gpt2Model(ModelInfo info, Gpt2Config config, Gpt2Weights weights,
                     std::unique_ptr<Gpt2Tokenizer> tokenizer)
    : info_(std::move(info)), config_(std::move(config)), weights_(std::move(weights)),
      tokenizer_(std::move(tokenizer))
{}

std::shared_ptr<const Gpt2Model> Gpt2Model::open(const std::filesystem::path& folder)
{
    // 1. config.json.
    const std::filesystem::path configFile = folder / "config.json";
    std::string configText;
    try {
        configText = readTokenizerFile(configFile);
    } catch (const TokenizerFileError& error) {
        throw ModelError(configFile, error.fault());
    }
    Gpt2Config config = parseGpt2Config(configText, configFile);
    // 2. The tokenizer, before the weights: a folder without merges.txt fails at once.
    std::unique_ptr<Gpt2Tokenizer> tokenizer;
    try {
        tokenizer = std::make_unique<Gpt2Tokenizer>(Gpt2Tokenizer::fromFolder(folder));
    } catch (const TokenizerFileError& error) {
        throw ModelError(error.file(), error.fault());
    }
    if (tokenizer->vocabularySize() > config.vocabulary)
        throw ModelError(
            folder / "vocab.json",
            "the vocabulary has ids up to " + std::to_string(tokenizer->vocabularySize() - 1) +
                ", more than config.json's vocab_size " + std::to_string(config.vocabulary));
    // 3. The weights, mapped.
    Gpt2Weights weights = loadGpt2Weights(folder / "model.safetensors", config);

    ModelInfo info;
    info.family = config.modelType;
    info.folder = folder;
    info.name = modelName(folder);
    info.layers = config.layers;
    info.heads = config.heads;
    info.kvHeads = config.heads;
    info.dModel = config.dModel;
    info.headDim = config.headDim();
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    info.weightType = weights.storedType;
    info.causal = true;
    return std::make_shared<const Gpt2Model>(std::move(info), std::move(config), std::move(weights),
                                             std::move(tokenizer));
}

void Gpt2Model::tokenize(const std::string& text, std::vector<int>& ids,
                         std::vector<TokenLabel>& labels) const
{
    Gpt2Encoding encoding = tokenizer_->encode(text);
    ids = std::move(encoding.ids);
    labels = tokenizer_->labels(ids);
}

Gpt2Forward Gpt2Model::forward(const std::vector<int>& ids, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel, Gpt2LayerCapture* capture) const
{
    const int T = int(ids.size()), C = config_.dModel, H = config_.heads, L = config_.layers;
    const Gpt2Weights& w = weights_;
    if (T < 1 || T > config_.positions)
        throw std::out_of_range("GPT-2: " + std::to_string(T) + " tokens, at most " +
                                std::to_string(config_.positions));
    // The switched formula and the textbook one, sized to this model.
    Config switched = switches.formula, textbook = ModelSwitches::textbookFormula(true);
    for (Config* formula : {&switched, &textbook}) {
        formula->dModel = C;
        formula->heads = H;
    }
    const MaskMatrix switchedMask = attentionMask(switched, T);
    const MaskMatrix textbookMask = attentionMask(textbook, T);

    Gpt2Forward out;
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    out.weights = attentionBuffer(L, H, T);

    // 1. x = wte[ids] + wpe[0 … T−1]                                     (T, C)
    Matrix x(T, C);
    const auto wte = w.tokenEmbedding.matrix();
    const auto wpe = w.positionEmbedding.matrix();
    for (int t = 0; t < T; ++t) {
        if (ids[std::size_t(t)] < 0 || ids[std::size_t(t)] >= config_.vocabulary)
            throw std::out_of_range("GPT-2: token id " + std::to_string(ids[std::size_t(t)]) +
                                    " outside the vocabulary");
        x.row(t) = wte.row(ids[std::size_t(t)]) + wpe.row(t);
    }

    Matrix normed, qkv, merged, hidden; // (T, C), (T, 3C), (T, C), (T, 4C)
    AttentionBuffers buffers;
    for (int l = 0; l < L; ++l) {
        if (cancel && cancel->load())
            throw Cancelled();
        const Gpt2Block& b = w.blocks[std::size_t(l)];
        const bool broken = switches.onlyLayer < 0 || switches.onlyLayer == l;
        // 2. attention: x += c_proj(attention(c_attn(ln_1(x))))
        layerNorm(x, b.ln1Weight, b.ln1Bias, config_.epsilon, normed);
        conv1d(normed, b.attnWeight, b.attnBias, qkv); // (T, 3C): Q, K, V
        multiHeadAttention(qkv, broken ? switched : textbook, broken ? switchedMask : textbookMask,
                           buffers, out.weights.data() + std::size_t(l) * std::size_t(H) * headSize,
                           merged);
        if (capture && capture->layer == l) { // trace(): this layer's stages, then stop
            conv1d(merged, b.projWeight, b.projBias, capture->projected);
            capture->input = normed;
            capture->qkv = qkv;
            capture->merged = merged;
            return out;
        }
        conv1dAdd(merged, b.projWeight, b.projBias, x); // the residual summed in each tile
        // 3. MLP: x += c_proj(gelu(c_fc(ln_2(x))))
        layerNorm(x, b.ln2Weight, b.ln2Bias, config_.epsilon, normed);
        conv1dGelu(normed, b.fcWeight, b.fcBias, hidden); // (T, 4C), GELU on each tile
        conv1dAdd(hidden, b.fcProjWeight, b.fcProjBias, x);
    }
    // 4. The final LayerNorm; the logits are made from it on demand (logitsOf).
    layerNorm(x, w.finalNormWeight, w.finalNormBias, config_.epsilon, out.hidden);
    return out;
}

ModelRun Gpt2Model::run(const std::string& text, const ModelSwitches& switches,
                        const std::atomic<bool>* cancel) const
{
    // runIds labels the ids with the same tokenizer.
    return runIds(tokenizer_->encode(text).ids, switches, cancel);
}

ModelRun Gpt2Model::runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                           const std::atomic<bool>* cancel) const
{
    checkTokenCount(ids.size(), config_.positions);
    Gpt2Forward forwarded = forward(ids, switches, cancel);
    return packRun(*this, ids, labelIds(tokenizer_.get(), ids), std::move(forwarded.weights),
                   std::move(forwarded.hidden), switches);
}

std::vector<float> Gpt2Model::logitsOf(const float* hiddenRow) const
{
    // logits = h · wteᵀ: lm_head is tied to the token embedding.   (V)
    return embeddingLogits(weights_.tokenEmbedding, hiddenRow);
}

std::string Gpt2Model::tokenSpelling(int id) const
{
    return tokenSpellingOf(tokenizer_.get(), id);
}

std::string Gpt2Model::tokenLabel(int id) const
{
    return tokenLabelOf(tokenizer_.get(), id);
}

} // namespace attn
