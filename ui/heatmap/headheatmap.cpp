#include "headheatmap.h"

#include "engine/softmax.h"
#include "engine/statistics.h"

#include <QCoreApplication>

#include <algorithm>

namespace attn::ui {
namespace {

QStringList tokenLabels(const TokenBatch& tokens, int b)
{
    QStringList labels;
    for (const std::string& token : tokens.tokens[std::size_t(b)])
        labels << QString::fromStdString(token);
    return labels;
}

} // namespace

// The titles keep the context of the grid they were first written for.
HeatmapLabels heatmapLabels(const Result& result, int b)
{
    // Rows are the queries' tokens, columns the keys' (the second text's in
    // cross-attention).
    HeatmapLabels labels;
    labels.queries = tokenLabels(*result.tokens, b);
    labels.keys =
        result.keyTokens == result.tokens ? labels.queries : tokenLabels(*result.keyTokens, b);
    return labels;
}

HeatmapData headHeatmap(const Result& result, int b, int h)
{
    return headHeatmap(result, b, h, heatmapLabels(result, b));
}

HeatmapData headHeatmap(const Result& result, int b, int h, const HeatmapLabels& labels,
                        SharedWeights mean)
{
    if (h < 0 && result.heads() == 1) // the mean of one head is that head, with its scores
        h = 0;
    HeatmapData data;
    if (h < 0) {
        if (mean.size() != 0)
            data.weights = std::move(mean);
        else
            data.weights = meanOverHeads(*result.weights, b);
        data.title = QCoreApplication::translate("attn::ui::HeatmapGrid", "Mean of the heads",
                                                 "heatmap title");
    } else {
        data.weights = SharedWeights(result.weights, result.weights->at(b, h));
        data.scores = SharedWeights(result.scores, result.scores->at(b, h));
        data.maskedScoresPending = result.scoresPending();
        data.logitRule = logitRule(result.config(), h);
        const Config& config = result.config();
        // With fewer K/V heads than heads, the K/V head this query head shares (GQA).
        data.title =
            config.kvHeadCount() != config.heads
                ? QCoreApplication::translate("attn::ui::HeatmapGrid", "Head %1 · K/V %2",
                                              "heatmap title: query head, the K/V head it reads")
                      .arg(h)
                      .arg(config.kvHeadOf(h))
                : QCoreApplication::translate("attn::ui::HeatmapGrid", "Head %1", "heatmap title")
                      .arg(h);
    }
    data.masked = SharedMask(result.mask, (*result.mask)[std::size_t(b)]);
    data.queryLabels = labels.queries;
    data.keyLabels = labels.keys;
    return data;
}

std::pair<double, double> weightRange(const std::vector<float>& maxima, int h, bool shared)
{
    const float max =
        shared || h < 0 || h >= int(maxima.size())
            ? (maxima.empty() ? 0.0f : *std::max_element(maxima.begin(), maxima.end()))
            : maxima[std::size_t(h)];
    return {0.0, max > 0 ? double(max) : 1.0};
}

void setWeightScale(HeatmapStyle& style, const std::vector<float>& maxima, int h, bool shared,
                    bool log, int keys)
{
    std::tie(style.vmin, style.vmax) = weightRange(maxima, h, shared);
    style.logScale = log;
    if (log)
        style.vmin = logScaleFloor(style.vmax, keys);
}

std::pair<double, double> weightRange(const Result& result, int b, int h, bool shared)
{
    return weightRange(finiteMaxima(*result.weights, b), h, shared);
}

} // namespace attn::ui
