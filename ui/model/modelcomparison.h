// Compare A/B of a language model, without a widget: the textbook model (A) beside the
// switched one (B) on the same text — one head (or a layer's mean head) of both runs and
// B − A, on the lab's Compare terms (comparefigure.h), and both runs' next-token
// predictions, with where each token stands in the other run and, in one plain sentence,
// whether the top prediction changes. The window's Compare A/B (modelcomparedialog.h) and
// `attnscope compare --model` draw the same figure from here.
#pragma once

#include "comparefigure.h"
#include "figureformat.h"
#include "modelfigure.h"
#include "models/languagemodel.h"
#include "models/predictioncomparison.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>

namespace attn::ui {

// What a model comparison shows, and how its figure looks.
struct ModelComparisonOptions {
    int layer = 0;
    FileSelection selection;  // Head or Mean
    QStringList departures;   // B's departures from the textbook, in words (the caption's)
    ComparisonOptions figure; // the look (head and sequence are not used)
    int predictions = 10;     // k, the top k of each side
    // Both runs' top k already ranked (the dialog's, made on its worker): the caption uses
    // them instead of making four vocabulary-wide logits again. Null: computed here.
    std::shared_ptr<const PredictionComparison> ranked;
};

// Head (or mean head) `selection` of layer `layer` of both runs, A titled "A: textbook ·
// Layer 1 · head 0", B "B: switched · …", and B − A. The runs must be of the same text.
[[nodiscard]] Comparison compareRuns(const ModelRun& a, const ModelRun& b, int layer,
                                     const FileSelection& selection);

// The departures of `switches` from a model's textbook formula in words, as the window's
// line says them: the formula bar's, "no causal mask: …" for a causal model without its
// mask, "no rotary positions (RoPE): …" with the RoPE switch off, and "in layer 5 only" when
// they act in one layer.
// The knocked-out heads are named as the command line names them, a layer of the model's
// heads all knocked out as L.*. The model's own sliding window (Mistral's) is no departure;
// without it, "no sliding window" is.
[[nodiscard]] QStringList modelDepartures(const ModelSwitches& switches, const ModelInfo& info);

// A token in quotes as every list, sentence and caption says it: “␣mat” (a space as ␣, the
// word start GPT-2 writes; control characters as pictures).
[[nodiscard]] QString quotedToken(const std::string& label);

// A probability in per cent: "31.2%", "0.012%".
[[nodiscard]] QString percentText(float probability);

// Where a candidate of side `side` ('A' or 'B') stands on the other side: "same rank in B",
// or "#7 in B (1.3%)".
[[nodiscard]] QString otherRankText(const RankedPrediction& candidate, int rank, char side);

// What both sides' predictions are of, as a heading says it: "next token after ' on'", or
// for a masked language model "fill-ins for [MASK] at position 4", or that its text has no
// [MASK] to fill in.
[[nodiscard]] QString predictionsPlace(const PredictionComparison& predictions,
                                       const ModelRun& run);

// The plain sentence: "With no scaling by √d_k, the top prediction changes from ' mat'
// (31.2%) to ' the' (9.8%)." or "Both predict ' mat' first (A 31.2%, B 25.0%).", then how
// many tokens the two top k share. `departures` are B's, in words. A masked language
// model's text without [MASK]: how to ask for fill-ins.
[[nodiscard]] QString predictionSummary(const PredictionComparison& predictions,
                                        const QStringList& departures);

// The caption under the figure: the model, layer and head, "A: …" and "B: …", the
// difference, each side's top k and the sentence, one per line.
[[nodiscard]] QString modelComparisonCaption(const ModelRun& a, const ModelRun& b,
                                             const ModelComparisonOptions& options);

// The figure: A, B and B − A side by side (as the lab's Compare lays them out), the caption
// with both predictions below. Empty when the runs are of different texts.
[[nodiscard]] FigureLayout modelComparisonLayout(const ModelRun& a, const ModelRun& b,
                                                 const ModelComparisonOptions& options);

// The file's bytes in `format` (PNG, SVG or PDF); on failure nothing, with a translated
// one-line reason in `*error`.
[[nodiscard]] std::optional<QByteArray> modelComparisonBytes(FigureFormat format, const ModelRun& a,
                                                             const ModelRun& b,
                                                             const ModelComparisonOptions& options,
                                                             QString* error = nullptr);

} // namespace attn::ui
