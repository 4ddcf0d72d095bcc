// What a model's heads do on a text that repeats itself, and where its attention flows
// overall. No Qt.
//
// Head scores, as TransformerLens's head detector scores them, on the positions of a
// sequence from `first` to `end` (a BOS token before, BERT's [SEP] after, left out):
//   previous-token   mean over i = first + 1 … end − 1 of A[i][i − 1]
// and where those positions are a copy of N tokens and the same N again, on the second copy
// (i = first + N … first + 2N − 1):
//   duplicate-token  mean A[i][i − N]       the same token's earlier occurrence
//   induction        mean A[i][i − N + 1]   the token that followed it ("copy what came next")
//
// Attention rollout (Abnar & Zuidema, 2020): A_ℓ the mean of layer ℓ's heads, Â_ℓ =
// rownorm(A_ℓ + I), R = Â_{L−1} ··· Â_0; row i of R says how much of each input token flows
// into position i at the top.
#pragma once

#include "attention/attentionstack.h"
#include "base/tensor.h"

#include <vector>

namespace attn {

struct HeadScores {
    int first = 0; // the positions scored: [first, end)
    int end = 0;
    int copy = 0; // N, the length of one copy; 0 when the positions do not repeat
    std::vector<std::vector<double>> previousToken;  // L × H
    std::vector<std::vector<double>> duplicateToken; // L × H; empty when copy is 0
    std::vector<std::vector<double>> induction;      // L × H; empty when copy is 0
};

// The scores of every head of sequence `sequence` of `stack` (self-attention), whose ids are
// `ids`, over the positions [first, end). Throws InputError when fewer than 2 positions
// are left, std::out_of_range for a range outside the ids or a stack of another length.
[[nodiscard]] HeadScores headScores(const AttentionStack& stack, int sequence,
                                    const std::vector<int>& ids, int first, int end);

// The role a head's scores name: the strongest of the three at or above a threshold.
enum class DetectorRole { None, PreviousToken, DuplicateToken, Induction };

// "previous_token", "duplicate_token", "induction" (the JSON's keys), "none".
[[nodiscard]] const char* detectorRoleSpelling(DetectorRole role);

// The role of head (layer, head) in `scores`: the one of highest score among those of at
// least `threshold` (a tie goes to induction, then duplicate-token), None when none reaches
// it; `*score` is that score (0 for None). Duplicate-token and induction only where the
// positions repeat (scores.copy > 0).
[[nodiscard]] DetectorRole detectorRole(const HeadScores& scores, int layer, int head,
                                        double threshold, double* score = nullptr);

// One head and its score, for a ranking.
struct RankedHead {
    int layer = 0;
    int head = 0;
    double score = 0;
};
// The `count` heads of highest score in an L × H grid, highest first (ties in layer, then
// head order); fewer when the grid has fewer heads.
[[nodiscard]] std::vector<RankedHead> topHeads(const std::vector<std::vector<double>>& grid,
                                               int count);

// The rollout R (T, T) of sequence `sequence` (self-attention), in double, stored as float.
[[nodiscard]] Matrix attentionRollout(const AttentionStack& stack, int sequence);

} // namespace attn
