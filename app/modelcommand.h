// `attnscope compute --model DIR --text TEXT` (and export --model): a real model (GPT-2) run
// natively, with the formula's switches inside every layer (or one layer, --only-layer), written as
// JSON.
#pragma once

#include "attention/headscores.h"
#include "formats/commandline.h"
#include "models/headimportance.h"
#include "models/languagemodel.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attn::cli {

// What compute, export, compare and steps with --model read: the folder and --only-layer;
// compute, export and steps also --rope, compute and export --ids.
struct ModelArguments {
    std::string folder;
    int onlyLayer = -1;
    std::optional<std::vector<int>> ids; // --ids: token ids instead of a text
    std::optional<bool> rope;            // --rope on|off
    // --mask was given: else a bidirectional model (BERT) runs its own formula, unmasked,
    // where the command line's textbook formula is a decoder's (causal).
    bool maskGiven = false;
    // --window was given: else the model's own sliding window (Mistral's), or none.
    bool windowGiven = false;
    bool groupWords = false;             // --group-words (compute): attention by word
    bool logitLens = false;              // --logit-lens (compute): every block read as a prediction
    bool headImportance = false;         // --head-importance (compute): each head knocked out alone
    std::optional<int> targetToken;      // --target-token ID: the token whose log p it reads
    bool headScores = false;             // --head-scores (compute): previous, duplicate, induction
    std::optional<int> inductionTest;    // --induction-test N: N random tokens, twice
    bool rollout = false;                // --rollout (compute): attention rollout, T × T
    std::optional<std::string> knockOut; // --knock-out L.H,…: read once the model is open
    std::optional<KnockOutMode> knockOutMode; // --knock-out-mode zero|mean
    std::vector<HeadIndex> knockedOut;        // --knock-out's heads (openModelOf)
};

// Which command's --model (its help says what the command does with the model).
// Experiment: export --model … --experiment (experimentcommand.h).
enum class ModelCommand { Compute, Export, Compare, Steps, Generate, Experiment };

// --model DIR, --only-layer N, --rope on|off, --knock-out L.H,… and --knock-out-mode
// zero|mean; for compute and export --ids N,N,…; for compute --group-words.
[[nodiscard]] std::vector<Option> modelOptions(ModelArguments& a, ModelCommand command);

// Throws InputError for a compute option the model has its own value for (--d-model,
// --heads, --seed …); `figure` keeps --language (a figure's words).
void refuseOptionsNotForModels(const std::vector<std::string>& args, bool figure = false);

// --ids stands for the text: refused beside --text (InputError), and the text the parser
// requires is set to a placeholder the run does not read.
void idsOrText(const std::vector<std::string>& args, Request& start);

// The model of a.folder, with a.onlyLayer checked against its layers and a.rope against its
// positions (InputError), and a.knockOut read into a.knockedOut with its heads.
// Throws ModelError for a folder that cannot be used.
[[nodiscard]] std::shared_ptr<const LanguageModel> openModelOf(ModelArguments& a);

// a.maskGiven and a.windowGiven from the command's arguments.
void noteGivenSwitches(ModelArguments& a, const std::vector<std::string>& args);

// The switches of `options`' formula, on a.onlyLayer, with a.rope and a.knockedOut; for a
// model that is not causal (BERT) without --mask (a.maskGiven), no mask; without --window
// (a.windowGiven), the model's own sliding window.
[[nodiscard]] ModelSwitches switchesOf(const ModelArguments& a, const ComputeOptions& options,
                                       const ModelInfo& info);

// Runs a --model command's `body` and answers its refusals (InputError, ModelError, memory
// running out) as one line on standard error and exit status 2.
int refusingModelErrors(const std::function<int()>& body);

// Opens the model (openModelOf) and runs it on the text `options` give (or a.ids) under
// their switches (switchesOf), with `hooks`. Throws InputError or ModelError.
[[nodiscard]] ModelRun runModel(ModelArguments& a, const ComputeOptions& options,
                                const ForwardHooks& hooks = {});

// The experiments on a run, their refusals (InputError) begun by `option` ("--head-scores",
// "--experiment head-roles"): the head detector's scores on the run's text positions, and
// which heads matter for `target` (the top 1 unless given).
[[nodiscard]] HeadScores headScoresOf(const ModelRun& run, const std::string& option);
[[nodiscard]] HeadImportance headImportanceOf(const ModelRun& run, std::optional<int> target,
                                              const std::string& option);

// compute with --model: exit status as in clicommands.h.
int modelCommand(const std::vector<std::string>& args);

// export with --model: the run's attention as `export --attention-file` draws a file's
// (--layer, --what head:H|mean|model, --out FIG or numbers); exit status as in clicommands.h.
int modelExportCommand(const std::vector<std::string>& args);

// The help of these options (English; `translate` gives another language).
[[nodiscard]] std::string modelHelp(const HelpTranslator& translate);
// export's with --model.
[[nodiscard]] std::string modelExportHelp(const HelpTranslator& translate);

} // namespace attn::cli
