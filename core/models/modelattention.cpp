#include "modelattention.h"

#include "parallel.h"
#include "projection.h"
#include "softmax.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

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

using HeadMap = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
// (which of Q, K, V, head h) → that head's (T, d_k) rows.
using HeadAccess = std::function<HeadMap(int, int)>;

HeadMap headOf(const Matrix& m)
{
    return HeadMap(m.data(), m.rows(), m.cols(), Eigen::OuterStride<>(m.cols()));
}

// The attention of H heads of (T, d_k) each, read through `head`, with `rule`'s scale:
// S, P under the formula's switches, merged = concat_h(P_h V_h). Shared by every family.
void attendHeads(const Config& formula, const LogitRule& rule, const MaskMatrix& mask, int H, int T,
                 int dK, const HeadAccess& head, AttentionBuffers& b, float* weights,
                 Matrix& merged)
{
    // 2. Each head at once, while its S and P are in cache: S = Q_h K_hᵀ, the scale, mask
    //    and softmax over the formula's axis (each axis needs only this head's S: over the
    //    batch it is a batch of one), the mask after the softmax, O_h = P_h V_h into its
    //    d_k columns of `merged`, and P copied out.
    b.scores.reshape(1, H, T, T);
    b.weights.reshape(1, H, T, T);
    merged.resize(T, H * dK);
    const bool overKeys = formula.axis == SoftmaxAxis::Keys;
    const bool maskAfter = formula.maskStage == MaskStage::AfterSoftmax;
    // A causal mask before the softmax over the keys: the softmax does not read the
    // scores of the keys after each block of rows, so their products are not made (at
    // long T nearly half of S's work). The cells left are never read.
    constexpr Eigen::Index kRows = 128;
    const bool causalBlocks = overKeys && formula.mask == MaskKind::Causal &&
                              formula.maskStage == MaskStage::BeforeSoftmax && T >= 2 * kRows;
    // A causal mask leaves each row's future keys a weight of exactly 0 (the fill's exp,
    // or the 0 written after the softmax); where one cell a row says so, a block of rows
    // needs only the keys up to its last row, as the engine's stage 8.
    const bool causalRows =
        formula.mask == MaskKind::Causal && T >= 2 * kRows && (overKeys || maskAfter);
    const std::vector<MaskMatrix> masks = formula.axis == SoftmaxAxis::Batch
                                              ? std::vector<MaskMatrix>{mask}
                                              : std::vector<MaskMatrix>{};
    parallelFor(H, [&](int h) {
        const HeadMap q = head(0, h), k = head(1, h), v = head(2, h);
        Matrix& s = b.scores.at(0, h);
        if (causalBlocks) {
            for (Eigen::Index row = 0; row < T; row += kRows) {
                const Eigen::Index rows = std::min<Eigen::Index>(kRows, T - row);
                s.block(row, 0, rows, row + rows).noalias() =
                    q.middleRows(row, rows) * k.topRows(row + rows).transpose();
            }
        } else {
            s.noalias() = q * k.transpose();
        }
        Matrix& p = b.weights.at(0, h);
        if (overKeys)
            scaleMaskSoftmaxOverKeys(s, mask, rule, p);
        else if (formula.axis == SoftmaxAxis::Queries)
            scaleMaskSoftmaxOverQueries(s, mask, rule, p);
        else // with one sequence, softmax over dim=0 is over a batch of one: every
             // unmasked weight is exactly 1 (and a −∞ cell NaN), as torch gives.
            scaleMaskSoftmaxOverBatch(b.scores, masks, rule, h, b.weights);
        // The mask after the softmax: masked_fill(M, 0).
        if (maskAfter)
            p = mask.select(0.0f, p);
        auto o = merged.middleCols(h * dK, dK);
        if (causalRows) {
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
            o.noalias() = p * v;
        }
        std::memcpy(weights + std::size_t(h) * std::size_t(T) * std::size_t(T), p.data(),
                    sizeof(float) * std::size_t(p.size()));
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
    attendHeads(formula, logitRule(formula), mask, H, T, dK, head, b, weights, merged);
}

namespace {

// HF's _compute_llama3_parameters on one frequency, in float as torch's float32 tensors.
float llama3Frequency(float inverse, const RopeScaling& s)
{
    const float factor = float(s.factor), low = float(s.lowFreqFactor),
                high = float(s.highFreqFactor), original = float(s.originalPositions);
    const float lowWavelength = original / low, highWavelength = original / high;
    const float wavelength = float(2 * 3.14159265358979323846) / inverse;
    if (wavelength < highWavelength)
        return inverse;
    if (wavelength > lowWavelength)
        return inverse / factor;
    const float smooth = (original / wavelength - low) / (high - low);
    return (1 - smooth) * inverse / factor + smooth * inverse;
}

} // namespace

RotaryTable rotaryTable(int T, int headDim, double theta, const RopeScaling& scaling)
{
    // inv_freq = 1 / θ^(arange(0, d, 2) / d), rounded as torch's: the exponent a float, the
    // power rounded to float, then 1.0f / it; freqs = t · inv_freq in float.
    const int half = headDim / 2;
    RotaryTable table;
    table.cos.resize(T, headDim);
    table.sin.resize(T, headDim);
    for (int i = 0; i < half; ++i) {
        const float exponent = float(2 * i) / float(headDim);
        float inverse = 1.0f / float(std::pow(theta, double(exponent)));
        if (scaling.type == RopeScaling::Type::Linear)
            inverse /= float(scaling.factor);
        else if (scaling.type == RopeScaling::Type::Llama3)
            inverse = llama3Frequency(inverse, scaling);
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
