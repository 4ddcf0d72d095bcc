// The monkey's oracle: what one action may cost (the budget, smaller in slow builds), what
// the window must show for a request (its tokens, or the core's refusal in the interface
// language), and the checks every result's weights must pass.
//
// Legend: B sequences, T tokens each, C = d_model, H heads.
#pragma once

#include "engine/engine.h"
#include "session.h"

#include <QString>

#include <optional>

namespace attn::test {

// Unoptimised and sanitised builds (CI's Debug + ASan/UBSan pass) run an order of
// magnitude slower; they get a smaller budget, so the run still ends within minutes.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif
#ifdef NDEBUG
constexpr bool kFastBuild = !kSanitized;
#else
constexpr bool kFastBuild = false;
#endif

// The most one action may ask of the engine and the painting.
struct Budget {
    qint64 cells;       // B·H·T²: each (B, H, T, T) tensor, the statistics, the heatmaps
    qint64 projection;  // B·T·C²: each of the four linear layers
    qint64 layers;      // C²: the draws of W_q, W_k, W_v, W_o
    int heads;          // H: one heatmap widget and one table row each
    qint64 numberCells; // B·H·T² written as CSV, NPY or JSON
    qint64 figureCells; // (H + 1)·T² drawn into a PNG or the clipboard
    int settleMs;       // the longest one action may take to settle
};
constexpr Budget kBudget =
    kFastBuild ? Budget{40'000'000, 400'000'000, 4096 * 4096, 512, 200'000, 2'000'000, 60'000}
               : Budget{3'000'000, 20'000'000, 4096 * 4096, 64, 20'000, 200'000, 120'000};

// The tokens of `request`, or the core's one-line reason why there are none.
struct Outcome {
    std::optional<TokenBatch> tokens;
    std::optional<TokenBatch> keys; // the second text's in cross-attention, else tokens
    QString error;
};

// `text` for the action log: controls as \\uXXXX, at most 40 characters.
[[nodiscard]] QString shown(const QString& text);

// The window's refusal of `request`: the core's message, or for a text of white space
// the window's own, in the interface language.
[[nodiscard]] Outcome expectedOutcome(const Request& request);

// Whether `request` is within the budget; a refused one always is.
[[nodiscard]] bool affordable(const Request& request);

// "B 2 · T 7 · C 64 · H 4 · tokenizer auto" for the action log, or the refusal.
[[nodiscard]] QString describe(const Request& request);

// Where two sessions differ, for the failure message.
[[nodiscard]] QString sessionDifference(const ui::Session& a, const ui::Session& b);

// The cells of the result's (B, H, T_q, T_k) weights.
[[nodiscard]] qint64 weightCells(const Result& result);

// Empty when every weight is a probability, or NaN where PyTorch gives NaN too: a
// softmax over a slice that the -inf fill masked entirely, which only a softmax over
// the queries or the batch can meet (every row keeps at least key 0).
[[nodiscard]] QString weightProblems(const Result& result);

} // namespace attn::test
