// The engine's working parts, shared by engine.cpp (compute() and what surrounds it) and
// enginestages.cpp (the stages): not part of attn_core's interface.
#pragma once

#include "engine/engine.h"

#include <algorithm>
#include <atomic>
#include <chrono>

namespace attn {

inline void throwIfCancelled(const std::atomic<bool>* cancel)
{
    if (cancel && cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

inline int stageIndex(Stage stage)
{
    return static_cast<int>(stage);
}

// Empties the stages of `result` after `stage` (all of them for -1).
void clearAfter(Result& result, int stage);

// One compute's working state: the request, the stages it runs (first … last), the result
// it builds (`next`, a copy of the engine's, so that an error or a cancellation leaves
// the engine's result and its stages intact) and what one stage hands the next.
struct AttentionEngine::Run {
    AttentionEngine& engine;
    const Request& request;
    const Config& config;
    const std::atomic<bool>* cancel;
    int first; // the first stage still to run
    int last;  // the last stage asked for
    Result next;
    // Layers drawn by stage 2: the engine keeps them only when the compute finishes, so
    // that one cancelled after stage 2 cannot hand the next compute layers of a seed its
    // result does not have.
    std::shared_ptr<const std::array<Linear, 4>> drawnLayers;
    LayerKey drawnKey{};
    bool maskMade = false;
    std::shared_ptr<HeadStack> fusedWeights; // P, when stage 5 made it with S
    std::chrono::steady_clock::time_point mark = std::chrono::steady_clock::now();

    Run(AttentionEngine& e, const Request& r, const std::atomic<bool>* c, Stage stopAfter)
        : engine(e), request(r), config(r.config), cancel(c),
          // The first stage to run: the first one the request changes, or the first one
          // the previous compute did not reach.
          first(e.result_.tokens
                    ? std::min(firstChangedStage(e.result_.request, r), e.completed_ + 1)
                    : stageIndex(Stage::Tokenize)),
          last(stageIndex(stopAfter))
    {}

    [[nodiscard]] bool runs(Stage stage) const { return first <= stageIndex(stage); }
    [[nodiscard]] bool endsWith(Stage stage) const { return last <= stageIndex(stage); }
    // Stage `stage` ran: counted and timed; the next one is the first still to run.
    void ran(Stage stage);

    // The stages, numbered as in ARCHITECTURE.md. tokenize() returns false when the
    // tokens are unchanged and nothing the request asks for is left to run.
    bool tokenize();           // 1
    void makeRoom();           // before 2: refuse what would not fit, let go of what is replaced
    void embed();              // 2
    void project();            // 3 (and 4 with view + transpose, fused into it)
    void splitHeads();         // 4
    void scores();             // 5 (and 6–7 over the keys, fused into it)
    void completeScores();     // 5's deferred cells, for a switch or a stop that reads them
    void scaleAndMask();       // 6
    void normalize();          // 7
    void aggregate();          // 8
    void statistics();         // 9
    void makeMask();           // 6's mask, made before 5 when 5 fuses the softmax
    void makeDeferredScores(); // 5's deferred cells (Result::deferredScores), now
};

} // namespace attn
