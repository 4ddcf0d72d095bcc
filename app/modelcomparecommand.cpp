#include "modelcomparecommand.h"

#include "attention/attentionreport.h"
#include "clicommands.h"
#include "figurearguments.h"
#include "modelcommand.h"
#include "modelcomparison.h"

#include <QGuiApplication>

#include <cstdint>
#include <optional>

namespace attn::cli {
namespace {

// A comparison's tokens up to which the figure prints the weights in their cells unless
// told otherwise, as compare and the window's export do.
constexpr int kAnnotatedTokens = 16;

struct ModelCompareArguments {
    ModelArguments model;
    std::optional<int> layer;
    ui::FileSelection selection; // head:0 unless --what says
    FigureArguments figure;
    std::optional<bool> annotate;
    bool caption = true;
};

std::vector<Option> modelCompareOptions(ModelCompareArguments& a)
{
    std::vector<Option> table = modelOptions(a.model, ModelCommand::Compare);
    table.push_back({"layer", "L",
                     QT_TRANSLATE_NOOP("Command line", "the layer both sides show, from 0 "
                                                       "(required with --model)"),
                     [&a](std::string_view value) {
                         a.layer = int(parseInteger("--layer", value, 0, INT32_MAX));
                     }});
    table.push_back(
        {"what", "head:H|mean",
         QT_TRANSLATE_NOOP("Command line",
                           "head H of the layer (default head:0) or the mean of its heads"),
         [&a](std::string_view value) {
             const auto selection = ui::fileSelectionFromSpelling(
                 QString::fromUtf8(value.data(), qsizetype(value.size())));
             if (!selection || selection->what == ui::FileWhat::Model)
                 throw InputError("--what must be head:H or mean for a comparison, not " +
                                  quoted(value));
             a.selection = *selection;
         }});
    for (Option& option :
         fileOptions(a.figure, /*numbers*/ false,
                     QT_TRANSLATE_NOOP("Command line",
                                       "the figure to write (required; - is standard output): png, "
                                       "svg or pdf, by the extension")))
        table.push_back(std::move(option));
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
              QT_TRANSLATE_NOOP("Command line",
                                "leave out the caption naming both sides and their predictions"),
              [&a](std::string_view) { a.caption = false; }},
         })
        table.push_back(std::move(option));
    return table;
}

} // namespace

std::string modelCompareHelp(const HelpTranslator& translate)
{
    ModelCompareArguments scratch;
    const std::string title = QT_TRANSLATE_NOOP(
        "Command line", "options of compare with a model (beside --text and the switches "
                        "compute --model takes, which make B; A is the model's textbook "
                        "formula):");
    return helpParagraph(title, 0, translate) + optionHelp(modelCompareOptions(scratch), translate);
}

int modelCompareCommand(const std::vector<std::string>& args)
{
    return refusingModelErrors([&] {
        // 1. The options: the text, B's switches (from the model's own formula), --model,
        // --only-layer, --layer, --what and the figure's, each checked before the runs.
        refuseOptionsNotForModels(args, /*figure*/ true);
        ModelCompareArguments a;
        noteGivenSwitches(a.model, args);
        Request start;
        start.config = ModelSwitches::textbookFormula();
        const ComputeOptions options =
            parseComputeArguments(args, modelCompareOptions(a), false, start);
        const ui::FigureFormat format = requiredFormatOf(a.figure, /*numbers*/ false, "compare");
        if (!a.layer)
            throw InputError("compare --model needs --layer L");

        // 2. B, the switched run, then A, the textbook run of the same text.
        const ModelRun switched = runModel(a.model, options);
        const ModelInfo& info = switched.model->info();
        checkSequenceAndLayer(*switched.attention, a.figure.sequence.value_or(0), *a.layer,
                              a.selection.what == ui::FileWhat::Head
                                  ? std::optional(a.selection.head)
                                  : std::nullopt);
        ModelSwitches textbook;
        textbook.formula = ModelSwitches::textbookFormula(info);
        const ModelRun textbookRun = switched.model->run(options.request.text, textbook);

        // 3. The figure, drawn offscreen, written atomically.
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        startFigures(app, language, a.figure);
        const FigureArguments& f = a.figure;
        ui::ModelComparisonOptions compare;
        compare.layer = *a.layer;
        compare.selection = a.selection;
        compare.departures = ui::modelDepartures(switched.switches, info);
        compare.figure.title = f.title ? QString::fromStdString(*f.title) : QString();
        compare.figure.caption = a.caption;
        compare.figure.annotate = a.annotate.value_or(int(switched.ids.size()) <= kAnnotatedTokens);
        compare.figure.colormap = f.colormap.value_or(ui::ColormapName::Viridis);
        compare.figure.logScale = f.logScale.value_or(false);
        compare.figure.scale = f.scale.value_or(compare.figure.scale);
        compare.figure.dpi = f.dpi.value_or(0);
        QString error;
        const std::optional<QByteArray> bytes =
            ui::modelComparisonBytes(format, textbookRun, switched, compare, &error);
        return writeFigure(bytes, error, f.out);
    });
}

} // namespace attn::cli
