// What the commands that write a figure (export, compare, sweep) share on the command
// line: where to write, in which format, and how the figure looks.
#pragma once

#include "colormap.h"
#include "engine/engine.h"
#include "figurefile.h"
#include "formats/commandline.h"
#include "language.h"
#include "offscreen.h"

#include <QByteArray>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::cli {

// 'text', as the error messages quote a value.
[[nodiscard]] std::string quoted(std::string_view text);

// "png|svg|pdf", or with `numbers` also "|csv|npy|json".
[[nodiscard]] std::string formatSpellings(bool numbers);

struct FigureArguments {
    std::string out;
    std::optional<ui::FigureFormat> format;
    std::optional<double> scale; // PNG pixels per point
    std::optional<int> dpi;
    std::optional<std::string> title;
    std::optional<ui::ColormapName> colormap;
    std::optional<bool> logScale;
    std::optional<int> sequence;
    std::optional<QString> language; // the figure's own words; English when not given
};

// --out (with `outHelp`) and --format (the number formats too with `numbers`).
[[nodiscard]] std::vector<Option> fileOptions(FigureArguments& a, bool numbers,
                                              const std::string& outHelp);
// --png-scale, --dpi, --title, --colormap, --color-scale and --sequence.
[[nodiscard]] std::vector<Option> lookOptions(FigureArguments& a);

// --language en|zh_CN, into `code`, with `help`.
[[nodiscard]] Option languageOption(std::optional<QString>& code, const std::string& help);
// --language for a figure's own words.
[[nodiscard]] Option languageOption(FigureArguments& a);

// Starts the offscreen application (startOffscreen) and installs the translations of
// `code` into it, which `language` keeps installed while the output is made: a command's
// words in the language its --language asked for.
template <typename App>
void startInLanguage(std::optional<App>& app, std::optional<ui::Language>& language,
                     const QString& code)
{
    startOffscreen(app);
    language.emplace();
    language->apply(code);
}

// startInLanguage with a.language, English when not given: a figure's own words.
template <typename App>
void startFigures(std::optional<App>& app, std::optional<ui::Language>& language,
                  const FigureArguments& a)
{
    startInLanguage(app, language, a.language.value_or(QStringLiteral("en")));
}

// Throws InputError when `head` (if any) is not one of result's heads, or a.sequence (if
// given) not one of its sequences.
void checkHeadAndSequence(const Result& result, std::optional<int> head, const FigureArguments& a);

// The format of a.out: --format, else its extension. Throws InputError when neither
// tells it (or names numbers where `numbers` is false), or when standard output ("-")
// is asked for without --format. a.out must not be empty.
[[nodiscard]] ui::FigureFormat formatOf(const FigureArguments& a, bool numbers);

// The same, first refusing an empty --out: "<command> needs --out FILE …".
[[nodiscard]] ui::FigureFormat requiredFormatOf(const FigureArguments& a, bool numbers,
                                                const std::string& command);

// `english`, a text marked QT_TRANSLATE_NOOP("Command line", …), in the language of the
// installed translator; itself in English or where it has no translation.
[[nodiscard]] std::string translated(const std::string& english);

// A computing command's own help: "options of <command> (and those of compute, except
// <except>):", its options, then `notes`, each a paragraph indented by two spaces; all in
// the installed language.
[[nodiscard]] std::string commandHelp(const std::string& command,
                                      const std::vector<Option>& options, const std::string& except,
                                      const std::vector<std::string>& notes);

// The end of a figure command: `bytes` written to `out` atomically, exit status 0, or 1
// with the reason on standard error when the file cannot be written. Throws InputError
// with `error` when there are no bytes (the figure could not be made).
[[nodiscard]] int writeFigure(const std::optional<QByteArray>& bytes, const QString& error,
                              const std::string& out);

} // namespace attn::cli
