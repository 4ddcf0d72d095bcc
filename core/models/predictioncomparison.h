// Two runs' next-token predictions side by side, for Compare A/B: the textbook model (A)
// beside the switched one (B). Each side's top k at one position, every token ranked also
// in the other run's whole distribution, so that "' mat' falls from 1st to 7th" can be
// said even when it left the other's top k. No Qt.
#pragma once

#include "languagemodel.h"

#include <vector>

namespace attn {

// One candidate of one side, with where it stands on the other side.
struct RankedPrediction {
    Prediction prediction;      // this side's (rank = its index + 1 in the list)
    int otherRank = 0;          // 1 … V in the other run's distribution
    float otherProbability = 0; // its probability there
};

struct PredictionComparison {
    int position = 0;                // the position both predict after
    std::vector<RankedPrediction> a; // A's top k, most probable first
    std::vector<RankedPrediction> b; // B's top k
    // A's and B's most probable tokens differ.
    [[nodiscard]] bool topChanged() const
    {
        return !a.empty() && !b.empty() && a.front().prediction.id != b.front().prediction.id;
    }
};

// The top k of `a` and of `b` after `position` (−1: the last), each ranked in the other.
// The runs must be of the same token ids (std::invalid_argument otherwise); the position is
// clamped to 0 … T−1.
[[nodiscard]] PredictionComparison comparePredictions(const ModelRun& a, const ModelRun& b,
                                                      int position = -1, int k = 10);

} // namespace attn
