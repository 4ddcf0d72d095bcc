// Plain-language warnings drawn from the statistics, with what to try.
#pragma once

#include "base/translatable.h"

#include <string>
#include <vector>

namespace attn {

struct Config;
struct Statistics;

enum class WarningKind {
    RowsNotNormalizedQueries, // softmax over dim=-2
    RowsNotNormalizedBatch,   // softmax over dim=0
    RowsNotNormalizedMask,    // mask after the softmax
    SaturatedNoScaling,
    SaturatedLowTemperature,
    Saturated,
    PeakedNoScaling, // peaked though no row is one-hot yet (kPeakedRowMax)
    PeakedLowTemperature,
    Peaked,
    NanRows,            // keys axis: a row with every key masked by -inf
    NanColumns,         // queries axis: a column with every query masked by -inf
    NanPositions,       // batch axis: a position masked by -inf in every sequence
    FullyMaskedUniform, // -1e9 fill over a fully masked row
    UniformRows,
    HeadSplitView,
    UniformCapped, // uniform rows under a soft-cap
    SinkTakesMost, // a sink took more than half of some rows
};

// One warning; `arguments` fill the template's %1, %2, … in order.
struct Warning {
    WarningKind kind;
    std::vector<std::string> arguments;
    bool operator==(const Warning&) const = default;
};

// The share of rows (0.25 = 25 %) from which saturation and uniformity are warned about.
inline constexpr double kWarnShare = 0.25;

// A softmax is peaked, short of saturation, when its rows (their means) pass both:
// * largest weight ≥ kPeakedRowMax = 0.5: one key outweighs all the others together;
// * entropy ≤ kPeakedEntropyShare = 0.5 of its largest, log2(keys): the row spreads its
//   weight as if over √(keys) keys or fewer.
// Why there: the tutorial's √d_k lesson prints the logits' std shrinking 1.19 → 0.30 at
// d_k 16 (÷√16), so without scaling the logits are √d_k times wider: ×8 at d_k 64, ×11 at
// 128. Measured over d_model 64–1024, d_k 16–256, eight English and Chinese sentences,
// seeds 0, 1, 42, 123, 2024, both embeddings, with and without a causal mask: the textbook
// formula keeps ≥ 0.76 of the largest entropy (every preset ≥ 0.63), so it never warns;
// without scaling, 98–100 % of the sentences warn at d_k 64–128 (the issue's "The cat sat
// on the mat because it was tired ." at C 512, H 4: 0.78 and 0.90 of 3.46 bits = 0.26)
// and none at d_k 16, where the tutorial says a small model shows no difference.
inline constexpr double kPeakedRowMax = 0.5;
inline constexpr double kPeakedEntropyShare = 0.5;

// The context under which the UI translates warning templates.
inline constexpr const char* kWarningContext = "Warnings";

// The English template of a warning, with %1, %2 … placeholders.
[[nodiscard]] const char* warningTemplate(WarningKind kind);

// The English text of a warning, placeholders filled.
[[nodiscard]] std::string warningText(const Warning& warning);

// Fills "%1", "%2" … of `pattern` with `arguments`: after a '%', the longest number of
// one or two digits that names an argument; everything else stays as it is.
[[nodiscard]] std::string fillPlaceholders(std::string pattern,
                                           const std::vector<std::string>& arguments);

// The warnings that `stats` and `config` call for, most important first.
[[nodiscard]] std::vector<Warning> deriveWarnings(const Statistics& stats, const Config& config);

} // namespace attn
