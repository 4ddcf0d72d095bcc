// The d_k sweep of the tutorial's exercise 1 ("把C从 16 改到 512，观察缩放前后标准差的变化"):
// the same sentence at d_k = 16, 32, … with and without the 1/√d_k scaling, and the
// figures that show why a larger d_k needs the scaling more.
//
// Every point has H = 1 and d_model = d_k, so d_k is the head dimension; the text, the
// seed and every other switch come from the base request, today's among them (QK-norm,
// RoPE and its θ, ALiBi, the cap, the window, the sink) unchanged, but the K/V heads: one
// head has one K/V head.
#pragma once

#include "engine/engine.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace attn {

// The largest d_k a sweep reaches (d_model's limit, as H = 1).
inline constexpr int kMaxSweepDk = kMaxDModel;

// The whole-tensor statistics of one configuration of the sweep.
struct SweepPoint {
    int dK = 0;
    bool scaled = false;         // scale mode sqrt-dk; else none
    double stdScores = 0;        // std of S = Q_h K_hᵀ
    double stdLogits = 0;        // std of S·scale/τ (S/τ when not scaled)
    double meanEntropy = 0;      // bits
    double meanEntropyMax = 0;   // log2 of the unmasked keys, averaged over rows
    double meanRowMax = 0;       // the largest weight of a row, averaged
    double meanJacobianNorm = 0; // ‖diag(p) − ppᵀ‖_F, averaged: the gradient that flows back
    double saturatedShare = 0;   // rows whose largest weight ≥ kSaturatedRowMax
    // std of L after ALiBi and the cap (Statistics::stdFinalLogits): stdLogits without them.
    double stdFinalLogits = 0;
    double maxSinkWeight = 0; // the largest weight the sink took from a row; 0 without one
    bool shifted = false;     // ALiBi or a cap made L differ from S·scale/τ (the base's switches)
    bool operator==(const SweepPoint&) const = default;
};

// Called after each computed point with how many are done of how many in all.
using SweepProgress = std::function<void(int done, int total)>;

// The d_k of a sweep: from, 2·from, 4·from, … up to `to`. Empty when the range is invalid.
[[nodiscard]] std::vector<int> sweepDkValues(int from, int to);

// The first problem of the range, or an empty string: `from` must be a power of two from 1
// to kMaxSweepDk, and `to` at least `from` and at most kMaxSweepDk (any number: the last
// point is the largest power of two not above it). Worded for the command line.
[[nodiscard]] std::string sweepRangeProblem(int from, int to);

// Computes every d_k of sweepDkValues(from, to), scaled then not scaled: two points per
// d_k, in that order. Throws InputError for an invalid range or text, and Cancelled when
// `cancel` becomes true (checked between the engine's steps).
[[nodiscard]] std::vector<SweepPoint> sweepDk(const Request& base, int from, int to,
                                              const std::atomic<bool>* cancel = nullptr,
                                              const SweepProgress& progress = {});

// The request of one point: `base` with H = 1 (and so one K/V head), d_model = d_k and the
// scaling on or off. Hand-set embedding vectors are kept only where d_k is the base's
// d_model (they have C values).
[[nodiscard]] Request sweepRequest(const Request& base, int dK, bool scaled);

// {"text", "config", "varies", "points": [{"d_k", "scaled", "std_scores", "std_scaled",
// "mean_entropy", "mean_entropy_max", "mean_row_max", "jacobian_norm", "saturated_share",
// "std_final_logits", "max_sink_weight"}, …]}. "config" is the base's with heads 1 (and
// kv-heads 0); "varies" names the keys of it that each point replaces: "d-model" (= d_k) and
// "scale" (sqrt-dk or none). "std_final_logits" is std_scaled after ALiBi and the cap (equal
// to it without them); "max_sink_weight" 0 without a sink.
[[nodiscard]] std::string sweepJson(const std::vector<SweepPoint>& points, const Request& base);

// The words of sweepText's table, English unless given: the command line passes the
// interface language's (ui::sweepWords) with --language. The numbers stay as printf
// spells them.
struct SweepWords {
    std::string title =
        "The same text at each d_k (H = 1, d_model = d_k), without and with the 1/√d_k scaling.";
    std::string dK = "d_k";
    std::string stdLogits = "std of the logits";
    std::string entropy = "row entropy (bits)";
    std::string rowMax = "largest weight";
    std::string jacobian = "Jacobian norm";
    std::string saturated = "saturated rows";
    // The sixth group, shown when ALiBi or a cap is on: the std of L after them.
    std::string stdFinal = "std after ALiBi/cap";
    std::string unscaled = "unscaled";
    std::string scaled = "scaled";
    // %1 is a uniform row's entropy ("2.000"), %2 the weight that saturates a row ("0.99").
    std::string footer = "A uniform row has %1 bits; a saturated row puts ≥ %2 on one key.";
};

// A table for the terminal: one line per d_k, the unscaled and scaled figures side by side,
// its columns padded by terminalColumns so that wide (CJK) headings keep them; the std after
// ALiBi and the cap as a sixth group when a point has them (SweepPoint::shifted).
[[nodiscard]] std::string sweepText(const std::vector<SweepPoint>& points,
                                    const SweepWords& words = {});

} // namespace attn
