#include "lab/explain.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace attn {
namespace {

// exp(shifted) as the engine's softmax takes it: below the smallest normal float's
// logarithm its vectorised exp would clamp, so it returns 0 there, as torch does.
double shiftedExp(float shifted)
{
    return shifted < -87.5f ? 0.0 : std::exp(static_cast<double>(shifted));
}

// The coordinates (b', i', j') the softmax normalises together with (b, i, j).
std::vector<SoftmaxTerm> softmaxSlice(const Result& result, int b, int h, int i, int j)
{
    const int B = result.batch(), Tq = result.length(), Tk = result.keyLength();
    std::vector<SoftmaxTerm> slice;
    auto add = [&](int b2, int i2, int j2) {
        SoftmaxTerm term;
        term.b = b2;
        term.i = i2;
        term.j = j2;
        term.logit = result.logit(b2, h, i2, j2);
        term.masked = (*result.mask)[static_cast<std::size_t>(b2)](i2, j2);
        slice.push_back(term);
    };
    switch (result.config().axis) {
    case SoftmaxAxis::Keys: // dim=-1: row i of L[b][h]
        for (int k = 0; k < Tk; ++k)
            add(b, i, k);
        break;
    case SoftmaxAxis::Queries: // dim=-2: column j of L[b][h]
        for (int k = 0; k < Tq; ++k)
            add(b, k, j);
        break;
    case SoftmaxAxis::Batch: // dim=0: L[·][h][i][j] over the sequences
        for (int k = 0; k < B; ++k)
            add(k, i, j);
        break;
    }
    return slice;
}

} // namespace

HeadRowSource headRowSource(const Config& config, int length, int h, int row)
{
    const int dK = config.dK();
    if (config.headSplit == HeadSplit::Transpose)
        return {row, h * dK};
    // t.view(B, H, T, d_k): run r = h·T + row starts at value r·d_k of the row-major (T, C).
    const int run = h * length + row;
    return {run / config.heads, (run % config.heads) * dK};
}

Matrix scaledScores(const Result& result, int b, int h)
{
    // (T, T): torch multiplies by float(scale), then divides by float(τ).
    const float scale = static_cast<float>(result.scale());
    const float tau = result.config().temperature;
    return ((result.scores->at(b, h) * scale) / tau).eval();
}

CellExplanation explainCell(const Result& result, int b, int h, int i, int j)
{
    const Config& config = result.config();
    CellExplanation e;
    e.b = b;
    e.h = h;
    e.i = i;
    e.j = j;

    // 1. S[i][j] = q_i · k_j: the d_k products of row i of Q_h and row j of K_h.
    const Matrix& q = result.split->q.at(b, h); // (T_q, d_k)
    const Matrix& k = result.split->k.at(b, h); // (T_k, d_k)
    e.terms.reserve(static_cast<std::size_t>(q.cols()));
    for (Eigen::Index c = 0; c < q.cols(); ++c) {
        const DotTerm term{q(i, c), k(j, c), double(q(i, c)) * double(k(j, c))};
        e.dotProduct += term.product;
        e.terms.push_back(term);
    }
    e.score = result.scores->at(b, h)(i, j);

    // 2. L[i][j] = S·scale/τ, then the fill where the mask hides the key before the softmax.
    e.scale = result.scale();
    e.temperature = config.temperature;
    e.scaledScore = (e.score * static_cast<float>(e.scale)) / e.temperature;
    const LogitRule rule = result.rule(h);
    e.shifted = rule.shifts();
    e.shiftedScore = rule.shift(e.scaledScore, i, j);
    e.masked = (*result.mask)[static_cast<std::size_t>(b)](i, j);
    e.maskStage = config.maskStage;
    e.logit = result.logit(b, h, i, j);

    // 3. P[i][j] = exp(L[i][j] − max) / Σ exp(L[·] − max) over the axis's slice. The max is
    // subtracted only for numerical stability; an all −inf slice gives NaN, as in torch.
    e.axis = config.axis;
    e.slice = softmaxSlice(result, b, h, i, j);
    e.max = -std::numeric_limits<float>::infinity();
    for (const SoftmaxTerm& term : e.slice)
        e.max = std::max(e.max, term.logit);
    // A sink: one more logit in the row's softmax, its weight dropped after it.
    if (rule.sink && config.axis == SoftmaxAxis::Keys) {
        e.sink = rule.sink;
        e.max = std::max(e.max, *rule.sink);
    }
    for (std::size_t n = 0; n < e.slice.size(); ++n) {
        SoftmaxTerm& term = e.slice[n];
        term.shiftedExp = shiftedExp(term.logit - e.max);
        e.denominator += term.shiftedExp;
        if (term.b == b && term.i == i && term.j == j)
            e.position = static_cast<int>(n);
    }
    if (e.sink) {
        e.sinkExp = shiftedExp(*e.sink - e.max);
        e.denominator += e.sinkExp;
    }
    e.numerator = e.slice[static_cast<std::size_t>(e.position)].shiftedExp;
    e.quotient = e.numerator / e.denominator;
    e.zeroedAfterSoftmax = e.masked && e.maskStage == MaskStage::AfterSoftmax;
    e.weight = result.weights->at(b, h)(i, j);
    return e;
}

} // namespace attn
