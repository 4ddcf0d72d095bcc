// What a heatmap's layout measures once (font sizes, the widest text of each kind, the
// margin sums) before it places anything: HeatmapLayout::Metrics (not part of the ui API).
#pragma once

#include "engine/statistics.h"
#include "heatmaplayout.h"
#include "heatmaptext.h"

#include <QFont>

#include <optional>
#include <vector>

namespace attn::ui {

// Everything measured once: font sizes and the widest text of each kind.
struct HeatmapLayout::Metrics {
    QFont labelFont;
    QFont titleFont;
    double lineHeight = 0;
    double titleHeight = 0;
    double pad = 0;              // the small gap between parts
    double rowLabelWidth = 0;    // widest query label, at most elideWidth
    double columnLabelWidth = 0; // widest key label, at most elideWidth
    std::vector<double> columnLabelWidths;
    // Every key label a word of 1 to kMaxStackedCharacters CJK characters: how many lines
    // the longest takes stacked (0 when some label is not such a word), and how wide one
    // character is (the full-width em of 中, bold, which every such character shares).
    int stackedLines = 0;
    double stackedWidth = 0;
    double rowAxisTitleWidth = 0;
    double tickLabelWidth = 0;
    double elideWidth = 0;
    // Whether the rows (columns) are labelled with tokens, not with their indices.
    bool rowTokens = false;
    bool columnTokens = false;
    // Margin sums, measured only when the style shows them.
    bool marginSums = false;
    attn::MarginSums sums;
    QFont sumValueFont;
    double sumValueHeight = 0;
    double rowSumValueWidth = 0;    // widest row sum as printed
    double columnSumValueWidth = 0; // widest column sum as printed
    double rowSumTitleWidth = 0;
    double columnSumTitleWidth = 0;

    Metrics(const HeatmapData& data, const HeatmapStyle& style, const QPaintDevice* device,
            std::optional<double> smallerTargetSide);

    // The lines of the longest key label stacked, or 0 when a label is empty, longer than
    // kMaxStackedCharacters or has a character that is not a full-width CJK one (ideographs,
    // kana, hangul, their punctuation and full-width forms; one UTF-16 unit each).
    static int stackedLineCount(const HeatmapData& data);

    // Measures the margin sums of `data`, as the style shows them.
    void measureSums(const HeatmapData& data, const QPaintDevice* device);

    // The longest bar of the margin sums.
    [[nodiscard]] double sumBarLength() const { return 2.2 * lineHeight; }

    // Width of the strip right of the cells; it holds the row sums' title above it too.
    [[nodiscard]] double rowSumStripWidth(int sumAngle) const
    {
        const double values = sumAngle >= 0 ? 2 * pad + rowSumValueWidth : 0;
        return std::max(rowSumTitleWidth, sumBarLength() + values);
    }

    // Height of the strip below the cells: the bars, then the values at `sumAngle`.
    [[nodiscard]] double columnSumStripHeight(int sumAngle) const
    {
        switch (sumAngle) {
        case 0:
            return sumBarLength() + pad / 2 + sumValueHeight;
        case 90:
            return sumBarLength() + pad / 2 + columnSumValueWidth;
        default:
            return sumBarLength();
        }
    }

    // Whether the sums' values fit cells `cell` wide: rows need a line's height, columns
    // across their widest value and a gap, upright a line's height.
    [[nodiscard]] bool sumValuesFit(int sumAngle, double cell) const
    {
        if (sumAngle < 0)
            return true;
        if (cell < 0.9 * sumValueHeight)
            return false;
        return sumAngle == 90 || cell >= columnSumValueWidth + pad;
    }

    [[nodiscard]] double colorbarWidth() const { return 0.8 * lineHeight; }

    // How far the key labels at 45° reach right of the cells, which are `cell` wide.
    [[nodiscard]] double leaningOverhang(double cell) const
    {
        const auto columns = static_cast<double>(columnLabelWidths.size());
        double overhang = 0;
        for (std::size_t j = 0; j < columnLabelWidths.size(); ++j) {
            const double reach = (columnLabelWidths[j] + lineHeight / 2) / detail::sqrt2;
            overhang = std::max(overhang, reach - (columns - static_cast<double>(j) - 0.5) * cell);
        }
        return overhang;
    }

    // Height of the band above the cells that holds the key labels at `angle` degrees.
    [[nodiscard]] double columnLabelBand(int angle) const
    {
        switch (angle) {
        case kStackedLabels: // set solid, a character's em apart, as vertical text is
            return stackedLines * stackedWidth + (lineHeight - stackedWidth) / 2;
        case 0:
            return lineHeight;
        case 45:
            return (columnLabelWidth + lineHeight) / detail::sqrt2;
        default:
            return columnLabelWidth;
        }
    }
};

} // namespace attn::ui
