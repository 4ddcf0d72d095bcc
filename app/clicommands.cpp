#include "clicommands.h"

#include "blas.h"
#include "commandline.h"
#include "comparecommand.h"
#include "exportcommand.h"
#include "figurearguments.h"
#include "labels.h"
#include "presets.h"
#include "report.h"
#include "stepscommand.h"
#include "sweepcommand.h"

#include <QGuiApplication>

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

int usageError(const std::string& message)
{
    std::fprintf(stderr, "attnscope: %s\n", message.c_str());
    return kExitUsage;
}

} // namespace

void printHelp()
{
    ComputeOptions scratch;
    std::optional<QString> language;
    std::vector<Option> computeOptions = computeOptionTable(scratch, true);
    computeOptions.push_back(computeLanguageOption(language));
    std::printf("AttnScope %s: softmax(QKᵀ/√d_k + M)·V for your own sentence, head by head.\n\n"
                "usage:\n"
                "  attnscope                      open the window\n"
                "  attnscope compute [options]    compute attention; print a report (or --json)\n"
                "  attnscope export [options] --out FILE\n"
                "                                 write a figure (png, svg, pdf) or the numbers\n"
                "                                 (csv, npy, json) without opening the window\n"
                "  attnscope sweep [options] [--from 16 --to 1024] [--json FILE] [--out FILE]\n"
                "                                 the same text at d_k = 16 … 1024, with and\n"
                "                                 without the 1/√d_k scaling (exercise 1): a\n"
                "                                 table, JSON or the charts as a figure\n"
                "  attnscope compare [options] --out FILE\n"
                "                                 the textbook formula (A), your switches (B) and\n"
                "                                 B − A side by side as a figure (png, svg, pdf)\n"
                "  attnscope steps [options] --out FILE\n"
                "                                 one head's pipeline, X to the output, as Step\n"
                "                                 by Step shows it, as a figure (png, svg, pdf)\n"
                "  attnscope presets              list the ready-made configurations\n"
                "  attnscope help | --help        this text\n"
                "  attnscope --version            the version\n\n"
                "options of compute:\n%s\n"
                "%s\n"
                "%s\n"
                "%s\n"
                "%s\n"
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
                ATTNSCOPE_VERSION, optionHelp(computeOptions).c_str(), exportHelp().c_str(),
                sweepHelp().c_str(), compareHelp().c_str(), stepsHelp().c_str());
}

int listPresets()
{
    for (const Preset& preset : presets())
        std::printf("%-22s %s\n", std::string(preset.name).c_str(),
                    std::string(preset.summary).c_str());
    return kExitOk;
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
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        printHelp();
        return kExitOk;
    }
    const std::string& command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "--version") {
        // The second line is for bug reports: which kernels computed the products.
        std::printf("attnscope %s\nmatrix products: %s\n", ATTNSCOPE_VERSION,
                    attn::matrixProductLibrary().c_str());
        return kExitOk;
    }
    if (command == "compute")
        return compute(rest);
    if (command == "presets")
        return listPresets();
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
