#include "stepscommand.h"

#include "clicommands.h"
#include "explanationhtml.h"
#include "exportcommand.h"
#include "figurearguments.h"
#include "formats/commandline.h"
#include "lab/explain.h"
#include "pipelinefigure.h"
#include "pipelinetiles.h"

#include <QByteArray>
#include <QGuiApplication>

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

namespace attn::cli {
namespace {

using attn::ui::FigureFormat;

constexpr int kMinWidth = 400;
constexpr int kMaxWidth = 8000;
constexpr double kDefaultPixelRatio = 2; // PNG pixels a strip pixel, as the dialog exports

struct StepsArguments {
    StepsFigureArguments steps;
    int head = 0;
};

std::vector<Option> stepsOptionTable(StepsArguments& a)
{
    std::vector<Option> table = {
        {"session", "FILE",
         QT_TRANSLATE_NOOP("Command line", "a saved session: its sentence, switches and colours"),
         [](std::string_view value) {
             if (value.empty())
                 throw InputError("--session needs a file name");
         }},
    };
    std::vector<Option> what;
    what.push_back({"what", "head:N",
                    QT_TRANSLATE_NOOP("Command line", "which head's pipeline (default head:0)"),
                    [&a](std::string_view value) {
                        const auto selection = ui::selectionFromSpelling(
                            QString::fromUtf8(value.data(), qsizetype(value.size())));
                        if (!selection || selection->what != ui::FigureWhat::Head)
                            throw InputError("--what must be head:N for the steps, not " +
                                             quoted(value));
                        a.head = selection->head;
                    }});
    for (Option& option : stepsFigureOptions(a.steps, std::move(what)))
        table.push_back(std::move(option));
    return table;
}

} // namespace

std::vector<Option> stepsFigureOptions(StepsFigureArguments& a, std::vector<Option> afterOut)
{
    std::vector<Option> table =
        fileOptions(a.figure, /*numbers*/ false,
                    QT_TRANSLATE_NOOP("Command line",
                                      "the figure to write (required; - is standard output): png, "
                                      "svg or pdf, by the extension"));
    for (Option& option : afterOut)
        table.push_back(std::move(option));
    table.push_back(
        {"cell", "I,J",
         QT_TRANSLATE_NOOP("Command line",
                           "the cell outlined in S, L, the mask and P: query I, key J (default: "
                           "the last query, key 0)"),
         [&a](std::string_view value) {
             const auto comma = value.find(',');
             int i = -1, j = -1;
             const auto parse = [](std::string_view text, int& number) {
                 const auto [end, error] =
                     std::from_chars(text.data(), text.data() + text.size(), number);
                 return !text.empty() && error == std::errc() && end == text.data() + text.size() &&
                        number >= 0;
             };
             if (comma == std::string_view::npos || !parse(value.substr(0, comma), i) ||
                 !parse(value.substr(comma + 1), j))
                 throw InputError("--cell must be two whole numbers I,J (query, key), not " +
                                  quoted(value));
             a.cell = {i, j};
         }});
    table.push_back(
        {"no-explanation", "",
         QT_TRANSLATE_NOOP("Command line",
                           "leave out the arithmetic of the outlined cell below the tiles"),
         [&a](std::string_view) { a.explanation = false; }});
    table.push_back({"width", "PX",
                     QT_TRANSLATE_NOOP(
                         "Command line",
                         "the strip's width in screen pixels, from 400 to 8000 (default 1300): the "
                         "tiles wrap into lines this wide"),
                     [&a](std::string_view value) {
                         a.width =
                             static_cast<int>(parseInteger("--width", value, kMinWidth, kMaxWidth));
                     }});
    // The look: no title (the tiles have theirs) and no DPI (the strip has screen pixels).
    for (Option& option : lookOptions(a.figure))
        if (option.name != "title" && option.name != "dpi")
            table.push_back(std::move(option));
    table.push_back(languageOption(a.figure));
    return table;
}

int writeStepsFigure(const Result& result, int head, const StepsFigureArguments& a,
                     FigureFormat format, ui::WeightColours colours, const StepsTileMaker& tilesOf)
{
    const int b = a.figure.sequence.value_or(0);
    const int lastQuery = std::max(0, result.tokens->lengths[std::size_t(b)] - 1);
    const auto [i, j] = a.cell.value_or(std::pair{lastQuery, 0});
    if (i >= result.length() || j >= result.keyLength())
        throw InputError("--cell " + std::to_string(i) + "," + std::to_string(j) +
                         " is not a cell: " + std::to_string(result.length()) + " queries and " +
                         std::to_string(result.keyLength()) + " keys, numbered from 0");

    // The tiles, laid out as the dialog lays them out, then the file.
    std::optional<QGuiApplication> app;
    std::optional<ui::Language> language;
    startFigures(app, language, a.figure);
    if (a.figure.colormap)
        colours.colormap = *a.figure.colormap;
    if (a.figure.logScale)
        colours.logScale = *a.figure.logScale;
    const std::vector<ui::StageTile> tiles =
        tilesOf ? tilesOf(colours) : ui::numberedPipelineTiles(result, b, head, colours);
    // Below the tiles, the arithmetic of the outlined cell as the dialog's panel gives it.
    QString explanation;
    const auto weights = std::find_if(tiles.begin(), tiles.end(), [](const ui::StageTile& t) {
        return t.stage == ui::PipelineStage::Weights;
    });
    if (a.explanation && weights != tiles.end())
        explanation =
            ui::explanationHtml(explainCell(result, b, head, i, j), weights->heatmap.queryLabel(i),
                                weights->heatmap.keyLabel(j));
    QString error;
    const std::optional<QByteArray> bytes =
        ui::pipelineFigureBytes(format, tiles, QSize(a.width, 0), QPoint(i, j),
                                {QGuiApplication::font(), QGuiApplication::palette(), nullptr},
                                a.figure.scale.value_or(kDefaultPixelRatio), &error, explanation);
    return writeFigure(bytes, error, a.figure.out);
}

std::string stepsHelp()
{
    StepsArguments scratch;
    return commandHelp(
        "steps", stepsOptionTable(scratch), "--json",
        {QT_TRANSLATE_NOOP("Command line",
                           "The tiles as Lab → Step by Step shows them: X, Q_h, K_h, V_h, S, L, "
                           "the mask, P, O_h, the concatenation and the output, each with its "
                           "formula and shape; below them the arithmetic of the outlined cell: "
                           "its dot product, scaling and softmax with the real numbers.")});
}

int stepsCommand(const std::vector<std::string>& args)
{
    try {
        StepsArguments a;
        const std::vector<Option> extra = stepsOptionTable(a);

        // 1. The request, as export reads it.
        std::optional<ui::Session> session;
        const ComputeOptions parsed = parseWithSession(args, extra, session);

        // 2. Where to, and in which format.
        const FigureFormat format = requiredFormatOf(a.steps.figure, /*numbers*/ false, "steps");

        // 3. The numbers, then the checks that need them; 4. the figure.
        AttentionEngine engine;
        const Result result = engine.compute(parsed.request);
        checkHeadAndSequence(result, a.head, a.steps.figure);
        ui::WeightColours colours;
        if (session) {
            colours.colormap = session->view.colormap;
            colours.logScale = session->view.logScale;
        }
        return writeStepsFigure(result, a.head, a.steps, format, colours);
    } catch (const InputError& error) {
        return fail(kExitUsage, error.what());
    }
}

} // namespace attn::cli
