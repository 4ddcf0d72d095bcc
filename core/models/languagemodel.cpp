#include "models/languagemodel.h"

#include "base/parallel.h"
#include "engine/engine.h"
#include "models/forward.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attn {
namespace {

// Throws InputError: Refusal::EmptyText for no tokens, Refusal::TextTooLong (naming both
// counts) for more than `maxPositions`.
void checkTokenCount(std::size_t tokens, int maxPositions)
{
    if (tokens == 0)
        throw InputError("the text is empty", Refusal::EmptyText);
    if (tokens > std::size_t(maxPositions))
        throw InputError("the text has " + std::to_string(tokens) +
                             " tokens, the model reads at most " + std::to_string(maxPositions),
                         Refusal::TextTooLong);
}

// A readable label per id, by `tokenizer`, or each id's number when there is none.
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

} // namespace

ModelError::ModelError(const std::filesystem::path& file, const std::string& fault)
    : std::runtime_error(file.string() + ": " + fault), file_(file), fault_(fault)
{}

Config ModelSwitches::textbookFormula(bool causal)
{
    Config formula;
    formula.scale = ScaleMode::SqrtDk;
    formula.temperature = 1.0f;
    formula.axis = SoftmaxAxis::Keys;
    formula.mask = causal ? MaskKind::Causal : MaskKind::None;
    formula.maskFill = MaskFill::NegInf;
    formula.maskStage = MaskStage::BeforeSoftmax;
    formula.headSplit = HeadSplit::Transpose;
    formula.paddingMask = false;
    return formula;
}

Config ModelSwitches::textbookFormula(const ModelInfo& info)
{
    Config formula = textbookFormula(info.causal);
    formula.window = info.slidingWindow; // Mistral's sliding_window: its own formula's
    return formula;
}

void checkModelFormula(const Config& formula, const ModelInfo& info)
{
    // The model's heads, positions and norms are its weights': the lab's switches of them
    // have nothing to switch there.
    const char* own = formula.kvHeads != 0                     ? "--kv-heads"
                      : formula.qkNorm                         ? "--qk-norm"
                      : formula.alibi                          ? "--alibi"
                      : formula.positional == Positional::Rope ? "--positional rope"
                                                               : nullptr;
    if (own)
        throw std::out_of_range(info.family + ": " + own +
                                " is the lab's; the model has its own heads and positions");
    if (const std::optional<InputError> problem = checkConfig([&] {
            Config sized = formula;
            sized.dModel = info.heads * info.headDim;
            sized.heads = info.heads;
            return sized;
        }()))
        throw std::out_of_range(info.family + ": " + problem->what());
}

std::vector<float> ModelRun::logits(int position) const
{
    if (position < 0 || position >= hidden.rows())
        throw std::out_of_range("position " + std::to_string(position) + " outside 0 … " +
                                std::to_string(hidden.rows() - 1));
    return model->logitsOf(hidden.row(position).data());
}

std::vector<Prediction> ModelRun::predictions(int position, int k) const
{
    return model->topPredictions(logits(position), k);
}

std::vector<Prediction> LanguageModel::topPredictions(const std::vector<float>& z, int k) const
{
    const int V = int(z.size());
    // softmax(z): subtract the maximum only for numerical stability; sum in double.
    const float top = *std::max_element(z.begin(), z.end());
    double sum = 0;
    for (float value : z)
        sum += std::exp(double(value) - double(top));
    // The k largest logits (the same order as their probabilities), ties by lower id.
    std::vector<int> order(static_cast<std::size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    const int count = std::clamp(k, 0, V);
    std::partial_sort(order.begin(), order.begin() + count, order.end(), [&](int a, int b) {
        // NaN logits (weights with NaN or inf in them) last, so that the order stays a
        // strict weak ordering: numbers most probable first, ties and NaNs by lower id.
        const float za = z[std::size_t(a)], zb = z[std::size_t(b)];
        const bool nanA = std::isnan(za), nanB = std::isnan(zb);
        if (nanA != nanB)
            return nanB;
        return !nanA && za != zb ? za > zb : a < b;
    });
    std::vector<Prediction> out;
    out.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) {
        const int id = order[std::size_t(i)];
        Prediction p;
        p.id = id;
        p.token = tokenSpelling(id);
        p.label = tokenLabel(id);
        p.logit = z[std::size_t(id)];
        p.probability = float(std::exp(double(p.logit) - double(top)) / sum);
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<int> ModelRun::maskedPositions() const
{
    std::vector<int> positions;
    const std::optional<int> mask = model ? model->maskId() : std::nullopt;
    for (std::size_t t = 0; mask && t < ids.size(); ++t)
        if (ids[t] == *mask)
            positions.push_back(int(t));
    return positions;
}

std::string modelName(const std::filesystem::path& folder)
{
    // The hub's cache: …/models--openai-community--gpt2/snapshots/<revision>/.
    const std::filesystem::path path = folder.filename().empty() ? folder.parent_path() : folder;
    const std::filesystem::path snapshots = path.parent_path();
    const std::string repository = snapshots.parent_path().filename().string();
    if (snapshots.filename() == "snapshots" && repository.starts_with("models--")) {
        std::string name = repository.substr(std::string("models--").size());
        for (std::size_t at = name.find("--"); at != std::string::npos; at = name.find("--", at))
            name.replace(at, 2, "/");
        return name;
    }
    return path.filename().string();
}

LanguageModel::LanguageModel(ModelInfo info, std::unique_ptr<const ModelTokenizer> tokenizer,
                             std::filesystem::path tokenizerFile, std::optional<int> maskId)
    : info_(std::move(info)), tokenizer_(std::move(tokenizer)),
      tokenizerFile_(std::move(tokenizerFile)), maskId_(maskId)
{
    // What the tokenizer gives an empty text: its template alone ([CLS] [SEP], <s>).
    if (tokenizer_) {
        try {
            template_ = tokenizer_->encodeIds("");
        } catch (const InputError&) {
            template_.clear();
        }
    }
}

const ModelTokenizer& LanguageModel::requireTokenizer() const
{
    if (!tokenizer_)
        throw ModelError(tokenizerFile_, "the model has no tokenizer");
    return *tokenizer_;
}

std::vector<int> LanguageModel::encodeText(const std::string& text) const
{
    std::vector<int> ids = requireTokenizer().encodeIds(text);
    // A text of which the tokenizer keeps nothing but its template's tokens (BERT's of white
    // space) is empty, as "" is.
    if (text.empty() || ids.size() <= template_.size())
        throw InputError("the text is empty", Refusal::EmptyText);
    return ids;
}

void LanguageModel::tokenize(const std::string& text, std::vector<int>& ids,
                             std::vector<TokenLabel>& labels) const
{
    ids = requireTokenizer().encodeIds(text);
    labels = tokenizer_->labels(ids);
}

ModelRun LanguageModel::run(const std::string& text, const ModelSwitches& switches,
                            const std::atomic<bool>* cancel) const
{
    // runIds labels the ids with the same tokenizer.
    return runIds(encodeText(text), switches, cancel);
}

ModelRun LanguageModel::run(const std::string& text, const ModelSwitches& switches,
                            const ForwardHooks& hooks) const
{
    return runIds(encodeText(text), switches, hooks);
}

ModelRun LanguageModel::runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel) const
{
    ForwardHooks hooks;
    hooks.cancel = cancel;
    return runIds(ids, switches, hooks);
}

ModelRun LanguageModel::runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                               const ForwardHooks& hooks) const
{
    checkTokenCount(ids.size(), info_.maxPositions);
    ForwardHooks whole = hooks;
    whole.capture = nullptr; // a capture stops the forward: trace()'s alone
    Forward forwarded = forward(ids, switches, whole);

    ModelRun run;
    run.ids = ids;
    run.labels = labelIds(tokenizer_.get(), ids);
    std::vector<std::string> tokens;
    tokens.reserve(run.labels.size());
    for (const TokenLabel& label : run.labels)
        tokens.push_back(label.label);
    const int T = int(ids.size());
    run.attention = std::make_shared<const MemoryAttentionStack>(
        StackShape{info_.layers, 1, info_.heads, T, T}, std::move(forwarded.weights),
        std::vector<std::vector<std::string>>{std::move(tokens)},
        std::vector<std::vector<std::string>>{}, info_.name);
    run.hidden = std::move(forwarded.hidden);
    run.switches = switches;
    run.model = shared_from_this();
    return run;
}

HeadTrace LanguageModel::trace(const std::string& text, const ModelSwitches& switches, int layer,
                               int head, const std::atomic<bool>* cancel) const
{
    if (layer < 0 || layer >= info_.layers)
        throw std::out_of_range("layer " + std::to_string(layer) + " outside 0 … " +
                                std::to_string(info_.layers - 1));
    if (head < 0 || head >= info_.heads)
        throw std::out_of_range("head " + std::to_string(head) + " outside 0 … " +
                                std::to_string(info_.heads - 1));
    HeadTrace trace;
    trace.ids = encodeText(text);
    trace.labels = tokenizer_->labels(trace.ids);
    checkTokenCount(trace.ids.size(), info_.maxPositions);
    trace.switches = switches;
    trace.layer = layer;
    trace.head = head;
    trace.family = info_.family;
    trace.kvHeads = info_.kvHeads;
    // The formula this layer ran; its d_model is H·d_k, the width the heads are split from.
    const LayerFormulas formulas(info_, switches, 1);
    trace.formula = formulas[layer].config;

    // 1. The forward up to the layer, keeping its attention: the run's own numbers.
    LayerCapture capture;
    capture.layer = layer;
    ForwardHooks hooks;
    hooks.cancel = cancel;
    hooks.capture = &capture;
    const Forward forwarded = forward(trace.ids, switches, hooks);

    // 2. X, and Q_h, K_h, V_h (those of the K/V head h shares, h / (H / H_kv)).
    const int kv = info_.kvHeadOf(head);
    trace.input = std::move(capture.input);
    trace.queries = std::move(capture.queries.at(0, head));
    trace.keys = std::move(capture.keys.at(0, kv));
    trace.values = std::move(capture.values.at(0, kv));
    // 3. S = Q_h K_hᵀ in full (the forward may skip what a causal mask hides), the mask, P as
    //    the run wrote it, O_h as head h's block of the heads side by side, the projection.
    const Eigen::Index T = Eigen::Index(trace.ids.size()), dK = trace.queries.cols();
    trace.scores.noalias() = trace.queries * trace.keys.transpose();
    trace.mask = attentionMask(trace.formula, int(T));
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    const std::size_t at = std::size_t(layer) * std::size_t(info_.heads) + std::size_t(head);
    trace.weights = Eigen::Map<const Matrix>(forwarded.weights.data() + at * headSize, T, T);
    trace.headOutput = capture.merged.middleCols(head * dK, dK);
    trace.merged = std::move(capture.merged);
    trace.output = std::move(capture.projected);
    return trace;
}

std::vector<float> LanguageModel::logitsOf(const float* hiddenRow) const
{
    // logits = h · Eᵀ                                                        (V)
    return embeddingLogits(outputEmbedding(), hiddenRow);
}

Matrix LanguageModel::logitsOfRows(const Matrix& hidden) const
{
    // logits = H · Eᵀ                                                        (T, V)
    const WeightView embedding = outputEmbedding();
    Matrix logits(hidden.rows(), embedding.rows);
    if (!embedding.inBlocks()) {
        logits.noalias() = hidden * embedding.matrix().transpose();
        return logits;
    }
    // In blocks: a band of the vocabulary at a time, dequantized on every core.
    constexpr Eigen::Index kBand = 1024;
    const Eigen::Index V = embedding.rows;
    parallelFor(int((V + kBand - 1) / kBand), [&](int band) {
        const Eigen::Index first = band * kBand, n = std::min(kBand, V - first);
        std::vector<float> scratch;
        logits.middleCols(first, n).noalias() =
            hidden * embedding.rowsOf(first, n, scratch).transpose();
    });
    return logits;
}

std::string LanguageModel::tokenSpelling(int id) const
{
    return tokenizer_ ? tokenizer_->token(id) : std::to_string(id);
}

std::string LanguageModel::tokenLabel(int id) const
{
    return tokenizer_ ? tokenizer_->label(id).label : std::to_string(id);
}

} // namespace attn
