#include "clicommands.h"

#include "attentioncommand.h"
#include "attentionexport.h"
#include "base/blas.h"
#include "comparecommand.h"
#include "experimentcommand.h"
#include "exportcommand.h"
#include "figurearguments.h"
#include "formats/commandline.h"
#include "formats/report.h"
#include "generatecommand.h"
#include "lab/presets.h"
#include "labels.h"
#include "modelcommand.h"
#include "modelcomparecommand.h"
#include "models/linearproduct.h"
#include "modelscommand.h"
#include "modelstepscommand.h"
#include "stepscommand.h"
#include "sweepcommand.h"

#include <QGuiApplication>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <optional>

namespace attn::cli {
namespace {

// compute's --language en|zh_CN: the words of the report (the JSON has none).
Option computeLanguageOption(std::optional<QString>& code)
{
    return languageOption(
        code, QT_TRANSLATE_NOOP(
                  "Command line",
                  "the language of the report's words and warnings (default en); not of --json"));
}

// presets' --language en|zh_CN: the lines about the presets.
Option presetsLanguageOption(std::optional<QString>& code)
{
    return languageOption(
        code, QT_TRANSLATE_NOOP("Command line",
                                "the language of the lines about the presets (default en)"));
}

int usageError(const std::string& message)
{
    std::fprintf(stderr, "attnscope: %s\n", message.c_str());
    return kExitUsage;
}

} // namespace

namespace {

// One command of the help: its usage line, what it does (marked for translation), and its
// own options (after those of compute, for the commands that compute).
struct Command {
    const char* name;
    const char* usage;
    const char* what;
    bool computes;
    std::string (*options)();
};

std::string computeHelp()
{
    ComputeOptions scratch;
    std::optional<QString> language;
    std::vector<Option> options = computeOptionTable(scratch, true);
    options.push_back(computeLanguageOption(language));
    return translated(QT_TRANSLATE_NOOP("Command line", "options of compute:")) + "\n" +
           optionHelp(options, translated);
}

// compute's own help: its options, then those it takes with an attention file instead.
// (The other commands take compute's formula options, not these.)
std::string computeCommandHelp()
{
    return computeHelp() + "\n" + attentionFileHelp(translated) + "\n" + modelHelp(translated);
}

// compare's own help: its options, then those it takes with a model instead.
std::string compareCommandHelp()
{
    return compareHelp() + "\n" + modelCompareHelp(translated);
}

// export's own help: its options, then those it takes with an attention file instead.
std::string exportCommandHelp()
{
    return exportHelp() + "\n" + attentionExportHelp(translated) + "\n" +
           modelExportHelp(translated) + "\n" + experimentExportHelp(translated);
}

// steps' own help: its options, then those it takes with a model instead.
std::string stepsCommandHelp()
{
    return stepsHelp() + "\n" + modelStepsHelp(translated);
}

std::string presetsHelp()
{
    std::optional<QString> language;
    return translated(QT_TRANSLATE_NOOP("Command line", "options of presets:")) + "\n" +
           optionHelp({presetsLanguageOption(language)}, translated);
}

const std::vector<Command>& commands()
{
    static const std::vector<Command> all = {
        {"compute", "attnscope compute [options]",
         QT_TRANSLATE_NOOP("Command line", "compute attention; print a report (or --json)"), false,
         computeCommandHelp},
        {"export", "attnscope export [options] --out FILE",
         QT_TRANSLATE_NOOP("Command line", "write a figure (png, svg, pdf) or the numbers (csv, "
                                           "npy, json) without opening the window"),
         true, exportCommandHelp},
        {"sweep", "attnscope sweep [options] [--from 16 --to 1024] [--json FILE] [--out FILE]",
         QT_TRANSLATE_NOOP("Command line",
                           "the same text at d_k = 16 … 1024, with and without the 1/√d_k "
                           "scaling (exercise 1): a table, JSON or the charts as a figure"),
         true, sweepHelp},
        {"compare", "attnscope compare [options] --out FILE",
         QT_TRANSLATE_NOOP("Command line", "the textbook formula (A), your switches (B) and B − A "
                                           "side by side as a figure (png, svg, pdf)"),
         true, compareCommandHelp},
        {"steps", "attnscope steps [options] --out FILE",
         QT_TRANSLATE_NOOP("Command line", "one head's pipeline, X to the output, as Step by Step "
                                           "shows it, as a figure (png, svg, pdf)"),
         true, stepsCommandHelp},
        {"generate", "attnscope generate --model DIR --text TEXT --tokens N --json OUT",
         QT_TRANSLATE_NOOP("Command line",
                           "let a decoder (GPT-2, Qwen/Llama/Mistral) write N new tokens, greedy "
                           "or sampled, with the formula's switches and knock-outs inside every "
                           "layer: the ids, the text and each step's top 5 as JSON"),
         false, [] { return generateHelp(translated); }},
        {"models", "attnscope models",
         QT_TRANSLATE_NOOP("Command line",
                           "list the models already on this computer (Hugging Face, ModelScope, "
                           "Ollama, LM Studio): name, tool, size, quantization and the path "
                           "--model opens; nothing is downloaded"),
         false, [] { return std::string(); }},
        {"presets", "attnscope presets [--language en|zh_CN]",
         QT_TRANSLATE_NOOP("Command line", "list the ready-made configurations"), false,
         presetsHelp},
    };
    return all;
}

const Command* findCommand(const std::string& name)
{
    const auto command = std::ranges::find(commands(), name, &Command::name);
    return command == commands().end() ? nullptr : &*command;
}

// "  usage   what" with `what`, translated, in the second column.
std::string usageLines(const std::string& usage, const char* what)
{
    return helpRow("  " + usage, translated(what), 33);
}

void printHelp()
{
    std::string usage =
        usageLines("attnscope [FILE.attnscope …]",
                   QT_TRANSLATE_NOOP("Command line", "open the window, with the first session "
                                                     "file given (as a double click does)"));
    usage += usageLines("attnscope FILE.npz|.npy|.safetensors …",
                        QT_TRANSLATE_NOOP("Command line",
                                          "open the window with each attention file's model "
                                          "view"));
    usage += usageLines("attnscope MODEL_DIR|FILE.gguf",
                        QT_TRANSLATE_NOOP("Command line",
                                          "open the window running the model in that folder "
                                          "(one holding a config.json) or GGUF file, as File → "
                                          "Open Model… does"));
    for (const Command& command : commands())
        usage += usageLines(command.usage, command.what);
    usage += usageLines("attnscope compute --attention-file FILE",
                        QT_TRANSLATE_NOOP("Command line",
                                          "a model's attention from a file (.npz, .npy, "
                                          ".safetensors): its weights, statistics and head "
                                          "patterns"));
    usage += usageLines("attnscope export --attention-file FILE --what W --out FILE",
                        QT_TRANSLATE_NOOP("Command line",
                                          "W: head:H or mean (of --layer L), or model: a "
                                          "figure of a file's attention (png, svg, pdf), or "
                                          "its numbers (csv, npy, json)"));
    usage +=
        usageLines("attnscope compute --model DIR|FILE.gguf --text TEXT --json OUT",
                   QT_TRANSLATE_NOOP("Command line", "run GPT-2 from its folder with the formula's "
                                                     "switches inside every layer: every layer's "
                                                     "weights and the next tokens as JSON"));
    usage += usageLines("attnscope export --model DIR --text TEXT --what W --out FILE",
                        QT_TRANSLATE_NOOP("Command line",
                                          "the run's attention (with the switches) as export "
                                          "--attention-file draws a file's"));
    usage += usageLines("attnscope compare --model DIR --text TEXT --layer L --out FILE",
                        QT_TRANSLATE_NOOP("Command line",
                                          "the model with its textbook formula (A) beside the "
                                          "switched one (B): one head, B − A and both top-10 "
                                          "next tokens as a figure"));
    usage += usageLines("attnscope steps --model DIR --text TEXT --layer L --head H --out FILE",
                        QT_TRANSLATE_NOOP("Command line",
                                          "one head's pipeline inside the model's layer, with "
                                          "its own numbers and the switches, as steps draws it"));
    usage += usageLines("attnscope COMMAND --help",
                        QT_TRANSLATE_NOOP("Command line", "one command's usage and options "
                                                          "(also: attnscope help COMMAND)"));
    usage += usageLines("attnscope help | --help [--language en|zh_CN]",
                        QT_TRANSLATE_NOOP("Command line",
                                          "this text; every help in English (the default) or "
                                          "in Chinese"));
    usage += usageLines("attnscope --version", QT_TRANSLATE_NOOP("Command line", "the version"));
    std::string options = computeCommandHelp() + "\n";
    for (const Command& command : commands())
        if (command.computes)
            options += command.options() + "\n";
    options += generateHelp(translated) + "\n";
    const QString title =
        QString::fromStdString(
            translated(QT_TRANSLATE_NOOP(
                "Command line", "AttnScope %1: softmax(QKᵀ/√d_k + M)·V for your own sentence, "
                                "head by head.")))
            .arg(QStringLiteral(ATTNSCOPE_VERSION));
    std::printf("%s\n\n%s\n%s\n%s%s\n"
                "  attnscope compute --preset article\n"
                "  attnscope compute --text '我喜欢这个产品的设计' --heads 2 --mask causal \\\n"
                "      --json out.json\n"
                "  attnscope export --preset article --out article.pdf\n"
                "  attnscope export --session lesson.attnscope --what head:1 --dpi 300 \\\n"
                "      --out head1.png\n"
                "  attnscope sweep --from 16 --to 512 --out sweep.png\n"
                "  attnscope compare --preset saturation --what mean --out saturation-compare.pdf\n"
                "  attnscope steps --preset causal-decoder --language zh_CN --out steps.pdf\n",
                title.toStdString().c_str(),
                translated(QT_TRANSLATE_NOOP("Command line", "usage:")).c_str(), usage.c_str(),
                options.c_str(), translated(QT_TRANSLATE_NOOP("Command line", "example:")).c_str());
}

// `attnscope COMMAND --help`: that command's usage and options alone.
void printCommandHelp(const Command& command)
{
    std::printf("%s\n%s\n%s%s", translated(QT_TRANSLATE_NOOP("Command line", "usage:")).c_str(),
                usageLines(command.usage, command.what).c_str(),
                command.computes ? (computeHelp() + "\n").c_str() : "", command.options().c_str());
}

// The help, all or one command's (`command` non-empty), in the language `args` ask for
// (--language, English by default).
int help(const std::string& command, const std::vector<std::string>& args)
{
    try {
        const Command* chosen = command.empty() ? nullptr : findCommand(command);
        if (!command.empty() && !chosen)
            throw InputError("no help for '" + command +
                             "': not a command (try: attnscope --help)");
        std::optional<QString> code;
        applyOptions(args, {languageOption(
                               code, QT_TRANSLATE_NOOP("Command line",
                                                       "the language of the help (default en)"))});
        // The translations live in the application's resources, installed into an
        // offscreen application.
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        if (code && *code != u"en")
            startInLanguage(app, language, *code);
        if (chosen)
            printCommandHelp(*chosen);
        else
            printHelp();
        return kExitOk;
    } catch (const InputError& error) {
        return usageError(error.what());
    }
}

} // namespace

int listPresets(const std::vector<std::string>& args)
{
    try {
        std::optional<QString> languageCode;
        applyOptions(args, {presetsLanguageOption(languageCode)});
        // In another language, each preset's line is its tagline, which the window shows
        // for it; in English the core's summary, which names the numbers.
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        const bool translated = languageCode && *languageCode != u"en";
        if (translated)
            startInLanguage(app, language, *languageCode);
        std::string out;
        for (const Preset& preset : presets()) {
            const std::string name(preset.name);
            const std::string line =
                translated
                    ? QCoreApplication::translate(kPresetContext, preset.tagline).toStdString()
                    : std::string(preset.summary);
            out += name + std::string(name.size() < 22 ? 22 - name.size() : 0, ' ') + " " + line +
                   "\n";
        }
        if (const std::string problem = writeFileAtomically("-", out); !problem.empty()) {
            std::fprintf(stderr, "attnscope: %s\n", problem.c_str());
            return kExitWriteFailed;
        }
        return kExitOk;
    } catch (const InputError& error) {
        return usageError(error.what());
    }
}

int compute(const std::vector<std::string>& args)
{
    if (namesOption(args, "attention-file"))
        return attentionFileCommand(args);
    if (namesOption(args, "model"))
        return modelCommand(args);
    try {
        std::optional<QString> languageCode;
        const ComputeOptions options =
            parseComputeArguments(args, {computeLanguageOption(languageCode)});
        AttentionEngine engine;
        const Result result = engine.compute(options.request);
        // The report's words in the language asked for: its translations live in the
        // application's resources, installed into an offscreen application.
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        ReportWords words;
        if (languageCode) {
            startInLanguage(app, language, *languageCode);
            words = ui::reportWords();
        }
        // The report goes to standard output unless --json names a file; a failed write
        // (a full disk, say) is exit status 1 either way, never a silent success.
        const bool json = !options.jsonPath.empty();
        if (const std::string problem =
                writeFileAtomically(json ? options.jsonPath : "-",
                                    json ? jsonReport(result) : textReport(result, words));
            !problem.empty()) {
            std::fprintf(stderr, "attnscope: %s\n", problem.c_str());
            return kExitWriteFailed;
        }
        return kExitOk;
    } catch (const InputError& error) {
        return usageError(error.what());
    }
}

int run(const std::vector<std::string>& args)
{
    // `attnscope --help`, `attnscope help export`, each with an optional --language.
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        std::vector<std::string> rest(args.begin() + std::min<std::ptrdiff_t>(1, std::ssize(args)),
                                      args.end());
        std::string command;
        if (!args.empty() && args[0] == "help" && !rest.empty() && !rest[0].starts_with("-")) {
            command = rest[0];
            rest.erase(rest.begin());
        }
        return help(command, rest);
    }
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // `attnscope export --help`: the command's own help (as the first argument only, so
    // that `--text --help` stays a sentence).
    if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h") && findCommand(command))
        return help(command, std::vector<std::string>(rest.begin() + 1, rest.end()));
    if (command == "--version") {
        // The second and third lines are for bug reports: which kernels computed the lab's
        // products, and which path of AttnScope's own kernel a model's layers.
        std::printf("attnscope %s\nmatrix products: %s\nmodel layers: AttnScope's product "
                    "kernel, %s\n",
                    ATTNSCOPE_VERSION, attn::matrixProductLibrary().c_str(),
                    std::string(attn::productPathName(attn::productPath())).c_str());
        return kExitOk;
    }
    if (command == "compute")
        return compute(rest);
    if (command == "presets")
        return listPresets(rest);
    if (command == "models")
        return modelsCommand(rest);
    if (command == "export")
        return namesOption(rest, "attention-file") ? attentionExportCommand(rest)
               : namesOption(rest, "model")
                   ? (namesOption(rest, "experiment") ? experimentExportCommand(rest)
                                                      : modelExportCommand(rest))
                   : exportCommand(rest);
    if (command == "sweep")
        return sweepCommand(rest);
    if (command == "compare")
        return namesOption(rest, "model") ? modelCompareCommand(rest) : compareCommand(rest);
    if (command == "steps")
        return namesOption(rest, "model") ? modelStepsCommand(rest) : stepsCommand(rest);
    if (command == "generate")
        return generateCommand(rest);
    return usageError("unknown command '" + command + "' (try: attnscope --help)");
}

} // namespace attn::cli
