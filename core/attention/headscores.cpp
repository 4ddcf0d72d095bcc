#include "attention/headscores.h"

#include "engine/options.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attn {

HeadScores headScores(const AttentionStack& stack, int sequence, const std::vector<int>& ids,
                      int first, int end)
{
    const StackShape& shape = stack.shape();
    if (shape.queries != int(ids.size()) || shape.keys != shape.queries)
        throw std::out_of_range("head scores: the attention is not the ids' self-attention");
    if (first < 0 || end > int(ids.size()) || first > end)
        throw std::out_of_range("head scores: positions outside the ids");
    if (end - first < 2)
        throw InputError("head scores need at least 2 tokens (besides the template's), not " +
                         std::to_string(end - first));
    HeadScores scores;
    scores.first = first;
    scores.end = end;
    const int count = end - first;
    if (count % 2 == 0 && std::equal(ids.begin() + first, ids.begin() + first + count / 2,
                                     ids.begin() + first + count / 2))
        scores.copy = count / 2;
    const int N = scores.copy;
    const auto grid = [&] {
        return std::vector<std::vector<double>>(std::size_t(shape.layers),
                                                std::vector<double>(std::size_t(shape.heads)));
    };
    scores.previousToken = grid();
    if (N > 0) {
        scores.duplicateToken = grid();
        scores.induction = grid();
    }
    for (int l = 0; l < shape.layers; ++l)
        for (int h = 0; h < shape.heads; ++h) {
            const Matrix a = stack.head(l, sequence, h);
            double previous = 0;
            for (int i = first + 1; i < end; ++i)
                previous += a(i, i - 1);
            scores.previousToken[std::size_t(l)][std::size_t(h)] = previous / (count - 1);
            if (N == 0)
                continue;
            double duplicate = 0, induction = 0;
            for (int i = first + N; i < end; ++i) {
                duplicate += a(i, i - N);
                induction += a(i, i - N + 1);
            }
            scores.duplicateToken[std::size_t(l)][std::size_t(h)] = duplicate / N;
            scores.induction[std::size_t(l)][std::size_t(h)] = induction / N;
        }
    return scores;
}

const char* detectorRoleSpelling(DetectorRole role)
{
    switch (role) {
    case DetectorRole::PreviousToken:
        return "previous_token";
    case DetectorRole::DuplicateToken:
        return "duplicate_token";
    case DetectorRole::Induction:
        return "induction";
    case DetectorRole::None:
        break;
    }
    return "none";
}

DetectorRole detectorRole(const HeadScores& scores, int layer, int head, double threshold,
                          double* score)
{
    DetectorRole role = DetectorRole::None;
    double best = 0;
    const auto consider = [&](const std::vector<std::vector<double>>& grid,
                              DetectorRole candidate) {
        if (grid.empty())
            return;
        const double value = grid.at(std::size_t(layer)).at(std::size_t(head));
        // >= : the later candidate wins a tie (induction over duplicate over previous)
        if (value >= threshold && (role == DetectorRole::None || value >= best)) {
            role = candidate;
            best = value;
        }
    };
    consider(scores.previousToken, DetectorRole::PreviousToken);
    consider(scores.duplicateToken, DetectorRole::DuplicateToken);
    consider(scores.induction, DetectorRole::Induction);
    if (score)
        *score = role == DetectorRole::None ? 0 : best;
    return role;
}

std::vector<RankedHead> topHeads(const std::vector<std::vector<double>>& grid, int count)
{
    std::vector<RankedHead> heads;
    for (std::size_t l = 0; l < grid.size(); ++l)
        for (std::size_t h = 0; h < grid[l].size(); ++h)
            heads.push_back({int(l), int(h), grid[l][h]});
    // stable: equal scores keep layer-then-head order; NaN sorts last
    std::stable_sort(heads.begin(), heads.end(), [](const RankedHead& a, const RankedHead& b) {
        return a.score > b.score || (!std::isnan(a.score) && std::isnan(b.score));
    });
    heads.resize(std::min(heads.size(), std::size_t(std::max(0, count))));
    return heads;
}

Matrix attentionRollout(const AttentionStack& stack, int sequence)
{
    const StackShape& shape = stack.shape();
    if (shape.keys != shape.queries)
        throw std::out_of_range("attention rollout needs self-attention");
    const int T = shape.queries;
    Eigen::MatrixXd rollout = Eigen::MatrixXd::Identity(T, T);
    for (int l = 0; l < shape.layers; ++l) {
        // Â_ℓ = rownorm(mean_h A_ℓ,h + I)
        Eigen::MatrixXd mean = Eigen::MatrixXd::Zero(T, T);
        for (int h = 0; h < shape.heads; ++h)
            mean += stack.head(l, sequence, h).cast<double>();
        mean /= shape.heads;
        mean += Eigen::MatrixXd::Identity(T, T);
        const Eigen::VectorXd sums = mean.rowwise().sum();
        for (int i = 0; i < T; ++i)
            mean.row(i) /= sums(i);
        rollout = mean * rollout; // R = Â_ℓ ··· Â_0
    }
    return rollout.cast<float>();
}

} // namespace attn
