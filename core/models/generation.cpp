#include "models/generation.h"

#include "base/json.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "models/modeljson.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn {

namespace {

// Most probable first, a NaN last, ties by the lower id.
bool before(const std::pair<int, double>& a, const std::pair<int, double>& b)
{
    const bool aNan = std::isnan(a.second), bNan = std::isnan(b.second);
    if (aNan != bNan)
        return bNan;
    if (!aNan && a.second != b.second)
        return a.second > b.second;
    return a.first < b.first;
}

// The first `count` of `all` in order (the rest left unordered), `all` cut to them.
void keepFirst(std::vector<std::pair<int, double>>& all, std::size_t count)
{
    count = std::min(count, all.size());
    std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(count), all.end(), before);
    all.resize(count);
}

} // namespace

void checkGeneration(const Sampling& sampling, int tokens)
{
    if (tokens < 1 || tokens > kMaxNewTokens)
        throw InputError("generate: the number of new tokens must be from 1 to " +
                         std::to_string(kMaxNewTokens) + ", not " + std::to_string(tokens));
    if (sampling.greedy)
        return;
    if (!std::isfinite(sampling.temperature) || sampling.temperature <= 0)
        throw InputError("generate: the sampling temperature must be a number above 0");
    if (sampling.topK < 0)
        throw InputError("generate: top-k must be 0 (every token) or more");
    if (!(sampling.topP > 0 && sampling.topP <= 1))
        throw InputError("generate: top-p must be above 0 and at most 1");
}

std::vector<std::pair<int, double>> samplingDistribution(const std::vector<float>& logits,
                                                         const Sampling& sampling)
{
    const double temperature = sampling.temperature;
    double largest = -INFINITY;
    for (const float logit : logits)
        if (std::isfinite(logit))
            largest = std::max(largest, double(logit) / temperature);
    std::vector<std::pair<int, double>> all(logits.size());
    double sum = 0;
    for (std::size_t i = 0; i < logits.size(); ++i) {
        const double p = std::exp(double(logits[i]) / temperature - largest);
        all[i] = {int(i), p};
        if (!std::isnan(p))
            sum += p;
    }
    for (auto& [id, p] : all)
        p /= sum;
    if (sampling.topK > 0)
        keepFirst(all, std::size_t(sampling.topK));
    else
        std::sort(all.begin(), all.end(), before);
    if (sampling.topP < 1) { // the fewest whose probabilities reach p (at least one)
        double reached = 0;
        std::size_t kept = 0;
        while (kept < all.size() && (kept == 0 || reached < sampling.topP))
            reached += all[kept++].second;
        all.resize(kept);
    }
    const double kept = std::accumulate(all.begin(), all.end(), 0.0,
                                        [](double s, const auto& item) { return s + item.second; });
    for (auto& [id, p] : all)
        p /= kept;
    return all;
}

Generator::Generator(std::shared_ptr<const LanguageModel> model, std::vector<int> prompt,
                     ModelSwitches switches, Sampling sampling, int tokens)
    : model_(std::move(model)), switches_(std::move(switches)), sampling_(sampling),
      tokens_(tokens), promptLength_(int(prompt.size())), ids_(std::move(prompt)),
      endTokens_(model_->info().endTokens), random_(sampling.seed)
{
    const ModelInfo& info = model_->info();
    if (!info.causal)
        throw InputError("generate: " + info.name +
                         " is an encoder: it fills in [MASK] tokens instead of writing on "
                         "(put [MASK] in the text and compute)");
    checkGeneration(sampling_, tokens_);
    if (ids_.empty())
        throw InputError("generate: the prompt is empty", Refusal::EmptyText);
    if (promptLength_ > info.maxPositions)
        throw InputError("generate: the prompt has " + std::to_string(promptLength_) +
                             " tokens, the model reads at most " +
                             std::to_string(info.maxPositions),
                         Refusal::TextTooLong,
                         {std::to_string(promptLength_), std::to_string(info.maxPositions)});
    if (promptLength_ == info.maxPositions)
        end_ = GenerationEnd::Context;
    if (kvCacheUsable(info, switches_))
        cache_.emplace(info, std::min(info.maxPositions, promptLength_ + tokens_));
}

std::optional<GenerationStep> Generator::next(const std::atomic<bool>* cancel)
{
    if (end_ != GenerationEnd::Running)
        return std::nullopt;
    const ModelInfo& info = model_->info();
    ForwardHooks hooks;
    hooks.cancel = cancel;
    hooks.cache = cache_ ? &*cache_ : nullptr;
    Forward forward;
    try {
        forward = model_->forward(ids_, switches_, hooks);
    } catch (const Cancelled&) {
        end_ = GenerationEnd::Stopped;
        throw;
    }
    // The last position's row: its logits, and its attention in every layer and head.
    const Eigen::Index rows = forward.hidden.rows(), last = rows - 1;
    const int T = int(ids_.size());
    const std::vector<float> logits = model_->logitsOf(forward.hidden.row(last).data());
    GenerationStep step;
    step.position = T;
    step.attention.resize(std::size_t(info.layers) * std::size_t(info.heads) * std::size_t(T));
    for (int lh = 0; lh < info.layers * info.heads; ++lh) {
        const float* row =
            forward.weights.data() +
            (std::size_t(lh) * std::size_t(rows) + std::size_t(last)) * std::size_t(T);
        std::copy(row, row + T, step.attention.begin() + std::ptrdiff_t(lh) * T);
    }

    if (sampling_.greedy) { // the model's own top 5, as its prediction panel lists them
        step.top = model_->topPredictions(logits, 5);
        step.chosen = step.top.front();
    } else {
        const std::vector<std::pair<int, double>> candidates =
            samplingDistribution(logits, sampling_);
        // u in [0, 1) from the generator's top 53 bits, against the running sum.
        const double u = double(random_() >> 11) * 0x1.0p-53;
        double reached = 0;
        std::size_t chosen = candidates.size() - 1;
        for (std::size_t i = 0; i < candidates.size(); ++i)
            if ((reached += candidates[i].second) > u) {
                chosen = i;
                break;
            }
        const auto prediction = [&](const std::pair<int, double>& candidate) {
            Prediction p;
            p.id = candidate.first;
            p.token = model_->tokenSpelling(p.id);
            p.label = model_->tokenLabel(p.id);
            p.probability = float(candidate.second);
            p.logit = logits[std::size_t(p.id)];
            return p;
        };
        for (std::size_t i = 0; i < std::min<std::size_t>(5, candidates.size()); ++i)
            step.top.push_back(prediction(candidates[i]));
        step.chosen = prediction(candidates[chosen]);
    }

    ids_.push_back(step.chosen.id);
    if (std::find(endTokens_.begin(), endTokens_.end(), step.chosen.id) != endTokens_.end())
        end_ = GenerationEnd::EndOfText;
    else if (int(ids_.size()) - promptLength_ >= tokens_)
        end_ = GenerationEnd::Length;
    else if (int(ids_.size()) >= info.maxPositions)
        end_ = GenerationEnd::Context;
    return step;
}

Generation generate(const std::shared_ptr<const LanguageModel>& model,
                    const std::vector<int>& prompt, const ModelSwitches& switches,
                    const Sampling& sampling, int tokens,
                    const std::function<void(const GenerationStep&)>& onStep,
                    const std::atomic<bool>* cancel)
{
    Generator generator(model, prompt, switches, sampling, tokens);
    Generation out;
    out.prompt = prompt;
    out.cached = generator.cached();
    while (std::optional<GenerationStep> step = generator.next(cancel)) {
        if (onStep)
            onStep(*step);
        out.generated.push_back(step->chosen.id);
        out.steps.push_back(std::move(*step));
    }
    out.end = generator.end();
    return out;
}

const char* spellingOf(GenerationEnd end)
{
    switch (end) {
    case GenerationEnd::Running:
        return "running";
    case GenerationEnd::Length:
        return "length";
    case GenerationEnd::EndOfText:
        return "end-of-text";
    case GenerationEnd::Context:
        return "context";
    case GenerationEnd::Stopped:
        return "stopped";
    }
    return "";
}

std::string generatedText(const LanguageModel& model, const std::vector<int>& ids)
{
    if (const ModelTokenizer* tokenizer = model.tokenizer())
        return tokenizer->decode(ids);
    std::string text;
    for (const int id : ids)
        text += model.tokenLabel(id);
    return text;
}

std::string generationJson(const LanguageModel& model, const ModelSwitches& switches,
                           const Sampling& sampling, const Generation& generation)
{
    JsonWriter w;
    const auto ids = [&w](const char* key, const std::vector<int>& list) {
        w.key(key);
        w.beginArray();
        for (const int id : list)
            w.value(id);
        w.endArray();
    };
    w.beginObject();
    writeModelAndSwitches(w, model.info(), switches);
    w.key("sampling");
    w.beginObject();
    w.key("greedy");
    w.value(sampling.greedy);
    if (!sampling.greedy) {
        w.key("temperature");
        w.value(sampling.temperature);
        w.key("top-k");
        w.value(sampling.topK);
        w.key("top-p");
        w.value(sampling.topP);
        w.key("seed");
        w.value(sampling.seed);
    }
    w.endObject();
    w.key("kv_cache");
    w.value(generation.cached);
    ids("prompt_ids", generation.prompt);
    w.key("prompt_text");
    w.value(generatedText(model, generation.prompt));
    ids("generated_ids", generation.generated);
    w.key("generated_text");
    w.value(generatedText(model, generation.generated));
    w.key("generated_tokens");
    w.beginArray();
    for (const GenerationStep& step : generation.steps)
        w.value(step.chosen.label);
    w.endArray();
    w.key("stopped_by");
    w.value(spellingOf(generation.end));
    w.key("steps");
    w.beginArray();
    for (const GenerationStep& step : generation.steps)
        writePredictions(w, step.top);
    w.endArray();
    w.endObject();
    return w.take() + "\n";
}

} // namespace attn
