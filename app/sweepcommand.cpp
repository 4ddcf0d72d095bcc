#include "sweepcommand.h"

#include "clicommands.h"
#include "figurearguments.h"
#include "formats/commandline.h"
#include "lab/sweep.h"
#include "labels.h"
#include "offscreen.h"
#include "sweepfigure.h"

#include <QApplication>
#include <QByteArray>

#include <cstdio>
#include <optional>

namespace attn::cli {
namespace {

using attn::ui::FigureFormat;

constexpr int kDefaultFrom = 16;
constexpr int kDefaultTo = 1024;

struct SweepArguments {
    int from = kDefaultFrom;
    int to = kDefaultTo;
    FigureArguments figure; // --out and --format, as export and compare take them
};

std::vector<Option> sweepOptionTable(SweepArguments& a)
{
    const std::string max = std::to_string(kMaxSweepDk);
    std::vector<Option> table = {
        {"from", "N",
         QT_TRANSLATE_NOOP("Command line", "the first d_k: a power of two, 1 to %1 (default 16)"),
         [&a](std::string_view value) {
             a.from = static_cast<int>(parseInteger("--from", value, 1, kMaxSweepDk));
         },
         max},
        {"to", "N", QT_TRANSLATE_NOOP("Command line", "the last d_k, at most %1 (default 1024)"),
         [&a](std::string_view value) {
             a.to = static_cast<int>(parseInteger("--to", value, 1, kMaxSweepDk));
         },
         max},
    };
    for (Option& option : fileOptions(
             a.figure, /*numbers*/ false,
             QT_TRANSLATE_NOOP("Command line",
                               "the charts as a figure: png, svg or pdf, by the extension")))
        table.push_back(std::move(option));
    table.push_back(languageOption(
        a.figure.language,
        QT_TRANSLATE_NOOP(
            "Command line",
            "the language of the table, or of the figure's titles and caption (default en)")));
    return table;
}

// What the arguments say before the real parse: whether they name a text (else the sweep
// runs the tutorial's program), and the first option that a sweep sets itself.
struct Given {
    bool text = false;
    std::string overridden;
};

Given given(const std::vector<std::string>& args, const std::vector<Option>& extra)
{
    ComputeOptions scratch;
    std::vector<Option> table = computeOptionTable(scratch, true);
    table.insert(table.end(), extra.begin(), extra.end());
    Given g;
    for (std::size_t k = 0; k < args.size(); ++k) {
        std::string_view name = args[k];
        if (!name.starts_with("--"))
            break; // the parse reports it
        name.remove_prefix(2);
        const bool inlineValue = name.find('=') != std::string_view::npos;
        name = name.substr(0, name.find('='));
        const auto option = std::ranges::find(table, name, &Option::name);
        if (option == table.end())
            break;
        if (!option->valueName.empty() && !inlineValue)
            ++k; // its value
        g.text = g.text || name == "text" || name == "preset";
        // --kv-heads too, though the help's line has no room to name it: one head has one.
        if (g.overridden.empty() &&
            (name == "d-model" || name == "heads" || name == "kv-heads" || name == "scale"))
            g.overridden = name;
    }
    return g;
}

} // namespace

std::string sweepHelp()
{
    SweepArguments scratch;
    return commandHelp(
        "sweep", sweepOptionTable(scratch),
        QT_TRANSLATE_NOOP("Command line", "--d-model, --heads and --scale"),
        {QT_TRANSLATE_NOOP("Command line",
                           "d_k doubles from --from while it is at most --to. Every point has "
                           "H = 1 and d_model = d_k and is computed twice, with --scale sqrt-dk "
                           "and with none. Without --text or --preset, a sweep takes the "
                           "tutorial's text and switches (--preset article)."),
         QT_TRANSLATE_NOOP("Command line", "Without --json or --out, a table is printed.")});
}

int sweepCommand(const std::vector<std::string>& args)
{
    try {
        SweepArguments a;
        const std::vector<Option> extra = sweepOptionTable(a);

        // 1. The arguments; the tutorial's program when they name no text.
        const Given g = given(args, extra);
        if (!g.overridden.empty())
            throw InputError("--" + g.overridden +
                             " is not an option of sweep: every point has H = 1, d_model = d_k, "
                             "and is computed with and without scaling");
        std::vector<std::string> all;
        if (!g.text)
            all.push_back("--preset=article");
        all.insert(all.end(), args.begin(), args.end());
        const ComputeOptions parsed = parseComputeArguments(all, extra);
        if (const std::string problem = sweepRangeProblem(a.from, a.to); !problem.empty())
            throw InputError(problem);

        // 2. Where to, and in which format.
        std::optional<FigureFormat> format;
        if (!a.figure.out.empty())
            format = formatOf(a.figure, /*numbers*/ false);
        if (a.figure.format && a.figure.out.empty())
            throw InputError("--format needs --out FILE");
        if (a.figure.out == "-" && parsed.jsonPath == "-")
            throw InputError("--json - and --out - cannot both write to standard output");

        // 3. The points, then the files' bytes (the figure drawn offscreen). The table's
        // words, like the figure's, come from the application's translations.
        const std::vector<SweepPoint> points = sweepDk(parsed.request, a.from, a.to);
        const bool table = parsed.jsonPath.empty() && a.figure.out.empty();
        std::optional<QApplication> app;
        std::optional<ui::Language> language;
        if (format || (table && a.figure.language))
            startFigures(app, language, a.figure);
        std::optional<QByteArray> figure;
        if (format) {
            QString error;
            figure =
                ui::sweepFigureBytes(*format, points, ui::sweepCaption(parsed.request), &error);
            if (!figure)
                throw InputError(error.toStdString());
        }

        // 4. Each file written atomically; a table when no file was asked for.
        std::string problem;
        if (table)
            problem = writeFileAtomically(
                "-", sweepText(points, language ? ui::sweepWords() : SweepWords{}));
        if (problem.empty() && !parsed.jsonPath.empty())
            problem = writeFileAtomically(parsed.jsonPath, sweepJson(points, parsed.request));
        if (problem.empty() && figure)
            problem = writeFileAtomically(a.figure.out, figure->toStdString());
        if (!problem.empty())
            return fail(kExitWriteFailed, problem);
        return kExitOk;
    } catch (const InputError& error) {
        return fail(kExitUsage, error.what());
    }
}

} // namespace attn::cli
