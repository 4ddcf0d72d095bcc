#include "figurearguments.h"

#include "clicommands.h"

#include <QCoreApplication>

namespace attn::cli {
namespace {

std::optional<ui::FigureFormat> acceptedFormat(const QString& spellingOrPath, bool path,
                                               bool numbers)
{
    const auto format =
        path ? ui::formatFromPath(spellingOrPath) : ui::formatFromSpelling(spellingOrPath);
    return format && (numbers || ui::isFigureFormat(*format)) ? format : std::nullopt;
}

std::string colormapSpellings()
{
    std::string spellings;
    for (const ui::ColormapName name : ui::Colormap::names())
        spellings += (spellings.empty() ? "" : "|") + ui::Colormap::spelling(name).toStdString();
    return spellings;
}

QString fromView(std::string_view value)
{
    return QString::fromUtf8(value.data(), qsizetype(value.size()));
}

} // namespace

std::string quoted(std::string_view text)
{
    return "'" + std::string(text) + "'";
}

std::string formatSpellings(bool numbers)
{
    return numbers ? ui::allFormatSpellings().toStdString() : "png|svg|pdf";
}

std::vector<Option> fileOptions(FigureArguments& a, bool numbers, const std::string& outHelp)
{
    const std::string formats = formatSpellings(numbers);
    return {
        {"out", "FILE", outHelp,
         [&a](std::string_view value) {
             if (value.empty())
                 throw InputError("--out needs a file name");
             a.out = value;
         }},
        {"format", formats,
         QT_TRANSLATE_NOOP("Command line", "the format, when the extension does not give it"),
         [&a, formats, numbers](std::string_view value) {
             a.format = acceptedFormat(fromView(value), false, numbers);
             if (!a.format)
                 throw InputError("--format must be " + formats + ", not " + quoted(value));
         }},
    };
}

std::vector<Option> lookOptions(FigureArguments& a)
{
    return {
        // Not --scale: that is the formula's scaling (sqrt-dk|none|sqrt-dmodel).
        {"png-scale", "X",
         QT_TRANSLATE_NOOP("Command line", "PNG pixels per point, from 0.5 to 16 (default 2)"),
         [&a](std::string_view value) {
             const double scale = parseReal("--png-scale", value);
             if (scale < 0.5 || scale > 16)
                 throw InputError("--png-scale must be between 0.5 and 16, not " +
                                  std::string(value));
             a.scale = scale;
         }},
        {"dpi", "N",
         QT_TRANSLATE_NOOP("Command line",
                           "PNG dots per inch, from 36 to 2400; replaces --png-scale"),
         [&a](std::string_view value) {
             a.dpi = static_cast<int>(parseInteger("--dpi", value, 36, 2400));
         }},
        {"title", "TEXT", QT_TRANSLATE_NOOP("Command line", "a title above the heatmaps"),
         [&a](std::string_view value) { a.title = std::string(value); }},
        {"colormap", colormapSpellings(),
         QT_TRANSLATE_NOOP("Command line", "the weights' colours (default viridis)"),
         [&a](std::string_view value) {
             a.colormap = ui::Colormap::fromSpelling(fromView(value));
             if (!a.colormap)
                 throw InputError("--colormap must be " + colormapSpellings() + ", not " +
                                  quoted(value));
         }},
        {"color-scale", "linear|log",
         QT_TRANSLATE_NOOP(
             "Command line",
             "colour the weights linearly from 0 (default), or by their logarithm from a few "
             "decades below the largest (long sentences, causal masks)"),
         [&a](std::string_view value) {
             if (value != "linear" && value != "log")
                 throw InputError("--color-scale must be linear or log, not " + quoted(value));
             a.logScale = value == "log";
         }},
        {"sequence", "N",
         QT_TRANSLATE_NOOP("Command line", "which line of the batch to draw, from 0 (default 0)"),
         [&a](std::string_view value) {
             a.sequence = static_cast<int>(parseInteger("--sequence", value, 0, kMaxSequences - 1));
         }},
    };
}

Option languageOption(std::optional<QString>& code, const std::string& help)
{
    const QStringList codes = ui::Language::available();
    const std::string spellings = codes.join(u'|').toStdString();
    return {"language", spellings, help, [&code, codes, spellings](std::string_view value) {
                const QString given = fromView(value);
                if (!codes.contains(given))
                    throw InputError("--language must be " + spellings + ", not " + quoted(value));
                code = given;
            }};
}

Option languageOption(FigureArguments& a)
{
    return languageOption(
        a.language,
        QT_TRANSLATE_NOOP("Command line",
                          "the language of the figure's titles, labels and caption (default en)"));
}

ui::FigureFormat formatOf(const FigureArguments& a, bool numbers)
{
    const std::string formats = formatSpellings(numbers);
    if (a.format)
        return *a.format;
    if (a.out == "-")
        throw InputError("--out - (standard output) needs --format " + formats);
    if (const auto format = acceptedFormat(QString::fromStdString(a.out), true, numbers))
        return *format;
    if (numbers)
        throw InputError("cannot tell the format of " + quoted(a.out) +
                         " from its extension: give --format " + formats);
    throw InputError("cannot tell the figure format of " + quoted(a.out) +
                     " from its extension: name it .png, .svg or .pdf, or give --format " +
                     formats);
}

ui::FigureFormat requiredFormatOf(const FigureArguments& a, bool numbers,
                                  const std::string& command)
{
    if (a.out.empty())
        throw InputError(command + " needs --out FILE (" +
                         (numbers ? "the extension gives the format" : "png, svg or pdf") + ")");
    return formatOf(a, numbers);
}

void checkHeadAndSequence(const Result& result, std::optional<int> head, const FigureArguments& a)
{
    if (head && *head >= result.heads())
        throw InputError("--what head:" + std::to_string(*head) +
                         " is not a head: " + std::to_string(result.heads()) +
                         (result.heads() == 1 ? " head" : " heads") + ", numbered from 0");
    if (a.sequence && *a.sequence >= result.batch())
        throw InputError("--sequence " + std::to_string(*a.sequence) +
                         " is not a line of the text: " + std::to_string(result.batch()) +
                         (result.batch() == 1 ? " sequence" : " sequences") + ", numbered from 0");
}

std::string translated(const std::string& english)
{
    return QCoreApplication::translate("Command line", english.c_str()).toStdString();
}

std::string commandHelp(const std::string& command, const std::vector<Option>& options,
                        const std::string& except, const std::vector<std::string>& notes)
{
    std::string out =
        QString::fromStdString(
            translated(QT_TRANSLATE_NOOP("Command line",
                                         "options of %1 (and those of compute, except %2):")))
            .arg(QString::fromStdString(command), QString::fromStdString(translated(except)))
            .toStdString() +
        "\n" + optionHelp(options, translated);
    for (const std::string& note : notes)
        out += helpParagraph(note, 2, translated);
    return out;
}

int writeFigure(const std::optional<QByteArray>& bytes, const QString& error,
                const std::string& out)
{
    if (!bytes)
        throw InputError(error.toStdString());
    if (const std::string problem = writeFileAtomically(out, bytes->toStdString());
        !problem.empty())
        return fail(kExitWriteFailed, problem);
    return kExitOk;
}

} // namespace attn::cli
