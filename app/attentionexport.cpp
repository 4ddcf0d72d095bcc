#include "attentionexport.h"

#include "attention/attentionfile.h"
#include "attention/attentionreport.h"
#include "clicommands.h"
#include "figurearguments.h"
#include "modelexport.h"
#include "modelfigure.h"

#include <QGuiApplication>

#include <cstdint>
#include <memory>
#include <optional>

namespace attn::cli {
namespace {

using ui::FileSelection;
using ui::FileWhat;

std::vector<Option> attentionExportOptions(std::string& file, StackExportArguments& a)
{
    std::vector<Option> table = {
        {"attention-file", "FILE",
         QT_TRANSLATE_NOOP("Command line",
                           "the attention weights of a model, computed elsewhere (.npz, .npy, "
                           ".safetensors); the formula's options do not apply"),
         [&file](std::string_view value) {
             if (value.empty())
                 throw InputError("--attention-file needs a file name");
             file = value;
         }},
    };
    for (Option& option : stackExportOptions(a))
        table.push_back(std::move(option));
    return table;
}

} // namespace

std::vector<Option> stackExportOptions(StackExportArguments& a)
{
    const std::string selections = ui::allFileSelectionSpellings().toStdString();
    std::vector<Option> table = {
        {"layer", "L",
         QT_TRANSLATE_NOOP("Command line",
                           "the file's layer, from 0 (required, except with --what model)"),
         [&a](std::string_view value) {
             a.layer = int(parseInteger("--layer", value, 0, INT32_MAX));
         }},
        {"what", selections,
         QT_TRANSLATE_NOOP("Command line",
                           "head H of the layer, the mean of its heads, or the model: every "
                           "layer and head as thumbnails (layers as rows); required"),
         [&a, selections](std::string_view value) {
             a.selection = ui::fileSelectionFromSpelling(
                 QString::fromUtf8(value.data(), qsizetype(value.size())));
             if (!a.selection)
                 throw InputError("--what must be " + selections + ", not " + quoted(value));
         }},
    };
    for (Option& option :
         fileOptions(a.figure, /*numbers*/ true,
                     QT_TRANSLATE_NOOP("Command line",
                                       "the file to write (required; - is standard output); its "
                                       "extension gives the format")))
        table.push_back(std::move(option));
    for (Option& option : lookOptions(a.figure))
        table.push_back(std::move(option));
    table.push_back(languageOption(a.figure));
    for (Option option : std::initializer_list<Option>{
             {"annotate", "", QT_TRANSLATE_NOOP("Command line", "print each weight in its cell"),
              [&a](std::string_view) { a.annotate = true; }},
             {"sums", "",
              QT_TRANSLATE_NOOP("Command line",
                                "each row's sum right of the heatmap and each column's below it"),
              [&a](std::string_view) { a.marginSums = true; }},
             {"no-colorbar", "", QT_TRANSLATE_NOOP("Command line", "leave out the colour bar"),
              [&a](std::string_view) { a.colorbar = false; }},
             {"no-caption", "",
              QT_TRANSLATE_NOOP("Command line", "leave out the caption naming the file"),
              [&a](std::string_view) { a.caption = false; }},
         })
        table.push_back(std::move(option));
    return table;
}

namespace {

ui::FileFigureOptions figureOptionsFrom(const StackExportArguments& a)
{
    ui::FileFigureOptions options;
    options.selection = *a.selection;
    options.layer = a.layer.value_or(0);
    options.sequence = a.figure.sequence.value_or(0);
    if (a.figure.title)
        options.title = QString::fromStdString(*a.figure.title);
    options.colormap = a.figure.colormap.value_or(options.colormap);
    options.logScale = a.figure.logScale.value_or(false);
    options.scale = a.figure.scale.value_or(options.scale);
    options.dpi = a.figure.dpi.value_or(0);
    options.annotate = a.annotate;
    options.marginSums = a.marginSums;
    options.colorbar = a.colorbar;
    options.caption = a.caption;
    return options;
}

} // namespace

void checkStackExportArguments(const StackExportArguments& a, const std::string& command)
{
    static_cast<void>(requiredFormatOf(a.figure, /*numbers*/ true, "export"));
    if (!a.selection)
        throw InputError(command + " needs --what " +
                         ui::allFileSelectionSpellings().toStdString());
    if (a.selection->what != FileWhat::Model && !a.layer)
        throw InputError(command + " --what " +
                         ui::fileSelectionSpelling(*a.selection).toStdString() +
                         " needs --layer L");
}

int exportStack(const AttentionStack& stack, const StackExportArguments& a,
                const std::function<QStringList()>& captionNotes)
{
    const ui::FigureFormat format = requiredFormatOf(a.figure, /*numbers*/ true, "export");
    ui::FileFigureOptions options = figureOptionsFrom(a);
    const bool model = a.selection->what == FileWhat::Model;
    checkSequenceAndLayer(
        stack, options.sequence, model ? std::nullopt : std::optional(options.layer),
        a.selection->what == FileWhat::Head ? std::optional(a.selection->head) : std::nullopt);

    // The bytes (a figure is drawn offscreen), written atomically.
    if (!ui::isFigureFormat(format))
        return writeFigure(
            ui::selectionNumbers(stack, options.sequence, options.layer, options.selection, format),
            QString(), a.figure.out);
    std::optional<QGuiApplication> app;
    std::optional<ui::Language> language;
    startFigures(app, language, a.figure);
    if (captionNotes)
        options.captionNotes = captionNotes();
    QString error;
    const std::optional<QByteArray> bytes = ui::fileFigureBytes(format, stack, options, &error);
    return writeFigure(bytes, error, a.figure.out);
}

std::string attentionExportHelp(const HelpTranslator& translate)
{
    std::string file;
    StackExportArguments scratch;
    const std::string title =
        QT_TRANSLATE_NOOP("Command line", "options of export with an attention file (alone):");
    return (translate ? translate(title) : title) + "\n" +
           optionHelp(attentionExportOptions(file, scratch), translate);
}

int attentionExportCommand(const std::vector<std::string>& args)
{
    try {
        // 1. The arguments, each checked before the file is opened.
        std::string file;
        StackExportArguments a;
        applyOptions(args, attentionExportOptions(file, a));
        if (file.empty())
            throw InputError("export --attention-file needs a file name");
        checkStackExportArguments(a, "export --attention-file");
        // 2. The file (a bad one names itself and its fault), then the figure or numbers.
        const std::unique_ptr<AttentionStack> stack = openAttentionFile(file);
        return exportStack(*stack, a);
    } catch (const InputError& error) {
        return fail(kExitUsage, error.what());
    } catch (const std::bad_alloc&) {
        return fail(kExitUsage, "not enough memory for the attention file's numbers (try "
                                "--what head:H or mean)");
    }
}

} // namespace attn::cli
