#include "attention/wordattention.h"

#include <stdexcept>
#include <string>

namespace attn {
namespace {

// The word of each of `count` indices; throws unless `words` cover each once.
std::vector<Eigen::Index> wordOfEach(const std::vector<WordGroup>& words, Eigen::Index count)
{
    std::vector<Eigen::Index> wordOf(static_cast<std::size_t>(count), -1);
    for (std::size_t w = 0; w < words.size(); ++w) {
        if (words[w].tokens.empty())
            throw std::invalid_argument("word " + std::to_string(w) + " has no tokens");
        for (const int t : words[w].tokens) {
            if (t < 0 || t >= count)
                throw std::invalid_argument("word " + std::to_string(w) + " names token " +
                                            std::to_string(t) + " of " + std::to_string(count));
            if (wordOf[static_cast<std::size_t>(t)] >= 0)
                throw std::invalid_argument("token " + std::to_string(t) + " is in two words");
            wordOf[static_cast<std::size_t>(t)] = static_cast<Eigen::Index>(w);
        }
    }
    for (std::size_t t = 0; t < wordOf.size(); ++t)
        if (wordOf[t] < 0)
            throw std::invalid_argument("token " + std::to_string(t) + " is in no word");
    return wordOf;
}

} // namespace

Matrix wordAttention(const Matrix& weights, const std::vector<WordGroup>& queries,
                     const std::vector<WordGroup>& keys)
{
    const std::vector<Eigen::Index> rowWord = wordOfEach(queries, weights.rows());
    const std::vector<Eigen::Index> colWord = wordOfEach(keys, weights.cols());
    // Sum over each word's columns (attention to a word), then average each word's rows
    // (attention from a word), in double so that long rows keep their sum.
    Eigen::MatrixXd summed = Eigen::MatrixXd::Zero(weights.rows(), Eigen::Index(keys.size()));
    for (Eigen::Index i = 0; i < weights.rows(); ++i)
        for (Eigen::Index j = 0; j < weights.cols(); ++j)
            summed(i, colWord[static_cast<std::size_t>(j)]) += double(weights(i, j));
    Matrix out(Eigen::Index(queries.size()), Eigen::Index(keys.size()));
    for (std::size_t a = 0; a < queries.size(); ++a) {
        Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(Eigen::Index(keys.size()));
        for (const int t : queries[a].tokens)
            row += summed.row(t);
        out.row(Eigen::Index(a)) = (row / double(queries[a].tokens.size())).cast<float>();
    }
    return out;
}

Matrix wordAttention(const Matrix& weights, const std::vector<WordGroup>& words)
{
    return wordAttention(weights, words, words);
}

std::shared_ptr<const MemoryAttentionStack> wordAttentionStack(const AttentionStack& stack,
                                                               const std::vector<WordGroup>& words)
{
    const StackShape& shape = stack.shape();
    StackShape grouped = shape;
    grouped.queries = grouped.keys = static_cast<int>(words.size());
    const std::size_t cells = std::size_t(grouped.queries) * std::size_t(grouped.keys);
    FloatBuffer weights(std::size_t(grouped.headCount()) * cells);
    std::size_t at = 0;
    for (int l = 0; l < shape.layers; ++l)
        for (int b = 0; b < shape.sequences; ++b)
            for (int h = 0; h < shape.heads; ++h) {
                const Matrix word = wordAttention(stack.head(l, b, h), words);
                // (W, W) row-major, as the stack stores it
                for (Eigen::Index i = 0; i < word.rows(); ++i)
                    for (Eigen::Index j = 0; j < word.cols(); ++j)
                        weights[at++] = word(i, j);
            }
    std::vector<std::string> labels;
    labels.reserve(words.size());
    for (const WordGroup& word : words)
        labels.push_back(word.label);
    std::vector<std::vector<std::string>> tokens(1, std::move(labels));
    auto byWord = std::make_shared<MemoryAttentionStack>(
        grouped, std::move(weights), std::move(tokens), std::vector<std::vector<std::string>>{},
        stack.source());
    byWord->markWordGrouped(); // the windows say "by word" in their language
    return byWord;
}

} // namespace attn
