// The staged attention pipeline of ARCHITECTURE.md.
//
// Legend: B sequences, T tokens each, C = d_model, H heads, d_k = C / H.
// Each stage's output is an immutable shared object: a change recomputes only from
// the first stage it touches and shares the rest, and a Result handed to another
// thread stays valid while the engine moves on. The one part made later, S's masked
// cells, is an object of its own with its own synchronisation (DeferredScores).
#pragma once

#include "base/recycler.h"
#include "base/tensor.h"
#include "engine/deferredscores.h"
#include "engine/options.h"
#include "engine/softmax.h"
#include "engine/statistics.h"
#include "engine/tokenizer.h"

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// How many bytes a compute may take: three quarters of this machine's memory.
[[nodiscard]] double memoryLimitBytes();

enum class Stage {
    Tokenize,   // 1 text → tokens
    Embed,      // 2 tokens → X (B, T, C)
    Project,    // 3 X → Q, K, V (B, T, C)
    Split,      // 4 → Q_h, K_h, V_h (B, H, T, d_k)
    Scores,     // 5 S = Q_h K_hᵀ (B, H, T, T)
    ScaleMask,  // 6 the mask; L = S·scale/τ, filled, is made row by row in the softmax
    Normalize,  // 7 P = softmax over the axis
    Aggregate,  // 8 O = W_o(concat(P V_h))
    Statistics, // 9 figures and warnings
};
inline constexpr int kStageCount = 9;

// What to compute: the text (one sequence per line) and every switch.
struct Request {
    std::string text; // the queries' text; in self-attention also the keys' and values'
    Config config;
    // Hand-set vectors (C values) for token strings, used in embedding mode "table".
    std::map<std::string, std::vector<float>> embeddingOverrides;
    // The keys' and values' text in cross-attention: one line for every sequence, or one
    // line per line of `text`. Kept, unused, while config.attention is Self.
    std::string crossText;
    bool operator==(const Request&) const = default;
};

struct Projection {
    // W_q, W_k, W_v, W_o: nn.Linear(C, C) each, drawn in this order; shared with the
    // engine, which keeps them while the seed, C and the draws before them stay.
    std::shared_ptr<const std::array<Linear, 4>> layers;
    std::vector<Matrix> q, k, v; // B × (T, C)

    [[nodiscard]] const Linear& wq() const { return (*layers)[0]; }
    [[nodiscard]] const Linear& wk() const { return (*layers)[1]; }
    [[nodiscard]] const Linear& wv() const { return (*layers)[2]; }
    [[nodiscard]] const Linear& wo() const { return (*layers)[3]; }
};

struct HeadViews {
    HeadStack q, k, v; // (B, H, T, d_k)
};

struct Aggregation {
    HeadStack headOutputs;      // (B, H, T, d_k) P·V_h
    std::vector<Matrix> merged; // B × (T, C) heads concatenated
    std::vector<Matrix> output; // B × (T, C) W_o(merged)
};

// A consistent snapshot of every stage's output for one Request.
//
// In cross-attention the queries come from `tokens` (T_q = length()) and the keys and
// values from `keyTokens` (T_k = keyLength()); every (B, H, T, T) tensor below is then
// (B, H, T_q, T_k). In self-attention keyTokens and xKeys share tokens' and x's objects.
struct Result {
    Request request;
    std::shared_ptr<const TokenBatch> tokens;         // the queries' tokens
    std::shared_ptr<const TokenBatch> keyTokens;      // the keys' (same object in self-attention)
    std::shared_ptr<const std::vector<Matrix>> x;     // B × (T_q, C)
    std::shared_ptr<const std::vector<Matrix>> xKeys; // B × (T_k, C), same object as x in self
    std::shared_ptr<const Projection> projection;
    std::shared_ptr<const HeadViews> split;
    std::shared_ptr<const HeadStack> scores; // (B, H, T, T) Q_h K_hᵀ
    // S's cells a causal mask hides in whole blocks of keys after a block of rows, when a
    // compute that stopped before the statistics left them for later: the softmax over the
    // keys, with the mask before it, never reads them. Stage 9 (or a compute that needs
    // them) makes them through this, in S's memory, for every result that shares S; until
    // then they hold no values (the contract is DeferredScores'). Every cell this concerns
    // is masked, so the logits and weights are complete. Null when every score was made.
    std::shared_ptr<DeferredScores> deferredScores;
    std::shared_ptr<const std::vector<MaskMatrix>> mask; // B × (T, T) true = masked
    std::shared_ptr<const HeadStack> weights;            // (B, H, T, T) P
    std::shared_ptr<const Aggregation> aggregation;
    std::shared_ptr<const Statistics> stats;
    // The mean over heads and each head's largest finite weight, one per sequence
    // (overviewOfHeads), when whoever computed the result had time to make them: the
    // window's engine makes them in a switch's softmax over the keys
    // (setMakesOverviews), its worker after any other softmax, so that its grid does not
    // read every head on the GUI thread. Empty otherwise.
    std::shared_ptr<const std::vector<HeadsOverview>> overviews;
    // The width ÷ √d_model divides by where it is not config().dModel: a trained model's
    // hidden size C when its heads are split from another width H·d_k (Qwen3-0.6B: 1024
    // against 16 × 128; headTraceResult sets it). 0: dModel. Not a field of the
    // configuration: the engine never makes such a result.
    int scaleWidth = 0;

    [[nodiscard]] const Config& config() const { return request.config; }
    // The factor S is multiplied by: scaleFactor(config()), but 1/√scaleWidth for ÷ √d_model
    // where scaleWidth is set.
    [[nodiscard]] double scale() const;
    // logitRule(config(), h) with that factor: what made head h's L and P.
    [[nodiscard]] LogitRule rule(int h) const;
    [[nodiscard]] int batch() const { return tokens ? tokens->batch() : 0; }
    [[nodiscard]] int length() const { return tokens ? tokens->length() : 0; }          // T_q
    [[nodiscard]] int keyLength() const { return keyTokens ? keyTokens->length() : 0; } // T_k
    [[nodiscard]] bool isCross() const { return request.config.attention == AttentionKind::Cross; }
    [[nodiscard]] int heads() const { return request.config.heads; }
    [[nodiscard]] int dModel() const { return request.config.dModel; }
    [[nodiscard]] int dK() const { return request.config.dK(); }
    // Every stage is there.
    [[nodiscard]] bool valid() const { return stats != nullptr && weights != nullptr; }
    // The stages up to the softmax are there: enough for the heatmaps.
    [[nodiscard]] bool hasWeights() const { return weights != nullptr; }
    // Some cells of S are still to be made (deferredScores): read only those the causal
    // mask leaves visible.
    [[nodiscard]] bool scoresPending() const { return deferredScores && deferredScores->pending(); }

    // L = S·scale/τ of head (b, h), ALiBi's bias and the cap applied, with the mask's fill
    // where the mask comes before the softmax: stage 6's output. It is not stored but made from S
    // when asked for (the same bits the softmax saw): storing it would cost a third more memory and
    // time in every switch, for numbers only a hover, an export or a test reads.
    [[nodiscard]] Matrix logits(int b, int h) const;
    // One cell of the same.
    [[nodiscard]] float logit(int b, int h, int i, int j) const;
    // Every head's, (B, H, T_q, T_k).
    [[nodiscard]] HeadStack allLogits() const;
};

// `result` without S, P, the mean over heads and P·V: the request, the tokens, the
// embeddings, the projections, the mask and the statistics stay. What a holder keeps that
// must not keep the (B, H, T, T) memory alive (hasWeights() and valid() are false).
[[nodiscard]] Result withoutHeadTensors(Result result);

// Thrown by compute() when its cancel flag was raised; the engine stays usable.
class Cancelled : public std::exception {
public:
    [[nodiscard]] const char* what() const noexcept override { return "cancelled"; }
};

class AttentionEngine {
public:
    // Brings the result up to date with `request` through stage `stopAfter`,
    // recomputing from the first stage the request changes; later stages of the
    // returned result are empty until a compute reaches them (the window shows the
    // heatmaps after Normalize, then the statistics). Throws InputError for an invalid
    // request (the previous result is kept) and Cancelled when `cancel` becomes true
    // between steps (the previous result is kept, except outputs this compute was
    // replacing that nobody outside the engine held: those were let go of so that their
    // memory takes the new ones, and the next compute makes them again).
    Result compute(const Request& request, const std::atomic<bool>* cancel = nullptr,
                   Stage stopAfter = Stage::Statistics);

    // The last complete result (empty before the first compute).
    [[nodiscard]] const Result& result() const { return result_; }

    // How many times `stage` has run; tests prove the staging with it.
    [[nodiscard]] int runs(Stage stage) const { return runs_[static_cast<int>(stage)]; }

    // How long `stage` took in the last compute, in milliseconds (0 when it did not run).
    [[nodiscard]] double lastMilliseconds(Stage stage) const
    {
        return milliseconds_[static_cast<int>(stage)];
    }

    // The first stage whose output differs between the two requests, or nullopt-like
    // Stage count (kStageCount) when nothing does.
    [[nodiscard]] static int firstChangedStage(const Request& before, const Request& after);

    // Whether stage 7 over the keys, when it runs on its own (a switch of the formula),
    // also makes Result::overviews in the same pass. The window's engine does: its grid
    // needs the mean over heads and each head's maximum at once. Off by default (the
    // command line and the benchmarks of the forward do not need them).
    void setMakesOverviews(bool makes) { makesOverviews_ = makes; }

    // How many bytes a compute may take, the previous result's included (the default is
    // memoryLimitBytes()); tests lower it to reach the refusals without the memory.
    void setMemoryLimit(double bytes) { memoryLimit_ = bytes; }

private:
    struct LayerKey {
        std::uint64_t seed;
        int dModel;
        EmbeddingMode embedding;
        int drawnBefore; // B·T in mode "torch": x's draws come first
        int kvWidth;     // K·d_k: W_k's and W_v's outputs
        bool operator==(const LayerKey&) const = default;
    };

    // One compute's working state and its stages, numbered as in ARCHITECTURE.md
    // (engine.cpp).
    struct Run;
    // Ends a compute: keeps the stages that are current in `next`, which becomes the result.
    Result finish(Run& run, Result next, int runThrough);

    Result result_;
    std::shared_ptr<const std::array<Linear, 4>> layers_; // W_q, W_k, W_v, W_o
    LayerKey layerKey_{};
    int completed_ = -1; // the last stage whose output in result_ is current
    double memoryLimit_ = memoryLimitBytes();
    bool makesOverviews_ = false;
    std::array<int, kStageCount> runs_{};
    std::array<double, kStageCount> milliseconds_{};
    // Stages 1–2 of the last compute that ran stage 2: how long stage 3's workers wait.
    double leadInMilliseconds_ = 0;
    // Stage outputs of earlier computes that no snapshot holds any more.
    Recycler<Projection> projections_;
    Recycler<HeadViews> splits_;
    Recycler<HeadStack> scores_, weights_;
    Recycler<Aggregation> aggregations_;
    Recycler<std::vector<HeadsOverview>> overviews_; // a switch's (setMakesOverviews)
};

// Makes result.overviews (overviewOfHeads for every sequence) when the softmax did not:
// what a grid of every head needs with the weights. Throws Cancelled when `cancel`
// becomes true between sequences.
void addOverviews(Result& result, const std::atomic<bool>* cancel = nullptr);

// The bytes one compute holds at its peak for B sequences of T tokens, C = d_model and
// H heads: scores and weights (B, H, T, T), the mask and the mean over heads (B, T, T),
// and the (B, T, C) tensors.
[[nodiscard]] double estimatedBytes(int B, int T, int C, int H);
// The same with T_q queries and T_k keys (cross-attention).
[[nodiscard]] double estimatedBytes(int B, int Tq, int Tk, int C, int H);
// The bytes of the matrices' floats.
[[nodiscard]] double bytesOf(const std::vector<Matrix>& matrices);
// The bytes of `result`'s outputs of stage `first` and later: a compute that makes those
// stages anew holds these too (in its previous result, which the window may still show)
// until it has finished.
[[nodiscard]] double heldBytes(const Result& result, Stage first);

// Tokens of `text` without computing anything else (the UI's chips).
[[nodiscard]] TokenBatch previewTokens(const std::string& text, TokenizerMode mode);

// The keys' tokens of a cross-attention request with `batch` query sequences: the
// lines of crossText, one line repeated for every sequence. Throws InputError for a blank
// text and for a line count that is neither 1 nor `batch`.
[[nodiscard]] TokenBatch crossTokens(const std::string& crossText, TokenizerMode mode, int batch);

} // namespace attn
