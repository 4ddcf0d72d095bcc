#include "models/kvcache.h"

#include "base/parallel.h"
#include "engine/keyblocks.h"
#include "models/modelkernels.h"

#include <cstring>

namespace attn {

KvCache::KvCache(const ModelInfo& info, int capacity)
    : layers(std::size_t(info.layers)), capacity(capacity)
{
    // H_kv, or H where the model's info leaves it 0 (every head its own K and V).
    const std::size_t kvHeads = std::size_t(info.kvHeads > 0 ? info.kvHeads : info.heads);
    for (Layer& layer : layers) {
        layer.keys.assign(kvHeads, Matrix(capacity, info.headDim));
        layer.values.assign(kvHeads, Matrix(capacity, info.headDim));
    }
}

void KvCache::append(int layer, int head,
                     const Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>& k,
                     const Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>& v)
{
    Layer& l = layers[std::size_t(layer)];
    l.keys[std::size_t(head)].middleRows(past, k.rows()) = k;
    l.values[std::size_t(head)].middleRows(past, v.rows()) = v;
}

bool kvCacheUsable(const ModelInfo& info, const ModelSwitches& switches)
{
    const auto readsOnlyThePast = [](const Config& formula) {
        return futureScoresUnread(formula) && formula.headSplit == HeadSplit::Transpose;
    };
    if (!info.causal || (!switches.knockedOut.empty() && switches.knockOut == KnockOutMode::Mean))
        return false;
    return readsOnlyThePast(switches.formula) &&
           (switches.onlyLayer < 0 || readsOnlyThePast(ModelSwitches::textbookFormula(true)));
}

void cachedAttention(
    const std::function<Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>(int)>& queries, int heads,
    const KvCache::Layer& layer, int T, const LogitRule& rule, const MaskMatrix& maskRows,
    float* weights, Matrix& merged)
{
    const int kvHeads = int(layer.keys.size()), group = heads / kvHeads;
    const Eigen::Index n = maskRows.rows(), dK = layer.keys.front().cols();
    merged.resize(n, heads * dK);
    const ScoreBlocks blocks = scoreBlocks(n, T);
    parallelFor(heads, [&](int h) {
        const auto q = queries(h);
        const Matrix& keys = layer.keys[std::size_t(h / group)];
        const Matrix& values = layer.values[std::size_t(h / group)];
        const ConstRowsRef k = keys.topRows(T), v = values.topRows(T);
        std::vector<float> scratch(static_cast<std::size_t>(T));
        Matrix s(blocks.largest(), T);
        float* out = weights + std::size_t(h) * std::size_t(n) * std::size_t(T);
        for (int block = 0; block < blocks.count; ++block) {
            const Eigen::Index first = blocks.begin(block), rows = blocks.size(block);
            auto p = s.topRows(rows);
            multiplyScores(q, k, p, blocks, block, false);
            softmaxBlockOverKeys(p, maskRows, rule, false, first, scratch.data(), p);
            multiplyValues(p, v, first, false, merged.block(first, h * dK, rows, dK));
            std::memcpy(out + first * T, p.data(), sizeof(float) * std::size_t(rows * T));
        }
    });
}

namespace {

using HeadRows = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;

// Columns [first, first + d) of every row of `m`.
HeadRows columnsOf(const Matrix& m, Eigen::Index first, Eigen::Index d)
{
    return HeadRows(m.data() + first, m.rows(), d, Eigen::OuterStride<>(m.cols()));
}

} // namespace

void cacheHeads(const Matrix& qkv, int heads, KvCache& cache, int layer)
{
    const Eigen::Index C = qkv.cols() / 3, dK = C / heads;
    for (int h = 0; h < heads; ++h)
        cache.append(layer, h, columnsOf(qkv, C + h * dK, dK), columnsOf(qkv, 2 * C + h * dK, dK));
}

void cachedMultiHeadAttention(const Matrix& qkv, int heads, KvCache& cache, int layer,
                              const LogitRule& rule, const MaskMatrix& maskRows, float* weights,
                              Matrix& merged)
{
    const Eigen::Index dK = qkv.cols() / 3 / heads;
    cacheHeads(qkv, heads, cache, layer);
    const int T = cache.past + int(qkv.rows());
    cachedAttention([&](int h) { return columnsOf(qkv, h * dK, dK); }, heads,
                    cache.layers[std::size_t(layer)], T, rule, maskRows, weights, merged);
}

void cachedGroupedAttention(const Matrix& q, const Matrix& k, const Matrix& v,
                            const GroupedQuery& grouped, int heads, KvCache& cache, int layer,
                            const LogitRule& rule, const MaskMatrix& maskRows, float* weights,
                            Matrix& merged)
{
    const int kvHeads = grouped.kvHeads, n = int(q.rows()), T = cache.past + n;
    const Eigen::Index dK = q.cols() / heads;
    // The rotation of the new rows' positions: rows [past, T) of the table.
    RotaryTable rope;
    if (grouped.rope)
        rope = {grouped.rope->cos.middleRows(cache.past, n),
                grouped.rope->sin.middleRows(cache.past, n)};
    std::vector<Matrix> qs(static_cast<std::size_t>(heads)), ks(static_cast<std::size_t>(kvHeads));
    parallelFor(heads + kvHeads, [&](int item) {
        const bool query = item < heads;
        const int h = query ? item : item - heads;
        Matrix& x = query ? qs[std::size_t(h)] : ks[std::size_t(h)];
        x = columnsOf(query ? q : k, h * dK, dK);
        if (const WeightView* norm = query ? grouped.qNorm : grouped.kNorm)
            rmsNormRows(x, *norm, grouped.epsilon);
        if (grouped.rope)
            applyRotary(x, rope);
    });
    for (int g = 0; g < kvHeads; ++g)
        cache.append(layer, g, ks[std::size_t(g)], columnsOf(v, g * dK, dK));
    cachedAttention(
        [&](int h) {
            const Matrix& x = qs[std::size_t(h)];
            return HeadRows(x.data(), x.rows(), x.cols(), Eigen::OuterStride<>(x.cols()));
        },
        heads, cache.layers[std::size_t(layer)], T, rule, maskRows, weights, merged);
}

} // namespace attn
