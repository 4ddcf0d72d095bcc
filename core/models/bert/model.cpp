#include "models/bert/model.h"

#include "models/families.h"
#include "models/forward.h"
#include "models/modelattention.h"
#include "models/modelkernels.h"
#include "text/gpt2files.h"
#include "text/wordpiecetokenizer.h"

#include <stdexcept>

namespace attn {

namespace {

// What config.json says of the model (ModelInfo without the weights' dtype).
ModelInfo infoOf(const ModelFolder& folder, const BertConfig& config)
{
    ModelInfo info = folder.info();
    info.layers = config.layers;
    info.heads = info.kvHeads = config.heads;
    info.dModel = config.dModel;
    info.headDim = config.headDim;
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    info.causal = false; // bidirectional: every token sees every other
    return info;
}

} // namespace

BertModel::BertModel(ModelInfo info, BertConfig config, BertWeights weights,
                     std::unique_ptr<const ModelTokenizer> tokenizer, std::optional<int> maskId)
    : LanguageModel(std::move(info), std::move(tokenizer), "vocab.txt", maskId),
      config_(std::move(config)), weights_(std::move(weights))
{
    if (!hasHead() && (this->info().predicts || this->maskId()))
        throw std::logic_error("a BERT model without its head cannot predict");
}

ModelInfo BertModel::describe(const ModelFolder& folder)
{
    return infoOf(folder, parseBertConfig(folder.config, folder.configFile));
}

std::shared_ptr<const LanguageModel> BertModel::open(const ModelFolder& folder)
{
    // 1. config.json.
    BertConfig config = parseBertConfig(folder.config, folder.configFile);
    // 2. The tokenizer (vocab.txt + tokenizer_config.json, BERT's WordPiece), before the
    //    weights: a folder without vocab.txt fails at once.
    std::unique_ptr<const WordPieceTokenizer> tokenizer =
        readTokenizer([&] { return WordPieceTokenizer::fromFolder(folder.path); });
    ModelFolder::checkVocabulary(*tokenizer, config.vocabulary, folder.file("vocab.txt"));
    const std::optional<int> maskId = tokenizer->maskId();
    // 3. The weights, mapped.
    BertWeights weights = loadBertWeights(weightsFileOf(folder.path), config);

    ModelInfo info = infoOf(folder, config);
    info.weightType = weights.storedType;
    return std::make_shared<const BertModel>(std::move(info), std::move(config), std::move(weights),
                                             std::move(tokenizer), maskId);
}

Forward BertModel::forward(const std::vector<int>& ids, const ModelSwitches& switches,
                           const ForwardHooks& hooks) const
{
    ForwardFrame frame(info(), ids, switches, hooks); // textbook: no mask (bidirectional)
    const BertConfig& c = config_;
    const BertWeights& w = weights_;
    const int T = frame.T, C = c.dModel, H = c.heads, L = c.layers;

    // 1. x = LayerNorm(word_embeddings[ids] + position_embeddings[t] + token_type[0])  (T, C)
    //    (or a resumed forward's residual: ForwardHooks::startLayer)
    Matrix x, sum(T, C);
    const int first = frame.resume(hooks, x);
    if (first == 0) {
        // A row at a time: in place, or dequantized from a GGUF file's blocks.
        std::vector<float> wordRow, positionRows, typeRow;
        const auto positions = w.positionEmbedding.rowsOf(0, T, positionRows); // (T, C)
        const auto type = w.typeEmbedding.rowsOf(0, 1, typeRow);               // (1, C)
        for (int t = 0; t < T; ++t)
            sum.row(t) =
                w.wordEmbedding.rowsOf(ids[std::size_t(t)], 1, wordRow) + positions.row(t) + type;
        layerNorm(sum, w.embeddingNorm.weight, w.embeddingNorm.bias, c.epsilon, x);
    }

    Matrix q, k, v, merged, inner; // (T, C) ×4, (T, I)
    AttentionBuffers buffers;
    for (int l = first; l < L; ++l) {
        checkCancel(hooks);
        const BertBlock& b = w.blocks[std::size_t(l)];
        const LayerFormula& formula = frame.formulas[l];
        // 2. attention, post-LN: x = LayerNorm(dense(attention(x)) + x)
        linear(x, b.qWeight, b.qBias, q);
        linear(x, b.kWeight, b.kBias, k);
        linear(x, b.vWeight, b.vBias, v);
        GroupedQuery plain; // every head its own K and V, no rotation
        plain.kvHeads = H;
        groupedQueryAttention(q, k, v, formula.config, formula.rule, formula.mask, plain, buffers,
                              frame.weightsOf(l), merged);
        frame.headOutputs(l, merged, hooks);
        linear(merged, b.oWeight, b.oBias, sum);
        if (capturing(hooks, l)) { // trace(): this layer's stages, then stop
            captureHeads(*hooks.capture, x, q, k, v, formula.config);
            hooks.capture->merged = merged;
            hooks.capture->projected = sum;
            return std::move(frame.out);
        }
        sum += x;
        layerNorm(sum, b.attentionNorm.weight, b.attentionNorm.bias, c.epsilon, x);
        // 3. MLP: x = LayerNorm(output.dense(gelu(intermediate.dense(x))) + x)
        linear(x, b.inWeight, b.inBias, inner); // (T, I)
        geluErf(inner);
        linear(inner, b.outWeight, b.outBias, sum);
        sum += x;
        layerNorm(sum, b.outputNorm.weight, b.outputNorm.bias, c.epsilon, x);
        ForwardFrame::residual(l, x, hooks);
    }
    // 4. No final norm: the MLM head reads the last layer's output on demand (logitsOf).
    frame.out.hidden = std::move(x);
    return std::move(frame.out);
}

std::vector<float> BertModel::logitsOf(const float* hiddenRow) const
{
    const Matrix logits =
        logitsOfRows(Eigen::Map<const Matrix>(hiddenRow, 1, config_.dModel)); // (1, V)
    return {logits.data(), logits.data() + logits.size()};
}

Matrix BertModel::logitsOfRows(const Matrix& hidden) const
{
    // h = LayerNorm(gelu(transform.dense(hidden)))                           (T, C)
    if (!hasHead())
        throw ModelError(info().folder, std::string(kNoOutputHead));
    const BertWeights& w = weights_;
    Matrix dense, normed;
    linear(hidden, w.headWeight, w.headBias, dense);
    geluErf(dense);
    layerNorm(dense, w.headNorm.weight, w.headNorm.bias, config_.epsilon, normed);
    // logits = h · word_embeddingsᵀ + cls.predictions.bias                  (T, V)
    Matrix logits(normed.rows(), w.wordEmbedding.rows);
    logits.noalias() = normed * w.wordEmbedding.matrix().transpose();
    logits.rowwise() += w.decoderBias.row();
    return logits;
}

} // namespace attn
