#include "modelcommand.h"

#include "attentionexport.h"
#include "clicommands.h"
#include "modelcomparison.h"
#include "models/families.h"
#include "models/headimportance.h"
#include "models/inductiontest.h"
#include "models/knockout.h"
#include "models/languagemodel.h"
#include "models/logitlens.h"
#include "models/modeljson.h"
#include "models/runwords.h"
#include "offscreen.h"

#include <QCoreApplication>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace attn::cli {

namespace {

const char* modelHelpText(ModelCommand command)
{
    switch (command) {
    case ModelCommand::Export:
        return QT_TRANSLATE_NOOP("Command line",
                                 "run a model folder as compute --model does and draw its "
                                 "attention as an attention file's (--layer, --what, --out)");
    case ModelCommand::Compare:
        return QT_TRANSLATE_NOOP("Command line",
                                 "run a model folder twice, textbook (A) and with the switches "
                                 "(B), and draw head --what of --layer of both, B − A and both "
                                 "top-10 next tokens");
    case ModelCommand::Steps:
        return QT_TRANSLATE_NOOP("Command line",
                                 "run a model folder as compute --model does and draw one "
                                 "head's pipeline inside layer --layer with the model's own "
                                 "numbers");
    case ModelCommand::Generate:
        return QT_TRANSLATE_NOOP("Command line",
                                 "the decoder (GPT-2, Qwen/Llama/Mistral) that writes, from a "
                                 "model folder as compute --model reads it");
    case ModelCommand::Experiment:
        return QT_TRANSLATE_NOOP("Command line",
                                 "run a model folder as compute --model does and write one "
                                 "experiment's figure or numbers (--experiment, --out)");
    case ModelCommand::Compute:
        break;
    }
    return QT_TRANSLATE_NOOP(
        "Command line",
        "run a model folder as Hugging Face downloads it (config.json, "
        "model.safetensors or its shards and its tokenizer's files; GPT-2, "
        "Qwen/Llama/Mistral or BERT), or a GGUF file as Ollama and LM Studio keep it, with the "
        "formula's switches inside every layer; --json is required");
}

// "3,17,42" → the ids, each from 0 to 2^31 − 1.
std::vector<int> parseIds(std::string_view text)
{
    std::vector<int> ids;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        ids.push_back(int(parseInteger("--ids", text.substr(start, comma - start), 0, INT32_MAX)));
        if (comma == std::string_view::npos)
            return ids;
        start = comma + 1;
    }
}

Option targetTokenOption(ModelArguments& a)
{
    return {"target-token", "ID",
            QT_TRANSLATE_NOOP("Command line",
                              "the token id whose log-probability --head-importance reads"),
            [&a](std::string_view value) {
                a.targetToken = int(parseInteger("--target-token", value, 0, INT32_MAX));
            }};
}

Option inductionTestOption(ModelArguments& a)
{
    return {"induction-test", "N",
            QT_TRANSLATE_NOOP("Command line",
                              "run the model on N random ordinary tokens repeated twice (after "
                              "its BOS token; --seed S draws them) instead of a text, and add "
                              "\"head_scores\": the heads that copy what followed the earlier "
                              "occurrence score high on induction"),
            [&a](std::string_view value) {
                a.inductionTest = int(parseInteger("--induction-test", value, 2, INT32_MAX));
            }};
}

} // namespace

std::vector<Option> modelOptions(ModelArguments& a, ModelCommand command)
{
    std::vector<Option> options{
        {"model", "DIR", modelHelpText(command),
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
    // Every command switches its rotary positions; compute and export run a model on token
    // ids.
    options.push_back(
        {"rope", "on|off",
         QT_TRANSLATE_NOOP("Command line",
                           "rotary positions on Q and K, or none (models with rotary positions: "
                           "qwen2, qwen3, llama, mistral); off leaves only the causal mask to tell "
                           "positions apart"),
         [&a](std::string_view value) {
             if (value != "on" && value != "off")
                 throw InputError("--rope must be on|off, not '" + std::string(value) + "'");
             a.rope = value == "on";
         }});
    // Every command knocks heads out.
    options.push_back(
        {"knock-out", "L.H,…",
         QT_TRANSLATE_NOOP("Command line",
                           "knock these heads out (layer.head from 0, comma-separated; L.* "
                           "every head of layer L): their outputs P·V are replaced before the "
                           "output projection, as --knock-out-mode says"),
         [&a](std::string_view value) { a.knockOut = std::string(value); }});
    options.push_back(
        {"knock-out-mode", "zero|mean",
         QT_TRANSLATE_NOOP("Command line",
                           "a knocked-out head's output becomes 0 (zero, the default) or its "
                           "mean over the text's positions (mean)"),
         [&a](std::string_view value) {
             try {
                 a.knockOutMode = parseKnockOutMode(value);
             } catch (const InputError& error) {
                 throw InputError("--" + std::string(error.what()));
             }
         }});
    if (command == ModelCommand::Steps || command == ModelCommand::Compare)
        return options;
    options.push_back(
        {"ids", "N,N,…",
         command == ModelCommand::Generate
             ? QT_TRANSLATE_NOOP("Command line",
                                 "begin with these token ids (comma-separated) instead of a "
                                 "--text, each below the model's vocab_size")
             : QT_TRANSLATE_NOOP("Command line",
                                 "run the model on these token ids (comma-separated) instead of a "
                                 "--text, each below the model's vocab_size"),
         [&a](std::string_view value) { a.ids = parseIds(value); }});
    if (command == ModelCommand::Experiment) {
        options.push_back(targetTokenOption(a));
        options.push_back(inductionTestOption(a));
        return options;
    }
    if (command == ModelCommand::Compute)
        options.push_back(
            {"group-words", "",
             QT_TRANSLATE_NOOP("Command line",
                               "attention by word: the tokens grouped into words (ICU's, "
                               "Chinese by its dictionary), attention to a word the sum over "
                               "its tokens, from a word the mean (Clark et al. 2019); adds "
                               "\"words\" to the JSON"),
             [&a](std::string_view) { a.groupWords = true; }});
    if (command == ModelCommand::Compute)
        options.push_back(
            {"logit-lens", "",
             QT_TRANSLATE_NOOP("Command line",
                               "read the residual stream after every block as a prediction, "
                               "through the final norm and the output head (the logit lens); "
                               "adds \"logit_lens\": L × T × the top 5 to the JSON"),
             [&a](std::string_view) { a.logitLens = true; }});
    if (command == ModelCommand::Compute) {
        options.push_back(
            {"head-importance", "",
             QT_TRANSLATE_NOOP("Command line",
                               "knock out each head alone and add \"head_importance\" to the "
                               "JSON: L × H changes of log p(target) at the last position (BERT: "
                               "the first [MASK]), the target the intact top 1 unless "
                               "--target-token names it"),
             [&a](std::string_view) { a.headImportance = true; }});
        options.push_back(targetTokenOption(a));
        options.push_back(
            {"head-scores", "",
             QT_TRANSLATE_NOOP("Command line",
                               "score every head as TransformerLens's head detector does and add "
                               "\"head_scores\": previous-token, and where the ids' second half "
                               "repeats the first (a BOS before it skipped) duplicate-token and "
                               "induction, L × H each"),
             [&a](std::string_view) { a.headScores = true; }});
        options.push_back(inductionTestOption(a));
        options.push_back(
            {"rollout", "",
             QT_TRANSLATE_NOOP("Command line",
                               "add \"rollout\": attention rollout (Abnar & Zuidema 2020), "
                               "T × T, row i how much of each input token flows into position i "
                               "at the top"),
             [&a](std::string_view) { a.rollout = true; }});
    }
    return options;
}

namespace {

// The compute options a model has its own values for (or that have no meaning there).
constexpr std::array kNotForModels{"d-model",   "heads",        "seed",      "tokenizer",
                                   "embedding", "positional",   "preset",    "cross-text",
                                   "attention", "padding-mask", "language",  "kv-heads",
                                   "qk-norm",   "alibi",        "rope-theta"};

} // namespace

void refuseOptionsNotForModels(const std::vector<std::string>& args, bool figure)
{
    // --induction-test draws its tokens with --seed.
    const bool drawing = namesOption(args, "induction-test");
    for (const std::string_view name : kNotForModels)
        if (!(figure && name == "language") && !(drawing && name == "seed") &&
            namesOption(args, name))
            throw InputError("--" + std::string(name) +
                             " does not apply with --model: the model has its own");
}

void idsOrText(const std::vector<std::string>& args, Request& start)
{
    const bool test = namesOption(args, "induction-test");
    if (test && namesOption(args, "ids"))
        throw InputError("--induction-test and --ids: the test draws its own ids");
    if (!namesOption(args, "ids") && !test)
        return;
    if (namesOption(args, "text"))
        throw InputError(test ? "--induction-test and --text: the test draws its own ids"
                              : "--ids and --text: give the token ids or the text, not both");
    start.text = test ? "--induction-test" : "--ids";
}

std::shared_ptr<const LanguageModel> openModelOf(ModelArguments& a)
{
    std::shared_ptr<const LanguageModel> model = openModel(a.folder);
    if (a.onlyLayer >= model->info().layers)
        throw InputError("--only-layer " + std::to_string(a.onlyLayer) + ": the model has " +
                         std::to_string(model->info().layers) + " layers (0 … " +
                         std::to_string(model->info().layers - 1) + ")");
    if (a.rope && !model->info().rotary)
        throw InputError("--rope applies to models with rotary positions (qwen2, qwen3, "
                         "llama, mistral), not to " +
                         model->info().family);
    if (a.knockOutMode && !a.knockOut)
        throw InputError("--knock-out-mode needs --knock-out: name the heads to knock out");
    if (a.knockOut) {
        try {
            a.knockedOut = parseKnockOuts(*a.knockOut, model->info().layers, model->info().heads);
        } catch (const InputError& error) {
            throw InputError("--" + std::string(error.what()));
        }
    }
    return model;
}

void noteGivenSwitches(ModelArguments& a, const std::vector<std::string>& args)
{
    a.maskGiven = namesOption(args, "mask");
    a.windowGiven = namesOption(args, "window");
}

ModelSwitches switchesOf(const ModelArguments& a, const ComputeOptions& options,
                         const ModelInfo& info)
{
    ModelSwitches switches;
    switches.formula = options.request.config;
    if (!info.causal && !a.maskGiven)
        switches.formula.mask = MaskKind::None; // an encoder's textbook formula
    if (!a.windowGiven)
        switches.formula.window = info.slidingWindow; // Mistral's own
    switches.onlyLayer = a.onlyLayer;
    if (a.rope)
        switches.rope = *a.rope;
    switches.knockedOut = a.knockedOut;
    switches.knockOut = a.knockOutMode.value_or(KnockOutMode::Zero);
    return switches;
}

ModelRun runModel(ModelArguments& a, const ComputeOptions& options, const ForwardHooks& hooks)
{
    const std::shared_ptr<const LanguageModel> model = openModelOf(a);
    const ModelSwitches switches = switchesOf(a, options, model->info());
    if (a.inductionTest)
        return model->runIds(
            inductionIds(*model, *a.inductionTest, std::uint32_t(options.request.config.seed)),
            switches, hooks);
    if (!a.ids)
        return model->run(options.request.text, switches, hooks);
    for (int id : *a.ids)
        if (id >= model->info().vocabulary)
            throw InputError("--ids: " + std::to_string(id) + " is outside the vocabulary (0 … " +
                             std::to_string(model->info().vocabulary - 1) + ")");
    return model->runIds(*a.ids, switches, hooks);
}

HeadScores headScoresOf(const ModelRun& run, const std::string& option)
{
    const auto [first, end] = textPositions(*run.model, run.ids);
    try {
        return headScores(*run.attention, 0, run.ids, first, end);
    } catch (const InputError& error) {
        throw InputError(option + ": " + error.what());
    }
}

HeadImportance headImportanceOf(const ModelRun& run, std::optional<int> target,
                                const std::string& option)
{
    try {
        return headImportance(*run.model, run.ids, run.switches, target);
    } catch (const InputError& error) {
        throw InputError(option + ": " + error.what());
    }
}

int refusingModelErrors(const std::function<int()>& body)
{
    try {
        return body();
    } catch (const InputError& error) {
        return fail(kExitUsage, error.what());
    } catch (const ModelError& error) {
        return fail(kExitUsage, error.what());
    } catch (const std::bad_alloc&) {
        return fail(kExitUsage, "not enough memory for the model's run");
    }
}

std::string modelHelp(const HelpTranslator& translate)
{
    ModelArguments scratch;
    const std::string title = QT_TRANSLATE_NOOP(
        "Command line", "options of compute with a model (beside --text, --json and the "
                        "switches --scale, --temperature, --axis, --mask, --mask-fill, "
                        "--mask-stage and --head-split):");
    return helpParagraph(title, 0, translate) +
           optionHelp(modelOptions(scratch, ModelCommand::Compute), translate);
}

std::string modelExportHelp(const HelpTranslator& translate)
{
    ModelArguments scratch;
    const std::string title = QT_TRANSLATE_NOOP(
        "Command line", "options of export with a model (beside --text, the switches compute "
                        "--model takes and the options of export with an attention file):");
    return helpParagraph(title, 0, translate) +
           optionHelp(modelOptions(scratch, ModelCommand::Export), translate);
}

int modelCommand(const std::vector<std::string>& args)
{
    return refusingModelErrors([&] {
        // 1. The options: compute's (the text, the switches, --json), starting from the
        // formula the model was trained with, plus --model and --only-layer.
        refuseOptionsNotForModels(args);
        ModelArguments a;
        noteGivenSwitches(a, args);
        Request start;
        start.config = ModelSwitches::textbookFormula();
        idsOrText(args, start);
        const ComputeOptions options =
            parseComputeArguments(args, modelOptions(a, ModelCommand::Compute), true, start);
        if (options.jsonPath.empty())
            throw InputError("--model writes JSON: give --json FILE (or --json - for standard "
                             "output)");
        // 2. The model and the run.
        if (a.targetToken && !a.headImportance)
            throw InputError("--target-token needs --head-importance");
        std::vector<Matrix> residuals;
        const ModelRun run =
            runModel(a, options, a.logitLens ? residualCapture(residuals) : ForwardHooks{});
        // 3. The JSON, word by word with --group-words, with the experiments asked for.
        const std::vector<WordGroup> words =
            a.groupWords ? runWords(run) : std::vector<WordGroup>{};
        ModelRunExtras extras;
        extras.words = a.groupWords ? &words : nullptr;
        LogitLens lens;
        if (a.logitLens) {
            lens = readLogitLens(*run.model, residuals, 5);
            extras.logitLens = &lens;
        }
        HeadImportance importance;
        if (a.headImportance) {
            importance = headImportanceOf(run, a.targetToken, "--head-importance");
            extras.headImportance = &importance;
        }
        HeadScores scores;
        if (a.headScores || a.inductionTest) {
            scores = headScoresOf(run, "--head-scores");
            extras.headScores = &scores;
        }
        Matrix rollout;
        if (a.rollout) {
            rollout = attentionRollout(*run.attention, 0);
            extras.rollout = &rollout;
        }
        if (const std::string problem =
                writeFileAtomically(options.jsonPath, modelRunJson(run, 10, extras));
            !problem.empty()) {
            return fail(kExitWriteFailed, problem);
        }
        return kExitOk;
    });
}

int modelExportCommand(const std::vector<std::string>& args)
{
    return refusingModelErrors([&] {
        // 1. The options: the text, the switches (from the model's own formula), --model,
        // --only-layer and those of an attention file's figure, each checked before the run.
        refuseOptionsNotForModels(args, /*figure*/ true);
        ModelArguments a;
        noteGivenSwitches(a, args);
        StackExportArguments figure;
        std::vector<Option> extra = modelOptions(a, ModelCommand::Export);
        for (Option& option : stackExportOptions(figure))
            extra.push_back(std::move(option));
        Request start;
        start.config = ModelSwitches::textbookFormula();
        idsOrText(args, start);
        const ComputeOptions options = parseComputeArguments(args, extra, false, start);
        checkStackExportArguments(figure, "export --model");
        // 2. The run; its attention is drawn as an attention file's, the caption naming the
        // model and the formula's departures.
        const ModelRun run = runModel(a, options);
        return exportStack(*run.attention, figure,
                           [&run] { return ui::modelDepartures(run.switches, run.model->info()); });
    });
}

} // namespace attn::cli
