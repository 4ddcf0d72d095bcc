#include "exportcommand.h"

#include "clicommands.h"
#include "figurearguments.h"
#include "figurefile.h"
#include "formats/commandline.h"
#include "offscreen.h"
#include "session.h"

#include <QByteArray>
#include <QGuiApplication>

#include <cstdio>
#include <optional>

namespace attn::cli {
namespace {

using attn::ui::FigureFormat;
using attn::ui::FigureOptions;
using attn::ui::FigureSelection;
using attn::ui::FigureWhat;

// What the export options say; unset ones leave the session's view or the default.
struct ExportArguments {
    FigureArguments figure; // --out, --format and the look shared with compare
    std::optional<FigureSelection> selection;
    std::optional<bool> annotate;
    std::optional<bool> marginSums;
    bool colorbar = true;
    bool caption = true;
};

std::vector<Option> exportOptionTable(ExportArguments& a)
{
    const std::string selections = ui::allSelectionSpellings().toStdString();
    std::vector<Option> table = {
        {"session", "FILE",
         QT_TRANSLATE_NOOP(
             "Command line",
             "start from a saved .attnscope session: its sentence, switches and view"),
         [](std::string_view value) {
             if (value.empty())
                 throw InputError("--session needs a file name");
         }},
    };
    for (Option& option :
         fileOptions(a.figure, /*numbers*/ true,
                     QT_TRANSLATE_NOOP("Command line",
                                       "the file to write (required; - is standard output); its "
                                       "extension gives the format")))
        table.push_back(std::move(option));
    table.push_back(
        {"what", selections,
         QT_TRANSLATE_NOOP("Command line",
                           "all heads with their mean (the default), their mean, or head N"),
         [&a, selections](std::string_view value) {
             a.selection = ui::selectionFromSpelling(
                 QString::fromUtf8(value.data(), qsizetype(value.size())));
             if (!a.selection)
                 throw InputError("--what must be " + selections + ", not " + quoted(value));
         }});
    for (Option& option : lookOptions(a.figure))
        table.push_back(std::move(option));
    table.push_back(languageOption(a.figure));
    for (Option option : std::initializer_list<Option>{
             {"annotate", "", QT_TRANSLATE_NOOP("Command line", "print each weight in its cell"),
              [&a](std::string_view) { a.annotate = true; }},
             {"no-annotate", "",
              QT_TRANSLATE_NOOP("Command line", "print no weights (when the session prints them)"),
              [&a](std::string_view) { a.annotate = false; }},
             {"sums", "",
              QT_TRANSLATE_NOOP("Command line",
                                "each row's sum right of the heatmap and each column's below it"),
              [&a](std::string_view) { a.marginSums = true; }},
             {"no-sums", "",
              QT_TRANSLATE_NOOP("Command line",
                                "no row and column sums (when the session shows them)"),
              [&a](std::string_view) { a.marginSums = false; }},
             {"no-colorbar", "", QT_TRANSLATE_NOOP("Command line", "leave out the colour bar"),
              [&a](std::string_view) { a.colorbar = false; }},
             {"no-caption", "",
              QT_TRANSLATE_NOOP("Command line", "leave out the caption naming the configuration"),
              [&a](std::string_view) { a.caption = false; }},
         })
        table.push_back(std::move(option));
    return table;
}

// The FILE of --session in `args`, read as parseComputeArguments pairs options with their
// values: the session must be loaded before the real parse starts from its request.
std::optional<std::string> sessionPath(const std::vector<std::string>& args,
                                       const std::vector<Option>& extra)
{
    ComputeOptions scratch;
    std::vector<Option> table = computeOptionTable(scratch, false);
    table.insert(table.end(), extra.begin(), extra.end());
    std::optional<std::string> session;
    for (std::size_t k = 0; k < args.size(); ++k) {
        std::string_view name = args[k];
        if (!name.starts_with("--"))
            break; // the parse reports it
        name.remove_prefix(2);
        std::optional<std::string> value;
        if (const auto eq = name.find('='); eq != std::string_view::npos) {
            value = std::string(name.substr(eq + 1));
            name = name.substr(0, eq);
        }
        const auto option = std::ranges::find(table, name, &Option::name);
        if (option == table.end())
            break;
        if (!option->valueName.empty() && !value) {
            if (k + 1 >= args.size())
                break;
            value = args[++k];
        }
        if (name == "session")
            session = value;
    }
    return session;
}

FigureOptions figureOptionsFrom(const ExportArguments& a, const std::optional<ui::Session>& session)
{
    FigureOptions options = session ? ui::figureOptions(session->view) : FigureOptions{};
    if (a.selection) {
        options.what = a.selection->what;
        options.head = a.selection->head;
    }
    const FigureArguments& f = a.figure;
    options.scale = f.scale.value_or(options.scale);
    options.dpi = f.dpi.value_or(options.dpi);
    if (f.title)
        options.title = QString::fromStdString(*f.title);
    options.colormap = f.colormap.value_or(options.colormap);
    options.annotate = a.annotate.value_or(options.annotate);
    options.marginSums = a.marginSums.value_or(options.marginSums);
    options.logScale = f.logScale.value_or(options.logScale);
    options.colorbar = a.colorbar;
    options.caption = a.caption;
    options.sequence = f.sequence.value_or(options.sequence);
    return options;
}

} // namespace

ComputeOptions parseWithSession(const std::vector<std::string>& args,
                                const std::vector<Option>& extra,
                                std::optional<ui::Session>& session)
{
    if (const std::optional<std::string> path = sessionPath(args, extra)) {
        QString error;
        session = ui::loadSession(QString::fromStdString(*path), &error);
        if (!session)
            throw InputError(error.toStdString());
    }
    // The session's request, whole, is where the options start, as a preset's would be:
    // no field of it goes through a spelling that could leave one out.
    return parseComputeArguments(args, extra, /*acceptJson*/ false,
                                 session ? session->request : Request{});
}

std::string exportHelp()
{
    ExportArguments scratch;
    return commandHelp(
        "export", exportOptionTable(scratch), "--json",
        {QT_TRANSLATE_NOOP("Command line",
                           "Settings apply in this order, each overriding the one before: the "
                           "defaults, the --session file, the --preset (it replaces the "
                           "session's sentence and switches; the session's view stays), then "
                           "every other option.")});
}

int exportCommand(const std::vector<std::string>& args)
{
    try {
        ExportArguments a;
        const std::vector<Option> extra = exportOptionTable(a);

        // 1. The session first: its request lies under everything the command line says.
        std::optional<ui::Session> session;
        const ComputeOptions parsed = parseWithSession(args, extra, session);

        // 2. Where to, and in which format.
        const FigureFormat format = requiredFormatOf(a.figure, /*numbers*/ true, "export");
        const FigureOptions options = figureOptionsFrom(a, session);

        // 3. The numbers, then the checks that need them.
        AttentionEngine engine;
        const Result result = engine.compute(parsed.request);
        // A session's sequence may not exist once --text changed; the figure then shows the
        // last one. A --sequence given here must exist.
        checkHeadAndSequence(
            result, options.what == FigureWhat::Head ? std::optional(options.head) : std::nullopt,
            a.figure);

        // 4. The file's bytes (a figure is drawn offscreen), written atomically.
        std::optional<QGuiApplication> app;
        std::optional<ui::Language> language;
        if (ui::isFigureFormat(format))
            startFigures(app, language, a.figure);
        QString error;
        const std::optional<QByteArray> bytes = ui::figureBytes(format, result, options, &error);
        return writeFigure(bytes, error, a.figure.out);
    } catch (const InputError& error) {
        return fail(kExitUsage, error.what());
    }
}

} // namespace attn::cli
