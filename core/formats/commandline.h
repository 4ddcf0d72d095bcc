// The command line's options: one table gives parsing, validation and the help text.
#pragma once

#include "base/translatable.h"
#include "engine/engine.h"
#include "io/atomicwrite.h" // the commands write their files through it

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// A value as refusals quote it: 'value'.
[[nodiscard]] std::string quotedArgument(std::string_view text);

// One --name option. `apply` receives the value (empty for a flag) and throws
// InputError naming the problem when the value is not acceptable.
// `help` is English and marked for lupdate (QT_TRANSLATE_NOOP("Command line", …)), so that
// optionHelp can print it in another language; a "%1" in it stands for `helpArgument`.
struct Option {
    std::string name;      // without the leading "--"
    std::string valueName; // e.g. "keys|queries|batch"; empty for a flag
    std::string help;
    std::function<void(std::string_view value)> apply;
    std::string helpArgument = {};
};

// Gives the text of a help in the language of the output (the identity for English).
using HelpTranslator = std::function<std::string(const std::string& english)>;

// What every computing command (compute, export, sweep) takes.
struct ComputeOptions {
    Request request;
    std::string presetName;      // empty when no --preset was given
    std::string jsonPath;        // --json: empty = none, "-" = standard output
    bool crossTextGiven = false; // a --cross-text was given (it replaces a preset's)
};

// Parses `args` (after the command word) into the compute options, plus `extra`
// options of the calling command, starting from `start` (a session's request, say; the
// defaults when not given). A --preset replaces `start`, whatever its place, so later
// options change the preset; --text replaces the starting text, the first --cross-text the
// starting keys' text. Every field of `start` (requestfields.h), its embedding overrides
// too, stays unless an option changes it. Throws InputError.
[[nodiscard]] ComputeOptions parseComputeArguments(const std::vector<std::string>& args,
                                                   const std::vector<Option>& extra = {},
                                                   bool acceptJson = true,
                                                   const Request& start = {});

// Applies each of `args` ("--name value", "--name=value", "--flag") with its option of
// `table`, in the order given. Throws InputError for an unknown option, a missing value or
// an argument that is not an option.
void applyOptions(const std::vector<std::string>& args, const std::vector<Option>& table);

// The options table of parseComputeArguments, bound to `target` (for help texts).
[[nodiscard]] std::vector<Option> computeOptionTable(ComputeOptions& target, bool acceptJson);

// "  --name VALUE   help" lines for `options`, each help through `translate` when given,
// wrapped by terminal columns (wrapColumns) so that no line passes 80.
[[nodiscard]] std::string optionHelp(const std::vector<Option>& options,
                                     const HelpTranslator& translate = {});

// One row of a help: `left` (an option, a usage) in a column `column` wide, on a line of its
// own when it leaves no two spaces, and `text` wrapped beside it (wrapColumns) so that no
// line passes 80 columns; `left` alone when `text` is empty.
[[nodiscard]] std::string helpRow(const std::string& left, const std::string& text, int column);

// `paragraph` (through `translate` when given) wrapped to 80 columns, each line indented
// by `indent` spaces and ended by a newline.
[[nodiscard]] std::string helpParagraph(const std::string& paragraph, int indent,
                                        const HelpTranslator& translate = {});

// Strict number parsing for option values; throw InputError naming `option`.
// Whether `args` give the option --`name` (as "--name VALUE" or "--name=VALUE"): what picks
// the form of a command (compute --model, export --attention-file …) before its options
// are parsed.
[[nodiscard]] bool namesOption(const std::vector<std::string>& args, std::string_view name);

[[nodiscard]] long long parseInteger(std::string_view option, std::string_view text, long long min,
                                     long long max);
[[nodiscard]] std::uint64_t parseSeed(std::string_view option, std::string_view text);
[[nodiscard]] double parseReal(std::string_view option, std::string_view text);

} // namespace attn
