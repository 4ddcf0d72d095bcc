#include "models/modelrun.h"

#include "base/parallel.h"
#include "base/platform.h"
#include "engine/options.h"
#include "engine/projection.h"
#include "models/modelattention.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace attn {
namespace {

// Has the system map (and zero) the pages of `bytes` at `data` now, a share on each core.
// Where it cannot, or below a few MB, the pages are left to fault in.
void mapPagesOnEveryCore(void* data, std::size_t bytes)
{
    constexpr std::uintptr_t kPage = 4096;
    if (!platform::canPrefaultForWriting() || bytes < (std::size_t(8) << 20))
        return;
    const std::uintptr_t begin =
        (reinterpret_cast<std::uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kPage - 1);
    const int parts = coreCount();
    const std::uintptr_t pages = (end - begin) / kPage;
    parallelFor(parts, [&](int part) {
        const std::uintptr_t from =
            begin + pages * std::uintptr_t(part) / std::uintptr_t(parts) * kPage;
        const std::uintptr_t to =
            begin + pages * std::uintptr_t(part + 1) / std::uintptr_t(parts) * kPage;
        if (to > from)
            platform::prefaultForWriting(reinterpret_cast<void*>(from), to - from);
    });
}

} // namespace

FloatBuffer attentionBuffer(int layers, int heads, int tokens)
{
    FloatBuffer weights;
    const std::size_t count =
        std::size_t(layers) * std::size_t(heads) * std::size_t(tokens) * std::size_t(tokens);
    weights.reserve(count);
    mapPagesOnEveryCore(weights.data(), count * sizeof(float));
    weights.resize(count);
    return weights;
}

void checkTokenCount(std::size_t tokens, int maxPositions)
{
    if (tokens == 0)
        throw InputError("the text is empty", Refusal::EmptyText);
    if (tokens > std::size_t(maxPositions))
        throw InputError("the text has " + std::to_string(tokens) +
                             " tokens, the model reads at most " + std::to_string(maxPositions),
                         Refusal::TextTooLong);
}

HeadTrace beginTrace(const LanguageModel& model, const std::string& text,
                     const ModelSwitches& switches, int layer, int head, int dModel)
{
    const ModelInfo& info = model.info();
    if (layer < 0 || layer >= info.layers)
        throw std::out_of_range("layer " + std::to_string(layer) + " outside 0 … " +
                                std::to_string(info.layers - 1));
    if (head < 0 || head >= info.heads)
        throw std::out_of_range("head " + std::to_string(head) + " outside 0 … " +
                                std::to_string(info.heads - 1));
    HeadTrace trace;
    model.tokenize(text, trace.ids, trace.labels);
    checkTokenCount(trace.ids.size(), info.maxPositions);
    trace.switches = switches;
    trace.layer = layer;
    trace.head = head;
    trace.family = info.family;
    trace.kvHeads = info.kvHeads;
    const bool broken = switches.onlyLayer < 0 || switches.onlyLayer == layer;
    trace.formula = broken ? switches.formula : ModelSwitches::textbookFormula(info.causal);
    trace.formula.dModel = dModel;
    trace.formula.heads = info.heads;
    return trace;
}

void splitTraceHeads(HeadTrace& trace, Matrix q, Matrix k, Matrix v)
{
    const std::vector<Matrix> qs{std::move(q)}, ks{std::move(k)}, vs{std::move(v)};
    HeadStack heads[3];
    splitHeads({{&qs, &heads[0]}, {&ks, &heads[1]}, {&vs, &heads[2]}}, trace.formula.heads,
               trace.formula.headSplit);
    trace.queries = std::move(heads[0].at(0, trace.head));
    trace.keys = std::move(heads[1].at(0, trace.head));
    trace.values = std::move(heads[2].at(0, trace.head));
}

void endTrace(HeadTrace& trace, const FloatBuffer& weights, Matrix merged, Matrix projected)
{
    const Eigen::Index T = Eigen::Index(trace.ids.size()), dK = trace.queries.cols();
    trace.scores.noalias() = trace.queries * trace.keys.transpose();
    trace.mask = attentionMask(trace.formula, int(T));
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    const std::size_t head =
        std::size_t(trace.layer) * std::size_t(trace.formula.heads) + std::size_t(trace.head);
    trace.weights = Eigen::Map<const Matrix>(weights.data() + head * headSize, T, T);
    trace.headOutput = merged.middleCols(trace.head * dK, dK);
    trace.merged = std::move(merged);
    trace.output = std::move(projected);
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
                 FloatBuffer weights, Matrix hidden, const ModelSwitches& switches)
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
