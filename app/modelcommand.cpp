#include "modelcommand.h"

#include "clicommands.h"
#include "languagemodel.h"
#include "modeljson.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace attn::cli {
namespace {

struct ModelArguments {
    std::string folder;
    int onlyLayer = -1;
};

std::vector<Option> modelOptions(ModelArguments& a)
{
    return {
        {"model", "DIR",
         QT_TRANSLATE_NOOP("Command line",
                           "run a model folder as Hugging Face downloads it (config.json, "
                           "model.safetensors, vocab.json, merges.txt; GPT-2 family) with the "
                           "formula's switches inside every layer; --json is required"),
         [&a](std::string_view value) {
             if (value.empty())
                 throw InputError("--model needs a folder");
             a.folder = value;
         }},
        {"only-layer", "N",
         QT_TRANSLATE_NOOP("Command line",
                           "apply the switches to this layer only, from 0; every other layer "
                           "runs the textbook formula"),
         [&a](std::string_view value) {
             a.onlyLayer = int(parseInteger("--only-layer", value, 0, INT32_MAX));
         }},
    };
}

// The compute options a model has its own values for (or that have no meaning there).
constexpr std::array kNotForModels{"d-model",   "heads",        "seed",    "tokenizer",
                                   "embedding", "positional",   "preset",  "cross-text",
                                   "attention", "padding-mask", "language"};

void refuseOptionsNotForModels(const std::vector<std::string>& args)
{
    for (const std::string& arg : args)
        for (const std::string_view name : kNotForModels) {
            const std::string option = "--" + std::string(name);
            if (arg == option || arg.starts_with(option + "="))
                throw InputError(option + " does not apply with --model: the model has its own");
        }
}

} // namespace

bool namesModel(const std::vector<std::string>& args)
{
    for (const std::string& arg : args)
        if (arg == "--model" || arg.starts_with("--model="))
            return true;
    return false;
}

std::string modelHelp(const HelpTranslator& translate)
{
    ModelArguments scratch;
    const std::string title = QT_TRANSLATE_NOOP(
        "Command line", "options of compute with a model (beside --text, --json and the "
                        "switches --scale, --temperature, --axis, --mask, --mask-fill, "
                        "--mask-stage and --head-split):");
    return helpParagraph(title, 0, translate) + optionHelp(modelOptions(scratch), translate);
}

int modelCommand(const std::vector<std::string>& args)
{
    try {
        // 1. The options: compute's (the text, the switches, --json), starting from the
        // formula the model was trained with, plus --model and --only-layer.
        refuseOptionsNotForModels(args);
        ModelArguments a;
        Request start;
        start.config = ModelSwitches::textbookFormula();
        const ComputeOptions options = parseComputeArguments(args, modelOptions(a), true, start);
        if (options.jsonPath.empty())
            throw InputError("--model writes JSON: give --json FILE (or --json - for standard "
                             "output)");
        // 2. The model and the run.
        const std::shared_ptr<const LanguageModel> model = openModel(a.folder);
        if (a.onlyLayer >= model->info().layers)
            throw InputError("--only-layer " + std::to_string(a.onlyLayer) + ": the model has " +
                             std::to_string(model->info().layers) + " layers (0 … " +
                             std::to_string(model->info().layers - 1) + ")");
        ModelSwitches switches;
        switches.formula = options.request.config;
        switches.onlyLayer = a.onlyLayer;
        const ModelRun run = model->run(options.request.text, switches);
        // 3. The JSON.
        if (const std::string problem = writeFileAtomically(options.jsonPath, modelRunJson(run));
            !problem.empty()) {
            std::fprintf(stderr, "attnscope: %s\n", problem.c_str());
            return kExitWriteFailed;
        }
        return kExitOk;
    } catch (const InputError& error) {
        std::fprintf(stderr, "attnscope: %s\n", error.what());
        return kExitUsage;
    } catch (const ModelError& error) {
        std::fprintf(stderr, "attnscope: %s\n", error.what());
        return kExitUsage;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "attnscope: not enough memory for the model's run\n");
        return kExitUsage;
    }
}

} // namespace attn::cli
