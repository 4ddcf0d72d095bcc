#include "modelattention.h"

#include "parallel.h"
#include "projection.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace attn {

MaskMatrix attentionMask(const Config& formula, int T)
{
    MaskMatrix mask;
    mask.setConstant(T, T, false);
    // torch.triu(ones(T, T), 1): key j > query i.
    if (formula.mask == MaskKind::Causal)
        for (int i = 0; i < T; ++i)
            mask.row(i).tail(T - i - 1).setConstant(true);
    return mask;
}

namespace {

// Steps 3–5 of an attention over heads already split, H of each of Q, K, V in b.heads:
// S = Q_h K_hᵀ, P under the formula's switches with `rule`'s scale, merged = concat_h(P_h V_h).
void attendHeads(const Config& formula, const LogitRule& rule, const MaskMatrix& mask,
                 AttentionBuffers& b, float* weights, Matrix& merged)
{
    const HeadStack &Q = b.heads[0], &K = b.heads[1], &V = b.heads[2];
    const int H = Q.heads();
    const int T = int(Q.at(0, 0).rows()), dK = int(Q.at(0, 0).cols()), C = H * dK;

    // 3. S = Q_h K_hᵀ and, for the softmax over the keys, stages 6–7 on each head at once
    //    while S is in cache. The other axes need every head's S (over the batch) or a
    //    whole head (over the queries) first.
    b.scores.reshape(1, H, T, T);
    b.weights.reshape(1, H, T, T);
    const bool overKeys = formula.axis == SoftmaxAxis::Keys;
    // A causal mask before the softmax over the keys: the softmax does not read the
    // scores of the keys after each block of rows, so their products are not made (at
    // long T nearly half of S's work). The cells left are never read.
    constexpr Eigen::Index kRows = 128;
    const bool causalBlocks = overKeys && formula.mask == MaskKind::Causal &&
                              formula.maskStage == MaskStage::BeforeSoftmax && T >= 2 * kRows;
    parallelFor(H, [&](int h) {
        Matrix& s = b.scores.at(0, h);
        if (causalBlocks) {
            for (Eigen::Index row = 0; row < T; row += kRows) {
                const Eigen::Index rows = std::min<Eigen::Index>(kRows, T - row);
                s.block(row, 0, rows, row + rows).noalias() =
                    Q.at(0, h).middleRows(row, rows) * K.at(0, h).topRows(row + rows).transpose();
            }
        } else {
            s.noalias() = Q.at(0, h) * K.at(0, h).transpose();
        }
        if (overKeys)
            scaleMaskSoftmaxOverKeys(s, mask, rule, b.weights.at(0, h));
        else if (formula.axis == SoftmaxAxis::Queries)
            scaleMaskSoftmaxOverQueries(s, mask, rule, b.weights.at(0, h));
    });
    // With one sequence, softmax over dim=0 is over a batch of one: every unmasked weight
    // is exactly 1 (and a −∞ cell NaN), as torch gives.
    if (formula.axis == SoftmaxAxis::Batch) {
        const std::vector<MaskMatrix> masks{mask};
        parallelFor(H,
                    [&](int h) { scaleMaskSoftmaxOverBatch(b.scores, masks, rule, h, b.weights); });
    }

    // 4. The mask after the softmax: masked_fill(M, 0). 5. O_h = P_h V_h, concatenated.
    const bool maskAfter = formula.maskStage == MaskStage::AfterSoftmax;
    b.outputs.reshape(1, H, T, dK);
    merged.resize(T, C);
    parallelFor(H, [&](int h) {
        Matrix& p = b.weights.at(0, h);
        if (maskAfter)
            p = mask.select(0.0f, p);
        Matrix& o = b.outputs.at(0, h);
        // A causal mask leaves each row's future keys a weight of exactly 0 (the fill's
        // exp, or the 0 written after the softmax); where one cell a row says so, a block of
        // rows needs only the keys up to its last row, as the engine's stage 8.
        const bool causalRows =
            formula.mask == MaskKind::Causal && T >= 2 * kRows && (overKeys || maskAfter);
        if (causalRows) {
            const Matrix& v = V.at(0, h);
            for (Eigen::Index row = 0; row < T; row += kRows) {
                const Eigen::Index rows = std::min<Eigen::Index>(kRows, T - row);
                const Eigen::Index keys = row + rows;
                bool futureIsZero = true;
                for (Eigen::Index i = row; i < keys && i + 1 < T; ++i)
                    futureIsZero = futureIsZero && p(i, i + 1) == 0.0f;
                const Eigen::Index used = futureIsZero ? keys : T;
                o.middleRows(row, rows).noalias() = p.block(row, 0, rows, used) * v.topRows(used);
            }
        } else {
            o.noalias() = p * V.at(0, h);
        }
        merged.middleCols(h * dK, dK) = o;
        std::memcpy(weights + std::size_t(h) * std::size_t(T) * std::size_t(T), p.data(),
                    sizeof(float) * std::size_t(p.size()));
    });
}

} // namespace

void multiHeadAttention(const Matrix& qkv, const Config& formula, const MaskMatrix& mask,
                        AttentionBuffers& buffers, float* weights, Matrix& merged)
{
    // qkv: (T, 3C) → weights (H, T, T), merged (T, C)
    const int C = formula.dModel, H = formula.heads;
    AttentionBuffers& b = buffers;

    // 1. q, k, v: c_attn's 3C columns are Q, K, V in this order.
    b.q.resize(1);
    b.k.resize(1);
    b.v.resize(1);
    b.q[0] = qkv.leftCols(C);
    b.k[0] = qkv.middleCols(C, C);
    b.v[0] = qkv.rightCols(C);

    // 2. (T, C) → (H, T, d_k), as the formula's head split says. 3–5. The attention.
    splitHeads({{&b.q, &b.heads[0]}, {&b.k, &b.heads[1]}, {&b.v, &b.heads[2]}}, H,
               formula.headSplit);
    attendHeads(formula, logitRule(formula), mask, b, weights, merged);
}

RotaryTable rotaryTable(int T, int headDim, double theta)
{
    // inv_freq = 1 / θ^(arange(0, d, 2) / d), rounded as torch's: the exponent a float, the
    // power rounded to float, then 1.0f / it; freqs = t · inv_freq in float.
    const int half = headDim / 2;
    RotaryTable table;
    table.cos.resize(T, headDim);
    table.sin.resize(T, headDim);
    for (int i = 0; i < half; ++i) {
        const float exponent = float(2 * i) / float(headDim);
        const float inverse = 1.0f / float(std::pow(theta, double(exponent)));
        for (int t = 0; t < T; ++t) {
            const float angle = float(t) * inverse;
            table.cos(t, i) = table.cos(t, i + half) = std::cos(angle);
            table.sin(t, i) = table.sin(t, i + half) = std::sin(angle);
        }
    }
    return table;
}

void applyRotary(Matrix& x, const RotaryTable& table)
{
    // x: (T, d_k); halves x₁ = x[:, :d/2], x₂ = x[:, d/2:]
    const Eigen::Index half = x.cols() / 2;
    for (Eigen::Index t = 0; t < x.rows(); ++t)
        for (Eigen::Index i = 0; i < half; ++i) {
            const float x1 = x(t, i), x2 = x(t, i + half);
            x(t, i) = x1 * table.cos(t, i) + -x2 * table.sin(t, i);
            x(t, i + half) = x2 * table.cos(t, i + half) + x1 * table.sin(t, i + half);
        }
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
    // 3. repeat_kv: query head h reads K/V head h / (H / H_kv).
    const Eigen::Index T = q.rows(), dK = b.grouped[0].at(0, 0).cols();
    b.heads[1].reshape(1, H, T, dK);
    b.heads[2].reshape(1, H, T, dK);
    for (int h = 0; h < H; ++h) {
        b.heads[1].at(0, h) = b.grouped[0].at(0, h / group);
        b.heads[2].at(0, h) = b.grouped[1].at(0, h / group);
    }
    // 4. S, P and the merged output, as every family's.
    attendHeads(formula, rule, mask, b, weights, merged);
}

} // namespace attn
