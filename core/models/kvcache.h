// The keys and values a decoder's layers have made, kept so that generating a next token
// costs one row a layer instead of a forward over the whole text (a KV cache).
//
// A token's K and V rows in every layer depend only on the tokens up to it wherever each row's
// attention reads only its past: the causal mask before a softmax over the keys, the heads
// split by transpose (the view bug mixes every position into every head), and no knocked-out
// head replaced by its mean over the positions (the mean moves as the text grows). Under any
// other switch the generator runs the whole text again for every token (kvCacheUsable tells).
//
// A forward given a cache (ForwardHooks::cache) holding `past` positions of the ids runs only
// the positions [past, T): their embedding, in every layer their rows of Q, K and V (K and V
// appended to the cache), their attention over all T keys, their MLP and final norm. Its
// Forward then holds the new rows only: weights (L, 1, H, T − past, T), hidden (T − past, C).
// With past = 0 it is the ordinary forward and fills the cache. No Qt.
#pragma once

#include "base/tensor.h"
#include "engine/softmax.h"
#include "models/languagemodel.h"
#include "models/modelattention.h"

#include <functional>
#include <vector>

namespace attn {

struct KvCache {
    // Every layer's K and V of every K/V head (as the attention reads them: after Qwen3's
    // k_norm and the rotation), rows [0, past) written, room for `capacity` rows.
    struct Layer {
        std::vector<Matrix> keys, values; // [K/V head] (capacity, d_k)
    };
    std::vector<Layer> layers;
    int past = 0;     // positions held
    int capacity = 0; // the most positions it can hold

    // An empty cache with room for `capacity` positions of `info`'s model.
    KvCache(const ModelInfo& info, int capacity);
    KvCache() = default;
    // Writes head `head`'s rows of layer `layer` for the positions [past, past + rows) from
    // k and v ((rows, d_k) each, any outer stride).
    void append(int layer, int head, const Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>& k,
                const Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>& v);
};

// Whether a KV cache gives `switches`' numbers in `info`'s model (see above): a decoder, and
// every formula the layers run (the switches' and the textbook one) causal with the mask
// before a softmax over the keys and the heads split by transpose, and no head knocked out
// by its mean.
[[nodiscard]] bool kvCacheUsable(const ModelInfo& info, const ModelSwitches& switches);

// One layer's attention of the new rows: for each query head h, Q_h (n, d_k) the rows of
// the positions [T − n, T), over the T keys and values of K/V head h / (H / H_kv) held in
// `layer` (rows [0, T)): P_h = softmax(rule(Q_h K_hᵀ), masked by `maskRows` (n, T)) over the
// keys, written to weights + h·n·T; merged (n, H·d_k) = concat_h(P_h V_h). `queries`
// returns head h's rows.
void cachedAttention(
    const std::function<Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>(int)>& queries, int heads,
    const KvCache::Layer& layer, int T, const LogitRule& rule, const MaskMatrix& maskRows,
    float* weights, Matrix& merged);

// GPT-2's layer with a cache: qkv (n, 3C) the new rows' Q, K, V (heads by transpose); K and V
// appended to layer `layer` of the cache, then cachedAttention over its T = past + n rows.
// With past = 0 only the append (the caller runs the ordinary attention over every row).
void cacheHeads(const Matrix& qkv, int heads, KvCache& cache, int layer);
void cachedMultiHeadAttention(const Matrix& qkv, int heads, KvCache& cache, int layer,
                              const LogitRule& rule, const MaskMatrix& maskRows, float* weights,
                              Matrix& merged);

// Qwen/Llama's layer with a cache: q (n, H·d_k), k, v (n, H_kv·d_k) the new rows, split by
// transpose, normed and rotated (grouped.rope: a table of every position, T rows) at the
// positions [past, past + n), K and V appended, then cachedAttention.
void cachedGroupedAttention(const Matrix& q, const Matrix& k, const Matrix& v,
                            const GroupedQuery& grouped, int heads, KvCache& cache, int layer,
                            const LogitRule& rule, const MaskMatrix& maskRows, float* weights,
                            Matrix& merged);

} // namespace attn
