#include "attention/headpatterns.h"

#include "base/parallel.h"
#include "engine/engine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

namespace attn {

HeadPatterns headPatterns(const Matrix& weights, bool cross)
{
    // weights: (T_q, T_k).
    const Eigen::Index Tq = weights.rows();
    const Eigen::Index Tk = weights.cols();
    double previous = 0, self = 0, first = 0, entropy = 0, entropyMax = 0;
    int queries = 0;
    for (Eigen::Index i = cross ? 0 : 1; i < Tq; ++i) {
        const float* p = weights.row(i).data();
        // 1. One pass over the row: finite, −Σ p log2 p in double, and the keys weighed.
        double h = 0;
        int weighed = 0;
        bool finite = true;
        for (Eigen::Index j = 0; j < Tk; ++j) {
            const double w = p[j];
            if (!std::isfinite(w)) {
                finite = false;
                break;
            }
            if (w > 0) {
                h -= w * std::log2(w);
                ++weighed;
            }
        }
        if (!finite)
            continue;
        // 2. The three positions (i − 1 and i exist as keys when T_k ≥ T_q; a cross head
        // has none of them).
        if (!cross) {
            previous += i - 1 < Tk ? p[i - 1] : 0.0;
            self += i < Tk ? p[i] : 0.0;
        }
        first += p[0];
        entropy += h;
        entropyMax += weighed > 0 ? std::log2(double(weighed)) : 0.0;
        ++queries;
    }
    HeadPatterns out;
    out.queries = queries;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double n = queries;
    out.previous = cross || queries == 0 ? nan : previous / n;
    out.self = cross || queries == 0 ? nan : self / n;
    out.first = queries == 0 ? nan : first / n;
    out.entropy = queries == 0 ? nan : entropy / n;
    out.entropyMax = queries == 0 ? nan : entropyMax / n;
    return out;
}

HeadRole headRole(const HeadPatterns& p)
{
    // 1. A position that takes more than half the weight (NaN measures never do).
    const std::pair<double, HeadRole> positions[] = {{p.previous, HeadRole::PreviousToken},
                                                     {p.self, HeadRole::Self},
                                                     {p.first, HeadRole::FirstToken}};
    const std::pair<double, HeadRole>* strongest = nullptr;
    for (const auto& candidate : positions)
        if (candidate.first > kRoleThreshold && (!strongest || candidate.first > strongest->first))
            strongest = &candidate;
    if (strongest)
        return strongest->second;
    // 2. Weight spread nearly evenly over the keys weighed.
    if (p.entropyMax > 0 && p.entropy >= kBroadThreshold * p.entropyMax)
        return HeadRole::Broad;
    return HeadRole::NoClearPattern;
}

const char* headRoleSpelling(HeadRole role)
{
    switch (role) {
    case HeadRole::PreviousToken:
        return "previous_token";
    case HeadRole::Self:
        return "self";
    case HeadRole::FirstToken:
        return "first_token";
    case HeadRole::Broad:
        return "broad";
    case HeadRole::NoClearPattern:
        break;
    }
    return "none";
}

std::vector<HeadPatterns> stackPatterns(const AttentionStack& stack, int sequence,
                                        const std::atomic<bool>* cancel)
{
    const StackShape& s = stack.shape();
    std::vector<HeadPatterns> all(std::size_t(s.layers) * std::size_t(s.heads));
    const bool cross = stack.isCross();
    parallelFor(int(all.size()), [&](int k) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw Cancelled();
        all[std::size_t(k)] = headPatterns(stack.head(k / s.heads, sequence, k % s.heads), cross);
    });
    return all;
}

std::vector<int> headsLike(const std::vector<HeadPatterns>& patterns, int index, int keys)
{
    const double entropyScale = keys > 1 ? 1.0 / std::log2(double(keys)) : 1.0;
    const HeadPatterns& a = patterns.at(std::size_t(index));
    const auto distance = [&](const HeadPatterns& b) {
        const double pairs[4][2] = {{a.previous, b.previous},
                                    {a.self, b.self},
                                    {a.first, b.first},
                                    {a.entropy * entropyScale, b.entropy * entropyScale}};
        double sum = 0;
        for (const auto& [x, y] : pairs)
            if (!std::isnan(x) && !std::isnan(y))
                sum += (x - y) * (x - y);
        return std::sqrt(sum);
    };
    std::vector<double> d(patterns.size());
    for (std::size_t k = 0; k < patterns.size(); ++k)
        d[k] = distance(patterns[k]);
    std::vector<int> order(patterns.size());
    std::iota(order.begin(), order.end(), 0);
    // Ties by index, and the head itself first even when another is just as near.
    std::ranges::stable_sort(order, [&](int x, int y) {
        if ((x == index) != (y == index))
            return x == index;
        return d[std::size_t(x)] < d[std::size_t(y)];
    });
    return order;
}

} // namespace attn
