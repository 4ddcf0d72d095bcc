#include "models/bertmodel.h"

#include "engine/engine.h"
#include "models/modelattention.h"
#include "models/modelkernels.h"
#include "models/modelrun.h"
#include "text/gpt2files.h"
#include "text/wordpiecetokenizer.h"

#include <stdexcept>

namespace attn {
namespace {

struct BertTokenizer {
    std::unique_ptr<const ModelTokenizer> tokenizer;
    std::optional<int> maskId;
};

// The folder's tokenizer: vocab.txt (+ tokenizer_config.json), BERT's WordPiece. Throws
// ModelError naming the file when it is missing or broken.
BertTokenizer openTokenizer(const std::filesystem::path& folder)
{
    try {
        std::unique_ptr<const WordPieceTokenizer> tokenizer =
            WordPieceTokenizer::fromFolder(folder);
        const std::optional<int> mask = tokenizer->maskId();
        return {std::move(tokenizer), mask};
    } catch (const TokenizerFileError& error) {
        throw ModelError(error.file(), error.fault());
    }
}

} // namespace

void BertModel::refuseBlankText(const std::string& text)
{
    if (text.find_first_not_of(" \t\n\r\f\v") == std::string::npos)
        throw InputError("the text is empty", Refusal::EmptyText);
}

BertModel::BertModel(ModelInfo info, BertConfig config, BertWeights weights,
                     std::unique_ptr<const ModelTokenizer> tokenizer, std::optional<int> maskId)
    : info_(std::move(info)), config_(std::move(config)), weights_(std::move(weights)),
      tokenizer_(std::move(tokenizer)), maskId_(maskId)
{}

std::shared_ptr<const BertModel> BertModel::open(const std::filesystem::path& folder)
{
    // 1. config.json.
    const std::filesystem::path configFile = folder / "config.json";
    std::string configText;
    try {
        configText = readTokenizerFile(configFile);
    } catch (const TokenizerFileError& error) {
        throw ModelError(configFile, error.fault());
    }
    BertConfig config = parseBertConfig(configText, configFile);
    // 2. The tokenizer, before the weights: a folder without vocab.txt fails at once.
    BertTokenizer tokenizer = openTokenizer(folder);
    if (tokenizer.tokenizer && tokenizer.tokenizer->vocabularySize() > config.vocabulary)
        throw ModelError(folder / "vocab.txt",
                         "the vocabulary has ids up to " +
                             std::to_string(tokenizer.tokenizer->vocabularySize() - 1) +
                             ", more than config.json's vocab_size " +
                             std::to_string(config.vocabulary));
    // 3. The weights, mapped.
    BertWeights weights = loadBertWeights(folder / "model.safetensors", config);

    ModelInfo info;
    info.family = "bert";
    info.folder = folder;
    info.name = modelName(folder);
    info.layers = config.layers;
    info.heads = config.heads;
    info.kvHeads = config.heads;
    info.dModel = config.dModel;
    info.headDim = config.headDim;
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    info.weightType = weights.storedType;
    info.causal = false; // bidirectional: every token sees every other
    info.rotary = false;
    return std::make_shared<const BertModel>(std::move(info), std::move(config), std::move(weights),
                                             std::move(tokenizer.tokenizer), tokenizer.maskId);
}

void BertModel::tokenize(const std::string& text, std::vector<int>& ids,
                         std::vector<TokenLabel>& labels) const
{
    if (!tokenizer_)
        throw ModelError(info_.folder / "vocab.txt", "the model has no tokenizer");
    ids = tokenizer_->encodeIds(text);
    labels = tokenizer_->labels(ids);
}

BertForward BertModel::forward(const std::vector<int>& ids, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel, BertLayerCapture* capture) const
{
    const BertConfig& c = config_;
    const int T = int(ids.size()), C = c.dModel, H = c.heads, L = c.layers;
    const BertWeights& w = weights_;
    if (T < 1 || T > c.positions)
        throw std::out_of_range("bert: " + std::to_string(T) + " tokens, at most " +
                                std::to_string(c.positions));
    // The switched formula and the textbook one (no mask: bidirectional), sized to this model.
    Config switched = switches.formula, textbook = ModelSwitches::textbookFormula(false);
    for (Config* formula : {&switched, &textbook}) {
        formula->dModel = C;
        formula->heads = H;
    }
    const LogitRule rules[2] = {logitRule(switched), logitRule(textbook)};
    const MaskMatrix switchedMask = attentionMask(switched, T);
    const MaskMatrix textbookMask = attentionMask(textbook, T);

    BertForward out;
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    out.weights = attentionBuffer(L, H, T);

    // 1. x = LayerNorm(word_embeddings[ids] + position_embeddings[t] + token_type[0])  (T, C)
    Matrix x(T, C), sum(T, C);
    const auto words = w.wordEmbedding.matrix();
    const auto positions = w.positionEmbedding.matrix();
    const auto types = w.typeEmbedding.matrix();
    for (int t = 0; t < T; ++t) {
        const int id = ids[std::size_t(t)];
        if (id < 0 || id >= c.vocabulary)
            throw std::out_of_range("bert: token id " + std::to_string(id) +
                                    " outside the vocabulary (0 … " +
                                    std::to_string(c.vocabulary - 1) + ")");
        sum.row(t) = words.row(id) + positions.row(t) + types.row(0);
    }
    layerNorm(sum, w.embeddingNorm.weight, w.embeddingNorm.bias, c.epsilon, x);

    Matrix q, k, v, merged, inner; // (T, C) ×4, (T, I)
    AttentionBuffers buffers;
    for (int l = 0; l < L; ++l) {
        if (cancel && cancel->load())
            throw Cancelled();
        const BertBlock& b = w.blocks[std::size_t(l)];
        const bool broken = switches.onlyLayer < 0 || switches.onlyLayer == l;
        // 2. attention, post-LN: x = LayerNorm(dense(attention(x)) + x)
        linear(x, b.qWeight, b.qBias, q);
        linear(x, b.kWeight, b.kBias, k);
        linear(x, b.vWeight, b.vBias, v);
        GroupedQuery plain; // every head its own K and V, no rotation
        plain.kvHeads = H;
        groupedQueryAttention(q, k, v, broken ? switched : textbook, rules[broken ? 0 : 1],
                              broken ? switchedMask : textbookMask, plain, buffers,
                              out.weights.data() + std::size_t(l) * std::size_t(H) * headSize,
                              merged);
        linear(merged, b.oWeight, b.oBias, sum);
        if (capture && capture->layer == l) {
            capture->input = x;
            capture->queries = q;
            capture->keys = k;
            capture->values = v;
            capture->merged = merged;
            capture->projected = sum;
        }
        sum += x;
        layerNorm(sum, b.attentionNorm.weight, b.attentionNorm.bias, c.epsilon, x);
        // 3. MLP: x = LayerNorm(output.dense(gelu(intermediate.dense(x))) + x)
        linear(x, b.inWeight, b.inBias, inner); // (T, I)
        geluErf(inner);
        linear(inner, b.outWeight, b.outBias, sum);
        sum += x;
        layerNorm(sum, b.outputNorm.weight, b.outputNorm.bias, c.epsilon, x);
    }
    // 4. No final norm: the MLM head reads the last layer's output on demand (logitsOf).
    out.hidden = std::move(x);
    return out;
}

ModelRun BertModel::run(const std::string& text, const ModelSwitches& switches,
                        const std::atomic<bool>* cancel) const
{
    if (!tokenizer_)
        throw ModelError(info_.folder / "vocab.txt", "the model has no tokenizer");
    refuseBlankText(text);
    return runIds(tokenizer_->encodeIds(text), switches, cancel);
}

ModelRun BertModel::runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                           const std::atomic<bool>* cancel) const
{
    checkTokenCount(ids.size(), config_.positions);
    BertForward forwarded = forward(ids, switches, cancel);
    return packRun(*this, ids, labelIds(tokenizer_.get(), ids), std::move(forwarded.weights),
                   std::move(forwarded.hidden), switches);
}

std::vector<float> BertModel::logitsOf(const float* hiddenRow) const
{
    // h = LayerNorm(gelu(transform.dense(hidden)))                           (1, C)
    const BertWeights& w = weights_;
    const Matrix row = Eigen::Map<const Matrix>(hiddenRow, 1, config_.dModel);
    Matrix dense, normed;
    linear(row, w.headWeight, w.headBias, dense);
    geluErf(dense);
    layerNorm(dense, w.headNorm.weight, w.headNorm.bias, config_.epsilon, normed);
    // logits = h · word_embeddingsᵀ + cls.predictions.bias                  (V)
    std::vector<float> logits = embeddingLogits(w.wordEmbedding, normed.data());
    const float* bias = w.decoderBias.data;
    for (std::size_t i = 0; i < logits.size(); ++i)
        logits[i] += bias[i];
    return logits;
}

std::string BertModel::tokenSpelling(int id) const
{
    return tokenSpellingOf(tokenizer_.get(), id);
}

std::string BertModel::tokenLabel(int id) const
{
    return tokenLabelOf(tokenizer_.get(), id);
}

} // namespace attn
