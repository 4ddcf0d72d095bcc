#include "clicommands.h"

#include "blas.h"
#include "commandline.h"
#include "comparecommand.h"
#include "exportcommand.h"
#include "figurearguments.h"
#include "labels.h"
#include "presetpanel.h"
#include "presets.h"
#include "report.h"
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
        code, "the language of the report's words and warnings (default en); not of --json");
}

// presets' --language en|zh_CN: the lines about the presets.
Option presetsLanguageOption(std::optional<QString>& code)
{
    return languageOption(code, "the language of the lines about the presets (default en)");
}

int usageError(const std::string& message)
{
    std::fprintf(stderr, "attnscope: %s\n", message.c_str());
    return kExitUsage;
}

} // namespace

namespace {

// One command of the help: its usage line, what it does, and its own options (after
// those of compute, for the commands that compute).
struct Command {
    const char* name;
    const char* usage;
    const char* what; // lines indented to the help's second column
    bool computes;
    std::string (*options)();
};

std::string computeHelp()
{
    ComputeOptions scratch;
    std::optional<QString> language;
    std::vector<Option> options = computeOptionTable(scratch, true);
    options.push_back(computeLanguageOption(language));
    return "options of compute:\n" + optionHelp(options);
}

std::string presetsHelp()
{
    std::optional<QString> language;
    return "options of presets:\n" + optionHelp({presetsLanguageOption(language)});
}

const std::vector<Command>& commands()
{
    static const std::vector<Command> all = {
        {"compute", "attnscope compute [options]", "compute attention; print a report (or --json)",
         false, computeHelp},
        {"export", "attnscope export [options] --out FILE",
         "write a figure (png, svg, pdf) or the numbers\n"
         "(csv, npy, json) without opening the window",
         true, exportHelp},
        {"sweep", "attnscope sweep [options] [--from 16 --to 1024] [--json FILE] [--out FILE]",
         "the same text at d_k = 16 … 1024, with and\n"
         "without the 1/√d_k scaling (exercise 1): a\n"
         "table, JSON or the charts as a figure",
         true, sweepHelp},
        {"compare", "attnscope compare [options] --out FILE",
         "the textbook formula (A), your switches (B) and\n"
         "B − A side by side as a figure (png, svg, pdf)",
         true, compareHelp},
        {"steps", "attnscope steps [options] --out FILE",
         "one head's pipeline, X to the output, as Step\n"
         "by Step shows it, as a figure (png, svg, pdf)",
         true, stepsHelp},
        {"presets", "attnscope presets [--language en|zh_CN]", "list the ready-made configurations",
         false, presetsHelp},
    };
    return all;
}

// "  usage   what" with `what` in the second column, on the usage's line when it fits.
std::string usageLines(const Command& command)
{
    constexpr std::size_t kColumn = 33;
    std::string out = "  " + std::string(command.usage);
    std::string what = command.what;
    bool first = true;
    for (std::size_t start = 0; start < what.size();) {
        const std::size_t end = std::min(what.find('\n', start), what.size());
        const std::string line = what.substr(start, end - start);
        if (first && out.size() + 1 < kColumn)
            out += std::string(kColumn - out.size(), ' ') + line + "\n";
        else
            out += (first ? "\n" : "") + std::string(kColumn, ' ') + line + "\n";
        first = false;
        start = end + 1;
    }
    return out;
}

} // namespace

void printHelp()
{
    std::string usage;
    for (const Command& command : commands())
        usage += usageLines(command);
    std::string options = computeHelp() + "\n";
    for (const Command& command : commands())
        if (command.computes)
            options += command.options() + "\n";
    std::printf("AttnScope %s: softmax(QKᵀ/√d_k + M)·V for your own sentence, head by head.\n\n"
                "usage:\n"
                "  attnscope                      open the window\n"
                "%s"
                "  attnscope COMMAND --help       one command's usage and options (also:\n"
                "                                 attnscope help COMMAND)\n"
                "  attnscope help | --help        this text\n"
                "  attnscope --version            the version\n\n"
                "%s"
                "example:\n"
                "  attnscope compute --preset article\n"
                "  attnscope compute --text '我喜欢这个产品的设计' --heads 2 --mask causal --json "
                "out.json\n"
                "  attnscope export --preset article --out article.pdf\n"
                "  attnscope export --session lesson.attnscope --what head:1 --dpi 300 \\\n"
                "      --out head1.png\n"
                "  attnscope sweep --from 16 --to 512 --out sweep.png\n"
                "  attnscope compare --preset saturation --what mean --out saturation-compare.pdf\n"
                "  attnscope steps --preset causal-decoder --language zh_CN --out steps.pdf\n",
                ATTNSCOPE_VERSION, usage.c_str(), options.c_str());
}

// `attnscope COMMAND --help`: that command's usage and options alone.
bool printCommandHelp(const std::string& name)
{
    const auto command = std::ranges::find(commands(), name, &Command::name);
    if (command == commands().end())
        return false;
    std::printf("usage:\n%s\n%s%s", usageLines(*command).c_str(),
                command->computes ? (computeHelp() + "\n").c_str() : "",
                command->options().c_str());
    return true;
}

int listPresets(const std::vector<std::string>& args)
{
    try {
        std::optional<QString> languageCode;
        applyOptions(args, {presetsLanguageOption(languageCode)});
        // In another language, each preset's line is the preset panel's summary, which the
        // window shows for it; in English the core's line, which names the numbers.
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        const bool translated = languageCode && *languageCode != u"en";
        if (translated) {
            startOffscreen(app);
            language.emplace();
            language->apply(*languageCode);
        }
        std::string out;
        for (const Preset& preset : presets()) {
            const std::string name(preset.name);
            const std::string line =
                translated ? ui::PresetPanel::summary(QString::fromStdString(name)).toStdString()
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
            startOffscreen(app);
            language.emplace();
            language->apply(*languageCode);
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
    if (args.size() == 2 && args[0] == "help") { // `attnscope help export`
        if (printCommandHelp(args[1]))
            return kExitOk;
        return usageError("no help for '" + args[1] + "': not a command (try: attnscope --help)");
    }
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        printHelp();
        return kExitOk;
    }
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    // `attnscope export --help`: the command's own help (as the first argument only, so
    // that `--text --help` stays a sentence).
    if (!rest.empty() && (rest[0] == "--help" || rest[0] == "-h") && printCommandHelp(command))
        return kExitOk;
    if (command == "--version") {
        // The second line is for bug reports: which kernels computed the products.
        std::printf("attnscope %s\nmatrix products: %s\n", ATTNSCOPE_VERSION,
                    attn::matrixProductLibrary().c_str());
        return kExitOk;
    }
    if (command == "compute")
        return compute(rest);
    if (command == "presets")
        return listPresets(rest);
    if (command == "export")
        return exportCommand(rest);
    if (command == "sweep")
        return sweepCommand(rest);
    if (command == "compare")
        return compareCommand(rest);
    if (command == "steps")
        return stepsCommand(rest);
    return usageError("unknown command '" + command + "' (try: attnscope --help)");
}

} // namespace attn::cli
