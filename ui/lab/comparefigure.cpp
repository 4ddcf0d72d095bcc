#include "comparefigure.h"

#include "engine/statistics.h"
#include "formulatext.h"
#include "headheatmap.h"
#include "labels.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// Texts are translated with QCoreApplication::translate itself, so that lupdate finds
// them: context "Comparison", and "Figure" for the caption's parts, which are the figure
// caption's in the same words.

// Parts of the caption keep their inner spaces together; lines break only between parts.
QString captionPart(QString text)
{
    return text.replace(QLatin1Char(' '), QChar(QChar::Nbsp));
}

QString joinParts(const QStringList& parts)
{
    QStringList kept;
    for (const QString& part : parts)
        kept << captionPart(part);
    // A line may break after a "·", never before it.
    return kept.join(QString(QChar(QChar::Nbsp)) + QStringLiteral("· "));
}

// τ as the user set it: "0.5", "2", "0.125".
QString number(double value)
{
    return QString::number(value, 'g', 4);
}

// A weight or a difference: two decimals, or two significant digits when that shows 0.00.
QString formatValue(float value)
{
    if (std::isnan(value))
        return QCoreApplication::translate("Comparison", "NaN", "not a number");
    const QLocale locale;
    if (value != 0 && std::abs(value) < 0.005f)
        return locale.toString(double(value), 'g', 2);
    return locale.toString(double(value), 'f', 2);
}

// How much wider tile `tile` must be for its title to show whole.
double titleDeficit(const FigureTile& tile)
{
    const QFontMetricsF metrics(tile.layout.titleFont(), figureReferenceDevice());
    const double pad = tile.layout.lineHeight() / 4;
    return metrics.horizontalAdvance(tile.data.title) + 2 * pad + 1 -
           tile.layout.boundingRect().width();
}

// The caption of comparisonCaption(), its last line from `comparison`.
QString captionOf(const Result& a, const Result& b, const ComparisonOptions& options,
                  const Comparison& comparison)
{
    const Config& c = a.config();
    const bool padding = hasPadding(*a.keyTokens);
    QStringList shared;
    shared << (options.head < 0 ? QCoreApplication::translate("Comparison", "mean of the heads")
                                : QCoreApplication::translate("Comparison", "head %1")
                                      .arg(std::min(options.head, c.heads - 1)));
    if (a.batch() > 1)
        shared << QCoreApplication::translate("Figure", "sequence %1 of %2")
                      .arg(std::clamp(options.sequence, 0, a.batch() - 1) + 1)
                      .arg(a.batch());
    shared << QCoreApplication::translate("Figure", "d_model %1").arg(c.dModel)
           << QCoreApplication::translate("Figure", "heads %1").arg(c.heads)
           << QCoreApplication::translate("Figure", "d_k %1").arg(c.dK())
           << QCoreApplication::translate("Figure", "seed %1").arg(qulonglong(c.seed));
    const Config defaults;
    if (c.embedding != defaults.embedding)
        shared << captionPhrase(c.embedding);
    if (c.positional != defaults.positional)
        shared << captionPhrase(c.positional);
    return QStringList{
        joinParts(shared),
        QCoreApplication::translate("Comparison", "A: %1", "caption line; %1 lists the switches")
            .arg(switchesCaption(a.config(), padding)),
        QCoreApplication::translate("Comparison", "B: %1", "caption line; %1 lists the switches")
            .arg(switchesCaption(b.config(), padding)),
        differenceCaption(comparison),
    }
        .join(u'\n');
}

} // namespace

bool comparable(const Result& a, const Result& b)
{
    return a.hasWeights() && b.hasWeights() && a.request.text == b.request.text &&
           a.request.crossText == b.request.crossText && a.keyLength() == b.keyLength() &&
           a.request.embeddingOverrides == b.request.embeddingOverrides &&
           sameInput(a.config(), b.config()) && a.batch() == b.batch() && a.length() == b.length();
}

QString formulaText(const Config& config, bool hasPadding)
{
    const Formula formula = formulaOf(config, hasPadding);
    QString text = writeFormula(formula, FormulaMarkup::PlainText);
    // What the formula itself does not show.
    QStringList notes;
    if (formula.temperature)
        notes << QStringLiteral("τ = %1").arg(number(config.temperature));
    if (formula.viewSplit)
        notes << QCoreApplication::translate("Comparison", "view split",
                                             "heads split with view(B, H, T, d_k), the bug");
    if (formula.paddingAttended)
        notes << QCoreApplication::translate("Comparison", "<pad> not masked");
    // Today's switches whose value the formula writes as a letter (c, W, s, θ) or not at all
    // (the K/V heads), so that two sides apart in one of them have different titles.
    if (formula.sharedKeys)
        notes << QCoreApplication::translate("Comparison", "%1 K/V heads",
                                             "grouped-query attention; %1 is their number")
                     .arg(config.kvHeadCount());
    if (config.positional == Positional::Rope && config.ropeTheta != kDefaultRopeTheta)
        notes << QStringLiteral("θ = %1").arg(QString::number(config.ropeTheta, 'g', 9));
    if (config.softcap > 0)
        notes << QStringLiteral("c = %1").arg(number(config.softcap));
    if (config.window > 0)
        notes << QStringLiteral("W = %1").arg(config.window);
    if (config.sink)
        notes << QStringLiteral("s = %1").arg(number(*config.sink));
    if (!notes.isEmpty())
        text += QStringLiteral("  (%1)").arg(notes.join(QStringLiteral(", ")));
    return text;
}

bool hasPadding(const TokenBatch& tokens)
{
    return std::ranges::any_of(tokens.lengths,
                               [&](int length) { return length < tokens.length(); });
}

Comparison compareResults(const Result& a, const Result& b, int sequence, int head)
{
    const int s = std::clamp(sequence, 0, std::max(0, a.batch() - 1));
    const int h = head < 0 ? -1 : std::min(head, a.heads() - 1);
    const bool padding = hasPadding(*a.keyTokens);

    // 1. Both sides, titled with their formulas.
    HeatmapData sideA = headHeatmap(a, s, h);
    HeatmapData sideB = headHeatmap(b, s, h);
    sideA.title =
        QCoreApplication::translate("Comparison", "A: %1", "heatmap title; %1 is the formula")
            .arg(formulaText(a.config(), padding));
    sideB.title =
        QCoreApplication::translate("Comparison", "B: %1", "heatmap title; %1 is the formula")
            .arg(formulaText(b.config(), padding));

    // 2. Their difference.
    return compareHeatmaps(std::move(sideA), std::move(sideB));
}

Comparison compareHeatmaps(HeatmapData a, HeatmapData b)
{
    Comparison c;
    c.a = std::move(a);
    c.b = std::move(b);
    // The difference, hatched where either side masks.
    c.stats = weightDifference(c.a.weights, c.b.weights, c.a.masked, c.b.masked);
    c.difference.weights = c.stats.delta;
    c.difference.masked = c.stats.masked;
    c.difference.queryLabels = c.a.queryLabels;
    c.difference.keyLabels = c.a.keyLabels;
    c.difference.title = QCoreApplication::translate(
        "Comparison", "B − A (red: B larger, blue: A larger)", "heatmap title of the difference");

    const double max = std::max(finiteMax(c.a.weights), finiteMax(c.b.weights));
    c.weightMax = max > 0 ? max : 1.0;
    return c;
}

HeatmapStyle weightStyle(const Comparison& comparison, ColormapName colormap, bool logScale)
{
    HeatmapStyle style;
    style.colormap = colormap;
    style.vmin = 0;
    style.vmax = comparison.weightMax;
    style.logScale = logScale;
    if (logScale)
        style.vmin = logScaleFloor(style.vmax, comparison.a.columns());
    return style;
}

HeatmapStyle differenceStyle(const Comparison& comparison)
{
    // Symmetric around 0, so white is "no change"; an all-zero difference still needs a range.
    const double extent = comparison.stats.maxAbs > 0 ? comparison.stats.maxAbs : 1.0;
    HeatmapStyle style;
    style.colormap = ColormapName::Diverging;
    style.vmin = -extent;
    style.vmax = extent;
    return style;
}

QString differenceCaption(const Comparison& comparison)
{
    const WeightDifference& d = comparison.stats;
    QString text;
    if (d.row < 0)
        text = QCoreApplication::translate(
            "Comparison", "no cell is shown on both sides: each is masked or NaN in A or B");
    else if (d.maxAbs == 0)
        text = QCoreApplication::translate(
            "Comparison", "B − A = 0 in every cell: the two configurations give the same weights");
    else
        text = QCoreApplication::translate(
                   "Comparison",
                   "largest |B − A| = %1 at query %2 (row %3), key %4 (column %5): %6 in "
                   "A, %7 in B",
                   "rows and columns are numbered from 0")
                   .arg(formatValue(d.maxAbs), comparison.difference.queryLabel(d.row))
                   .arg(d.row)
                   .arg(comparison.difference.keyLabel(d.column))
                   .arg(d.column)
                   .arg(formatValue(comparison.a.weights(d.row, d.column)),
                        formatValue(comparison.b.weights(d.row, d.column)));
    if (d.nanCount > 0)
        text +=
            QCoreApplication::translate("Comparison", "; cells NaN in A or B: %1").arg(d.nanCount);
    return text;
}

QString comparisonHoverText(const Comparison& comparison, int row, int column)
{
    const HeatmapData& delta = comparison.difference;
    if (row < 0 || column < 0 || row >= delta.rows() || column >= delta.columns())
        return {};
    QStringList values = {
        QCoreApplication::translate("Comparison", "A %1", "weight of side A")
            .arg(formatValue(comparison.a.weights(row, column))),
        QCoreApplication::translate("Comparison", "B %1", "weight of side B")
            .arg(formatValue(comparison.b.weights(row, column))),
        QCoreApplication::translate("Comparison", "B − A %1")
            .arg(formatValue(delta.weights(row, column))),
    };
    if (delta.isMasked(row, column))
        values << QCoreApplication::translate("Comparison", "masked in A or B");
    return QCoreApplication::translate("Comparison", "query %1 (row %2) → key %3 (column %4): %5",
                                       "hover text; %5 lists the cell's values")
        .arg(delta.queryLabel(row))
        .arg(row)
        .arg(delta.keyLabel(column))
        .arg(column)
        .arg(values.join(QStringLiteral(" · ")));
}

QString switchesCaption(const Config& config, bool hasPadding)
{
    QStringList parts = {
        captionPhrase(config.scale),
        QCoreApplication::translate("Figure", "τ %1", "temperature")
            .arg(QLocale().toString(double(config.temperature), 'g', 3)),
        captionPhrase(config.axis),
        captionPhrase(config.mask),
    };
    if (config.mask == MaskKind::Causal || (config.paddingMask && hasPadding)) {
        parts << captionPhrase(config.maskStage);
        parts << QCoreApplication::translate("Figure", "fill %1").arg(displayName(config.maskFill));
    }
    if (config.heads > 1 || config.headSplit != HeadSplit::Transpose)
        parts << captionPhrase(config.headSplit);
    if (hasPadding)
        parts << (config.paddingMask
                      ? QCoreApplication::translate("Comparison", "<pad> keys masked")
                      : QCoreApplication::translate("Comparison", "<pad> keys not masked"));
    // Today's switches of a side (withSwitches'), where they are on.
    if (config.qkNorm)
        parts << QCoreApplication::translate("Comparison", "QK-norm");
    if (config.alibi)
        parts << QCoreApplication::translate("Comparison", "ALiBi");
    if (config.softcap > 0)
        parts << QCoreApplication::translate("Comparison", "soft-cap c = %1")
                     .arg(QLocale().toString(double(config.softcap), 'g', 4));
    if (config.window > 0)
        parts << QCoreApplication::translate("Comparison", "window of %1 keys").arg(config.window);
    if (config.sink)
        parts << QCoreApplication::translate("Comparison", "sink s = %1")
                     .arg(QLocale().toString(double(*config.sink), 'g', 4));
    return joinParts(parts);
}

QString comparisonCaption(const Result& a, const Result& b, const ComparisonOptions& options)
{
    if (!comparable(a, b))
        return {};
    return captionOf(a, b, options, compareResults(a, b, options.sequence, options.head));
}

FigureLayout comparisonLayout(const Result& a, const Result& b, const ComparisonOptions& options)
{
    FigureLayout figure;
    if (!comparable(a, b) || !a.valid())
        return figure;

    // 1. A head's figure of A lends the export fonts, the printable tokens and the title.
    FigureOptions single;
    single.what = options.head < 0 ? FigureWhat::Mean : FigureWhat::Head;
    single.head = options.head;
    single.sequence = options.sequence;
    single.title = options.title;
    single.caption = false;
    single.labelPointSize = options.labelPointSize;
    const FigureLayout lender = figureLayout(a, single);
    if (lender.tiles.empty())
        return figure;
    const HeatmapData& printable = lender.tiles.front().data;

    Comparison comparison = compareResults(a, b, options.sequence, options.head);
    for (HeatmapData* data : {&comparison.a, &comparison.b, &comparison.difference}) {
        data->queryLabels = printable.queryLabels;
        data->keyLabels = printable.keyLabels;
    }
    figure.title = lender.title;
    figure.titleFont = lender.titleFont;
    figure.caption = options.caption ? captionOf(a, b, options, comparison) : QString();
    figure.captionFont = lender.captionFont;
    arrangeComparison(figure, comparison, lender.tiles.front().style.labelFont,
                      std::max(a.length(), a.keyLength()), options);
    return figure;
}

void arrangeComparison(FigureLayout& figure, const Comparison& comparison, const QFont& labelFont,
                       int tokens, const ComparisonOptions& options)
{
    // 1. A, B on one weight scale, B − A on its own.
    const HeatmapStyle weights = weightStyle(comparison, options.colormap, options.logScale);
    const HeatmapStyle difference = differenceStyle(comparison);
    for (const auto& [data, style] :
         {std::pair{&comparison.a, &weights}, std::pair{&comparison.b, &weights},
          std::pair{&comparison.difference, &difference}}) {
        FigureTile tile;
        tile.data = *data;
        tile.style = *style;
        tile.style.annotate = options.annotate;
        tile.style.labelFont = labelFont;
        figure.tiles.push_back(std::move(tile));
    }

    // 2. One cell size for the three tiles (their keys alike), widened until every title
    // shows whole.
    const double label = options.labelPointSize;
    const int columns = std::max(1, comparison.a.columns());
    double cell = cellWithLabelsAcross(
        figureCellSize(tokens, int(figure.tiles.size()), label, options.annotate), tokens,
        figure.tiles.front(), label);
    for (int pass = 0; pass < 4; ++pass) {
        double deficit = 0;
        for (FigureTile& tile : figure.tiles) {
            tile.layout =
                HeatmapLayout::forCellSize(tile.data, tile.style, cell, figureReferenceDevice());
            deficit = std::max(deficit, titleDeficit(tile));
        }
        if (deficit <= 0)
            break;
        cell += deficit / columns;
    }

    // 3. The tiles in one row; the title above, the caption below.
    const double gap = 1.5 * label;
    double x = 0, blockHeight = 0;
    for (FigureTile& tile : figure.tiles) {
        tile.origin = QPointF(x, 0);
        x += tile.layout.boundingRect().width() + gap;
        blockHeight = std::max(blockHeight, tile.layout.boundingRect().height());
    }
    arrangeFigure(figure, QSizeF(x - gap, blockHeight), label);
}

QSize comparisonPixelSize(const Result& a, const Result& b, const ComparisonOptions& options)
{
    const QSizeF points = comparisonLayout(a, b, options).size;
    const double factor = options.dpi > 0 ? options.dpi / 72.0 : options.scale;
    return {std::max(1, qRound(points.width() * factor)),
            std::max(1, qRound(points.height() * factor))};
}

std::optional<QByteArray> comparisonBytes(FigureFormat format, const Result& a, const Result& b,
                                          const ComparisonOptions& options, QString* error)
{
    const double factor = options.dpi > 0 ? options.dpi / 72.0 : options.scale;
    return figureLayoutBytes(format, comparisonLayout(a, b, options), factor, error);
}

QString exportComparison(const QString& path, FigureFormat format, const Result& a, const Result& b,
                         const ComparisonOptions& options)
{
    QString error;
    const std::optional<QByteArray> bytes = comparisonBytes(format, a, b, options, &error);
    return bytes ? writeFigureFile(path, *bytes) : error;
}

} // namespace attn::ui
