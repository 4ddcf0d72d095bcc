#include "modelcomparison.h"

#include "figure.h"
#include "formulatext.h"
#include "models/knockout.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// Texts are translated with QCoreApplication::translate itself, so that lupdate finds
// them: context "ModelComparison"; "Figure" and "Comparison" for the words shared with
// those figures.

constexpr QChar kNbsp(QChar::Nbsp);

// A caption's parts, a line breaking after a "·", never before it.
QString joinParts(const QStringList& parts)
{
    return parts.join(QString(kNbsp) + QStringLiteral("· "));
}

// One side's top k as a caption line: "1. ' mat' 31.2% · 2. …", each entry kept whole;
// B's entries say where A ranks them when the rank changed: "2. ' the' 9.8% (A #7)".
QString predictionsLine(const std::vector<RankedPrediction>& side, char name)
{
    QStringList entries;
    for (std::size_t i = 0; i < side.size(); ++i) {
        const RankedPrediction& c = side[i];
        QString entry =
            QStringLiteral("%1. %2 %3")
                .arg(i + 1)
                .arg(quotedToken(c.prediction.label), percentText(c.prediction.probability));
        if (name == 'B' && c.otherRank != int(i) + 1)
            entry += QStringLiteral(" (%1)").arg(
                QCoreApplication::translate("ModelComparison", "A #%1",
                                            "the rank the textbook model gives this token")
                    .arg(c.otherRank));
        entries << entry.replace(QLatin1Char(' '), kNbsp);
    }
    return entries.join(QStringLiteral(" · "));
}

} // namespace

QStringList modelDepartures(const ModelSwitches& switches, const ModelInfo& info)
{
    // The window's words (its context, spelt out in each call so that lupdate sees it).
    const bool causal = info.causal;
    const int heads = info.heads;
    const Config& config = switches.formula;
    Config departing = config;
    if (departing.window == info.slidingWindow)
        departing.window = 0; // the model's own
    QStringList departures = formulaDepartures(departing, false);
    if (info.slidingWindow > 0 && config.window == 0)
        departures.prepend(QCoreApplication::translate("attn::ui::LanguageModelWindow",
                                                       "no sliding window: every token sees all "
                                                       "the ones before it (the model's own window "
                                                       "is %1 keys)")
                               .arg(info.slidingWindow));
    if (causal && config.mask == MaskKind::None)
        departures.prepend(QCoreApplication::translate(
            "attn::ui::LanguageModelWindow", "no causal mask: every token sees the ones after it"));
    if (!causal && config.mask == MaskKind::Causal)
        departures.prepend(QCoreApplication::translate(
            "attn::ui::LanguageModelWindow",
            "a causal mask: no token sees the ones after it, though the model was "
            "trained reading both ways"));
    if (!switches.rope) // the window keeps it on for a model without rotary positions
        departures << QCoreApplication::translate(
            "attn::ui::LanguageModelWindow",
            "no rotary positions (RoPE): attention sees no order but the mask's");
    if (!departures.isEmpty() && switches.onlyLayer >= 0)
        departures << QCoreApplication::translate("attn::ui::LanguageModelWindow",
                                                  "in layer %1 only")
                          .arg(switches.onlyLayer);
    // The knock-outs act whatever onlyLayer says: after "in layer N only".
    if (!switches.knockedOut.empty()) {
        const QString list = QString::fromStdString(knockOutList(switches.knockedOut, heads))
                                 .replace(QLatin1Char(','), QStringLiteral(", "));
        departures << (switches.knockOut == KnockOutMode::Mean
                           ? QCoreApplication::translate(
                                 "attn::ui::LanguageModelWindow",
                                 "heads %1 knocked out (their outputs replaced by their mean)")
                           : QCoreApplication::translate(
                                 "attn::ui::LanguageModelWindow",
                                 "heads %1 knocked out (their outputs set to 0)"))
                          .arg(list);
    }
    return departures;
}

Comparison compareRuns(const ModelRun& a, const ModelRun& b, int layer,
                       const FileSelection& selection)
{
    HeatmapData sideA = fileHeatmap(*a.attention, layer, 0, selection);
    HeatmapData sideB = fileHeatmap(*b.attention, layer, 0, selection);
    sideA.title = QCoreApplication::translate("ModelComparison", "A: textbook · %1",
                                              "heatmap title; %1 is the layer and head")
                      .arg(sideA.title);
    sideB.title = QCoreApplication::translate("ModelComparison", "B: switched · %1",
                                              "heatmap title; %1 is the layer and head")
                      .arg(sideB.title);
    return compareHeatmaps(std::move(sideA), std::move(sideB));
}

QString quotedToken(const std::string& label)
{
    QString text = printableToken(QString::fromStdString(label));
    text.replace(QLatin1Char(' '), QChar(0x2423)); // ␣: a leading space is GPT-2's word start
    return QChar(0x201C) + text + QChar(0x201D);
}

QString percentText(float probability)
{
    if (std::isnan(probability))
        return QCoreApplication::translate("Comparison", "NaN", "not a number");
    return QLocale().toString(100.0 * probability, 'f', probability < 0.001f ? 3 : 1) +
           QLatin1Char('%');
}

QString otherRankText(const RankedPrediction& candidate, int rank, char side)
{
    const bool a = side == 'A';
    if (candidate.otherRank == rank)
        return a ? QCoreApplication::translate("ModelComparison", "same rank in B")
                 : QCoreApplication::translate("ModelComparison", "same rank in A");
    return (a ? QCoreApplication::translate("ModelComparison", "#%1 in B (%2)",
                                            "rank and probability in the switched model")
              : QCoreApplication::translate("ModelComparison", "#%1 in A (%2)",
                                            "rank and probability in the textbook model"))
        .arg(candidate.otherRank)
        .arg(percentText(candidate.otherProbability));
}

QString predictionsPlace(const PredictionComparison& predictions, const ModelRun& run)
{
    if (predictions.fillIn && predictions.position < 0)
        return QCoreApplication::translate("ModelComparison", "no [MASK] in the text to fill in");
    if (predictions.fillIn)
        return QCoreApplication::translate("ModelComparison", "fill-ins for [MASK] at position %1")
            .arg(predictions.position);
    if (predictions.position < 0 || std::size_t(predictions.position) >= run.labels.size())
        return {};
    return QCoreApplication::translate("ModelComparison", "next token after %1")
        .arg(quotedToken(run.labels[std::size_t(predictions.position)].label));
}

QString predictionSummary(const PredictionComparison& predictions, const QStringList& departures)
{
    if (predictions.fillIn && predictions.position < 0)
        return QCoreApplication::translate("ModelComparison",
                                           "Type [MASK] in the sentence to compare what A and B "
                                           "fill in there.");
    if (predictions.a.empty() || predictions.b.empty())
        return {};
    const Prediction& topA = predictions.a.front().prediction;
    const Prediction& topB = predictions.b.front().prediction;
    QString sentence;
    if (predictions.topChanged()) {
        // Brackets as the language sets them: full-width in Chinese.
        const auto withProbability = [](const Prediction& p) {
            return QCoreApplication::translate("ModelComparison", "%1 (%2)",
                                               "a token and its probability")
                .arg(quotedToken(p.label), percentText(p.probability));
        };
        const QString from = withProbability(topA);
        const QString to = withProbability(topB);
        // The departures in a sentence of their own: a list of explanations does not fit
        // inside another sentence in every language.
        sentence = QCoreApplication::translate("ModelComparison",
                                               "The top prediction changes from %1 to %2.")
                       .arg(from, to);
        if (!departures.isEmpty())
            sentence = QCoreApplication::translate("ModelComparison", "%1 %2",
                                                   "two sentences, one after the other")
                           .arg(sentence, QCoreApplication::translate(
                                              "ModelComparison", "B departs from the textbook: %1.",
                                              "%1 lists the departures from the textbook formula")
                                              .arg(departures.join(QCoreApplication::translate(
                                                  "attn::ui::LanguageModelWindow", "; ",
                                                  "separator between departures"))));
    } else {
        sentence =
            QCoreApplication::translate("ModelComparison", "Both predict %1 first (A %2, B %3).")
                .arg(quotedToken(topA.label), percentText(topA.probability),
                     percentText(topB.probability));
    }
    int shared = 0;
    for (const RankedPrediction& b : predictions.b)
        shared += std::ranges::any_of(predictions.a, [&](const RankedPrediction& a) {
            return a.prediction.id == b.prediction.id;
        });
    const QString overlap =
        shared == 1
            ? QCoreApplication::translate("ModelComparison", "Their top %1 share one token.",
                                          "%1 is k, as in top 10")
                  .arg(predictions.b.size())
            : QCoreApplication::translate("ModelComparison", "Their top %1 share %2 tokens.",
                                          "%1 is k, as in top 10")
                  .arg(predictions.b.size())
                  .arg(shared);
    return QCoreApplication::translate("ModelComparison", "%1 %2",
                                       "two sentences, one after the other")
        .arg(sentence, overlap);
}

QString modelComparisonCaption(const ModelRun& a, const ModelRun& b,
                               const ModelComparisonOptions& options)
{
    if (a.ids != b.ids || a.ids.empty())
        return {};
    const PredictionComparison predictions =
        options.ranked ? *options.ranked : comparePredictions(a, b, -1, options.predictions);
    const Comparison comparison = compareRuns(a, b, options.layer, options.selection);
    QStringList shared{QString::fromStdString(a.model ? a.model->info().name : std::string()),
                       QCoreApplication::translate("Figure", "layer %1").arg(options.layer)};
    if (options.selection.what == FileWhat::Mean)
        shared << QCoreApplication::translate("Figure", "mean of the heads (H = %1)")
                      .arg(a.attention->shape().heads);
    else
        shared << QCoreApplication::translate("Figure", "head %1").arg(options.selection.head);
    shared << predictionsPlace(predictions, a);
    const QString separator = QCoreApplication::translate("attn::ui::LanguageModelWindow", "; ",
                                                          "separator between departures");
    QStringList lines{
        joinParts(shared),
        QCoreApplication::translate("ModelComparison", "A: the textbook formula"),
        options.departures.isEmpty()
            ? QCoreApplication::translate("ModelComparison", "B: the textbook formula too")
            : QCoreApplication::translate("ModelComparison", "B: %1", "%1 lists the departures")
                  .arg(options.departures.join(separator)),
        differenceCaption(comparison),
    };
    if (!predictions.a.empty())
        lines << QCoreApplication::translate("ModelComparison", "A's top %1: %2")
                     .arg(predictions.a.size())
                     .arg(predictionsLine(predictions.a, 'A'))
              << QCoreApplication::translate("ModelComparison", "B's top %1: %2")
                     .arg(predictions.b.size())
                     .arg(predictionsLine(predictions.b, 'B'));
    lines << predictionSummary(predictions, options.departures);
    return lines.join(u'\n');
}

FigureLayout modelComparisonLayout(const ModelRun& a, const ModelRun& b,
                                   const ModelComparisonOptions& options)
{
    FigureLayout figure;
    if (a.ids != b.ids || a.ids.empty())
        return figure;
    Comparison comparison = compareRuns(a, b, options.layer, options.selection);
    for (HeatmapData* data : {&comparison.a, &comparison.b, &comparison.difference})
        for (QStringList* labels : {&data->queryLabels, &data->keyLabels})
            for (QString& token : *labels)
                token = printableToken(token);
    const double label = options.figure.labelPointSize;
    figure.title = options.figure.title.simplified();
    figure.titleFont = figureFont(1.6 * label, true);
    figure.caption = options.figure.caption ? modelComparisonCaption(a, b, options) : QString();
    figure.captionFont = figureFont(0.9 * label);
    arrangeComparison(figure, comparison, figureFont(label), int(a.ids.size()), options.figure);
    return figure;
}

std::optional<QByteArray> modelComparisonBytes(FigureFormat format, const ModelRun& a,
                                               const ModelRun& b,
                                               const ModelComparisonOptions& options,
                                               QString* error)
{
    const FigureLayout layout = modelComparisonLayout(a, b, options);
    if (layout.tiles.empty()) {
        if (error)
            *error = QCoreApplication::translate(
                "ModelComparison", "The two runs are of different texts; nothing to compare.");
        return std::nullopt;
    }
    const double factor = options.figure.dpi > 0 ? options.figure.dpi / 72.0 : options.figure.scale;
    return figureLayoutBytes(format, layout, factor, error);
}

} // namespace attn::ui
