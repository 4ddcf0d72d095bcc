#include "comparecommand.h"

#include "clicommands.h"
#include "comparefigure.h"
#include "exportcommand.h"
#include "figurearguments.h"
#include "formats/commandline.h"
#include "lab/comparison.h"
#include "offscreen.h"

#include <QByteArray>
#include <QGuiApplication>

#include <algorithm>
#include <optional>
#include <utility>

namespace attn::cli {
namespace {

using attn::ui::FigureFormat;

// A comparison's tokens up to which the figure prints the weights in their cells unless
// told otherwise, as the dialog's export does.
constexpr int kAnnotatedTokens = 16;

// The formula's switches, which A may set with --a-NAME (withSwitches' fields); the rest
// (text, sizes, seed, K/V heads, embedding, positions) both sides share.
constexpr std::string_view kSwitches[] = {
    "scale",        "temperature", "axis",  "mask",    "mask-fill", "mask-stage", "head-split",
    "padding-mask", "qk-norm",     "alibi", "softcap", "window",    "sink"};

struct CompareArguments {
    FigureArguments figure;  // --out, --format and the look shared with export
    std::optional<int> head; // −1: the mean of the heads
    std::optional<bool> annotate;
    bool caption = true;
    // A's switches as given (--a-scale none → {"scale", "none"}), applied once B is known.
    std::vector<std::pair<std::string, std::string>> aSwitches;
};

// --a-NAME for each switch of the compute options: the same values, checked at once.
std::vector<Option> aSwitchOptions(CompareArguments& a)
{
    static ComputeOptions scratch; // the values' checks write here
    std::vector<Option> options;
    for (const Option& option : computeOptionTable(scratch, false)) {
        if (std::ranges::find(kSwitches, option.name) == std::end(kSwitches))
            continue;
        const std::string name = option.name;
        const auto check = option.apply;
        options.push_back({"a-" + name, option.valueName,
                           QT_TRANSLATE_NOOP("Command line", "A's %1 (default: the textbook's)"),
                           [&a, name, check](std::string_view value) {
                               try {
                                   check(value);
                               } catch (const InputError& error) {
                                   // "--scale must be …" said of --a-scale
                                   std::string message = error.what();
                                   if (message.starts_with("--"))
                                       message.insert(2, "a-");
                                   throw InputError(message);
                               }
                               a.aSwitches.emplace_back(name, std::string(value));
                           },
                           name});
    }
    return options;
}

std::vector<Option> compareOptionTable(CompareArguments& a)
{
    std::vector<Option> table = {
        {"session", "FILE",
         QT_TRANSLATE_NOOP("Command line",
                           "a saved session: its sentence, switches (B) and colours"),
         [](std::string_view value) {
             if (value.empty())
                 throw InputError("--session needs a file name");
         }},
    };
    for (Option& option :
         fileOptions(a.figure, /*numbers*/ false,
                     QT_TRANSLATE_NOOP("Command line",
                                       "the figure to write (required; - is standard output): png, "
                                       "svg or pdf, by the extension")))
        table.push_back(std::move(option));
    table.push_back(
        {"what", "mean|head:N",
         QT_TRANSLATE_NOOP("Command line", "head N (default head:0) or the mean of the heads"),
         [&a](std::string_view value) {
             const auto selection = ui::selectionFromSpelling(
                 QString::fromUtf8(value.data(), qsizetype(value.size())));
             if (!selection || selection->what == ui::FigureWhat::Grid)
                 throw InputError("--what must be mean or head:N for a comparison, not " +
                                  quoted(value));
             a.head = selection->what == ui::FigureWhat::Mean ? -1 : selection->head;
         }});
    for (Option& option : lookOptions(a.figure))
        table.push_back(std::move(option));
    table.push_back(languageOption(a.figure));
    for (Option option : std::initializer_list<Option>{
             {"annotate", "",
              QT_TRANSLATE_NOOP("Command line",
                                "print each weight in its cell (the default up to 16 tokens)"),
              [&a](std::string_view) { a.annotate = true; }},
             {"no-annotate", "", QT_TRANSLATE_NOOP("Command line", "print no weights"),
              [&a](std::string_view) { a.annotate = false; }},
             {"no-caption", "",
              QT_TRANSLATE_NOOP("Command line", "leave out the caption naming both configurations"),
              [&a](std::string_view) { a.caption = false; }},
         })
        table.push_back(std::move(option));
    for (Option& option : aSwitchOptions(a))
        table.push_back(std::move(option));
    return table;
}

} // namespace

std::string compareHelp()
{
    CompareArguments scratch;
    return commandHelp(
        "compare", compareOptionTable(scratch), "--json",
        {QT_TRANSLATE_NOOP("Command line",
                           "Both sides compute the same text, sizes, seed and embedding. B takes "
                           "the switches given (or the session's); A the textbook formula "
                           "(÷√d_k, τ = 1, softmax over the keys, mask before it with -inf, view "
                           "+ transpose), keeping B's mask, unless --a-… options change it.")});
}

int compareCommand(const std::vector<std::string>& args)
{
    try {
        CompareArguments a;
        const std::vector<Option> extra = compareOptionTable(a);

        // 1. B: the session, the preset and the options, as export reads them.
        std::optional<ui::Session> session;
        const ComputeOptions b = parseWithSession(args, extra, session);

        // 2. A: the textbook switches of B's input, then --a-… in the order given.
        ComputeOptions aOptions;
        aOptions.request = b.request;
        aOptions.request.config = textbookSwitches(b.request.config);
        const std::vector<Option> switches = computeOptionTable(aOptions, false);
        for (const auto& [name, value] : a.aSwitches)
            std::ranges::find(switches, name, &Option::name)->apply(value);
        if (const std::string problem = validate(aOptions.request.config); !problem.empty())
            throw InputError("A: " + problem);

        // 3. Where to, and in which format.
        const FigureFormat format = requiredFormatOf(a.figure, /*numbers*/ false, "compare");

        // 4. Both sides, then the checks that need them.
        AttentionEngine engine;
        const Result resultA = engine.compute(aOptions.request);
        const Result resultB = engine.compute(b.request);
        const int head = a.head.value_or(0);
        checkHeadAndSequence(resultB, head, a.figure);

        // 5. The figure, drawn offscreen, written atomically.
        const FigureArguments& f = a.figure;
        ui::ComparisonOptions options;
        options.head = head;
        options.sequence = f.sequence.value_or(0);
        if (f.title)
            options.title = QString::fromStdString(*f.title);
        options.caption = a.caption;
        options.annotate = a.annotate.value_or(resultB.length() <= kAnnotatedTokens);
        options.colormap =
            f.colormap.value_or(session ? session->view.colormap : ui::ColormapName::Viridis);
        options.logScale = f.logScale.value_or(session && session->view.logScale);
        options.scale = f.scale.value_or(options.scale);
        options.dpi = f.dpi.value_or(options.dpi);
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        startFigures(app, language, f);
        QString error;
        const std::optional<QByteArray> bytes =
            ui::comparisonBytes(format, resultA, resultB, options, &error);
        return writeFigure(bytes, error, f.out);
    } catch (const InputError& error) {
        return fail(kExitUsage, error.what());
    }
}

} // namespace attn::cli
