#include "attention/headscores.h"

#include "engine/options.h"

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
