#include "engine.h"

#include "embedding.h"
#include "parallel.h"
#include "torchrng.h"

#include <cmath>
#include <limits>

namespace attn {
namespace {

void throwIfCancelled(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

int stageIndex(Stage stage)
{
    return static_cast<int>(stage);
}

// exp of logits already shifted by their maximum. Eigen's vectorised exp clamps its
// argument near −88.4 and returns 2.9e-39 for −inf; torch returns 0, so below the
// smallest normal float's logarithm we return 0 as well. NaN stays NaN.
template <typename Derived> auto shiftedExp(const Eigen::ArrayBase<Derived>& shifted)
{
    return (shifted < -87.5f).select(0.0f, shifted.exp());
}

// y = x·Wᵀ + b, for every sequence. x: B × (T, C_in) → B × (T, C_out).
std::vector<Matrix> applyLinear(const std::vector<Matrix>& x, const Linear& layer)
{
    std::vector<Matrix> y(x.size());
    for (std::size_t b = 0; b < x.size(); ++b) {
        y[b].noalias() = x[b] * layer.weight.transpose();
        y[b].rowwise() += layer.bias.transpose();
    }
    return y;
}

// (B, T, C) → (B, H, T, d_k).
HeadStack splitHeads(const std::vector<Matrix>& t, int H, HeadSplit mode)
{
    const int B = static_cast<int>(t.size());
    const Eigen::Index T = t.empty() ? 0 : t[0].rows();
    const Eigen::Index C = t.empty() ? 0 : t[0].cols();
    const Eigen::Index dK = C / H;
    HeadStack heads(B, H, T, dK);
    for (int b = 0; b < B; ++b) {
        const Matrix& tb = t[static_cast<std::size_t>(b)];
        for (int h = 0; h < H; ++h) {
            if (mode == HeadSplit::Transpose) {
                // t.view(B, T, H, d_k).transpose(1, 2): head h owns columns [h·d_k, (h+1)·d_k).
                heads.at(b, h) = tb.middleCols(h * dK, dK);
            } else {
                // t.view(B, H, T, d_k): head h is the h-th run of T·d_k values in memory,
                // which mixes tokens and features — the classic bug.
                heads.at(b, h) = Eigen::Map<const Matrix>(tb.data() + h * T * dK, T, dK);
            }
        }
    }
    return heads;
}

} // namespace

TokenBatch previewTokens(const std::string& text, TokenizerMode mode)
{
    return tokenize(text, mode);
}

int AttentionEngine::firstChangedStage(const Request& before, const Request& after)
{
    const Config& a = before.config;
    const Config& b = after.config;
    if (before.text != after.text || a.tokenizer != b.tokenizer)
        return stageIndex(Stage::Tokenize);
    if (a.seed != b.seed || a.dModel != b.dModel || a.embedding != b.embedding ||
        a.positional != b.positional || before.embeddingOverrides != after.embeddingOverrides)
        return stageIndex(Stage::Embed);
    if (a.heads != b.heads || a.headSplit != b.headSplit)
        return stageIndex(Stage::Split);
    if (a.scale != b.scale || a.temperature != b.temperature || a.mask != b.mask ||
        a.maskFill != b.maskFill || a.maskStage != b.maskStage || a.paddingMask != b.paddingMask)
        return stageIndex(Stage::ScaleMask);
    if (a.axis != b.axis)
        return stageIndex(Stage::Normalize);
    return kStageCount;
}

Result AttentionEngine::compute(const Request& request, const std::atomic<bool>* cancel)
{
    if (const std::string problem = validate(request.config); !problem.empty())
        throw InputError(problem);

    const Config& config = request.config;
    int first =
        result_.valid() ? firstChangedStage(result_.request, request) : stageIndex(Stage::Tokenize);
    if (first == kStageCount)
        return result_;

    // Work on a copy: result_ changes only when every stage has finished, so an
    // error or a cancellation leaves the previous result (and its stages) intact.
    Result next = result_;
    next.request = request;
    auto ran = [&](Stage stage) { ++runs_[stageIndex(stage)]; };

    // 1. Tokenize. Unchanged tokens (an extra space, say) spare every later stage.
    if (first <= stageIndex(Stage::Tokenize)) {
        auto tokens = std::make_shared<const TokenBatch>(tokenize(request.text, config.tokenizer));
        ran(Stage::Tokenize);
        if (result_.tokens && *tokens == *result_.tokens) {
            Request sameText = result_.request;
            sameText.text = request.text;
            sameText.config.tokenizer = config.tokenizer;
            first = firstChangedStage(sameText, request);
            next.request.text = request.text;
            if (first == kStageCount) {
                result_.request = request;
                return result_;
            }
        } else {
            first = stageIndex(Stage::Embed);
        }
        next.tokens = std::move(tokens);
    }
    throwIfCancelled(cancel);

    const TokenBatch& tokens = *next.tokens;
    const int B = tokens.batch();
    const int T = tokens.length();
    const int C = config.dModel;
    const int H = config.heads;

    // 2–3. Embed and project. torch.manual_seed(seed); x = randn(B, T, C) in mode
    // "torch"; then W_q, W_k, W_v, W_o = nn.Linear(C, C), drawn in this order.
    if (first <= stageIndex(Stage::Project)) {
        TorchGenerator generator(config.seed);
        next.x = std::make_shared<const std::vector<Matrix>>(
            embed(tokens, config, request.embeddingOverrides, generator));
        ran(Stage::Embed);
        throwIfCancelled(cancel);

        auto projection = std::make_shared<Projection>();
        projection->wq = generator.linear(C, C);
        projection->wk = generator.linear(C, C);
        projection->wv = generator.linear(C, C);
        projection->wo = generator.linear(C, C);
        const Linear* layers[3] = {&projection->wq, &projection->wk, &projection->wv};
        std::vector<Matrix>* outputs[3] = {&projection->q, &projection->k, &projection->v};
        parallelFor(3, [&](int i) { *outputs[i] = applyLinear(*next.x, *layers[i]); });
        next.projection = std::move(projection);
        ran(Stage::Project);
        first = stageIndex(Stage::Split);
    }
    throwIfCancelled(cancel);

    // 4. Split heads: (B, T, C) → (B, H, T, d_k).
    if (first <= stageIndex(Stage::Split)) {
        auto split = std::make_shared<HeadViews>();
        split->q = splitHeads(next.projection->q, H, config.headSplit);
        split->k = splitHeads(next.projection->k, H, config.headSplit);
        split->v = splitHeads(next.projection->v, H, config.headSplit);
        next.split = std::move(split);
        ran(Stage::Split);

        // 5. S = Q_h K_hᵀ: (B, H, T, d_k) · (B, H, d_k, T) → (B, H, T, T).
        auto scores = std::make_shared<HeadStack>(B, H, T, T);
        parallelFor(B * H, [&](int item) {
            const int b = item / H, h = item % H;
            throwIfCancelled(cancel);
            scores->at(b, h).noalias() =
                next.split->q.at(b, h) * next.split->k.at(b, h).transpose();
        });
        next.scores = std::move(scores);
        ran(Stage::Scores);
        first = stageIndex(Stage::ScaleMask);
    }
    throwIfCancelled(cancel);

    // 6. Scale and mask: L = S·scale/τ, then masked_fill(M, fill) when the mask comes
    // before the softmax. torch multiplies by float(scale), then divides by float(τ).
    if (first <= stageIndex(Stage::ScaleMask)) {
        auto mask = std::make_shared<std::vector<MaskMatrix>>(static_cast<std::size_t>(B));
        for (int b = 0; b < B; ++b) {
            MaskMatrix& m = (*mask)[static_cast<std::size_t>(b)]; // (T, T)
            m.setConstant(T, T, false);
            if (config.mask == MaskKind::Causal) // torch.triu(ones(T, T), 1): key j > query i
                for (int i = 0; i < T; ++i)
                    m.row(i).tail(T - i - 1).setConstant(true);
            if (config.paddingMask) {
                // A key-padding mask: a <pad> key is hidden from every query.
                const int length = tokens.lengths[static_cast<std::size_t>(b)];
                m.rightCols(T - length).setConstant(true);
            }
        }
        next.mask = std::move(mask);

        const float scale = static_cast<float>(scaleFactor(config));
        const float tau = config.temperature;
        const float fill =
            config.maskFill == MaskFill::NegInf ? -std::numeric_limits<float>::infinity() : -1e9f;
        const bool fillNow = config.maskStage == MaskStage::BeforeSoftmax;
        auto logits = std::make_shared<HeadStack>(B, H, T, T);
        parallelFor(B * H, [&](int item) {
            const int b = item / H, h = item % H;
            Matrix& l = logits->at(b, h);
            l = (next.scores->at(b, h) * scale) / tau;
            if (fillNow)
                l = (*next.mask)[static_cast<std::size_t>(b)].select(fill, l);
        });
        next.logits = std::move(logits);
        ran(Stage::ScaleMask);
        first = stageIndex(Stage::Normalize);
    }
    throwIfCancelled(cancel);

    // 7. P = softmax(L, dim=axis), then masked_fill(M, 0) when the mask comes after.
    // Each softmax subtracts its maximum first, only for numerical stability; a slice
    // that is all -inf has max -inf, and -inf − (-inf) = NaN, as in torch.
    if (first <= stageIndex(Stage::Normalize)) {
        auto weights = std::make_shared<HeadStack>(B, H, T, T);
        const HeadStack& logits = *next.logits;
        switch (config.axis) {
        case SoftmaxAxis::Keys: // dim=-1: each row i over keys j
            parallelFor(B * H, [&](int item) {
                const int b = item / H, h = item % H;
                const Matrix& l = logits.at(b, h);
                Matrix& p = weights->at(b, h);
                for (int i = 0; i < T; ++i) {
                    const float max = l.row(i).maxCoeff();
                    p.row(i) = shiftedExp(l.row(i).array() - max);
                    p.row(i) /= p.row(i).sum();
                }
            });
            break;
        case SoftmaxAxis::Queries: // dim=-2: each column j over queries i
            parallelFor(B * H, [&](int item) {
                const int b = item / H, h = item % H;
                const Matrix& l = logits.at(b, h);
                Matrix& p = weights->at(b, h);
                const Eigen::Matrix<float, 1, Eigen::Dynamic> max = l.colwise().maxCoeff();
                p = shiftedExp(l.array().rowwise() - max.array());
                const Eigen::Matrix<float, 1, Eigen::Dynamic> sum = p.colwise().sum();
                p.array().rowwise() /= sum.array();
            });
            break;
        case SoftmaxAxis::Batch: // dim=0: each (h, i, j) over sequences b
            parallelFor(H, [&](int h) {
                Matrix max = logits.at(0, h);
                for (int b = 1; b < B; ++b)
                    max = max.cwiseMax(logits.at(b, h));
                Matrix sum = Matrix::Zero(T, T);
                for (int b = 0; b < B; ++b) {
                    weights->at(b, h) = shiftedExp((logits.at(b, h) - max).array());
                    sum += weights->at(b, h);
                }
                for (int b = 0; b < B; ++b)
                    weights->at(b, h).array() /= sum.array();
            });
            break;
        }
        if (config.maskStage == MaskStage::AfterSoftmax) {
            for (int b = 0; b < B; ++b)
                for (int h = 0; h < H; ++h)
                    weights->at(b, h) =
                        (*next.mask)[static_cast<std::size_t>(b)].select(0.0f, weights->at(b, h));
        }
        next.weights = std::move(weights);
        ran(Stage::Normalize);
    }
    throwIfCancelled(cancel);

    // 8. O_h = P V_h (B, H, T, d_k); concat heads → (B, T, C); O = W_o(concat).
    {
        const int dK = config.dK();
        auto aggregation = std::make_shared<Aggregation>();
        aggregation->headOutputs = HeadStack(B, H, T, dK);
        parallelFor(B * H, [&](int item) {
            const int b = item / H, h = item % H;
            aggregation->headOutputs.at(b, h).noalias() =
                next.weights->at(b, h) * next.split->v.at(b, h);
        });
        // (P @ V).transpose(1, 2).reshape(B, T, C): head h fills columns [h·d_k, (h+1)·d_k).
        aggregation->merged.assign(static_cast<std::size_t>(B), Matrix(T, C));
        for (int b = 0; b < B; ++b)
            for (int h = 0; h < H; ++h)
                aggregation->merged[static_cast<std::size_t>(b)].middleCols(h * dK, dK) =
                    aggregation->headOutputs.at(b, h);
        aggregation->output = applyLinear(aggregation->merged, next.projection->wo);
        next.aggregation = std::move(aggregation);
        ran(Stage::Aggregate);
    }
    throwIfCancelled(cancel);

    // 9. Statistics and warnings.
    {
        auto stats = std::make_shared<Statistics>();
        stats->heads.resize(static_cast<std::size_t>(B * H));
        const float scale = static_cast<float>(scaleFactor(config));
        parallelFor(B * H, [&](int item) {
            const int b = item / H, h = item % H;
            HeadStatistics s =
                headStatistics(next.scores->at(b, h), scale, config.temperature,
                               next.weights->at(b, h), (*next.mask)[static_cast<std::size_t>(b)]);
            s.batch = b;
            s.head = h;
            stats->heads[static_cast<std::size_t>(item)] = std::move(s);
        });
        summarize(*stats, *next.scores, scale, config.temperature);
        stats->warnings = deriveWarnings(*stats, config);
        next.stats = std::move(stats);
        ran(Stage::Statistics);
    }

    result_ = std::move(next);
    return result_;
}

} // namespace attn
