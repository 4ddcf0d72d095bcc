// `attnscope export --attention-file FILE`: a figure of a file's attention (one head of a
// layer, the layer's mean head, or the model: every layer and head as thumbnails) as PNG,
// SVG or PDF, or its numbers as CSV, NPY or JSON, without a window or a display.
#pragma once

#include "figurearguments.h"
#include "formats/commandline.h"
#include "modelfigure.h"

#include <QStringList>

#include <functional>
#include <optional>

#include <string>
#include <vector>

namespace attn::cli {

// What export says about a figure of an attention stack (a file's, or a model run's).
struct StackExportArguments {
    std::optional<int> layer;
    std::optional<ui::FileSelection> selection;
    FigureArguments figure; // --out, --format, --sequence and the look
    bool annotate = false;
    bool marginSums = false;
    bool colorbar = true;
    bool caption = true;
};

// --layer, --what, --out and the look of a stack's figure (all but where the stack is from).
[[nodiscard]] std::vector<Option> stackExportOptions(StackExportArguments& a);

// Throws InputError when `a` lacks --out, --what, or --layer (except with --what model);
// `command` ("export --attention-file") begins the message.
void checkStackExportArguments(const StackExportArguments& a, const std::string& command);

// Writes the figure or numbers `a` asks for of `stack`, after checking its layer and head
// (InputError); `captionNotes`, called once the figure's language is installed, end the
// caption. Returns the exit status.
int exportStack(const AttentionStack& stack, const StackExportArguments& a,
                const std::function<QStringList()>& captionNotes = {});

// Runs export with `args` (after the command word) that name an attention file
// (namesOption(args, "attention-file")); returns the exit status as in clicommands.h.
int attentionExportCommand(const std::vector<std::string>& args);

// The help of these options (English; `translate` gives another language).
[[nodiscard]] std::string attentionExportHelp(const HelpTranslator& translate);

} // namespace attn::cli
