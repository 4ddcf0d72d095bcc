// What `attnscope compute` prints: a readable report, or every number as JSON.
#pragma once

#include <span>
#include <string_view>

#include "engine/engine.h"
#include "engine/warnings.h"

#include <functional>
#include <string>
#include <string_view>

namespace attn {

// The words of the text report around its numbers, English unless given: the command
// line passes the interface language's (ui::reportWords) with --language. The shapes and
// the config line stay as the code spells them.
struct ReportWords {
    std::string tokens = "tokens";
    std::string crossQueries = "cross-attention, queries from";
    std::string crossKeys = "keys and values from";
    std::string config = "config:";
    std::string stdBefore = "std before scaling:";
    std::string stdAfter = "std after scaling:";
    std::string scale = "scale";
    std::string temperature = "temperature";
    std::string rowSums = "row sums:";
    std::string columnSums = "column sums:";
    std::string to = "to"; // "1.0000 to 1.0930"
    // The headings of the heads' table (std(S), std(L) and NaN are the same in every
    // language).
    std::string sequence = "seq";
    std::string head = "head";
    std::string ratio = "ratio";
    std::string entropyOfMax = "entropy/max";
    std::string largestWeight = "max w";
    std::string saturated = "saturated";
    std::string headRowSums = "row sums";
    std::string headColumnSums = "col sums";
    std::string noWarnings = "no warnings";
    std::string warnings = "warnings:";
    // A warning's text; warningText()'s English when empty.
    std::function<std::string(const Warning&)> warning;
};

// The tutorial-style report: tokens, shapes, std before and after scaling, row sums,
// a per-head table of statistics, and the warnings.
[[nodiscard]] std::string textReport(const Result& result, const ReportWords& words = {});

// One JSON object: tokens, config, shape, stats, warnings, heads (scores, scaled,
// weights and per-head stats as T×T nested lists), output (B×T×C) and nonfinite.
// Non-finite numbers are written as null and counted in "nonfinite".
[[nodiscard]] std::string jsonReport(const Result& result);

// The columns a terminal gives UTF-8 text: two for a wide or fullwidth character (CJK,
// as Unicode's East Asian Width has it), none for a combining mark or a zero-width one,
// one for everything else (ambiguous ones such as √ and ≥ included, as outside CJK
// locales). Tables pad by it, so that Chinese headings keep their columns.
[[nodiscard]] int terminalColumns(std::string_view utf8);

// `text` broken into lines of at most `width` terminal columns (a longer word keeps its
// line): at spaces, which the break takes, and between two characters of which one is
// wide (Chinese has no spaces), but never before closing punctuation such as ， 。 ） or
// after an opening bracket such as （ or 《.
[[nodiscard]] std::vector<std::string> wrapColumns(std::string_view text, int width);

// "(2, 4, 16)": a shape as PyTorch prints torch.Size.
[[nodiscard]] std::string shapeText(std::initializer_list<long long> dims);

} // namespace attn

namespace attn {
class JsonWriter;
// The "config" object: every switch, keyed and spelled as on the command line.
void writeConfig(JsonWriter& json, const Config& config);
// The same for the switches named in `names` alone (in the table's order), the object left
// open so that the caller can add keys of its own; close it with json.endObject().
void beginConfigObject(JsonWriter& json, const Config& config,
                       std::span<const std::string_view> names);
} // namespace attn
