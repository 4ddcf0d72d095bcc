#include "engine/engine.h"

#include "engine/enginerun.h"

#include "base/blas.h"
#include "base/parallel.h"
#include "base/platform.h"
#include "engine/softmax.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <utility>

namespace attn {

double estimatedBytes(int B, int T, int C, int H)
{
    return estimatedBytes(B, T, T, C, H);
}

double estimatedBytes(int B, int Tq, int Tk, int C, int H)
{
    const double matrices = 2.0 * B * H * double(Tq) * Tk * sizeof(float); // S, P
    const double mask = double(B) * Tq * Tk;                               // bool
    const double mean = double(B) * Tq * Tk * sizeof(float);               // the heads' overview
    // x, Q, K, V, their head views, the head outputs, the merge and the output.
    const double tokens = 10.0 * B * double(std::max(Tq, Tk)) * C * sizeof(float);
    const double layers = 4.0 * (double(C) * C + C) * sizeof(float);
    return matrices + mask + mean + tokens + layers;
}

double bytesOf(const std::vector<Matrix>& matrices)
{
    double bytes = 0;
    for (const Matrix& m : matrices)
        bytes += double(m.size()) * sizeof(float);
    return bytes;
}

Result withoutHeadTensors(Result result)
{
    result.scores.reset();
    result.deferredScores.reset();
    result.weights.reset();
    result.overviews.reset();
    result.aggregation.reset();
    return result;
}

void addOverviews(Result& result, const std::atomic<bool>* cancel)
{
    if (result.overviews || !result.weights)
        return;
    auto overviews = std::make_shared<std::vector<HeadsOverview>>();
    for (int b = 0; b < result.batch(); ++b) {
        throwIfCancelled(cancel);
        overviews->push_back(overviewOfHeads(*result.weights, b));
    }
    result.overviews = std::move(overviews);
}

double heldBytes(const Result& result, Stage first)
{
    const int from = stageIndex(first);
    double bytes = 0;
    auto add = [&](Stage stage, double b) { bytes += stageIndex(stage) >= from ? b : 0.0; };
    if (result.x)
        add(Stage::Embed, bytesOf(*result.x));
    if (result.xKeys && result.xKeys != result.x)
        add(Stage::Embed, bytesOf(*result.xKeys));
    if (result.projection)
        add(Stage::Project, bytesOf(result.projection->q) + bytesOf(result.projection->k) +
                                bytesOf(result.projection->v));
    if (result.split)
        add(Stage::Split, bytesOf(result.split->q.items()) + bytesOf(result.split->k.items()) +
                              bytesOf(result.split->v.items()));
    if (result.scores)
        add(Stage::Scores, bytesOf(result.scores->items()));
    if (result.mask)
        for (const MaskMatrix& m : *result.mask)
            add(Stage::ScaleMask, double(m.size()));
    if (result.weights)
        add(Stage::Normalize, bytesOf(result.weights->items()));
    if (result.overviews)
        for (const HeadsOverview& overview : *result.overviews)
            add(Stage::Normalize, double(overview.mean.size()) * sizeof(float));
    if (result.aggregation)
        add(Stage::Aggregate, bytesOf(result.aggregation->headOutputs.items()) +
                                  bytesOf(result.aggregation->merged) +
                                  bytesOf(result.aggregation->output));
    return bytes;
}

double memoryLimitBytes()
{
    const std::uint64_t physical = platform::physicalMemoryBytes();
    if (physical == 0)
        return 4.0 * (1ull << 30); // unknown: assume a small machine
    return 0.75 * double(physical);
}

namespace {

// Throws InputError when a compute of `alone` bytes, beside the `held` bytes the previous
// result keeps until it ends, would take more than `limit`.
void refuseWhatWouldNotFit(double alone, double held, double limit)
{
    const double gib = double(1ull << 30);
    auto inGiB = [gib](double bytes) {
        char text[32];
        std::snprintf(text, sizeof text, "%.1f", bytes / gib);
        return std::string(text);
    };
    char message[320];
    if (alone > limit) {
        std::snprintf(message, sizeof message,
                      "this needs about %.1f GiB of memory, more than the %.1f GiB this machine "
                      "can give; use fewer tokens, heads or lines",
                      alone / gib, limit / gib);
        throw InputError(message, Refusal::Memory, {inGiB(alone), inGiB(limit)});
    }
    if (alone + held > limit) {
        std::snprintf(message, sizeof message,
                      "this needs about %.1f GiB of memory with the %.1f GiB the previous result "
                      "holds until it is replaced, more than the %.1f GiB this machine can "
                      "give; use fewer tokens, heads or lines",
                      (alone + held) / gib, held / gib, limit / gib);
        throw InputError(message, Refusal::MemoryBeside,
                         {inGiB(alone + held), inGiB(held), inGiB(limit)});
    }
}

} // namespace

// The previous result's (B, H, T, T) outputs this compute replaces that nobody outside the
// engine holds (the window lets go of the heatmaps it shows before a large switch): the
// engine lets go of them too, so that their recyclers hand the same memory to the new
// outputs instead of a second set beside them. A cancellation then leaves the engine's
// result current only up to the stage before them. Before any of it, what would not fit
// is refused: the new outputs, and beside them the previous result's outputs they replace
// that somebody else still holds (the window while it shows them: at T = 2048 a switch
// then holds two P at once).
void AttentionEngine::Run::makeRoom()
{
    Result& previous = engine.result_;
    auto onlyHere = [](const auto& stage, const auto& recycler, long others = 0) {
        // The engine's reference, next's, and the recycler's when it made the object.
        const long own = (recycler.holds(stage.get()) ? 3 : 2) + others;
        return stage && stage.use_count() == own;
    };
    // S's deferred cells hold S until they are made: one reference more when only the
    // engine's results hold them (the engine's and next's).
    const std::shared_ptr<DeferredScores>& deferred = next.deferredScores;
    const long deferredHolds =
        deferred && deferred.use_count() == 2 && deferred->holds(next.scores.get()) ? 1 : 0;
    const bool scoresHere =
        runs(Stage::Scores) && onlyHere(next.scores, engine.scores_, deferredHolds);
    const bool weightsHere = runs(Stage::Normalize) && onlyHere(next.weights, engine.weights_);
    const bool aggregationHere =
        runs(Stage::Aggregate) && onlyHere(next.aggregation, engine.aggregations_);
    int keep = engine.completed_;
    if (scoresHere)
        keep = std::min(keep, stageIndex(Stage::Split));
    if (weightsHere)
        keep = std::min(keep, stageIndex(Stage::ScaleMask));
    if (aggregationHere)
        keep = std::min(keep, stageIndex(Stage::Normalize));
    auto letGo = [keep](Result& r) {
        auto mask = std::move(r.mask); // it stays: it is small, and the next compute reuses it
        clearAfter(r, keep);
        r.mask = std::move(mask);
    };
    Result heldElsewhere = previous; // what stays alive whatever the engine lets go of
    if (scoresHere)
        heldElsewhere.scores.reset();
    if (weightsHere) {
        heldElsewhere.weights.reset();
        heldElsewhere.overviews.reset();
    }
    if (aggregationHere)
        heldElsewhere.aggregation.reset();
    const TokenBatch& tokens = *next.tokens;
    refuseWhatWouldNotFit(estimatedBytes(tokens.batch(), tokens.length(), next.keyTokens->length(),
                                         config.dModel, config.heads),
                          heldBytes(heldElsewhere, Stage(first)), engine.memoryLimit_);
    heldElsewhere = Result{};
    if (keep < engine.completed_) {
        letGo(previous);
        letGo(next);
        engine.completed_ = keep;
    }
    throwIfCancelled(cancel);
}

TokenBatch previewTokens(const std::string& text, TokenizerMode mode)
{
    return tokenize(text, mode);
}

TokenBatch crossTokens(const std::string& crossText, TokenizerMode mode, int batch)
{
    if (crossText.find_first_not_of(" \t\r\n\f\v") == std::string::npos)
        throw InputError("cross-attention needs a second text, for the keys and values",
                         Refusal::CrossTextMissing);
    TokenBatch keys;
    try {
        keys = tokenize(crossText, mode);
    } catch (InputError& error) {
        error.setInKeysText(std::string("the keys' and values' text: ") + error.what());
        throw;
    }
    if (keys.batch() == 1 && batch > 1) {
        // One line serves every sequence, as an encoder's output serves a batch of queries.
        keys.tokens.assign(static_cast<std::size_t>(batch), keys.tokens.front());
        keys.lengths.assign(static_cast<std::size_t>(batch), keys.lengths.front());
    } else if (keys.batch() != batch) {
        throw InputError("the keys' and values' text has " + std::to_string(keys.batch()) +
                             " lines and the queries' text " + std::to_string(batch) +
                             ": give it one line, or one for each line of the queries",
                         Refusal::CrossLines,
                         {std::to_string(keys.batch()), std::to_string(batch)});
    }
    return keys;
}

double Result::scale() const
{
    if (scaleWidth > 0 && config().scale == ScaleMode::SqrtDModel)
        return 1.0 / std::sqrt(static_cast<double>(scaleWidth));
    return scaleFactor(config());
}

LogitRule Result::rule(int h) const
{
    LogitRule rule = logitRule(config(), h);
    rule.scale = static_cast<float>(scale());
    return rule;
}

Matrix Result::logits(int b, int h) const
{
    Matrix l;
    scaleAndMask(scores->at(b, h), (*mask)[static_cast<std::size_t>(b)], rule(h), l);
    return l;
}

HeadStack Result::allLogits() const
{
    HeadStack stack(batch(), heads(), length(), keyLength());
    for (int b = 0; b < batch(); ++b)
        for (int h = 0; h < heads(); ++h)
            stack.at(b, h) = logits(b, h);
    return stack;
}

float Result::logit(int b, int h, int i, int j) const
{
    return rule(h)(scores->at(b, h)(i, j), (*mask)[static_cast<std::size_t>(b)](i, j), i, j);
}

int AttentionEngine::firstChangedStage(const Request& before, const Request& after)
{
    const Config& a = before.config;
    const Config& b = after.config;
    const bool crossBefore = a.attention == AttentionKind::Cross;
    if (before.text != after.text || a.tokenizer != b.tokenizer || a.attention != b.attention ||
        (crossBefore && before.crossText != after.crossText))
        return stageIndex(Stage::Tokenize);
    // x gains the sinusoidal encoding or not (RoPE rotates in stage 4); K/V heads are
    // drawn as other layers.
    const bool sinusoidalBefore = a.positional == Positional::Sinusoidal;
    if (a.seed != b.seed || a.dModel != b.dModel || a.embedding != b.embedding ||
        sinusoidalBefore != (b.positional == Positional::Sinusoidal) ||
        a.kvHeadCount() * a.dK() != b.kvHeadCount() * b.dK() ||
        before.embeddingOverrides != after.embeddingOverrides)
        return stageIndex(Stage::Embed);
    const bool ropeBefore = a.positional == Positional::Rope;
    if (a.heads != b.heads || a.headSplit != b.headSplit || a.kvHeadCount() != b.kvHeadCount() ||
        a.qkNorm != b.qkNorm || ropeBefore != (b.positional == Positional::Rope) ||
        (ropeBefore && a.ropeTheta != b.ropeTheta))
        return stageIndex(Stage::Split);
    if (a.scale != b.scale || a.temperature != b.temperature || a.mask != b.mask ||
        a.maskFill != b.maskFill || a.maskStage != b.maskStage || a.paddingMask != b.paddingMask ||
        a.alibi != b.alibi || a.softcap != b.softcap || a.window != b.window || a.sink != b.sink)
        return stageIndex(Stage::ScaleMask);
    if (a.axis != b.axis)
        return stageIndex(Stage::Normalize);
    return kStageCount;
}

void clearAfter(Result& result, int stage)
{
    if (stage < stageIndex(Stage::Tokenize)) {
        result.tokens.reset();
        result.keyTokens.reset();
    }
    if (stage < stageIndex(Stage::Embed)) {
        result.x.reset();
        result.xKeys.reset();
    }
    if (stage < stageIndex(Stage::Project))
        result.projection.reset();
    if (stage < stageIndex(Stage::Split))
        result.split.reset();
    if (stage < stageIndex(Stage::Scores)) {
        result.scores.reset();
        result.deferredScores.reset();
    }
    if (stage < stageIndex(Stage::ScaleMask))
        result.mask.reset();
    if (stage < stageIndex(Stage::Normalize)) {
        result.weights.reset();
        result.overviews.reset();
    }
    if (stage < stageIndex(Stage::Aggregate))
        result.aggregation.reset();
    if (stage < stageIndex(Stage::Statistics))
        result.stats.reset();
}

// Keeps the stages that are current, drops the ones the request made stale. A compute that
// ran stages passes the last one (every stage up to it is then current; `first` has moved
// past it by then); one that ran nothing passes -1.
Result AttentionEngine::finish(Run& run, Result next, int runThrough)
{
    if (run.drawnLayers) {
        layers_ = run.drawnLayers;
        layerKey_ = run.drawnKey;
    }
    const int completed = runThrough >= 0 ? runThrough : std::min(completed_, run.first - 1);
    clearAfter(next, completed);
    next.request = run.request;
    completed_ = completed;
    result_ = std::move(next);
    return result_;
}

Result AttentionEngine::compute(const Request& request, const std::atomic<bool>* cancel,
                                Stage stopAfter)
{
    if (std::optional<InputError> problem = checkConfig(request.config))
        throw std::move(*problem);
    useOneBlasThreadPerCall(); // two engines may multiply at once (the compare dialog)

    Run run(*this, request, cancel, stopAfter);
    if (run.first > run.last)
        return finish(run, result_, -1);
    // Stages 1–2 run on this thread alone, and the workers of stage 3's loop fall asleep
    // meanwhile; on a virtual machine their wake-up then took 40–100 µs of a 0.6 ms
    // forward at T = 128. Woken now, they wake while stages 1–2 run and watch for the
    // loop: for stages that took up to a millisecond last time (longer ones would keep a
    // core watching for what costs them a few percent at most).
    if (run.runs(Stage::Embed) && !run.endsWith(Stage::Embed) && leadInMilliseconds_ > 0 &&
        leadInMilliseconds_ <= 1.0)
        wakeWorkersAhead(std::chrono::microseconds(std::lround(1000 * leadInMilliseconds_ + 250)));
    run.next = result_;
    run.next.request = request;
    milliseconds_.fill(0.0);
    run.mark = std::chrono::steady_clock::now();

    if (!run.tokenize()) // 1
        return finish(run, result_, -1);
    if (run.endsWith(Stage::Tokenize))
        return finish(run, std::move(run.next), run.last);
    run.makeRoom();
    for (const auto& [stage, body] : std::initializer_list<std::pair<Stage, void (Run::*)()>>{
             {Stage::Embed, &Run::embed},            // 2
             {Stage::Project, &Run::project},        // 3
             {Stage::Split, &Run::splitHeads},       // 4
             {Stage::Scores, &Run::scores},          // 5
             {Stage::ScaleMask, &Run::scaleAndMask}, // 6
             {Stage::Normalize, &Run::normalize},    // 7
             {Stage::Aggregate, &Run::aggregate}}) { // 8
        if (stage == Stage::ScaleMask)
            run.completeScores();
        if (run.runs(stage))
            (run.*body)();
        if (run.endsWith(stage))
            return finish(run, std::move(run.next), run.last);
        throwIfCancelled(cancel);
    }
    run.statistics(); // 9
    return finish(run, std::move(run.next), run.last);
}

} // namespace attn
