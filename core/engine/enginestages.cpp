// The stages of AttentionEngine::compute (engine.cpp), numbered as in ARCHITECTURE.md. The
// memory checks before stage 2 (makeRoom) are in engine.cpp; the kernels are in their units
// (projection, softmax, deferredscores, statistics).
#include "engine/enginerun.h"

#include "base/blas.h"
#include "base/parallel.h"
#include "engine/embedding.h"
#include "engine/keyblocks.h"
#include "engine/positions.h"
#include "engine/projection.h"
#include "engine/softmax.h"
#include "engine/torchrng.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

namespace attn {

void AttentionEngine::Run::ran(Stage stage)
{
    ++engine.runs_[stageIndex(stage)];
    const auto now = std::chrono::steady_clock::now();
    engine.milliseconds_[stageIndex(stage)] =
        std::chrono::duration<double, std::milli>(now - mark).count();
    mark = now;
    first = std::max(first, stageIndex(stage) + 1);
}

// 1. Tokenize. Unchanged tokens (an extra space, say) spare every later stage.
bool AttentionEngine::Run::tokenize()
{
    if (!runs(Stage::Tokenize))
        return true;
    const Result& previous = engine.result_;
    auto tokens =
        std::make_shared<const TokenBatch>(attn::tokenize(request.text, config.tokenizer));
    std::shared_ptr<const TokenBatch> keyTokens = tokens;
    if (config.attention == AttentionKind::Cross)
        keyTokens = std::make_shared<const TokenBatch>(
            crossTokens(request.crossText, config.tokenizer, tokens->batch()));
    ran(Stage::Tokenize);
    const bool sameKind = previous.config().attention == config.attention;
    if (previous.tokens && sameKind && *tokens == *previous.tokens &&
        *keyTokens == *previous.keyTokens) {
        Request sameText = previous.request;
        sameText.text = request.text;
        sameText.crossText = request.crossText;
        sameText.config.tokenizer = config.tokenizer;
        first = std::min(firstChangedStage(sameText, request), engine.completed_ + 1);
        if (first > last)
            return false;
    } else {
        first = stageIndex(Stage::Embed);
    }
    next.tokens = std::move(tokens);
    next.keyTokens = std::move(keyTokens);
    return true;
}

// 2. Embed: torch.manual_seed(seed); x = randn(B, T, C) in mode "torch" (and, in
// cross-attention, y = randn(B, T_k, C) after it); then W_q, W_k, W_v, W_o =
// nn.Linear(C, C), nn.Linear(C, K·d_k) twice, nn.Linear(C, C), drawn in this order.
void AttentionEngine::Run::embed()
{
    const TokenBatch& tokens = *next.tokens;
    const TokenBatch& keyTokens = *next.keyTokens;
    const bool cross = config.attention == AttentionKind::Cross;
    const int B = tokens.batch(), T = tokens.length(), Tk = keyTokens.length();
    const int C = config.dModel;
    TorchGenerator generator(config.seed);
    next.x = std::make_shared<const std::vector<Matrix>>(
        attn::embed(tokens, config, request.embeddingOverrides, generator));
    next.xKeys = cross ? std::make_shared<const std::vector<Matrix>>(
                             attn::embed(keyTokens, config, request.embeddingOverrides, generator))
                       : next.x;
    // The layers depend on the seed, C and, in mode "torch", on how many values x (and y)
    // drew before them; typing a new sentence in mode "table" reuses them.
    const int drawn = B * T + (cross ? B * Tk : 0);
    // With K/V heads K < H, W_k and W_v are nn.Linear(C, K·d_k): drawn in the same order,
    // so that K = H draws today's numbers.
    const int kvWidth = config.kvHeadCount() * config.dK();
    const LayerKey key{config.seed, C, config.embedding,
                       config.embedding == EmbeddingMode::Torch ? drawn : 0, kvWidth};
    if (!engine.layers_ || engine.layerKey_ != key) {
        auto layers = std::make_shared<std::array<Linear, 4>>();
        (*layers)[0] = generator.linear(C, C);
        (*layers)[1] = generator.linear(C, kvWidth);
        (*layers)[2] = generator.linear(C, kvWidth);
        (*layers)[3] = generator.linear(C, C);
        drawnLayers = std::move(layers);
        drawnKey = key;
    }
    ran(Stage::Embed);
    engine.leadInMilliseconds_ = engine.milliseconds_[stageIndex(Stage::Tokenize)] +
                                 engine.milliseconds_[stageIndex(Stage::Embed)];
}

// 3. Project: Q, K, V = W_q x, W_k x, W_v x (B, T, C); in cross-attention K and V from y.
void AttentionEngine::Run::project()
{
    const int H = config.heads;
    auto projection = engine.projections_.take();
    projection->layers = drawnLayers ? drawnLayers : engine.layers_;
    const std::array<Linear, 4>& w = *projection->layers;
    std::vector<Matrix>* const q = &projection->q;
    std::vector<Matrix>* const k = &projection->k;
    std::vector<Matrix>* const v = &projection->v;
    // Stage 4 with view + transpose: each block of rows split into the heads right behind
    // its product, while in cache, instead of a pass of its own.
    std::shared_ptr<HeadViews> split;
    if (last >= stageIndex(Stage::Split) && config.headSplit == HeadSplit::Transpose &&
        !transformsHeads(config))
        split = engine.splits_.take();
    HeadStack* const qHeads = split ? &split->q : nullptr;
    HeadStack* const kHeads = split ? &split->k : nullptr;
    HeadStack* const vHeads = split ? &split->v : nullptr;
    if (config.attention == AttentionKind::Cross) {
        applyLinear(*next.x, {{&w[0], q, qHeads, H}});
        applyLinear(*next.xKeys, {{&w[1], k, kHeads, H}, {&w[2], v, vHeads, H}});
    } else {
        applyLinear(*next.x, {{&w[0], q, qHeads, H}, {&w[1], k, kHeads, H}, {&w[2], v, vHeads, H}});
    }
    next.projection = std::move(projection);
    ran(Stage::Project);
    if (split) {
        next.split = std::move(split);
        ran(Stage::Split);
    }
}

// 4. Split heads: (B, T, C) → (B, H, T, d_k); K and V into their K heads, each normed and
// rotated as the switches say, then each query head given its K/V head (repeat_kv).
void AttentionEngine::Run::splitHeads()
{
    auto split = engine.splits_.take();
    const int H = config.heads, K = config.kvHeadCount();
    if (K == H) {
        attn::splitHeads({{&next.projection->q, &split->q},
                          {&next.projection->k, &split->k},
                          {&next.projection->v, &split->v}},
                         H, config.headSplit);
        transformHeads(config, split->q, split->k);
    } else {
        HeadStack k, v;
        attn::splitHeads({{&next.projection->q, &split->q}}, H, config.headSplit);
        attn::splitHeads({{&next.projection->k, &k}, {&next.projection->v, &v}}, K,
                         config.headSplit);
        transformHeads(config, split->q, k);
        repeatKvHeads(k, H, split->k);
        repeatKvHeads(v, H, split->v);
    }
    next.split = std::move(split);
    ran(Stage::Split);
}

// Stage 6's mask M (B, T_q, T_k): the causal mask and the keys' padding. A switch of the
// scaling, τ, the fill or the mask's stage keeps it.
void AttentionEngine::Run::makeMask()
{
    const Result& previous = engine.result_;
    const bool sameMask = next.mask && next.keyTokens == previous.keyTokens &&
                          next.tokens == previous.tokens && previous.config().mask == config.mask &&
                          previous.config().paddingMask == config.paddingMask &&
                          previous.config().window == config.window;
    if (!sameMask) {
        const TokenBatch& keyTokens = *next.keyTokens;
        const int B = next.tokens->batch(), T = next.tokens->length(), Tk = keyTokens.length();
        auto mask = std::make_shared<std::vector<MaskMatrix>>(static_cast<std::size_t>(B));
        for (int b = 0; b < B; ++b) {
            MaskMatrix& m = (*mask)[static_cast<std::size_t>(b)]; // (T_q, T_k)
            m.setConstant(T, Tk, false);
            // torch.triu(ones(T, T), 1): key j > query i. validate() refuses it in
            // cross-attention, where no key is in a query's future.
            if (config.mask == MaskKind::Causal)
                for (int i = 0; i < T; ++i)
                    m.row(i).tail(T - i - 1).setConstant(true);
            // A sliding window W: keys W or more before the query (and, without the causal
            // mask, W or more after it) are hidden.
            if (config.window > 0)
                for (int i = 0; i < T; ++i)
                    for (int j = 0; j < Tk; ++j)
                        if (i - j >= config.window || j - i >= config.window)
                            m(i, j) = true;
            if (config.paddingMask) {
                // A key-padding mask: a <pad> key is hidden from every query.
                const int length = keyTokens.lengths[static_cast<std::size_t>(b)];
                m.rightCols(Tk - length).setConstant(true);
            }
        }
        next.mask = std::move(mask);
    }
    maskMade = true;
}

// 5. S = Q_h K_hᵀ: (B, H, T_q, d_k) · (B, H, d_k, T_k) → (B, H, T_q, T_k). When the softmax
// over the keys follows in this compute, each block of rows of S goes through it (stages
// 6–7) at once, while still in cache: at T = 2048 S would otherwise be read back from
// memory, 16 MB a head.
void AttentionEngine::Run::scores()
{
    const int B = next.tokens->batch(), H = config.heads;
    const int T = next.tokens->length(), Tk = next.keyTokens->length();
    auto scores = engine.scores_.take();
    scores->reshape(B, H, T, Tk);
    const bool fused = last >= stageIndex(Stage::Normalize) && config.axis == SoftmaxAxis::Keys;
    if (fused) {
        makeMask();
        fusedWeights = engine.weights_.take();
        fusedWeights->reshape(B, H, T, Tk);
    }
    // A causal mask before that softmax hides from each block of rows every key after it,
    // and the softmax does not read those scores: their products wait for the statistics
    // (stage 9) or a switch that reads them, off the way to the heatmaps and the output.
    // At long T that is nearly half of S's products and of its writes.
    const bool deferMasked = fused && T == Tk && futureScoresUnread(config);
    const ScoreBlocks blocks = scoreBlocks(T, Tk);
    const std::vector<LogitRule> rules = headRules(config);
    const bool maskAfter = config.maskStage == MaskStage::AfterSoftmax;
    parallelFor(B * H * blocks.count, [&](int item) {
        const int b = item / (H * blocks.count), h = item / blocks.count % H;
        const int block = item % blocks.count;
        throwIfCancelled(cancel);
        const Eigen::Index row = blocks.begin(block), rows = blocks.size(block);
        auto s = scores->at(b, h).middleRows(row, rows);
        multiplyScores(next.split->q.at(b, h), next.split->k.at(b, h), s, blocks, block,
                       !deferMasked);
        if (fused) {
            std::vector<float> scratch(static_cast<std::size_t>(Tk));
            softmaxBlockOverKeys(s, (*next.mask)[std::size_t(b)], rules[std::size_t(h)], maskAfter,
                                 row, scratch.data(), fusedWeights->at(b, h).middleRows(row, rows));
        }
    });
    if (deferMasked && blocks.count > 1) {
        const std::shared_ptr<const HeadViews>& split = next.split;
        next.deferredScores = std::make_shared<DeferredScores>(
            scores, std::shared_ptr<const HeadStack>(split, &split->q),
            std::shared_ptr<const HeadStack>(split, &split->k));
    } else {
        next.deferredScores.reset();
    }
    next.scores = std::move(scores);
    ran(Stage::Scores);
}

// S of an earlier compute, its masked cells still to be made, for a switch that reads them
// (no mask, the mask after the softmax, another axis) or stops before stage 7.
void AttentionEngine::Run::completeScores()
{
    if (last < stageIndex(Stage::Normalize) || !futureScoresUnread(config))
        makeDeferredScores();
}

// The masked cells of S that stage 5 left (Result::deferredScores), made in S's memory for
// every result that shares S, the engine's own among them.
void AttentionEngine::Run::makeDeferredScores()
{
    if (next.deferredScores)
        next.deferredScores->complete();
    next.deferredScores.reset();
}

// 6. Scale and mask: L = S·scale/τ, then masked_fill(M, fill) when the mask comes before
// the softmax. The mask is made here; L itself is made row by row inside the softmax's pass
// and not kept (Result::logits makes it again when asked).
void AttentionEngine::Run::scaleAndMask()
{
    if (!maskMade)
        makeMask();
    ran(Stage::ScaleMask);
}

// 7. P = softmax(L, dim=axis), then masked_fill(M, 0) when the mask comes after. Each
// softmax subtracts its maximum first, only for numerical stability; a slice that is all
// -inf has max -inf, and -inf − (-inf) = NaN, as in torch.
void AttentionEngine::Run::normalize()
{
    const int B = next.tokens->batch(), H = config.heads;
    const int T = next.tokens->length(), Tk = next.keyTokens->length();
    std::shared_ptr<HeadStack> weights = fusedWeights;
    if (!weights) {
        weights = engine.weights_.take();
        weights->reshape(B, H, T, Tk);
    }
    const std::vector<LogitRule> rules = headRules(config);
    const HeadStack& scores = *next.scores;
    const std::vector<MaskMatrix>& masks = *next.mask;
    auto maskOf = [&](int b) -> const MaskMatrix& { return masks[std::size_t(b)]; };
    const bool maskAfter = config.maskStage == MaskStage::AfterSoftmax;
    std::shared_ptr<std::vector<HeadsOverview>> overviews;
    switch (config.axis) {
    case SoftmaxAxis::Keys: // dim=-1: each row i over keys j, L made row by row
        if (!fusedWeights && engine.makesOverviews_) {
            auto made = engine.overviews_.take();
            softmaxWithOverviews(scores, masks, rules, maskAfter, *weights, *made);
            overviews = std::move(made);
        } else if (!fusedWeights) {
            parallelFor(B * H, [&](int item) {
                const int b = item / H, h = item % H;
                scaleMaskSoftmaxOverKeys(scores.at(b, h), maskOf(b), rules[std::size_t(h)],
                                         weights->at(b, h));
            });
        }
        break;
    case SoftmaxAxis::Queries: // dim=-2: each column j over queries i
        parallelFor(B * H, [&](int item) {
            const int b = item / H, h = item % H;
            scaleMaskSoftmaxOverQueries(scores.at(b, h), maskOf(b), rules[std::size_t(h)],
                                        weights->at(b, h));
        });
        break;
    case SoftmaxAxis::Batch: // dim=0: each (h, i, j) over sequences b
        parallelFor(H, [&](int h) {
            scaleMaskSoftmaxOverBatch(scores, masks, rules[std::size_t(h)], h, *weights);
        });
        break;
    }
    if (maskAfter && !overviews && !fusedWeights) { // stage 5 masked its blocks of P
        parallelFor(B * H, [&](int item) {
            const int b = item / H, h = item % H;
            Matrix& p = weights->at(b, h);
            p = maskOf(b).select(0.0f, p);
        });
    }
    next.weights = std::move(weights);
    next.overviews = std::move(overviews);
    ran(Stage::Normalize);
}

// 8. O_h = P V_h (B, H, T_q, d_k); concat heads → (B, T_q, C); O = W_o(concat).
void AttentionEngine::Run::aggregate()
{
    const int B = next.tokens->batch(), H = config.heads;
    const int T = next.tokens->length(), Tk = next.keyTokens->length();
    const int C = config.dModel, dK = config.dK();
    auto aggregation = engine.aggregations_.take();
    aggregation->headOutputs.reshape(B, H, T, dK);
    aggregation->merged.resize(static_cast<std::size_t>(B));
    for (Matrix& m : aggregation->merged)
        m.resize(T, C);
    // Under a causal mask, where the future weighs exactly 0, a block of rows needs only the
    // keys up to its last row (multiplyValues): about half of P·V's work at long T.
    const bool dropFuture = futureMayWeighZero(config, T, Tk);
    parallelFor(B * H, [&](int item) {
        const int b = item / H, h = item % H;
        Matrix& o = aggregation->headOutputs.at(b, h);
        const Matrix& p = next.weights->at(b, h);
        const Matrix& v = next.split->v.at(b, h);
        constexpr Eigen::Index kRows = 128;
        if (dropFuture && T >= 2 * kRows) {
            for (Eigen::Index row = 0; row < T; row += kRows) {
                const Eigen::Index rows = std::min<Eigen::Index>(kRows, T - row);
                multiplyValues(p.middleRows(row, rows), v, row, true, o.middleRows(row, rows));
            }
        } else {
            o.noalias() = p * v;
        }
        // (P @ V).transpose(1, 2).reshape(B, T, C): head h fills columns [h·d_k, (h+1)·d_k),
        // copied while its output is still in cache.
        aggregation->merged[static_cast<std::size_t>(b)].middleCols(h * dK, dK) = o;
    });
    applyLinear(aggregation->merged, {{&next.projection->wo(), &aggregation->output}});
    next.aggregation = std::move(aggregation);
    ran(Stage::Aggregate);
}

// 9. Statistics and warnings. std(S) reads every score: the masked ones first, when stage 5
// left them.
void AttentionEngine::Run::statistics()
{
    makeDeferredScores();
    const int B = next.tokens->batch(), H = config.heads;
    auto stats = std::make_shared<Statistics>();
    stats->heads.resize(static_cast<std::size_t>(B * H));
    const float scale = static_cast<float>(scaleFactor(config));
    parallelFor(B * H, [&](int item) {
        const int b = item / H, h = item % H;
        HeadStatistics s =
            headStatistics(next.scores->at(b, h), scale, config.temperature, next.weights->at(b, h),
                           (*next.mask)[static_cast<std::size_t>(b)]);
        addTodaysFigures(s, next.scores->at(b, h), logitRule(config, h),
                         (*next.mask)[static_cast<std::size_t>(b)]);
        s.batch = b;
        s.head = h;
        stats->heads[static_cast<std::size_t>(item)] = std::move(s);
    });
    summarize(*stats);
    stats->warnings = deriveWarnings(*stats, config);
    next.stats = std::move(stats);
    ran(Stage::Statistics);
}

} // namespace attn
