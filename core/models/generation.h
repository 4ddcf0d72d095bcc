// Letting a decoder write: one token after another from a prompt, each chosen from the model's
// next-token distribution under the formula's switches and knock-outs, greedily or sampled
// (temperature, top-k, top-p, a seed), as Hugging Face's generate does.
//
// A Generator keeps a KV cache (models/kvcache.h) where the switches let one serve, so that
// each new token costs one row a layer; under the others (a softmax over the queries, the
// view bug, the mask after the softmax, a mean knock-out) it runs the whole text again for
// every token, and the numbers are those of a forward over the text so far either way.
// No Qt.
#pragma once

#include "models/kvcache.h"
#include "models/languagemodel.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace attn {

// How the next token is chosen. The sampling's temperature divides the logits before the
// softmax that makes the next-token distribution; it is not the formula's τ, which divides
// every layer's attention scores.
struct Sampling {
    bool greedy = true;     // the most probable token (ties: the lower id); the rest unread
    double temperature = 1; // logits ÷ temperature (> 0)
    int topK = 0;           // only the k most probable tokens (0: every token)
    double topP = 1; // only the fewest most probable whose probabilities reach p (0 < p ≤ 1)
    std::uint64_t seed = 0; // the draws' generator (a 64-bit Mersenne twister)
    bool operator==(const Sampling&) const = default;
};

// The most new tokens one generation writes.
inline constexpr int kMaxNewTokens = 4096;

// Throws InputError with one line for a temperature not > 0 or not finite, a negative top-k,
// a top-p outside (0, 1], or a count of new tokens outside 1 … kMaxNewTokens.
void checkGeneration(const Sampling& sampling, int tokens);

// One new token.
struct GenerationStep {
    Prediction chosen;            // the token written, its probability in `top`'s distribution
    std::vector<Prediction> top;  // the 5 most probable of the distribution it was chosen from
                                  // (greedy: the model's softmax; sampled: after the
                                  // temperature, top-k and top-p, renormalised)
    int position = 0;             // the position it takes: the text's length before it
    std::vector<float> attention; // (L, H, position): the last position's attention in every
                                  // layer and head, the row that chose it
    bool operator==(const GenerationStep&) const = default;
};

// Why a generation stopped.
enum class GenerationEnd {
    Running,   // not yet
    Length,    // it wrote the tokens it was asked for
    EndOfText, // it wrote one of the model's end tokens (ModelInfo::endTokens)
    Context,   // the text reached the model's context length (ModelInfo::maxPositions)
    Stopped,   // the caller cancelled it
};

class Generator {
public:
    // A generation of up to `tokens` new tokens after `prompt` (ids, at least one) by `model` (a
    // decoder) under `switches`. Throws InputError for an encoder (BERT: it fills in [MASK]
    // instead), for checkGeneration's faults, for a prompt longer than the context; the
    // model's forward throws for a knock-out the model lacks.
    Generator(std::shared_ptr<const LanguageModel> model, std::vector<int> prompt,
              ModelSwitches switches, Sampling sampling, int tokens);

    // The next token, or none once the generation has ended (end() says why). Throws
    // Cancelled when `cancel` becomes true inside the forward (end() is then Stopped).
    std::optional<GenerationStep> next(const std::atomic<bool>* cancel = nullptr);

    [[nodiscard]] GenerationEnd end() const { return end_; }
    [[nodiscard]] const std::vector<int>& ids() const { return ids_; } // prompt and new tokens
    [[nodiscard]] int promptLength() const { return promptLength_; }
    [[nodiscard]] bool cached() const { return cache_.has_value(); }
    // The ids that end the text (the model's ModelInfo::endTokens); a test may set others.
    void setEndTokens(std::vector<int> ids) { endTokens_ = std::move(ids); }

private:
    std::shared_ptr<const LanguageModel> model_;
    ModelSwitches switches_;
    Sampling sampling_;
    int tokens_ = 0, promptLength_ = 0;
    std::vector<int> ids_, endTokens_;
    std::optional<KvCache> cache_;
    std::mt19937_64 random_;
    GenerationEnd end_ = GenerationEnd::Running;
};

// The distribution a sampled token is drawn from, as (id, probability) most probable first
// (ties by lower id), its probabilities summing to 1: softmax(logits ÷ temperature) over the
// top-k, then the fewest whose probabilities reach top-p, renormalised. `sampling.greedy` is
// not read: greedy decoding takes LanguageModel::topPredictions' first.
[[nodiscard]] std::vector<std::pair<int, double>>
samplingDistribution(const std::vector<float>& logits, const Sampling& sampling);

// The whole generation at once: `onStep` (may be empty) is called with each new token.
struct Generation {
    std::vector<int> prompt, generated;
    std::vector<GenerationStep> steps;
    GenerationEnd end = GenerationEnd::Length;
    bool cached = false;
};
[[nodiscard]] Generation generate(const std::shared_ptr<const LanguageModel>& model,
                                  const std::vector<int>& prompt, const ModelSwitches& switches,
                                  const Sampling& sampling, int tokens,
                                  const std::function<void(const GenerationStep&)>& onStep = {},
                                  const std::atomic<bool>* cancel = nullptr);

// "length", "end-of-text", "context", "stopped" (the JSON's "stopped_by").
[[nodiscard]] const char* spellingOf(GenerationEnd end);

// The text of `ids` (the tokenizer's decode; the ids' labels joined without one).
[[nodiscard]] std::string generatedText(const LanguageModel& model, const std::vector<int>& ids);

// What `attnscope generate --json` writes: {"model", "switches", "knocked_out",
// "knock_out_mode" (as compute --model's), "sampling": {"greedy"} or {"greedy": false,
// "temperature", "top-k", "top-p", "seed"}, "kv_cache": whether one served, "prompt_ids",
// "prompt_text", "generated_ids", "generated_text", "generated_tokens" (readable labels),
// "stopped_by" (spellingOf), "steps": [one a new token: its top 5 {"id", "token" (readable),
// "piece", "probability", "logit"} of the distribution it was chosen from]}.
[[nodiscard]] std::string generationJson(const LanguageModel& model, const ModelSwitches& switches,
                                         const Sampling& sampling, const Generation& generation);

} // namespace attn
