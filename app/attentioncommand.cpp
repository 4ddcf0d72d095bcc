#include "attentioncommand.h"

#include "attention/attentionfile.h"
#include "attention/attentionreport.h"
#include "clicommands.h"

#include <cstdint>
#include <cstdio>
#include <optional>

namespace attn::cli {
namespace {

struct AttentionArguments {
    std::string file;
    int sequence = 0;
    std::optional<int> layer;
    std::string jsonPath; // empty: the summary to standard output
};

std::vector<Option> attentionOptions(AttentionArguments& a)
{
    return {
        {"attention-file", "FILE",
         QT_TRANSLATE_NOOP("Command line",
                           "the attention weights of a model, computed elsewhere: .npz "
                           "(array 'attentions', optional 'tokens', 'key_tokens'), .npy or "
                           ".safetensors; the formula's options do not apply"),
         [&a](std::string_view value) {
             if (value.empty())
                 throw InputError("--attention-file needs a file name");
             a.file = value;
         }},
        {"sequence", "N",
         QT_TRANSLATE_NOOP("Command line", "the file's sequence (batch index) to show, from 0"),
         [&a](std::string_view value) {
             a.sequence = int(parseInteger("--sequence", value, 0, INT32_MAX));
         }},
        {"layer", "N",
         QT_TRANSLATE_NOOP("Command line", "only this layer of the file, from 0 (default: all)"),
         [&a](std::string_view value) {
             a.layer = int(parseInteger("--layer", value, 0, INT32_MAX));
         }},
        {"json", "FILE",
         QT_TRANSLATE_NOOP("Command line",
                           "write the file's weights, statistics and head patterns as JSON "
                           "('-' = standard output)"),
         [&a](std::string_view value) {
             if (value.empty())
                 throw InputError("--json needs a file name, or - for standard output");
             a.jsonPath = value;
         }},
    };
}

} // namespace

std::string attentionFileHelp(const HelpTranslator& translate)
{
    AttentionArguments scratch;
    const std::string title =
        QT_TRANSLATE_NOOP("Command line", "options of compute with an attention "
                                          "file (alone):");
    return (translate ? translate(title) : title) + "\n" +
           optionHelp(attentionOptions(scratch), translate);
}

int attentionFileCommand(const std::vector<std::string>& args)
{
    try {
        AttentionArguments a;
        applyOptions(args, attentionOptions(a));
        const std::unique_ptr<AttentionStack> stack = openAttentionFile(a.file);
        const bool json = !a.jsonPath.empty();
        const std::string text = json ? attentionJson(*stack, a.sequence, a.layer)
                                      : attentionSummary(*stack, a.sequence, a.layer);
        if (const std::string problem = writeFileAtomically(json ? a.jsonPath : "-", text);
            !problem.empty()) {
            std::fprintf(stderr, "attnscope: %s\n", problem.c_str());
            return kExitWriteFailed;
        }
        return kExitOk;
    } catch (const InputError& error) {
        std::fprintf(stderr, "attnscope: %s\n", error.what());
        return kExitUsage;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "attnscope: not enough memory for the attention file's JSON "
                             "(try --layer)\n");
        return kExitUsage;
    }
}

} // namespace attn::cli
