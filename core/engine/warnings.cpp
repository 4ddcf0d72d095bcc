#include "engine/warnings.h"

#include "engine/options.h"
#include "engine/statistics.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

namespace attn {
namespace {

std::string percent(double share)
{
    return std::to_string(static_cast<int>(std::lround(share * 100.0)));
}

std::string fixed(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

// "3", "3, 5, 6" or "3, 5, 6, … (12)"; with several sequences [b, i] as PyTorch indexes
// them: "[1, 3], [1, 4]". Numbers start at 0.
std::string listRows(const std::set<std::pair<int, int>>& rows, bool withSequence)
{
    constexpr std::size_t kShown = 6;
    std::string out;
    std::size_t shown = 0;
    for (const auto& [b, i] : rows) {
        if (shown == kShown) {
            out += ", … (" + std::to_string(rows.size()) + ")";
            break;
        }
        if (shown++ > 0)
            out += ", ";
        out += withSequence ? "[" + std::to_string(b) + ", " + std::to_string(i) + "]"
                            : std::to_string(i);
    }
    return out;
}

// Whether the softmax is peaked (warnings.h's thresholds), where its rows are distributions
// so that their largest weight and entropy mean what they say.
bool peaked(const Statistics& stats, const Config& config)
{
    return config.axis == SoftmaxAxis::Keys && stats.notNormalizedRows == 0 &&
           stats.choiceRows > 0 && stats.meanRowMax >= kPeakedRowMax &&
           stats.meanEntropy <= kPeakedEntropyShare * stats.meanEntropyMax;
}

} // namespace

const char* warningTemplate(WarningKind kind)
{
    switch (kind) {
    case WarningKind::RowsNotNormalizedQueries:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "Rows do not sum to 1 (they range from %1 to %2): the softmax ran "
                                 "over the queries (dim=-2), so each column sums to 1 instead. Set "
                                 "the axis to keys (dim=-1).");
    case WarningKind::RowsNotNormalizedBatch:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "Rows do not sum to 1 (they range from %1 to %2): the softmax ran "
                                 "over the batch (dim=0), so each position sums to 1 across the "
                                 "sequences. Set the axis to keys (dim=-1).");
    case WarningKind::RowsNotNormalizedMask:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "Rows do not sum to 1 (they range from %1 to %2): the mask was "
                                 "applied after the softmax, so the weight of masked keys was "
                                 "thrown away. Apply the mask before the softmax.");
    case WarningKind::SaturatedNoScaling:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "%1% of rows are saturated (largest weight ≥ 0.99): turn √d_k "
                                 "scaling on.");
    case WarningKind::SaturatedLowTemperature:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "%1% of rows are saturated (largest weight ≥ 0.99): the "
                                 "temperature τ = %2 sharpens the softmax; raise it towards 1.");
    case WarningKind::Saturated:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "%1% of rows are saturated (largest weight ≥ 0.99): the softmax "
                                 "is almost one-hot and passes little gradient back.");
    case WarningKind::PeakedNoScaling:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "The softmax is peaked: the largest weight of a row is %1 on "
                                 "average and its entropy %2 of at most %3 bits. Without √d_k "
                                 "scaling the logits spread √d_k = %4 times wider: turn √d_k "
                                 "scaling on.");
    case WarningKind::PeakedLowTemperature:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "The softmax is peaked: the largest weight of a row is %1 on "
                                 "average and its entropy %2 of at most %3 bits. The temperature "
                                 "τ = %4 sharpens it; raise it towards 1.");
    case WarningKind::Peaked:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "The softmax is peaked: the largest weight of a row is %1 on "
                                 "average and its entropy %2 of at most %3 bits, so each query "
                                 "reads mostly one key and little gradient flows back.");
    case WarningKind::NanRows:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "NaN where every key is masked with -inf (row %1): a softmax "
                                 "of nothing but -inf is 0/0. Fill with -1e9, or leave a key "
                                 "unmasked.");
    case WarningKind::NanColumns:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "NaN where every query is masked with -inf (column %1): the "
                                 "softmax runs over the queries (dim=-2). Set the axis to keys "
                                 "(dim=-1).");
    case WarningKind::NanPositions:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "NaN where a position is masked with -inf in every sequence (row "
                                 "%1): the softmax runs over the batch (dim=0). Set the axis to "
                                 "keys (dim=-1).");
    case WarningKind::FullyMaskedUniform:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "Uniform weights where every key is masked (row %1): the fill "
                                 "-1e9 makes all the logits equal. With -inf they would be NaN.");
    case WarningKind::UniformRows:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "%1% of rows are uniform: every key gets the same weight, so the "
                                 "head only averages the values. Lower the temperature τ or "
                                 "scale less.");
    case WarningKind::HeadSplitView:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "The heads were split with view(B, H, T, d_k), which mixes tokens "
                                 "and features across heads. Split with view(B, T, H, "
                                 "d_k).transpose(1, 2).");
    case WarningKind::UniformCapped:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "%1% of rows are uniform: the soft-cap c = %2 squeezes every "
                                 "logit into (−c, c), too narrow to tell the keys apart. Raise c.");
    case WarningKind::SinkTakesMost:
        return QT_TRANSLATE_NOOP("Warnings",
                                 "The sink takes more than half of the weight in %1 rows (at most "
                                 "%2): those queries attend to almost nothing, the head rests. A "
                                 "lower sink logit s gives the keys their weight back.");
    }
    return "";
}

std::string fillPlaceholders(std::string pattern, const std::vector<std::string>& arguments)
{
    // One pass from left to right, so an argument's own text is never searched for
    // markers; of "%10" the longest number that names an argument wins, so %1 does not
    // eat the start of %10 when there are ten arguments.
    std::string out;
    out.reserve(pattern.size());
    for (std::size_t at = 0; at < pattern.size();) {
        if (pattern[at] == '%') {
            std::size_t digits = 0;
            while (digits < 2 && at + 1 + digits < pattern.size() &&
                   std::isdigit(static_cast<unsigned char>(pattern[at + 1 + digits])))
                ++digits;
            for (; digits > 0; --digits) {
                const std::size_t number = std::stoul(pattern.substr(at + 1, digits));
                if (number >= 1 && number <= arguments.size()) {
                    out += arguments[number - 1];
                    at += 1 + digits;
                    break;
                }
            }
            if (digits > 0)
                continue;
        }
        out += pattern[at++];
    }
    return out;
}

std::string warningText(const Warning& warning)
{
    return fillPlaceholders(warningTemplate(warning.kind), warning.arguments);
}

std::vector<Warning> deriveWarnings(const Statistics& stats, const Config& config)
{
    std::vector<Warning> warnings;
    int sequences = 0;
    for (const HeadStatistics& h : stats.heads)
        sequences = std::max(sequences, h.batch + 1);
    const bool several = sequences > 1;

    // 1. NaN first: it poisons everything downstream.
    std::set<std::pair<int, int>> nanRows, fullyMaskedFinite;
    for (const HeadStatistics& h : stats.heads) {
        for (int i : h.nanRows)
            nanRows.emplace(h.batch, i);
        for (int i : h.fullyMaskedRows)
            if (std::find(h.nanRows.begin(), h.nanRows.end(), i) == h.nanRows.end())
                fullyMaskedFinite.emplace(h.batch, i);
    }
    if (!nanRows.empty()) {
        if (config.axis == SoftmaxAxis::Keys) {
            warnings.push_back({WarningKind::NanRows, {listRows(nanRows, several)}});
        } else if (config.axis == SoftmaxAxis::Queries) {
            std::set<std::pair<int, int>> columns;
            for (const HeadStatistics& h : stats.heads)
                for (std::size_t j = 0; j < h.colSums.size(); ++j)
                    if (std::isnan(h.colSums[j]))
                        columns.emplace(h.batch, static_cast<int>(j));
            warnings.push_back({WarningKind::NanColumns, {listRows(columns, several)}});
        } else {
            warnings.push_back({WarningKind::NanPositions, {listRows(nanRows, several)}});
        }
    }
    if (!fullyMaskedFinite.empty() && config.maskStage == MaskStage::BeforeSoftmax &&
        config.maskFill == MaskFill::NegBillion && config.axis == SoftmaxAxis::Keys)
        warnings.push_back(
            {WarningKind::FullyMaskedUniform, {listRows(fullyMaskedFinite, several)}});

    // 2. Rows that are not distributions, and why.
    if (stats.notNormalizedRows > 0) {
        const std::vector<std::string> range{fixed(stats.rowSumMin, 4), fixed(stats.rowSumMax, 4)};
        if (config.axis == SoftmaxAxis::Queries)
            warnings.push_back({WarningKind::RowsNotNormalizedQueries, range});
        else if (config.axis == SoftmaxAxis::Batch)
            warnings.push_back({WarningKind::RowsNotNormalizedBatch, range});
        else if (config.maskStage == MaskStage::AfterSoftmax)
            warnings.push_back({WarningKind::RowsNotNormalizedMask, range});
    }

    // 3. Saturation and its likely cause.
    if (stats.saturatedShare >= kWarnShare) {
        const std::string share = percent(stats.saturatedShare);
        if (config.scale == ScaleMode::None)
            warnings.push_back({WarningKind::SaturatedNoScaling, {share}});
        else if (config.temperature < 1.0f)
            warnings.push_back(
                {WarningKind::SaturatedLowTemperature, {share, fixed(config.temperature, 2)}});
        else
            warnings.push_back({WarningKind::Saturated, {share}});
    } else if (peaked(stats, config)) {
        // Peaked short of saturation: the √d_k lesson at d_model 512.
        std::vector<std::string> figures{fixed(stats.meanRowMax, 2), fixed(stats.meanEntropy, 2),
                                         fixed(stats.meanEntropyMax, 2)};
        if (config.scale == ScaleMode::None) {
            figures.push_back(fixed(std::sqrt(static_cast<double>(config.dK())), 1));
            warnings.push_back({WarningKind::PeakedNoScaling, figures});
        } else if (config.temperature < 1.0f) {
            figures.push_back(fixed(config.temperature, 2));
            warnings.push_back({WarningKind::PeakedLowTemperature, figures});
        } else {
            warnings.push_back({WarningKind::Peaked, figures});
        }
    }

    // 4. The opposite: rows that cannot tell keys apart.
    if (stats.choiceRows > 0) {
        const double uniformShare = static_cast<double>(stats.uniformRows) / stats.choiceRows;
        if (uniformShare >= kWarnShare && config.softcap > 0)
            warnings.push_back(
                {WarningKind::UniformCapped, {percent(uniformShare), fixed(config.softcap, 2)}});
        else if (uniformShare >= kWarnShare)
            warnings.push_back({WarningKind::UniformRows, {percent(uniformShare)}});
    }
    // A sink that takes most of a row: a head with nothing to attend to parks its weight.
    if (stats.sinkRows > 0)
        warnings.push_back({WarningKind::SinkTakesMost,
                            {std::to_string(stats.sinkRows), fixed(stats.maxSinkWeight, 2)}});

    // 5. A wrong split gives plausible-looking but meaningless heads: say so.
    if (config.headSplit == HeadSplit::View && config.heads > 1)
        warnings.push_back({WarningKind::HeadSplitView, {}});
    return warnings;
}

} // namespace attn
