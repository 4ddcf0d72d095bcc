#include "models/modelattention.h"

#include "base/parallel.h"
#include "engine/keyblocks.h"
#include "engine/projection.h"
#include "engine/softmax.h"
#include "models/conv1dproduct.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

namespace attn {

namespace {

using HeadMap = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
// (which of Q, K, V, head h) → that head's (T, d_k) rows.
using HeadAccess = std::function<HeadMap(int, int)>;

HeadMap headOf(const Matrix& m)
{
    return HeadMap(m.data(), m.rows(), m.cols(), Eigen::OuterStride<>(m.cols()));
}

// dst[0, n) = src[0, n), written past the caches (non-temporal stores) where the CPU has
// them: P is written once and not read again by the forward, so bringing its lines into
// the cache first (a read of every line for ownership) only doubles its memory traffic.
void streamOut(float* dst, const float* src, Eigen::Index n)
{
#if defined(__SSE2__)
    Eigen::Index j = 0;
    for (; j < n && (reinterpret_cast<std::uintptr_t>(dst + j) & 15) != 0; ++j)
        dst[j] = src[j];
    for (; j + 4 <= n; j += 4)
        _mm_stream_ps(dst + j, _mm_loadu_ps(src + j));
    for (; j < n; ++j)
        dst[j] = src[j];
    _mm_sfence();
#else
    std::memcpy(dst, src, sizeof(float) * std::size_t(n));
#endif
}

// One head's attention over the keys (the softmax's dim=-1, the textbook axis) on the
// engine's path (engine/keyblocks.h), a block of rows at a time: S_block = Q_block K_hᵀ in a
// buffer of the block's size, turned into P_block in place (scale, mask, softmax, the mask
// after it), O_block = P_block V_h, and P_block streamed out to the run's P. A block is made,
// read, rewritten and multiplied while in the core's cache, and P reaches memory once: at
// T = 1024 a head's P is 4 MB, and whole-head S and P buffers and a copy out cost GPT-2 more
// than the products. Where the products run on AVX-512 (conv1dUsesAvx512) both are made by
// that kernel: Q_block·K_hᵀ with K_h's rows packed once as the bands of K_hᵀ, P_block·V_h
// with V_h read in place (GPT-2 small's forward: 7 % faster at T = 1024, 1 % at T = 128,
// against these products on sgemm).
void attendHeadOverKeys(const Config& formula, const LogitRule& rule, const MaskMatrix& mask,
                        const HeadMap& q, const HeadMap& k, const HeadMap& v, float* weights,
                        Eigen::Ref<Matrix> o)
{
    const Eigen::Index T = q.rows(), dK = q.cols();
    const ScoreBlocks blocks = scoreBlocks(T, T);
    // A causal mask before the softmax: the keys after a block's last row are not multiplied.
    const bool future = !futureScoresUnread(formula);
    const bool maskAfter = formula.maskStage == MaskStage::AfterSoftmax;
    const bool dropFuture = futureMayWeighZero(formula, T, T);
    std::vector<float> scratch(static_cast<std::size_t>(T));
    Matrix s(blocks.largest(), T);
    ScoreProduct scores;
    ValueProduct values;
    std::vector<float> keyBands; // K_hᵀ (d_k × T) in bands of 48 keys: K_hᵀ[d, key] = k(key, d)
    if (conv1dUsesAvx512()) {
        keyBands.resize(std::size_t(conv1dBandFloats(dK, T)));
        packConv1dBands(k.data(), dK, T, 1, k.outerStride(), keyBands.data());
        scores = [&](Eigen::Index first, Eigen::Index rows, Eigen::Index keys, float* out,
                     Eigen::Index stride) {
            conv1dTileAvx512(q.data() + first * q.outerStride(), q.outerStride(), keyBands.data(),
                             kConv1dBand, kConv1dBand * dK, nullptr, out, stride, rows, keys, dK,
                             false);
        };
        values = [&](const float* p, Eigen::Index pStride, Eigen::Index rows, Eigen::Index keys,
                     float* out, Eigen::Index stride) {
            conv1dTileAvx512(p, pStride, v.data(), v.outerStride(), nullptr, out, stride, rows, dK,
                             keys, false);
        };
    }
    for (int block = 0; block < blocks.count; ++block) {
        const Eigen::Index first = blocks.begin(block), rows = blocks.size(block);
        auto p = s.topRows(rows); // S_block, then P_block
        multiplyScores(q, k, p, blocks, block, future, scores);
        softmaxBlockOverKeys(p, mask, rule, maskAfter, first, scratch.data(), p);
        multiplyValues(p, v, first, dropFuture, o.middleRows(first, rows), values);
        streamOut(weights + first * T, p.data(), rows * T);
    }
}

// The attention of H heads of (T, d_k) each, read through `head`, with `rule`'s scale:
// S, P under the formula's switches, merged = concat_h(P_h V_h). Shared by every family.
void attendHeads(const Config& formula, const LogitRule& rule, const MaskMatrix& mask, int H, int T,
                 int dK, const HeadAccess& head, AttentionBuffers& b, float* weights,
                 Matrix& merged)
{
    merged.resize(T, H * dK);
    const bool maskAfter = formula.maskStage == MaskStage::AfterSoftmax;
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    if (formula.axis == SoftmaxAxis::Keys) {
        parallelFor(H, [&](int h) {
            attendHeadOverKeys(formula, rule, mask, head(0, h), head(1, h), head(2, h),
                               weights + std::size_t(h) * headSize, merged.middleCols(h * dK, dK));
        });
        return;
    }
    // 2. The wrong axes need a head's whole S before any of P: S = Q_h K_hᵀ, the scale, mask
    //    and softmax over the queries, or over the batch (a batch of one here), the mask
    //    after the softmax, O_h = P_h V_h into its d_k columns of `merged`, and P copied out.
    b.scores.reshape(1, H, T, T);
    b.weights.reshape(1, H, T, T);
    const std::vector<MaskMatrix> masks = formula.axis == SoftmaxAxis::Batch
                                              ? std::vector<MaskMatrix>{mask}
                                              : std::vector<MaskMatrix>{};
    parallelFor(H, [&](int h) {
        const HeadMap q = head(0, h), k = head(1, h), v = head(2, h);
        Matrix& s = b.scores.at(0, h);
        s.noalias() = q * k.transpose();
        Matrix& p = b.weights.at(0, h);
        if (formula.axis == SoftmaxAxis::Queries)
            scaleMaskSoftmaxOverQueries(s, mask, rule, p);
        else // with one sequence, softmax over dim=0 is over a batch of one: every
             // unmasked weight is exactly 1 (and a −∞ cell NaN), as torch gives.
            scaleMaskSoftmaxOverBatch(b.scores, masks, rule, h, b.weights);
        if (maskAfter)
            p = mask.select(0.0f, p);
        merged.middleCols(h * dK, dK).noalias() = p * v;
        std::memcpy(weights + std::size_t(h) * headSize, p.data(), sizeof(float) * headSize);
    });
}

} // namespace

void multiHeadAttention(const Matrix& qkv, const Config& formula, const MaskMatrix& mask,
                        AttentionBuffers& buffers, float* weights, Matrix& merged)
{
    // qkv: (T, 3C) → weights (H, T, T), merged (T, C)
    const int T = int(qkv.rows()), C = formula.dModel, H = formula.heads, dK = C / H;
    AttentionBuffers& b = buffers;

    // 1. Q_h, K_h, V_h: c_attn's 3C columns are Q, K, V in this order. Split by transpose
    //    (the textbook), head h of each is the d_k columns from h·d_k on: read in place,
    //    as blocks of qkv, with no copy. The view bug reorders the values, so there the
    //    engine's splitHeads makes (H, T, d_k) stacks from copies of q, k and v.
    HeadAccess head;
    if (formula.headSplit == HeadSplit::Transpose) {
        head = [&](int which, int h) {
            return HeadMap(qkv.data() + std::ptrdiff_t(which) * C + std::ptrdiff_t(h) * dK, T, dK,
                           Eigen::OuterStride<>(qkv.cols()));
        };
    } else {
        b.q.resize(1);
        b.k.resize(1);
        b.v.resize(1);
        b.q[0] = qkv.leftCols(C);
        b.k[0] = qkv.middleCols(C, C);
        b.v[0] = qkv.rightCols(C);
        splitHeads({{&b.q, &b.heads[0]}, {&b.k, &b.heads[1]}, {&b.v, &b.heads[2]}}, H,
                   formula.headSplit);
        head = [&](int which, int h) { return headOf(b.heads[which].at(0, h)); };
    }
    // 2. Each head at once (attendHeads).
    attendHeads(formula, logitRule(formula, 0), mask, H, T, dK, head, b, weights, merged);
}

void groupedQueryAttention(const Matrix& q, const Matrix& k, const Matrix& v, const Config& formula,
                           const LogitRule& rule, const MaskMatrix& mask,
                           const GroupedQuery& grouped, AttentionBuffers& buffers, float* weights,
                           Matrix& merged)
{
    const int H = formula.heads, Hkv = grouped.kvHeads, group = H / Hkv;
    AttentionBuffers& b = buffers;
    // 1. Q into H heads, K and V into H_kv, as the formula's head split says.
    b.q.resize(1);
    b.k.resize(1);
    b.v.resize(1);
    b.q[0] = q;
    b.k[0] = k;
    b.v[0] = v;
    splitHeads({{&b.q, &b.heads[0]}}, H, formula.headSplit);
    splitHeads({{&b.k, &b.grouped[0]}, {&b.v, &b.grouped[1]}}, Hkv, formula.headSplit);
    // 2. Qwen3's norms over d_k (the same d_k-chunks of q and k whichever split), then the
    //    rotation, each head's row t at position t.
    parallelFor(H + Hkv, [&](int item) {
        Matrix& x = item < H ? b.heads[0].at(0, item) : b.grouped[0].at(0, item - H);
        const WeightView* norm = item < H ? grouped.qNorm : grouped.kNorm;
        if (norm)
            rmsNormRows(x, *norm, grouped.epsilon);
        if (grouped.rope)
            applyRotary(x, *grouped.rope);
    });
    // 3. repeat_kv without the copies: query head h reads K/V head h / (H / H_kv) in place.
    const int T = int(q.rows()), dK = int(b.grouped[0].at(0, 0).cols());
    const HeadAccess head = [&](int which, int h) {
        return which == 0 ? headOf(b.heads[0].at(0, h))
                          : headOf(b.grouped[which - 1].at(0, h / group));
    };
    // 4. S, P and the merged output, as every family's.
    attendHeads(formula, rule, mask, H, T, dK, head, b, weights, merged);
}

} // namespace attn
