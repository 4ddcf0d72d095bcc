#include "modelstepscommand.h"

#include "clicommands.h"
#include "modelcommand.h"
#include "models/headtrace.h"
#include "stepscommand.h"
#include "tracetiles.h"

#include <cstdint>
#include <optional>

namespace attn::cli {
namespace {

struct ModelStepsArguments {
    ModelArguments model;
    StepsFigureArguments steps;
    std::optional<int> layer;
    std::optional<int> head;
};

std::vector<Option> modelStepsOptions(ModelStepsArguments& a)
{
    std::vector<Option> table = modelOptions(a.model, ModelCommand::Steps);
    std::vector<Option> which = {
        {"layer", "L", QT_TRANSLATE_NOOP("Command line", "the model's layer, from 0 (required)"),
         [&a](std::string_view value) {
             a.layer = int(parseInteger("--layer", value, 0, INT32_MAX));
         }},
        {"head", "H", QT_TRANSLATE_NOOP("Command line", "the layer's head, from 0 (required)"),
         [&a](std::string_view value) {
             a.head = int(parseInteger("--head", value, 0, INT32_MAX));
         }},
    };
    // A model reads one text: no --sequence.
    for (Option& option : stepsFigureOptions(a.steps, std::move(which)))
        if (option.name != "sequence")
            table.push_back(std::move(option));
    return table;
}

// "--layer 12: gpt2 has 12 layers, 0 to 11", as an attention file's figure says it.
void refuseOutside(const std::string& given, const std::string& model, int count, const char* many)
{
    throw InputError(given + ": " + model + " has " + std::to_string(count) + " " + many +
                     ", 0 to " + std::to_string(count - 1));
}

} // namespace

std::string modelStepsHelp(const HelpTranslator& translate)
{
    ModelStepsArguments scratch;
    const std::string title = QT_TRANSLATE_NOOP(
        "Command line", "options of steps with a model (beside --text and the switches compute "
                        "--model takes):");
    return helpParagraph(title, 0, translate) + optionHelp(modelStepsOptions(scratch), translate);
}

int modelStepsCommand(const std::vector<std::string>& args)
{
    return refusingModelErrors([&] {
        // 1. The options: the text, the switches (from the model's own formula), --model,
        // --only-layer, --layer, --head and the figure's, each checked before the run.
        refuseOptionsNotForModels(args, /*figure*/ true);
        for (const char* name : {"session", "what"})
            if (namesOption(args, name))
                throw InputError("--" + std::string(name) +
                                 " does not apply with --model: give --text, --layer and --head");
        ModelStepsArguments a;
        noteGivenSwitches(a.model, args); // else an encoder runs unmasked
        Request start;
        start.config = ModelSwitches::textbookFormula();
        const ComputeOptions options =
            parseComputeArguments(args, modelStepsOptions(a), false, start);
        const ui::FigureFormat format =
            requiredFormatOf(a.steps.figure, /*numbers*/ false, "steps --model");
        if (!a.layer || !a.head)
            throw InputError("steps --model needs --layer L and --head H");

        // 2. The model, the layer and head checked against it, and the trace.
        const std::shared_ptr<const LanguageModel> model = openModelOf(a.model);
        const ModelInfo& info = model->info();
        if (*a.layer >= info.layers)
            refuseOutside("--layer " + std::to_string(*a.layer), info.name, info.layers, "layers");
        if (*a.head >= info.heads)
            refuseOutside("--head " + std::to_string(*a.head), info.name, info.heads, "heads");
        const HeadTrace trace = model->trace(options.request.text,
                                             switchesOf(a.model, options, info), *a.layer, *a.head);

        // 3. The strip, as steps draws the lab's, from the trace.
        const Result result = headTraceResult(trace);
        return writeStepsFigure(result, trace.head, a.steps, format, {},
                                [&trace](const ui::WeightColours& colours) {
                                    return ui::headTraceTiles(trace, colours);
                                });
    });
}

} // namespace attn::cli
