// What each tile of the step-by-step strip shows: the engine's matrix of the stage, its
// formula and its shape. pipelinefigure.cpp lays a tile out and paints it; the widgets
// that show them are PipelineTile and PipelineStrip.
#include "pipelinetiles.h"

#include "formulatext.h"
#include "lab/explain.h"
#include "pipelinetileparts.h"
#include "pipelinetodays.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// The tiles' words keep the context they were translated in, the strip's.
class StripWords {
    Q_DECLARE_TR_FUNCTIONS(attn::ui::PipelineStrip)
};

using namespace tileparts;

QString scaleNote(const Result& result)
{
    const Config& config = result.config();
    const double scale = result.scale();
    QString factor;
    switch (config.scale) {
    case ScaleMode::SqrtDk:
        factor = QStringLiteral("× %1 = 1/√%2").arg(number(scale)).arg(config.dK());
        break;
    case ScaleMode::None:
        factor = StripWords::tr("× 1 (no scaling)");
        break;
    case ScaleMode::SqrtDModel:
        factor = StripWords::tr("× %1 = 1/√%2 (√C instead of √d_k)")
                     .arg(number(scale))
                     .arg(result.scaleWidth > 0 ? result.scaleWidth : config.dModel);
        break;
    }
    return StripWords::tr("%1, then / τ = %2", "the scale factor, then the temperature")
        .arg(factor, number(config.temperature));
}

QString maskDescription(const Result& result, int b)
{
    const Config& config = result.config();
    const bool padded = config.paddingMask &&
                        result.keyTokens->lengths[std::size_t(b)] < result.keyTokens->length();
    QStringList parts;
    if (config.mask == MaskKind::Causal)
        parts << StripWords::tr("M = triu(ones(T, T), 1): key j > query i is hidden");
    if (config.window > 0)
        parts << StripWords::tr("the sliding window: keys with |i − j| ≥ %1 are hidden")
                     .arg(config.window);
    if (padded)
        parts << StripWords::tr("the <pad> keys are hidden");
    return parts.join(QStringLiteral("; "));
}

QString fillSpelling(MaskFill fill)
{
    return fill == MaskFill::NegInf ? QStringLiteral("-inf") : QStringLiteral("-1e9");
}

const HeadStatistics* headStatistics(const Result& result, int b, int h)
{
    if (!result.stats)
        return nullptr;
    return &result.stats->heads[std::size_t(b * result.heads() + h)];
}

// The tiles of Q_h, K_h and V_h.
StageTile projectionTile(const Result& result, int b, int h, PipelineStage stage)
{
    const Config& config = result.config();
    const bool keys = stage != PipelineStage::Queries;
    const bool cross = result.isCross();
    const int B = result.batch(), H = result.heads(), dK = result.dK();
    const int T = keys ? result.keyLength() : result.length();
    // In cross-attention K and V come from the second text's vectors Y, of T_k tokens.
    const QString length = !cross ? QStringLiteral("T")
                           : keys ? QStringLiteral("T_k")
                                  : QStringLiteral("T_q");
    struct Names {
        QString title;
        QString symbol; // "Q"
        QString weight; // "q"
        const HeadStack* split;
    };
    const Names names = stage == PipelineStage::Queries
                            ? Names{StripWords::tr("Q_h — queries"), "Q", "q", &result.split->q}
                        : stage == PipelineStage::Keys
                            ? Names{StripWords::tr("K_h — keys"), "K", "k", &result.split->k}
                            : Names{StripWords::tr("V_h — values"), "V", "v", &result.split->v};
    StageTile tile;
    tile.stage = stage;
    tile.title = names.title;
    const QString source = cross && keys ? QStringLiteral("Y") : QStringLiteral("X");
    const QString project =
        QStringLiteral("%1 = %3·W_%2ᵀ + b_%2").arg(names.symbol, names.weight, source);
    tile.formula =
        config.headSplit == HeadSplit::Transpose
            ? project + QStringLiteral(" → .view(B, %1, H, d_k).transpose(1, 2)").arg(length)
            : project + StripWords::tr(" → .view(B, H, %1, d_k) (bug)").arg(length);
    tile.shape = shapeLine({"B", "H", length, "d_k"}, {B, H, T, dK});
    const int featureHead = keys ? config.kvHeadOf(h) : h; // K and V: the K/V head's features
    tile.note = config.headSplit == HeadSplit::Transpose
                    ? StripWords::tr("drawn: [%1, %2] → (T, d_k) = (%3, %4), features %5–%6 of %7")
                          .arg(b)
                          .arg(h)
                          .arg(T)
                          .arg(dK)
                          .arg(featureHead * dK)
                          .arg((featureHead + 1) * dK - 1)
                          .arg(names.symbol)
                    : StripWords::tr("drawn: [%1, %2] → (T, d_k) = (%3, %4); each row is a "
                                     "piece of one token, as its label shows")
                          .arg(b)
                          .arg(h)
                          .arg(T)
                          .arg(dK);
    // Fewer K/V heads than heads: K_h and V_h are the K/V head query head h reads.
    const int K = config.kvHeadCount();
    if (keys && K != config.heads) {
        const int group = config.heads / K, kv = config.kvHeadOf(h);
        tile.title += StripWords::tr(" (K/V head %1)").arg(kv);
        tile.shape = shapeLine({"B", "K", length, "d_k"}, {B, K, T, dK});
        tile.note += StripWords::tr("; K/V head %1 of %2, shared by query heads %3–%4 "
                                    "(repeat_kv)")
                         .arg(kv)
                         .arg(K)
                         .arg(kv * group)
                         .arg((kv + 1) * group - 1);
    }
    tile.axes = StripWords::tr("↓ token   → feature of the head");
    tile.values = names.split->at(b, h);
    tile.heatmap = heatmapOf(tile.values, {}, headRowLabels(result, b, h, keys), {});
    tile.style = divergingStyle(tile.values);
    return tile;
}

// What the tiles of S, L and L + M share: L, and the one diverging scale of the three, so
// that the scaling shows as paler colours. Made once: at T = 2048 each is 4 M cells.
struct ScoreScale {
    SharedWeights scaled; // L = S·scale/τ, shared with L's tile
    double largest = 1;
};

StageTile tokenTile(const Result& result, int b, int h, PipelineStage stage,
                    const WeightColours& colours, const ScoreScale& scores)
{
    const Config& config = result.config();
    const int B = result.batch(), T = result.length(), Tk = result.keyLength(), H = result.heads();
    const QStringList rows = headRowLabels(result, b, h);
    const QStringList columns = headRowLabels(result, b, h, true);
    const MaskMatrix& mask = (*result.mask)[std::size_t(b)];
    const HeadStatistics* stats = headStatistics(result, b, h);
    StageTile tile;
    tile.stage = stage;
    tile.axes = StripWords::tr("↓ query i   → key j");
    QString drawn;
    if (result.isCross()) {
        tile.shape = shapeLine({"B", "H", "T_q", "T_k"}, {B, H, T, Tk});
        drawn =
            StripWords::tr("drawn: [%1, %2] → (T_q, T_k) = (%3, %4)").arg(b).arg(h).arg(T).arg(Tk);
    } else {
        tile.shape = shapeLine({"B", "H", "T", "T"}, {B, H, T, T});
        drawn = StripWords::tr("drawn: [%1, %2] → (T, T) = (%3, %3)").arg(b).arg(h).arg(T);
    }
    MaskMatrix hatched;
    switch (stage) {
    case PipelineStage::Scores:
        tile.title = StripWords::tr("S — scores");
        tile.formula = QStringLiteral("S = Q_h·K_hᵀ,   S[i][j] = q_i · k_j");
        tile.values = result.scores->at(b, h);
        tile.note = drawn;
        if (result.stats)
            tile.note += StripWords::tr("; std(S) = %1 over the whole tensor")
                             .arg(result.stats->stdScores, 0, 'f', 4);
        break;
    case PipelineStage::Logits:
        tile.title = StripWords::tr("L — scaled");
        tile.formula = QStringLiteral("L = S × scale / τ");
        tile.values = scores.scaled;
        tile.note = scaleNote(result) + StripWords::tr("; drawn on S's colour scale");
        if (result.stats)
            tile.note += StripWords::tr("; std(L) = %1 over the whole tensor")
                             .arg(result.stats->stdLogits, 0, 'f', 4);
        break;
    case PipelineStage::Masked:
        tile.values = result.logits(b, h);
        if (config.maskStage == MaskStage::AfterSoftmax) {
            tile.title = StripWords::tr("L + M — the mask comes later");
            tile.formula = StripWords::tr("mask after the softmax (bug): the softmax gets L "
                                          "unmasked");
            tile.note = maskDescription(result, b);
        } else if (mask.any()) {
            const bool window = config.window > 0;
            tile.title = window ? StripWords::tr("L + M_W — the sliding window")
                                : StripWords::tr("L + M — the mask");
            tile.formula = QStringLiteral("L.masked_fill(%1, %2)")
                               .arg(window ? QStringLiteral("M_W") : QStringLiteral("M"),
                                    fillSpelling(config.maskFill));
            tile.note = StripWords::tr("%1; %2 of %3 cells hidden (hatched)")
                            .arg(maskDescription(result, b))
                            .arg(mask.count())
                            .arg(mask.size());
            hatched = mask;
        } else {
            tile.title = StripWords::tr("L + M — no mask");
            tile.formula = StripWords::tr("no mask: the softmax gets L as it is");
            tile.note = StripWords::tr("every key is visible to every query");
        }
        break;
    default: { // PipelineStage::Weights
        tile.title = StripWords::tr("P — attention weights");
        const QString softmax =
            QStringLiteral("P = softmax(L, %1)")
                .arg(formulaSymbol(axisPart(config.axis), FormulaMarkup::PlainText));
        const bool after = config.maskStage == MaskStage::AfterSoftmax && mask.any();
        tile.formula = after ? softmax + QStringLiteral(".masked_fill(M, 0)") : softmax;
        switch (config.axis) {
        case SoftmaxAxis::Keys:
            tile.note = config.sink ? StripWords::tr("each row sums to 1 minus what the sink took")
                                    : StripWords::tr("each row sums to 1");
            break;
        case SoftmaxAxis::Queries:
            tile.note = StripWords::tr("each column sums to 1, the rows do not");
            break;
        case SoftmaxAxis::Batch:
            tile.note = StripWords::tr("each [h][i][j] sums to 1 over the %1 sequences").arg(B);
            break;
        }
        if (after)
            tile.note += StripWords::tr("; then masked to 0, so the rows no longer sum to 1");
        if (stats)
            tile.note += StripWords::tr("; row sums %1 … %2")
                             .arg(stats->rowSumMin, 0, 'f', 4)
                             .arg(stats->rowSumMax, 0, 'f', 4);
        tile.values = result.weights->at(b, h);
        tile.heatmap = heatmapOf(tile.values, mask, rows, columns);
        tile.style = weightStyle(colours, Tk);
        return tile;
    }
    }
    tile.heatmap = heatmapOf(tile.values, hatched, rows, columns);
    tile.style = divergingStyle(scores.largest);
    return tile;
}

} // namespace

HeatmapStyle weightStyle(const WeightColours& colours, int keys)
{
    HeatmapStyle style;
    style.colormap = colours.colormap;
    style.vmin = 0;
    style.vmax = 1; // a weight's whole range, whatever the head's largest
    style.logScale = colours.logScale;
    if (colours.logScale)
        style.vmin = logScaleFloor(style.vmax, keys);
    style.annotate = true;
    style.axisTitles = false;
    return style;
}

bool StageTile::explainsCells() const
{
    return stage == PipelineStage::Scores || stage == PipelineStage::Logits ||
           stage == PipelineStage::Masked || stage == PipelineStage::Weights;
}

QString shapeLine(const QStringList& names, const QList<int>& sizes)
{
    QStringList numbers;
    for (const int size : sizes)
        numbers << QString::number(size);
    return QStringLiteral("(%1) = (%2)")
        .arg(names.join(QStringLiteral(", ")), numbers.join(QStringLiteral(", ")));
}

std::vector<StageTile> pipelineTiles(const Result& result, int b, int h,
                                     const WeightColours& colours)
{
    std::vector<StageTile> tiles;
    if (!result.hasWeights())
        return tiles;
    const Config& config = result.config();
    const int B = result.batch(), T = result.length(), C = result.dModel(), H = result.heads(),
              dK = result.dK();
    const QStringList tokens = tokenLabels(*result.tokens, b);
    // The queries' length: T, or T_q beside T_k in cross-attention.
    const QString Tq = result.isCross() ? QStringLiteral("T_q") : QStringLiteral("T");

    // 1. X (B, T, C).
    StageTile input;
    input.stage = PipelineStage::Input;
    input.title = StripWords::tr("X — the tokens' vectors");
    input.formula = config.embedding == EmbeddingMode::Torch
                        ? QStringLiteral("X = torch.randn(B, T, C)")
                        : StripWords::tr("X = E[token]", "E: the embedding table");
    if (config.positional == Positional::Sinusoidal)
        input.formula += QStringLiteral(" + PE(t)");
    input.shape = shapeLine({"B", Tq, "C"}, {B, T, C});
    input.note = StripWords::tr("drawn: [%1] → (T, C) = (%2, %3)").arg(b).arg(T).arg(C);
    input.axes = StripWords::tr("↓ token t   → feature c");
    if (result.isCross())
        input.note += StripWords::tr("; K and V come from Y, the second text's vectors "
                                     "(B, T_k, C) = (%1, %2, %3)")
                          .arg(B)
                          .arg(result.keyLength())
                          .arg(C);
    input.values = (*result.x)[std::size_t(b)];
    input.heatmap = heatmapOf(input.values, {}, tokens, {});
    input.style = divergingStyle(input.values);
    tiles.push_back(std::move(input));

    // 2–4. Q_h, K_h, V_h (B, H, T, d_k).
    for (const PipelineStage stage :
         {PipelineStage::Queries, PipelineStage::Keys, PipelineStage::Values})
        tiles.push_back(projectionTile(result, b, h, stage));
    // Today's stage 4: the K/V head shared, Q_h and K_h normed and rotated.
    addTransformTiles(result, b, h, tiles);

    // 5–8. S, L, the mask, P (B, H, T, T).
    ScoreScale scores;
    scores.scaled = scaledScores(result, b, h);
    scores.largest =
        std::max(largestMagnitude(result.scores->at(b, h)), largestMagnitude(scores.scaled));
    for (const PipelineStage stage : {PipelineStage::Scores, PipelineStage::Logits}) {
        tiles.push_back(tokenTile(result, b, h, stage, colours, scores));
    }
    // Today's stage 6: ALiBi's bias and the logits it and the cap make.
    addLogitTiles(result, b, h, scores.scaled.get(), tiles);
    for (const PipelineStage stage : {PipelineStage::Masked, PipelineStage::Weights})
        tiles.push_back(tokenTile(result, b, h, stage, colours, scores));
    // Today's stage 7: what the sink took.
    addSinkTile(result, b, h, colours, tiles);
    if (!result.aggregation)
        return tiles;

    // 9. O_h = P·V_h (B, H, T, d_k).
    StageTile head;
    head.stage = PipelineStage::HeadOutput;
    head.title = StripWords::tr("O_h — head output");
    head.formula = QStringLiteral("O_h = P·V_h,   o_i = Σ_j P[i][j]·v_j");
    head.shape = shapeLine({"B", "H", Tq, "d_k"}, {B, H, T, dK});
    head.note =
        StripWords::tr("drawn: [%1, %2] → (T, d_k) = (%3, %4)").arg(b).arg(h).arg(T).arg(dK);
    head.axes = StripWords::tr("↓ query i   → feature of the head");
    head.values = result.aggregation->headOutputs.at(b, h);
    head.heatmap = heatmapOf(head.values, {}, headRowLabels(result, b, h), {});
    head.style = divergingStyle(head.values);
    tiles.push_back(std::move(head));

    // 10. The heads side by side (B, T, C); head h's block outlined.
    StageTile concat;
    concat.stage = PipelineStage::Concat;
    concat.title = StripWords::tr("concat — every head");
    concat.formula = QStringLiteral("(P·V).transpose(1, 2).reshape(B, T, C)");
    concat.shape = shapeLine({"B", Tq, "C"}, {B, T, C});
    concat.note = H == 1 ? StripWords::tr("drawn: [%1]; one head, so concat = O_h").arg(b)
                         : StripWords::tr("drawn: [%1]; head %2 fills features %3–%4 (outlined)")
                               .arg(b)
                               .arg(h)
                               .arg(h * dK)
                               .arg((h + 1) * dK - 1);
    concat.axes = StripWords::tr("↓ token t   → feature c");
    concat.values = result.aggregation->merged[std::size_t(b)];
    concat.heatmap = heatmapOf(concat.values, {}, tokens, {});
    concat.style = divergingStyle(concat.values);
    if (H > 1) {
        concat.blockFirstColumn = h * dK;
        concat.blockColumns = dK;
    }
    tiles.push_back(std::move(concat));

    // 11. The output (B, T, C): the shape X came in with.
    StageTile output;
    output.stage = PipelineStage::Output;
    output.title = StripWords::tr("output — through W_o");
    output.formula = QStringLiteral("out = concat·W_oᵀ + b_o");
    output.shape = shapeLine({"B", Tq, "C"}, {B, T, C});
    output.note =
        StripWords::tr("drawn: [%1]; the same shape as X, so layers can be stacked").arg(b);
    output.axes = StripWords::tr("↓ token t   → feature c");
    output.values = result.aggregation->output[std::size_t(b)];
    output.heatmap = heatmapOf(output.values, {}, tokens, {});
    output.style = divergingStyle(output.values);
    tiles.push_back(std::move(output));
    return tiles;
}

void numberTiles(std::vector<StageTile>& tiles)
{
    for (std::size_t k = 0; k < tiles.size(); ++k)
        tiles[k].title = StripWords::tr("%1. %2", "step number, then the step's title")
                             .arg(k + 1)
                             .arg(tiles[k].title);
}

std::vector<StageTile> numberedPipelineTiles(const Result& result, int b, int h,
                                             const WeightColours& colours)
{
    std::vector<StageTile> tiles = pipelineTiles(result, b, h, colours);
    numberTiles(tiles);
    return tiles;
}

QPoint pipelineHighlight(PipelineStage stage, int i, int j)
{
    switch (stage) {
    case PipelineStage::Queries:
    case PipelineStage::QueriesNormed:
    case PipelineStage::QueriesRotated:
    case PipelineStage::HeadOutput:
    case PipelineStage::Sink:
        return {i, -1}; // q_i, and o_i = Σ_j P[i][j]·v_j
    case PipelineStage::Keys:
    case PipelineStage::KeysNormed:
    case PipelineStage::KeysRotated:
        return {j, -1}; // k_j
    case PipelineStage::Scores:
    case PipelineStage::Logits:
    case PipelineStage::Alibi:
    case PipelineStage::Shifted:
    case PipelineStage::Masked:
    case PipelineStage::Weights:
        return {i, j};
    default:
        return {-1, -1};
    }
}

} // namespace attn::ui
