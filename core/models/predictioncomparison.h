// Two runs' next-token predictions side by side, for Compare A/B: the textbook model (A)
// beside the switched one (B). Each side's top k at one position, every token ranked also
// in the other run's whole distribution, so that "' mat' falls from 1st to 7th" can be
// said even when it left the other's top k. No Qt.
#pragma once

#include "models/languagemodel.h"

#include <vector>

namespace attn {

// One candidate of one side, with where it stands on the other side.
struct RankedPrediction {
    Prediction prediction;      // this side's (rank = its index + 1 in the list)
    int otherRank = 0;          // 1 … V in the other run's distribution
    float otherProbability = 0; // its probability there
};

struct PredictionComparison {
    // The position both predict after (a next-token model), or at (a masked language
    // model, BERT: its fill-ins for the [MASK] there); −1 when a masked language model's
    // text has no [MASK], and then both lists are empty.
    int position = 0;
    bool fillIn = false;             // a masked language model's fill-ins, not next tokens
    std::vector<RankedPrediction> a; // A's top k, most probable first
    std::vector<RankedPrediction> b; // B's top k
    // A's and B's most probable tokens differ.
    [[nodiscard]] bool topChanged() const
    {
        return !a.empty() && !b.empty() && a.front().prediction.id != b.front().prediction.id;
    }
};

// The top k of `a` and of `b` after `position` (−1: the last), each ranked in the other;
// for a masked language model at `position` (−1: the first [MASK], none without one).
// The runs must be of the same token ids (std::invalid_argument otherwise); the position is
// clamped to 0 … T−1.
[[nodiscard]] PredictionComparison comparePredictions(const ModelRun& a, const ModelRun& b,
                                                      int position = -1, int k = 10);

} // namespace attn
