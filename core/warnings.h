// Plain-language warnings drawn from the statistics, with what to try.
#pragma once

#include "translatable.h"

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
    NanRows,            // keys axis: a row with every key masked by -inf
    NanColumns,         // queries axis: a column with every query masked by -inf
    NanPositions,       // batch axis: a position masked by -inf in every sequence
    FullyMaskedUniform, // -1e9 fill over a fully masked row
    UniformRows,
    HeadSplitView,
};

// One warning; `arguments` fill the template's %1, %2, … in order.
struct Warning {
    WarningKind kind;
    std::vector<std::string> arguments;
    bool operator==(const Warning&) const = default;
};

// The share of rows (0.25 = 25 %) from which saturation and uniformity are warned about.
inline constexpr double kWarnShare = 0.25;

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
