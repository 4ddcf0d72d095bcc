#include "models/predictioncomparison.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn {
namespace {

// Where token `id` stands in the distribution of logits `z` (V values): its rank (1: the
// most probable; ties by lower id, as ModelRun::predictions orders them) and probability.
std::pair<int, float> rankIn(const std::vector<float>& z, int id)
{
    const float mine = z[std::size_t(id)];
    int above = 0;
    const float top = *std::max_element(z.begin(), z.end());
    double sum = 0; // softmax's denominator, the maximum subtracted for stability
    for (std::size_t j = 0; j < z.size(); ++j) {
        sum += std::exp(double(z[j]) - double(top));
        if (z[j] > mine || (z[j] == mine && int(j) < id))
            ++above;
    }
    return {above + 1, float(std::exp(double(mine) - double(top)) / sum)};
}

std::vector<RankedPrediction> ranked(const std::vector<Prediction>& mine,
                                     const std::vector<float>& otherLogits)
{
    std::vector<RankedPrediction> out;
    out.reserve(mine.size());
    for (const Prediction& p : mine) {
        const auto [rank, probability] = rankIn(otherLogits, p.id);
        out.push_back({p, rank, probability});
    }
    return out;
}

} // namespace

PredictionComparison comparePredictions(const ModelRun& a, const ModelRun& b, int position, int k)
{
    if (a.ids != b.ids)
        throw std::invalid_argument("the two runs are of different texts");
    PredictionComparison c;
    const int last = int(a.ids.size()) - 1;
    if (last < 0)
        return c;
    c.fillIn = a.model && !a.model->info().causal;
    if (position < 0 && c.fillIn) {
        // BERT predicts the token at a position: at [SEP], the last, its fill-ins say
        // nothing; the [MASK] the learner typed is what both sides should answer.
        const std::vector<int> masks = a.maskedPositions();
        if (masks.empty()) {
            c.position = -1;
            return c;
        }
        position = masks.front();
    }
    c.position = position < 0 ? last : std::min(position, last);
    c.a = ranked(a.predictions(c.position, k), b.logits(c.position));
    c.b = ranked(b.predictions(c.position, k), a.logits(c.position));
    return c;
}

} // namespace attn
