#include "models/llama/model.h"

#include "models/families.h"
#include "models/forward.h"
#include "models/kvcache.h"
#include "models/modelattention.h"
#include "models/modelkernels.h"
#include "text/gpt2files.h"
#include "text/hftokenizer.h"

namespace attn {

ModelInfo LlamaModel::infoOf(ModelInfo info, const LlamaConfig& config)
{
    info.layers = config.layers;
    info.heads = config.heads;
    info.kvHeads = config.kvHeads;
    info.dModel = config.dModel;
    info.headDim = config.headDim;
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    info.rotary = true;
    info.slidingWindow = config.slidingWindow;
    return info;
}

LlamaModel::LlamaModel(ModelInfo info, LlamaConfig config, LlamaWeights weights,
                       std::unique_ptr<const ModelTokenizer> tokenizer)
    : LanguageModel(std::move(info), std::move(tokenizer), "tokenizer.json"),
      config_(std::move(config)), weights_(std::move(weights))
{}

ModelInfo LlamaModel::describe(const ModelFolder& folder)
{
    return infoOf(folder.info(), parseLlamaConfig(folder.config, folder.configFile));
}

std::shared_ptr<const LanguageModel> LlamaModel::open(const ModelFolder& folder)
{
    // 1. config.json.
    LlamaConfig config = parseLlamaConfig(folder.config, folder.configFile);
    // 2. The tokenizer (tokenizer.json, core/text/hftokenizer), before the weights: a
    //    broken one fails at once.
    std::unique_ptr<const ModelTokenizer> tokenizer = readTokenizer([&] {
        return std::make_unique<const HfTokenizer>(
            HfTokenizer::fromFile(folder.file("tokenizer.json")));
    });
    ModelFolder::checkVocabulary(*tokenizer, config.vocabulary, folder.file("tokenizer.json"));
    // 3. The weights, mapped.
    LlamaWeights weights = loadLlamaWeights(weightsFileOf(folder.path), config);

    ModelInfo info = infoOf(folder.info(), config);
    info.weightType = weights.storedType;
    return std::make_shared<const LlamaModel>(std::move(info), std::move(config),
                                              std::move(weights), std::move(tokenizer));
}

Forward LlamaModel::forward(const std::vector<int>& ids, const ModelSwitches& switches,
                            const ForwardHooks& hooks) const
{
    ForwardFrame frame(info(), ids, switches, hooks);
    const LlamaConfig& c = config_;
    const LlamaWeights& w = weights_;
    const int T = frame.T, C = c.dModel, L = c.layers;
    const RotaryTable rope = rotaryTable(T, c.headDim, c.ropeTheta, c.ropeScaling);

    // 1. x = embed_tokens[ids]                                             (T, C)
    //    (or a resumed forward's residual: ForwardHooks::startLayer; with a KV cache the
    //    positions after its own: ForwardHooks::cache)
    Matrix x;
    const int first = frame.resume(hooks, x);
    if (first == 0) {
        x.resize(frame.rows, C);
        std::vector<float> scratch;
        for (int t = frame.past; t < T; ++t)
            x.row(t - frame.past) = w.tokenEmbedding.rowsOf(ids[std::size_t(t)], 1, scratch);
    }

    Matrix normed, q, k, v, merged, gate; // (T, C), (T, H·d), (T, H_kv·d) ×2, (T, H·d), (T, I)
    AttentionBuffers buffers;
    for (int l = first; l < L; ++l) {
        checkCancel(hooks);
        const LlamaBlock& b = w.blocks[std::size_t(l)];
        const LayerFormula& formula = frame.formulas[l];
        // 2. attention: x += o_proj(attention(input_layernorm(x)))
        rmsNorm(x, b.inputNorm, c.epsilon, normed);
        // q (T, H·d), k and v (T, H_kv·d): one loop over the three products' tiles.
        linearEach(
            normed,
            {{&b.qWeight, &b.qBias, &q}, {&b.kWeight, &b.kBias, &k}, {&b.vWeight, &b.vBias, &v}});
        GroupedQuery grouped;
        grouped.kvHeads = c.kvHeads;
        grouped.rope = frame.formulas.rope(l) ? &rope : nullptr;
        grouped.qNorm = c.qkNorm ? &b.qNorm : nullptr;
        grouped.kNorm = c.qkNorm ? &b.kNorm : nullptr;
        grouped.epsilon = c.epsilon;
        if (hooks.cache && frame.past > 0) {
            cachedGroupedAttention(q, k, v, grouped, c.heads, *hooks.cache, l, formula.rule,
                                   frame.maskRows(l), frame.weightsOf(l), merged);
        } else {
            groupedQueryAttention(q, k, v, formula.config, formula.rule, formula.mask, grouped,
                                  buffers, frame.weightsOf(l), merged);
            for (int g = 0; hooks.cache && g < c.kvHeads; ++g)
                hooks.cache->append(l, g, buffers.grouped[0].at(0, g), buffers.grouped[1].at(0, g));
        }
        frame.headOutputs(l, merged, hooks);
        if (capturing(hooks, l)) { // trace(): this layer's stages, then stop
            LayerCapture& capture = *hooks.capture;
            capture.input = normed;
            capture.queries = buffers.heads[0];
            capture.keys = buffers.grouped[0];
            capture.values = buffers.grouped[1];
            linear(merged, b.oWeight, b.oBias, capture.projected);
            capture.merged = merged;
            return std::move(frame.out);
        }
        linearAdd(merged, b.oWeight, b.oBias, x); // the residual summed in each tile
        // 3. MLP: x += down_proj(silu(gate_proj(h)) · up_proj(h)), h = post_attention_layernorm(x)
        rmsNorm(x, b.postNorm, c.epsilon, normed);
        linearSwiGlu(normed, b.gateWeight, b.gateBias, b.upWeight, b.upBias, gate); // (T, I)
        linearAdd(gate, b.downWeight, b.downBias, x);
        ForwardFrame::residual(l, x, hooks);
    }
    // 4. The final RMSNorm; the logits are made from it on demand (logitsOf).
    finalNorm(x, frame.out.hidden);
    frame.advance(hooks);
    return std::move(frame.out);
}

void LlamaModel::finalNorm(const Matrix& residual, Matrix& out) const
{
    rmsNorm(residual, weights_.finalNorm, config_.epsilon, out);
}

} // namespace attn
