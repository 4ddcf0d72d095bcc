#include "modelrun.h"

#include "options.h"

#include <memory>
#include <utility>

namespace attn {

void checkTokenCount(std::size_t tokens, int maxPositions)
{
    if (tokens == 0)
        throw InputError("the text is empty", Refusal::EmptyText);
    if (tokens > std::size_t(maxPositions))
        throw InputError("the text has " + std::to_string(tokens) +
                             " tokens, the model reads at most " + std::to_string(maxPositions),
                         Refusal::TextTooLong);
}

std::vector<TokenLabel> labelIds(const ModelTokenizer* tokenizer, const std::vector<int>& ids)
{
    if (tokenizer)
        return tokenizer->labels(ids);
    std::vector<TokenLabel> labels;
    labels.reserve(ids.size());
    for (const int id : ids) {
        TokenLabel label;
        label.label = label.piece = label.runText = std::to_string(id);
        labels.push_back(std::move(label));
    }
    return labels;
}

ModelRun packRun(const LanguageModel& model, std::vector<int> ids, std::vector<TokenLabel> labels,
                 std::vector<float> weights, Matrix hidden, const ModelSwitches& switches)
{
    const ModelInfo& info = model.info();
    const int T = int(ids.size());
    std::vector<std::string> tokens;
    tokens.reserve(labels.size());
    for (const TokenLabel& label : labels)
        tokens.push_back(label.label);
    ModelRun run;
    run.ids = std::move(ids);
    run.labels = std::move(labels);
    run.attention = std::make_shared<const MemoryAttentionStack>(
        StackShape{info.layers, 1, info.heads, T, T}, std::move(weights),
        std::vector<std::vector<std::string>>{std::move(tokens)},
        std::vector<std::vector<std::string>>{}, info.name);
    run.hidden = std::move(hidden);
    run.switches = switches;
    run.model = model.shared_from_this();
    return run;
}

std::vector<float> embeddingLogits(const WeightView& embedding, const float* hiddenRow)
{
    const Eigen::Index V = embedding.rows, C = embedding.cols;
    const Eigen::Map<const Vector> h(hiddenRow, C);
    std::vector<float> logits(static_cast<std::size_t>(V));
    Eigen::Map<Vector>(logits.data(), V).noalias() = embedding.matrix() * h;
    return logits;
}

std::string tokenSpellingOf(const ModelTokenizer* tokenizer, int id)
{
    return tokenizer ? tokenizer->token(id) : std::to_string(id);
}

std::string tokenLabelOf(const ModelTokenizer* tokenizer, int id)
{
    return tokenizer ? tokenizer->label(id).label : std::to_string(id);
}

} // namespace attn
