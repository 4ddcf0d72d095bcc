#include "models/gpt2/model.h"

#include "models/families.h"
#include "models/forward.h"
#include "models/kvcache.h"
#include "models/modelattention.h"
#include "models/modelkernels.h"
#include "text/gpt2tokenizer.h"

namespace attn {

namespace {

// A block's products whichever way its matrices are stored (Gpt2MatrixLayout): Conv1D on
// its own kernel (AVX-512 bands where packed), nn.Linear on tiles that dequantize ggml's
// blocks as they go. y = x·W + b; the Add form sums into y, the Gelu form applies GELU.
void product(Gpt2MatrixLayout layout, const Matrix& x, const WeightView& weight,
             const WeightView& bias, Matrix& y)
{
    if (layout == Gpt2MatrixLayout::Linear)
        linear(x, weight, bias, y);
    else
        conv1d(x, weight, bias, y);
}
void productAdd(Gpt2MatrixLayout layout, const Matrix& x, const WeightView& weight,
                const WeightView& bias, Matrix& y)
{
    if (layout == Gpt2MatrixLayout::Linear)
        linearAdd(x, weight, bias, y);
    else
        conv1dAdd(x, weight, bias, y);
}
void productGelu(Gpt2MatrixLayout layout, const Matrix& x, const WeightView& weight,
                 const WeightView& bias, Matrix& y)
{
    if (layout == Gpt2MatrixLayout::Linear)
        linearGelu(x, weight, bias, y);
    else
        conv1dGelu(x, weight, bias, y);
}

} // namespace

ModelInfo Gpt2Model::infoOf(ModelInfo info, const Gpt2Config& config)
{
    info.layers = config.layers;
    info.heads = info.kvHeads = config.heads;
    info.dModel = config.dModel;
    info.headDim = config.headDim();
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    return info;
}

Gpt2Model::Gpt2Model(ModelInfo info, Gpt2Config config, Gpt2Weights weights,
                     std::unique_ptr<const ModelTokenizer> tokenizer)
    : LanguageModel(std::move(info), std::move(tokenizer), "vocab.json"),
      config_(std::move(config)), weights_(std::move(weights))
{}

ModelInfo Gpt2Model::describe(const ModelFolder& folder)
{
    return infoOf(folder.info(), parseGpt2Config(folder.config, folder.configFile));
}

std::shared_ptr<const LanguageModel> Gpt2Model::open(const ModelFolder& folder)
{
    // 1. config.json.
    Gpt2Config config = parseGpt2Config(folder.config, folder.configFile);
    // 2. The tokenizer, before the weights: a folder without merges.txt fails at once.
    std::unique_ptr<const ModelTokenizer> tokenizer = readTokenizer([&] {
        return std::make_unique<const Gpt2Tokenizer>(Gpt2Tokenizer::fromFolder(folder.path));
    });
    ModelFolder::checkVocabulary(*tokenizer, config.vocabulary, folder.file("vocab.json"));
    // 3. The weights, mapped.
    Gpt2Weights weights = loadGpt2Weights(weightsFileOf(folder.path), config);

    ModelInfo info = infoOf(folder.info(), config);
    info.weightType = weights.storedType;
    return std::make_shared<const Gpt2Model>(std::move(info), std::move(config), std::move(weights),
                                             std::move(tokenizer));
}

Forward Gpt2Model::forward(const std::vector<int>& ids, const ModelSwitches& switches,
                           const ForwardHooks& hooks) const
{
    ForwardFrame frame(info(), ids, switches, hooks);
    const Gpt2Weights& w = weights_;
    const int C = config_.dModel, L = config_.layers, H = config_.heads;
    const Gpt2MatrixLayout layout = w.layout;

    // 1. x = wte[ids] + wpe[0 … T−1]                                     (T, C)
    //    (or a resumed forward's residual: ForwardHooks::startLayer; with a KV cache the
    //    positions after its own: ForwardHooks::cache)
    Matrix x;
    const int first = frame.resume(hooks, x);
    if (first == 0) {
        x.resize(frame.rows, C);
        std::vector<float> token, position; // a row each, dequantized when in blocks
        for (int t = frame.past; t < frame.T; ++t)
            x.row(t - frame.past) = w.tokenEmbedding.rowsOf(ids[std::size_t(t)], 1, token).row(0) +
                                    w.positionEmbedding.rowsOf(t, 1, position).row(0);
    }

    Matrix normed, qkv, merged, hidden; // (T, C), (T, 3C), (T, C), (T, 4C)
    AttentionBuffers buffers;
    for (int l = first; l < L; ++l) {
        checkCancel(hooks);
        const Gpt2Block& b = w.blocks[std::size_t(l)];
        const LayerFormula& formula = frame.formulas[l];
        // 2. attention: x += c_proj(attention(c_attn(ln_1(x))))
        layerNorm(x, b.ln1Weight, b.ln1Bias, config_.epsilon, normed);
        product(layout, normed, b.attnWeight, b.attnBias, qkv); // (T, 3C): Q, K, V
        if (hooks.cache && frame.past > 0) {
            cachedMultiHeadAttention(qkv, H, *hooks.cache, l, formula.rule, frame.maskRows(l),
                                     frame.weightsOf(l), merged);
        } else {
            multiHeadAttention(qkv, formula.config, formula.mask, buffers, frame.weightsOf(l),
                               merged);
            if (hooks.cache)
                cacheHeads(qkv, H, *hooks.cache, l);
        }
        frame.headOutputs(l, merged, hooks);
        if (capturing(hooks, l)) { // trace(): this layer's stages, then stop
            captureHeads(*hooks.capture, normed, qkv.leftCols(C), qkv.middleCols(C, C),
                         qkv.rightCols(C), formula.config);
            product(layout, merged, b.projWeight, b.projBias, hooks.capture->projected);
            hooks.capture->merged = merged;
            return std::move(frame.out);
        }
        productAdd(layout, merged, b.projWeight, b.projBias, x); // the residual summed in each tile
        // 3. MLP: x += c_proj(gelu(c_fc(ln_2(x))))
        layerNorm(x, b.ln2Weight, b.ln2Bias, config_.epsilon, normed);
        productGelu(layout, normed, b.fcWeight, b.fcBias, hidden); // (T, 4C), GELU on each tile
        productAdd(layout, hidden, b.fcProjWeight, b.fcProjBias, x);
        ForwardFrame::residual(l, x, hooks);
    }
    // 4. The final LayerNorm; the logits are made from it on demand (logitsOf).
    finalNorm(x, frame.out.hidden);
    frame.advance(hooks);
    return std::move(frame.out);
}

void Gpt2Model::finalNorm(const Matrix& residual, Matrix& out) const
{
    layerNorm(residual, weights_.finalNormWeight, weights_.finalNormBias, config_.epsilon, out);
}

} // namespace attn
