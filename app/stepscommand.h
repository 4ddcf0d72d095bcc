// `attnscope steps`: the Step by Step dialog's strip without a window — one head's
// pipeline from X to the output, each matrix with its formula and shape, as PNG, SVG or
// PDF for a handout.
#pragma once

#include "figurearguments.h"
#include "pipelinetiles.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace attn::cli {

// What the steps figure takes on the command line, with or without a model.
struct StepsFigureArguments {
    FigureArguments figure;
    int width = 1300;                        // the dialog's strip, in screen pixels
    std::optional<std::pair<int, int>> cell; // the outlined query i and key j
    bool explanation = true;                 // its arithmetic below the strip
};

// The steps figure's options: --out and --format, then `afterOut`, then --cell,
// --no-explanation, --width, the look (no --title, no --dpi) and --language.
[[nodiscard]] std::vector<Option> stepsFigureOptions(StepsFigureArguments& a,
                                                     std::vector<Option> afterOut = {});

// The tiles of a figure in `colours` (made once the figure's application runs, so that
// their words are in its language).
using StepsTileMaker = std::function<std::vector<ui::StageTile>(const ui::WeightColours&)>;

// The strip of `result`'s head `head` (of a.figure.sequence, default 0) written as a.figure
// asks, `colours` overridden by --colormap and --color-scale: the tiles `tilesOf` makes
// (numberedPipelineTiles when empty) with the arithmetic of a.cell (by default the last
// query and key 0) below. Throws InputError for a cell outside the result; returns the
// exit status.
[[nodiscard]] int writeStepsFigure(const Result& result, int head, const StepsFigureArguments& a,
                                   ui::FigureFormat format, ui::WeightColours colours,
                                   const StepsTileMaker& tilesOf = {});

// Runs `attnscope steps` with `args` (after the command word); returns the exit status.
int stepsCommand(const std::vector<std::string>& args);

// The steps usage for printHelp.
[[nodiscard]] std::string stepsHelp();

} // namespace attn::cli
