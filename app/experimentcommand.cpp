#include "experimentcommand.h"

#include "attention/headscores.h"
#include "clicommands.h"
#include "experimentfiles.h"
#include "figurearguments.h"
#include "language.h"
#include "modelcommand.h"
#include "models/headimportance.h"
#include "models/inductiontest.h"
#include "models/logitlens.h"

#include <QGuiApplication>

#include <array>
#include <optional>

namespace attn::cli {
namespace {

enum class Experiment { LogitLens, HeadImportance, HeadRoles, Rollout };

constexpr std::array<std::pair<std::string_view, Experiment>, 4> kExperiments{{
    {"logit-lens", Experiment::LogitLens},
    {"head-importance", Experiment::HeadImportance},
    {"head-roles", Experiment::HeadRoles},
    {"rollout", Experiment::Rollout},
}};

struct ExperimentArguments {
    ModelArguments model;
    FigureArguments figure;
    std::optional<Experiment> experiment;
    std::optional<int> row; // the rollout's row shown under its heatmap
};

std::vector<Option> experimentOptions(ExperimentArguments& a)
{
    std::vector<Option> table = modelOptions(a.model, ModelCommand::Experiment);
    table.push_back(
        {"experiment", "logit-lens|head-importance|head-roles|rollout",
         QT_TRANSLATE_NOOP("Command line",
                           "the experiment to write: every block's top tokens (logit-lens), each "
                           "head knocked out alone (head-importance), the heads' previous-token, "
                           "duplicate-token and induction scores (head-roles, on --induction-test "
                           "N or on a text that repeats itself) or attention rollout (rollout)"),
         [&a](std::string_view value) {
             for (const auto& [name, experiment] : kExperiments)
                 if (value == name) {
                     a.experiment = experiment;
                     return;
                 }
             throw InputError("--experiment must be logit-lens|head-importance|head-roles|"
                              "rollout, not '" +
                              std::string(value) + "'");
         }});
    table.push_back(
        {"row", "I",
         QT_TRANSLATE_NOOP("Command line", "the rollout's row drawn as numbers under its heatmap, "
                                           "from 0 (default: the last)"),
         [&a](std::string_view value) {
             a.row = int(parseInteger("--row", value, 0, INT32_MAX));
         }});
    for (Option& option : fileOptions(
             a.figure, /*numbers*/ true,
             QT_TRANSLATE_NOOP("Command line",
                               "the file: .png, .svg, .pdf (the figure), .csv or .json (the "
                               "numbers)")))
        table.push_back(std::move(option));
    table.push_back(languageOption(a.figure));
    return table;
}

} // namespace

std::string experimentExportHelp(const HelpTranslator& translate)
{
    ExperimentArguments scratch;
    const std::string title =
        QT_TRANSLATE_NOOP("Command line", "options of export with a model and --experiment (beside "
                                          "--text and the switches compute --model takes):");
    return helpParagraph(title, 0, translate) + optionHelp(experimentOptions(scratch), translate);
}

int experimentExportCommand(const std::vector<std::string>& args)
{
    return refusingModelErrors([&] {
        // 1. The options: the text (or ids, or the induction test), the switches, the
        // experiment and the file, each checked before the run.
        refuseOptionsNotForModels(args, /*figure*/ true);
        for (const char* name : {"what", "layer", "session"})
            if (namesOption(args, name))
                throw InputError("--" + std::string(name) +
                                 " does not apply with --experiment: it draws its own figure");
        ExperimentArguments a;
        noteGivenSwitches(a.model, args);
        Request start;
        start.config = ModelSwitches::textbookFormula();
        idsOrText(args, start);
        const ComputeOptions options =
            parseComputeArguments(args, experimentOptions(a), false, start);
        if (!a.experiment)
            throw InputError("export --model needs --what or --experiment");
        const ui::FigureFormat format = requiredFormatOf(a.figure, /*numbers*/ true, "export");
        if (format == ui::FigureFormat::Npy)
            throw InputError("an experiment's numbers are .csv or .json, not .npy");
        const Experiment experiment = *a.experiment;
        if (a.row && experiment != Experiment::Rollout)
            throw InputError("--row applies to --experiment rollout");
        if (a.model.targetToken && experiment != Experiment::HeadImportance)
            throw InputError("--target-token applies to --experiment head-importance");
        if (a.model.inductionTest && experiment != Experiment::HeadRoles)
            throw InputError("--induction-test applies to --experiment head-roles");

        // 2. The run and the experiment.
        std::vector<Matrix> residuals;
        const ModelRun run = runModel(
            a.model, options,
            experiment == Experiment::LogitLens ? residualCapture(residuals) : ForwardHooks{});
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        startFigures(app, language, a.figure);
        QString error;
        std::optional<QByteArray> bytes;
        switch (experiment) {
        case Experiment::LogitLens:
            bytes = ui::logitLensFile(format, run, readLogitLens(*run.model, residuals, 5), &error);
            break;
        case Experiment::HeadImportance:
            bytes = ui::headImportanceFile(
                format, run,
                headImportanceOf(run, a.model.targetToken, "--experiment head-importance"), &error);
            break;
        case Experiment::HeadRoles: {
            const HeadScores scores = headScoresOf(run, "--experiment head-roles");
            const std::optional<std::uint32_t> seed =
                a.model.inductionTest ? std::optional(std::uint32_t(options.request.config.seed))
                                      : std::nullopt;
            bytes = ui::headRolesFile(format, run, scores, seed, &error);
            break;
        }
        case Experiment::Rollout: {
            const int T = int(run.ids.size());
            const int row = a.row.value_or(T - 1);
            if (row >= T)
                throw InputError("--row " + std::to_string(row) + ": the text has " +
                                 std::to_string(T) + " tokens (rows 0 … " + std::to_string(T - 1) +
                                 ")");
            bytes = ui::rolloutFile(format, run, attentionRollout(*run.attention, 0), row, &error);
            break;
        }
        }
        return writeFigure(bytes, error, a.figure.out);
    });
}

} // namespace attn::cli
