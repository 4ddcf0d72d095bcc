#include "pipelinetodays.h"

#include "engine/positions.h"
#include "engine/softmax.h"
#include "pipelinetileparts.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

using namespace tileparts;

// The tiles' words keep the context they were translated in, the strip's.
class StripWords {
    Q_DECLARE_TR_FUNCTIONS(attn::ui::PipelineStrip)
};

// "(B, H, T, d_k) = (2, 4, 6, 16)" of Q_h, or "(B, K, T, d_k)" of K/V heads fewer than H.
QString headShape(const Result& result, bool keys)
{
    const Config& config = result.config();
    const bool cross = result.isCross();
    const QString length = !cross ? QStringLiteral("T")
                           : keys ? QStringLiteral("T_k")
                                  : QStringLiteral("T_q");
    const int T = keys ? result.keyLength() : result.length();
    const int heads = keys ? config.kvHeadCount() : config.heads;
    return shapeLine({"B", keys && heads != config.heads ? "K" : "H", length, "d_k"},
                     {result.batch(), heads, T, result.dK()});
}

// One tile of stage 4's transforms: `values` of Q (keys = false) or K.
StageTile transformTile(const Result& result, int b, int h, bool keys, bool rotated,
                        const Matrix& values)
{
    const Config& config = result.config();
    const bool normed = config.qkNorm;
    StageTile tile;
    tile.stage = keys ? (rotated ? PipelineStage::KeysRotated : PipelineStage::KeysNormed)
                      : (rotated ? PipelineStage::QueriesRotated : PipelineStage::QueriesNormed);
    const QString symbol = keys ? QStringLiteral("K") : QStringLiteral("Q");
    const QString position = keys ? QStringLiteral("j") : QStringLiteral("i");
    const QString hat = symbol + QStringLiteral("̂");
    if (!rotated) {
        tile.title =
            keys ? StripWords::tr("K̂_h — keys, QK-norm") : StripWords::tr("Q̂_h — queries, QK-norm");
        tile.formula = QStringLiteral("%1_h = %2_h / √(mean(%2_h²) + ε)").arg(hat, symbol);
        tile.note = StripWords::tr("every row divided by its RMS over the d_k features, "
                                   "ε = 1e-6: each row's RMS is now 1");
    } else {
        tile.title =
            keys ? StripWords::tr("K_h rotated — RoPE") : StripWords::tr("Q_h rotated — RoPE");
        const QString x = (normed ? hat : symbol) + QStringLiteral("_h");
        tile.formula =
            QStringLiteral("R_%1·%2 = %2·cos(%1θ) + rotate_half(%2)·sin(%1θ)").arg(position, x);
        tile.note = StripWords::tr("row %1 turned by its position %1, pairs of features at "
                                   "θ^(−2k/d_k), θ = %2: q_i·k_j then depends on i − j")
                        .arg(position, QString::number(config.ropeTheta, 'g', 7));
    }
    tile.shape = headShape(result, keys);
    if (keys && config.kvHeadCount() != config.heads)
        tile.note += StripWords::tr("; K/V head %1").arg(config.kvHeadOf(h));
    tile.axes = StripWords::tr("↓ token   → feature of the head");
    tile.values = values;
    tile.heatmap = heatmapOf(tile.values, {}, headRowLabels(result, b, h, keys), {});
    tile.style = divergingStyle(tile.values.get());
    return tile;
}

} // namespace

void addTransformTiles(const Result& result, int b, int h, std::vector<StageTile>& tiles)
{
    const Config& config = result.config();
    const bool rope = config.positional == Positional::Rope;
    if (!result.projection || (!config.qkNorm && !rope) || tiles.size() < 3)
        return;
    const HeadTransformSteps q =
        headTransformSteps(config, result.projection->q[std::size_t(b)], config.heads, h);
    const HeadTransformSteps k = headTransformSteps(config, result.projection->k[std::size_t(b)],
                                                    config.kvHeadCount(), config.kvHeadOf(h));
    // Q_h and K_h as split: the tiles after them show what became of them.
    for (auto [tile, steps] :
         {std::pair{&tiles[tiles.size() - 3], &q}, std::pair{&tiles[tiles.size() - 2], &k}}) {
        tile->values = steps->split;
        tile->heatmap = heatmapOf(tile->values, {}, tile->heatmap.queryLabels, {});
        tile->style = divergingStyle(tile->values.get());
        tile->note += StripWords::tr("; before QK-norm and RoPE");
    }
    if (config.qkNorm) {
        tiles.push_back(transformTile(result, b, h, false, false, q.normed));
        tiles.push_back(transformTile(result, b, h, true, false, k.normed));
    }
    if (rope) {
        tiles.push_back(transformTile(result, b, h, false, true, q.rotated));
        tiles.push_back(transformTile(result, b, h, true, true, k.rotated));
    }
}

void addLogitTiles(const Result& result, int b, int h, const Matrix& scaled,
                   std::vector<StageTile>& tiles)
{
    const Config& config = result.config();
    const LogitRule rule = result.rule(h);
    if (!rule.shifts())
        return;
    const int T = result.length(), Tk = result.keyLength();
    const QStringList rows = headRowLabels(result, b, h);
    const QStringList columns = headRowLabels(result, b, h, true);
    const QString drawn =
        StripWords::tr("drawn: [%1, %2] → (T_q, T_k) = (%3, %4)").arg(b).arg(h).arg(T).arg(Tk);

    // ALiBi's bias of head h: a penalty growing with the distance, no learned weight.
    if (config.alibi) {
        StageTile bias;
        bias.stage = PipelineStage::Alibi;
        bias.title = StripWords::tr("ALiBi — the bias of head %1").arg(h);
        bias.formula = QStringLiteral("−m_h·|i − j|,   m_%1 = %2").arg(h).arg(number(rule.slope));
        bias.shape = QStringLiteral("(T_q, T_k) = (%1, %2)").arg(T).arg(Tk);
        bias.note = StripWords::tr("%1; slopes 2^(−8(h+1)/H) for H = %2 heads: each head sees "
                                   "its own distance")
                        .arg(drawn)
                        .arg(config.heads);
        bias.axes = StripWords::tr("↓ query i   → key j");
        Matrix values(T, Tk);
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < Tk; ++j)
                values(i, j) = -rule.slope * static_cast<float>(std::abs(i - j));
        bias.values = std::move(values);
        bias.heatmap = heatmapOf(bias.values, {}, rows, columns);
        bias.style = divergingStyle(bias.values.get());
        tiles.push_back(std::move(bias));
    }

    // L after the bias and the cap, on one scale with L's before it.
    StageTile shifted;
    shifted.stage = PipelineStage::Shifted;
    const bool cap = rule.cap > 0;
    Matrix values(T, Tk);
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < Tk; ++j)
            values(i, j) = rule.shift(scaled(i, j), i, j);
    if (cap) {
        shifted.title = StripWords::tr("L — soft-capped");
        shifted.formula = config.alibi
                              ? QStringLiteral("L ← c·tanh((L − m_h·|i − j|) / c),   c = %1")
                              : QStringLiteral("L ← c·tanh(L / c),   c = %1");
        shifted.formula = shifted.formula.arg(number(rule.cap));
    } else {
        shifted.title = StripWords::tr("L — with ALiBi's bias");
        shifted.formula = QStringLiteral("L ← L − m_h·|i − j|");
    }
    const auto range = [](const Matrix& m) {
        return QStringLiteral("%1 … %2").arg(number(m.minCoeff()), number(m.maxCoeff()));
    };
    //: %1 the range of L before, %2 after
    shifted.note = StripWords::tr("before: %1; after: %2").arg(range(scaled), range(values));
    if (cap)
        shifted.note += StripWords::tr("; every logit now inside (−c, c)");
    if (result.stats)
        shifted.note += StripWords::tr("; std = %1 over the whole tensor")
                            .arg(result.stats->stdFinalLogits, 0, 'f', 4);
    shifted.shape = QStringLiteral("(T_q, T_k) = (%1, %2)").arg(T).arg(Tk);
    shifted.axes = StripWords::tr("↓ query i   → key j");
    const double largest = std::max(largestMagnitude(scaled), largestMagnitude(values));
    shifted.values = std::move(values);
    shifted.heatmap = heatmapOf(shifted.values, {}, rows, columns);
    shifted.style = divergingStyle(largest);
    tiles.push_back(std::move(shifted));
}

void addSinkTile(const Result& result, int b, int h, const WeightColours& colours,
                 std::vector<StageTile>& tiles)
{
    const Config& config = result.config();
    if (!config.sink || config.axis != SoftmaxAxis::Keys)
        return;
    const int T = result.length(), Tk = result.keyLength();
    const std::size_t index = std::size_t(b * result.heads() + h);
    Matrix weights(T, 1);
    if (result.stats && index < result.stats->heads.size() &&
        int(result.stats->heads[index].sinkWeights.size()) == T) {
        const std::vector<double>& taken = result.stats->heads[index].sinkWeights;
        for (int i = 0; i < T; ++i)
            weights(i, 0) = float(taken[std::size_t(i)]);
    } else {
        // The logits as the softmax saw them, the sink's beside them.
        const Matrix logits = result.logits(b, h);
        const LogitRule rule = result.rule(h);
        for (int i = 0; i < T; ++i)
            weights(i, 0) = float(sinkWeight(logits.row(i).data(), Tk, rule));
    }
    StageTile tile;
    tile.stage = PipelineStage::Sink;
    tile.title = StripWords::tr("sink — the weight it took");
    tile.formula = QStringLiteral("p_sink,i = e^s / (e^s + Σ_j e^L[i][j]),   s = %1")
                       .arg(number(*config.sink));
    tile.shape = QStringLiteral("(T_q, 1) = (%1, 1)").arg(T);
    tile.note = StripWords::tr("the share of row i that went to nothing: P's row sums to "
                               "1 − p_sink; largest %1")
                    .arg(number(weights.maxCoeff()));
    tile.axes = StripWords::tr("↓ query i");
    tile.values = std::move(weights);
    tile.heatmap = heatmapOf(tile.values, {}, headRowLabels(result, b, h),
                             {StripWords::tr("sink", "the attention sink's column")});
    tile.style = weightStyle(colours, Tk + 1);
    tiles.push_back(std::move(tile));
}

} // namespace attn::ui
