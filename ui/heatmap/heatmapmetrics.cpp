#include "heatmapmetrics.h"

#include "heatmapsums.h"
#include "heatmaptext.h"

#include <QFontMetricsF>
#include <QMutex>

#include <algorithm>

namespace attn::ui {
namespace {

using detail::columnAxisTitle;
using detail::fontMetrics;
using detail::LabelWidths;
using detail::rowAxisTitle;
using detail::tickText;

double widest(const QFontMetricsF& metrics, const QStringList& texts)
{
    double width = 0;
    for (const QString& text : texts)
        width = std::max(width, metrics.horizontalAdvance(text));
    return width;
}

QStringList labels(int count, QString (HeatmapData::*label)(int) const, const HeatmapData& data)
{
    QStringList result;
    result.reserve(count);
    for (int k = 0; k < count; ++k)
        result.append((data.*label)(k));
    return result;
}

// The widths of the first `count` labels of `source` (each min(elideWidth, its width in
// `font`)), the last few lists remembered: a zoom step of the head dialog lays its heatmap
// out twice, and 2 × 2048 labels made and looked up each time took a third of the step.
// An entry holds its list, so that no other list can take its data's address meanwhile.
std::vector<double> labelWidths(const QStringList& source, int count,
                                QString (HeatmapData::*label)(int) const, const HeatmapData& data,
                                LabelWidths& font, double elideWidth)
{
    struct Entry {
        QStringList source;
        int count = 0;
        QString font;
        double elideWidth = 0;
        std::vector<double> widths;
    };
    static QMutex mutex;
    static std::vector<Entry> entries; // the newest last
    auto same = [&](const Entry& e) {
        return e.source.constData() == source.constData() && e.source.size() == source.size() &&
               e.count == count && e.elideWidth == elideWidth && e.font == font.key();
    };
    {
        const QMutexLocker lock(&mutex);
        if (const auto it = std::ranges::find_if(entries, same); it != entries.end())
            return it->widths;
    }
    std::vector<double> widths;
    widths.reserve(std::size_t(std::max(count, 0)));
    for (const QString& text : labels(count, label, data))
        widths.push_back(std::min(elideWidth, font(text)));
    const QMutexLocker lock(&mutex);
    if (entries.size() >= 8)
        entries.erase(entries.begin());
    entries.push_back({source, count, font.key(), elideWidth, widths});
    return widths;
}

} // namespace

HeatmapLayout::Metrics::Metrics(const HeatmapData& data, const HeatmapStyle& style,
                                const QPaintDevice* device, std::optional<double> smallerTargetSide)
    : labelFont(style.labelFont), titleFont(style.labelFont),
      rowTokens(data.queryLabels.size() >= data.rows()),
      columnTokens(data.keyLabels.size() >= data.columns())
{
    titleFont.setBold(true);
    if (titleFont.pointSizeF() > 0)
        titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    else
        titleFont.setPixelSize(qRound(titleFont.pixelSize() * 1.15));
    const QFontMetricsF label = fontMetrics(labelFont, device);
    // Token labels are measured bold, as the highlighted row's and column's are drawn.
    QFont boldFont = labelFont;
    boldFont.setBold(true);
    LabelWidths bold(boldFont, device);
    lineHeight = label.height();
    titleHeight = data.title.isEmpty() ? 0 : fontMetrics(titleFont, device).height();
    pad = lineHeight / 4;
    // Long tokens are elided so that labels never take most of a small figure.
    elideWidth = 8 * lineHeight;
    if (smallerTargetSide)
        elideWidth = std::clamp(*smallerTargetSide / 4, 2 * lineHeight, elideWidth);
    for (const double width : labelWidths(data.queryLabels, data.rows(), &HeatmapData::queryLabel,
                                          data, bold, elideWidth))
        rowLabelWidth = std::max(rowLabelWidth, width);
    columnLabelWidths =
        labelWidths(data.keyLabels, data.columns(), &HeatmapData::keyLabel, data, bold, elideWidth);
    columnLabelWidth = columnLabelWidths.empty() ? 0 : std::ranges::max(columnLabelWidths);
    stackedLines = stackedLineCount(data);
    if (stackedLines > 0)
        stackedWidth = bold(QStringLiteral("中"));
    if (style.axisTitles)
        rowAxisTitleWidth = label.horizontalAdvance(rowAxisTitle());
    if (style.colorbar)
        tickLabelWidth = widest(label, {tickText(style.vmin), tickText(style.vmax)});
    if (style.marginSums)
        measureSums(data, device);
}

int HeatmapLayout::Metrics::stackedLineCount(const HeatmapData& data)
{
    const auto fullWidth = [](QChar c) {
        const char16_t u = c.unicode();
        if ((u >= 0x3000 && u <= 0x303f) || (u >= 0xff01 && u <= 0xff60) ||
            (u >= 0xffe0 && u <= 0xffe6))
            return true; // CJK punctuation, full-width forms
        switch (c.script()) {
        case QChar::Script_Han:
        case QChar::Script_Hiragana:
        case QChar::Script_Katakana:
        case QChar::Script_Hangul:
        case QChar::Script_Bopomofo:
            return !c.isSurrogate();
        default:
            return false;
        }
    };
    int lines = 0;
    for (int j = 0; j < data.columns(); ++j) {
        const QString label = data.keyLabel(j);
        if (label.isEmpty() || label.size() > HeatmapLayout::kMaxStackedCharacters ||
            !std::ranges::all_of(label, fullWidth))
            return 0;
        lines = std::max(lines, int(label.size()));
    }
    return lines;
}

void HeatmapLayout::Metrics::measureSums(const HeatmapData& data, const QPaintDevice* device)
{
    marginSums = true;
    sums = attn::marginSums(data.weights);
    // Values a little smaller than the labels, so that "0.50" fits under a token.
    sumValueFont = labelFont;
    if (sumValueFont.pointSizeF() > 0)
        sumValueFont.setPointSizeF(sumValueFont.pointSizeF() * 0.85);
    else
        sumValueFont.setPixelSize(std::max(1, qRound(sumValueFont.pixelSize() * 0.85)));
    const QFontMetricsF value = fontMetrics(sumValueFont, device);
    sumValueHeight = value.height();
    const auto widestSum = [&value](const std::vector<double>& sums) {
        double width = 0;
        for (const double sum : sums)
            width = std::max(width, value.horizontalAdvance(marginSumText(sum)));
        return width;
    };
    rowSumValueWidth = widestSum(sums.rows);
    columnSumValueWidth = widestSum(sums.columns);
    QFont titleFont = labelFont;
    titleFont.setItalic(true);
    const QFontMetricsF title = fontMetrics(titleFont, device);
    rowSumTitleWidth = title.horizontalAdvance(rowSumTitle());
    columnSumTitleWidth = title.horizontalAdvance(columnSumTitle());
}

} // namespace attn::ui
