#include "heatmapdata.h"

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// A token as a label: whitespace-only tokens would otherwise vanish.
QString visibleToken(const QString& token)
{
    if (token.trimmed().isEmpty())
        return QStringLiteral("␣");
    QString text = token;
    return text.replace(QLatin1Char('\n'), QStringLiteral("⏎"))
        .replace(QLatin1Char('\t'), QStringLiteral("⇥"));
}

} // namespace

QString HeatmapData::queryLabel(int row) const
{
    return row < queryLabels.size() ? visibleToken(queryLabels.at(row)) : QString::number(row);
}

QString HeatmapData::keyLabel(int column) const
{
    return column < keyLabels.size() ? visibleToken(keyLabels.at(column)) : QString::number(column);
}

double logScaleFloor(double vmax, int keys)
{
    const int decades = std::clamp(int(std::ceil(std::log10(std::max(keys, 1)))) + 1, 2, 6);
    return vmax * std::pow(10.0, -decades);
}

} // namespace attn::ui
