#include "generatecommand.h"

#include "clicommands.h"
#include "io/atomicwrite.h"
#include "modelcommand.h"
#include "models/generation.h"
#include "offscreen.h"

#include <cstdio>
#include <optional>

namespace attn::cli {
namespace {

struct GenerateArguments {
    ModelArguments model;
    std::optional<int> tokens;
    bool greedy = false;
    std::optional<double> temperature; // the sampling's
    std::optional<int> topK;
    std::optional<double> topP;
    std::optional<std::uint64_t> seed;
};

// Its options; for the parser (`help` false) without --temperature, --seed and --tau,
// which sortOptions takes first.
std::vector<Option> generateOptions(GenerateArguments& a, bool help)
{
    std::vector<Option> table = modelOptions(a.model, ModelCommand::Generate);
    std::vector<Option> own = {
        {"tokens", "N",
         QT_TRANSLATE_NOOP("Command line",
                           "write N new tokens (1 … 4096; required); it stops sooner at the "
                           "model's end-of-text token or its context length"),
         [&a](std::string_view value) {
             a.tokens = int(parseInteger("--tokens", value, 1, kMaxNewTokens));
         }},
        {"greedy", "",
         QT_TRANSLATE_NOOP("Command line",
                           "take the most probable token each time (ties: the lower id); the "
                           "default unless a sampling option is given"),
         [&a](std::string_view) { a.greedy = true; }},
        {"temperature", "X",
         QT_TRANSLATE_NOOP("Command line",
                           "sample, the next-token logits divided by X (> 0) before their "
                           "softmax; not the formula's τ, which --tau sets"),
         [&a](std::string_view value) { a.temperature = parseReal("--temperature", value); }},
        {"top-k", "K",
         QT_TRANSLATE_NOOP("Command line",
                           "sample from the K most probable tokens only (0: every token)"),
         [&a](std::string_view value) {
             a.topK = int(parseInteger("--top-k", value, 0, INT32_MAX));
         }},
        {"top-p", "P",
         QT_TRANSLATE_NOOP("Command line",
                           "sample from the fewest most probable tokens whose probabilities "
                           "reach P (0 < P ≤ 1)"),
         [&a](std::string_view value) { a.topP = parseReal("--top-p", value); }},
        {"seed", "S",
         QT_TRANSLATE_NOOP("Command line",
                           "the sampling's seed (default 0): the same seed writes the same text"),
         [&a](std::string_view value) {
             a.seed = std::uint64_t(parseInteger("--seed", value, 0, INT64_MAX));
         }},
        {"tau", "X",
         QT_TRANSLATE_NOOP("Command line",
                           "the formula's temperature τ in every layer's attention (compute's "
                           "--temperature)"),
         [](std::string_view) {}}, // read as the formula's --temperature (sortOptions)
    };
    for (Option& option : own)
        if (help || (option.name != "temperature" && option.name != "seed" && option.name != "tau"))
            table.push_back(std::move(option));
    return table;
}

// The sampling's own options out of `args` (--temperature and --seed, which name the
// formula's τ and seed in compute's table), into `a`; --tau X becomes the formula's
// --temperature X.
std::vector<std::string> sortOptions(const std::vector<std::string>& args, GenerateArguments& a)
{
    std::vector<std::string> rest;
    // Whether args[i] is one of them (then taken, i past its value).
    const auto take = [&](std::size_t& i) {
        for (const std::string option : {"--temperature", "--seed", "--tau"}) {
            std::string value;
            if (args[i] == option) {
                if (i + 1 >= args.size())
                    throw InputError(option + " needs a value");
                value = args[++i];
            } else if (args[i].starts_with(option + "=")) {
                value = args[i].substr(option.size() + 1);
            } else {
                continue;
            }
            if (option == "--temperature")
                a.temperature = parseReal("--temperature", value);
            else if (option == "--seed")
                a.seed = std::uint64_t(parseInteger("--seed", value, 0, INT64_MAX));
            else
                rest.insert(rest.end(), {"--temperature", value});
            return true;
        }
        return false;
    };
    for (std::size_t i = 0; i < args.size(); ++i)
        if (!take(i))
            rest.push_back(args[i]);
    return rest;
}

} // namespace

std::string generateHelp(const HelpTranslator& translate)
{
    GenerateArguments scratch;
    const std::string title = QT_TRANSLATE_NOOP(
        "Command line", "options of generate (beside --text, --json and the switches compute "
                        "--model takes: --scale, --axis, --mask, --mask-fill, --mask-stage, "
                        "--head-split, with --tau for the formula's temperature):");
    return helpParagraph(title, 0, translate) +
           optionHelp(generateOptions(scratch, true), translate);
}

int generateCommand(const std::vector<std::string>& args)
{
    return refusingModelErrors([&] {
        // 1. The options: the sampling's taken out first, then compute's with --model's.
        GenerateArguments a;
        const std::vector<std::string> rest = sortOptions(args, a);
        refuseOptionsNotForModels(rest);
        noteGivenSwitches(a.model, rest);
        Request start;
        start.config = ModelSwitches::textbookFormula();
        idsOrText(rest, start);
        const ComputeOptions options =
            parseComputeArguments(rest, generateOptions(a, false), true, start);
        if (a.model.folder.empty())
            throw InputError("generate needs --model DIR: a decoder's folder (GPT-2, "
                             "Qwen/Llama/Mistral)");
        if (!a.tokens)
            throw InputError("generate needs --tokens N: how many new tokens to write");
        if (options.jsonPath.empty())
            throw InputError("generate writes JSON: give --json FILE (or --json - for standard "
                             "output)");
        const bool sampled = a.temperature || a.topK || a.topP || a.seed;
        if (a.greedy && sampled)
            throw InputError("--greedy takes the most probable token: --temperature, --top-k, "
                             "--top-p and --seed sample instead; give one or the other");
        Sampling sampling;
        sampling.greedy = !sampled;
        sampling.temperature = a.temperature.value_or(1.0);
        sampling.topK = a.topK.value_or(0);
        sampling.topP = a.topP.value_or(1.0);
        sampling.seed = a.seed.value_or(0);
        checkGeneration(sampling, *a.tokens);

        // 2. The model, the prompt's ids and the generation.
        const std::shared_ptr<const LanguageModel> model = openModelOf(a.model);
        const ModelSwitches switches = switchesOf(a.model, options, model->info());
        std::vector<int> prompt;
        if (a.model.ids) {
            prompt = *a.model.ids;
            for (const int id : prompt)
                if (id >= model->info().vocabulary)
                    throw InputError("--ids: " + std::to_string(id) +
                                     " is outside the vocabulary (0 … " +
                                     std::to_string(model->info().vocabulary - 1) + ")");
        } else if (model->info().causal) {
            std::vector<TokenLabel> labels;
            model->tokenize(options.request.text, prompt, labels);
            if (prompt.empty())
                throw InputError("the text is empty", Refusal::EmptyText);
        }
        const Generation generation = generate(model, prompt, switches, sampling, *a.tokens);

        // 3. The JSON.
        if (const std::string problem = writeFileAtomically(
                options.jsonPath, generationJson(*model, switches, sampling, generation));
            !problem.empty())
            return fail(kExitWriteFailed, problem);
        return kExitOk;
    });
}

} // namespace attn::cli
