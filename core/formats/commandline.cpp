#include "formats/commandline.h"

#include "formats/report.h"
#include "formats/requestfields.h"
#include "lab/presets.h"

#include <charconv>
#include <cmath>

namespace attn {

std::string quotedArgument(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

bool namesOption(const std::vector<std::string>& args, std::string_view name)
{
    for (const std::string& arg : args)
        if (arg.starts_with("--") && std::string_view(arg).substr(2, name.size()) == name &&
            (arg.size() == name.size() + 2 || arg[name.size() + 2] == '='))
            return true;
    return false;
}

long long parseInteger(std::string_view option, std::string_view text, long long min, long long max)
{
    long long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw InputError(std::string(option) + " must be a whole number, not " +
                         quotedArgument(text));
    if (value < min || value > max)
        throw InputError(std::string(option) + " must be between " + std::to_string(min) + " and " +
                         std::to_string(max) + ", not " + std::string(text));
    return value;
}

std::uint64_t parseSeed(std::string_view option, std::string_view text)
{
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw InputError(std::string(option) + " must be a whole number from 0 to " +
                         std::to_string(UINT64_MAX) + ", not " + quotedArgument(text));
    return value;
}

double parseReal(std::string_view option, std::string_view text)
{
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
        !std::isfinite(value))
        throw InputError(std::string(option) + " must be a number, not " + quotedArgument(text));
    return value;
}

std::vector<Option> computeOptionTable(ComputeOptions& target, bool acceptJson)
{
    // 1. One option per field of the request (requestfields.h), in the help's order: the
    // texts, what to do with them (--attention), then the switches, --preset among them.
    std::vector<const RequestField*> order;
    for (const RequestField& field : requestFields())
        if (!field.inConfig)
            order.push_back(&field);
    order.push_back(findRequestField(EnumTable<AttentionKind>::option));
    for (const RequestField& field : requestFields())
        if (field.inConfig && field.name != EnumTable<AttentionKind>::option)
            order.push_back(&field);

    std::vector<Option> table;
    for (const RequestField* field : order) {
        Option option{
            field->name, field->valueName, field->help,
            [&target, field](std::string_view value) { field->parse(target.request, value); }};
        // 2. The texts add up: --text once per line of a batch; the first --cross-text
        // replaces the starting one (a preset's or a session's), and asks for cross-attention.
        if (field->name == "text")
            option.apply = [&target](std::string_view value) {
                if (!target.request.text.empty())
                    target.request.text += '\n';
                target.request.text += value;
            };
        else if (field->name == "cross-text")
            option.apply = [&target](std::string_view value) {
                if (target.crossTextGiven)
                    target.request.crossText += '\n';
                else
                    target.request.crossText.clear();
                target.crossTextGiven = true;
                target.request.crossText += value;
                target.request.config.attention = AttentionKind::Cross;
            };
        table.push_back(std::move(option));
        if (field->name == EnumTable<TokenizerMode>::option)
            table.push_back({"preset", "NAME",
                             QT_TRANSLATE_NOOP(
                                 "Command line",
                                 "start from a ready-made configuration (see 'attnscope presets')"),
                             [&target](std::string_view value) { target.presetName = value; }});
    }
    if (acceptJson)
        table.push_back({"json", "FILE",
                         QT_TRANSLATE_NOOP("Command line",
                                           "write every number as JSON ('-' = standard output)"),
                         [&target](std::string_view value) {
                             if (value.empty())
                                 throw InputError(
                                     "--json needs a file name, or - for standard output");
                             target.jsonPath = value;
                         }});
    return table;
}

namespace {

// Every option of `args` paired with its value, in the order given.
std::vector<std::pair<const Option*, std::string>> pairOptions(const std::vector<std::string>& args,
                                                               const std::vector<Option>& table)
{
    std::vector<std::pair<const Option*, std::string>> given;
    for (std::size_t k = 0; k < args.size(); ++k) {
        std::string_view arg = args[k];
        if (arg.size() < 3 || !arg.starts_with("--"))
            throw InputError("unexpected argument " + quotedArgument(arg) +
                             " (options start with --)");
        std::string_view name = arg.substr(2);
        std::optional<std::string> value;
        if (const auto eq = name.find('='); eq != std::string_view::npos) {
            value = std::string(name.substr(eq + 1));
            name = name.substr(0, eq);
        }
        const Option* option = nullptr;
        for (const Option& o : table)
            if (o.name == name)
                option = &o;
        if (!option)
            throw InputError("unknown option --" + std::string(name));
        if (option->valueName.empty()) {
            if (value)
                throw InputError("--" + std::string(name) + " takes no value");
            value = std::string();
        } else if (!value) {
            if (k + 1 >= args.size())
                throw InputError("--" + std::string(name) + " needs a value (" + option->valueName +
                                 ")");
            value = args[++k];
        }
        given.emplace_back(option, std::move(*value));
    }
    return given;
}

} // namespace

void applyOptions(const std::vector<std::string>& args, const std::vector<Option>& table)
{
    for (const auto& [option, value] : pairOptions(args, table))
        option->apply(value);
}

ComputeOptions parseComputeArguments(const std::vector<std::string>& args,
                                     const std::vector<Option>& extra, bool acceptJson,
                                     const Request& start)
{
    ComputeOptions parsed;
    parsed.request = start;
    std::vector<Option> table = computeOptionTable(parsed, acceptJson);
    table.insert(table.end(), extra.begin(), extra.end());

    // 1. Pair every option with its value, rejecting unknown names and missing values.
    const std::vector<std::pair<const Option*, std::string>> given = pairOptions(args, table);

    // 2. The preset first, so that every other option changes it.
    for (const auto& [option, value] : given)
        if (option->name == "preset")
            option->apply(value);
    if (!parsed.presetName.empty()) {
        const Preset* preset = findPreset(parsed.presetName);
        if (!preset) {
            std::string names;
            for (const Preset& p : presets())
                names += (names.empty() ? "" : "|") + std::string(p.name);
            throw InputError("--preset must be " + names + ", not " +
                             quotedArgument(parsed.presetName));
        }
        parsed.request = preset->request;
    }
    const std::string presetText = parsed.request.text;
    parsed.request.text.clear();

    // 3. Everything else, in the order given. ALiBi gives the positions itself: with
    // --alibi on the encoding added to x defaults to none (an explicit --positional stays).
    bool positionalGiven = false;
    for (const auto& [option, value] : given) {
        if (option->name != "preset")
            option->apply(value);
        positionalGiven = positionalGiven || option->name == EnumTable<Positional>::option;
    }
    if (parsed.request.config.alibi && !positionalGiven && namesOption(args, "alibi"))
        parsed.request.config.positional = Positional::None;
    if (parsed.request.text.empty())
        parsed.request.text = presetText;

    if (const std::string problem = validate(parsed.request.config); !problem.empty())
        throw InputError(problem);
    if (parsed.request.text.find_first_not_of(" \t\r\n\f\v") == std::string::npos)
        throw InputError("no text: give a sentence with --text or a --preset");
    if (parsed.request.config.attention == AttentionKind::Cross &&
        parsed.request.crossText.find_first_not_of(" \t\r\n\f\v") == std::string::npos)
        throw InputError("cross-attention needs the keys' and values' text: give it with "
                         "--cross-text");
    return parsed;
}

namespace {

constexpr int kHelpWidth = 80;

std::string helpText(const Option& o, const HelpTranslator& translate)
{
    std::string text = translate ? translate(o.help) : o.help;
    if (const std::size_t at = text.find("%1"); at != std::string::npos)
        text.replace(at, 2, o.helpArgument);
    return text;
}

} // namespace

std::string helpRow(const std::string& left, const std::string& text, int column)
{
    std::string out, line = left;
    if (terminalColumns(line) + 2 > column) {
        out += line + "\n";
        line.clear();
    }
    line.append(std::size_t(std::max(0, column - terminalColumns(line))), ' ');
    const std::vector<std::string> lines = wrapColumns(text, kHelpWidth - column);
    for (const std::string& wrapped : lines) {
        out += line + wrapped + "\n";
        line.assign(std::size_t(column), ' ');
    }
    if (lines.empty())
        out += line + "\n";
    return out;
}

std::string optionHelp(const std::vector<Option>& options, const HelpTranslator& translate)
{
    // "  --name VALUE" in a column of its own, the help beside it.
    constexpr int kColumn = 30;
    std::string out;
    for (const Option& o : options)
        out += helpRow("  --" + o.name + (o.valueName.empty() ? "" : " " + o.valueName),
                       helpText(o, translate), kColumn);
    return out;
}

std::string helpParagraph(const std::string& paragraph, int indent, const HelpTranslator& translate)
{
    std::string out;
    for (const std::string& line :
         wrapColumns(translate ? translate(paragraph) : paragraph, kHelpWidth - indent))
        out += std::string(std::size_t(indent), ' ') + line + "\n";
    return out;
}

} // namespace attn
