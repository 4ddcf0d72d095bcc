#include "modelattention.h"

#include "parallel.h"
#include "projection.h"
#include "softmax.h"

#include <algorithm>
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

void multiHeadAttention(const Matrix& qkv, const Config& formula, const MaskMatrix& mask,
                        AttentionBuffers& buffers, float* weights, Matrix& merged)
{
    // qkv: (T, 3C) → weights (H, T, T), merged (T, C)
    const int T = int(qkv.rows()), C = formula.dModel, H = formula.heads, dK = C / H;
    AttentionBuffers& b = buffers;

    // 1. q, k, v: c_attn's 3C columns are Q, K, V in this order.
    b.q.resize(1);
    b.k.resize(1);
    b.v.resize(1);
    b.q[0] = qkv.leftCols(C);
    b.k[0] = qkv.middleCols(C, C);
    b.v[0] = qkv.rightCols(C);

    // 2. (T, C) → (H, T, d_k), as the formula's head split says.
    splitHeads({{&b.q, &b.heads[0]}, {&b.k, &b.heads[1]}, {&b.v, &b.heads[2]}}, H,
               formula.headSplit);
    const HeadStack &Q = b.heads[0], &K = b.heads[1], &V = b.heads[2];

    // 3. S = Q_h K_hᵀ and, for the softmax over the keys, stages 6–7 on each head at once
    //    while S is in cache. The other axes need every head's S (over the batch) or a
    //    whole head (over the queries) first.
    b.scores.reshape(1, H, T, T);
    b.weights.reshape(1, H, T, T);
    const LogitRule rule = logitRule(formula);
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

} // namespace attn
