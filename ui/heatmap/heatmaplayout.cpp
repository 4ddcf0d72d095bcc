// Where everything of a heatmap goes: the measuring of its labels and parts, and the
// placing of cells, labels, sums and colorbar in a target rectangle.
#include "heatmaplayout.h"

#include "engine/statistics.h"
#include "heatmapmetrics.h"
#include "heatmapsums.h"
#include "heatmaptext.h"

#include <QFontMetricsF>
#include <QTextBoundaryFinder>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn::ui {
namespace {

using detail::columnAxisTitle;
using detail::fontMetrics;
using detail::LabelWidths;
using detail::rowAxisTitle;
using detail::sqrt2;
using detail::tickText;

// `font` at `scale` times its size.
QFont scaledFont(QFont font, double scale)
{
    if (scale == 1.0)
        return font;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * scale);
    else
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * scale)));
    return font;
}

// Every how many of `count` rows (or columns) `pitch` apart a label `extent` long is shown,
// so that neighbours clear each other: 1 when it fits its row. The first and last labels are
// pushed inside the cells' edges by up to half a label, hence the half label more room
// beside them. Tokens are counted in any step; indices in 1, 2, 5, 10, 20…, the steps
// one reads an axis of numbers by.
int labelStride(double extent, double pitch, int count, bool tokens)
{
    count = std::max(1, count);
    if (pitch <= 0)
        return count;
    if (extent <= pitch * (1 + 1e-9))
        return 1;
    const double least = std::max(extent / pitch, 1.5 * extent / pitch - 0.5) - 1e-9;
    if (tokens)
        return std::min(count, static_cast<int>(std::ceil(least)));
    for (int decade = 1; decade < count; decade *= 10)
        for (const int step : {decade, 2 * decade, 5 * decade})
            if (step >= least)
                return step;
    return count;
}

} // namespace

HeatmapLayout::HeatmapLayout(const Metrics& metrics, const HeatmapData& data,
                             const HeatmapStyle& style)
    : rows_(data.rows()), columns_(data.columns()), labelElideWidth_(metrics.elideWidth),
      lineHeight_(metrics.lineHeight), hasTitle_(!data.title.isEmpty()),
      hasColorbar_(style.colorbar), hasAxisTitles_(style.axisTitles), hasSums_(metrics.marginSums),
      labelFont_(metrics.labelFont), titleFont_(metrics.titleFont)
{
    if (hasSums_) {
        rowSums_ = metrics.sums.rows;
        columnSums_ = metrics.sums.columns;
        sumBarLength_ = metrics.sumBarLength();
        sumValueWidth_ = metrics.columnSumValueWidth;
        sumValueHeight_ = metrics.sumValueHeight;
        sumValueFont_ = metrics.sumValueFont;
    }
}

HeatmapLayout::HeatmapLayout(const QRectF& target, const HeatmapData& data,
                             const HeatmapStyle& style, const QPaintDevice* device)
{
    const Metrics metrics(data, style, device, std::min(target.width(), target.height()));
    *this = HeatmapLayout(metrics, data, style);
    if (rows_ == 0 || columns_ == 0) {
        rowHeight_ = cell_;
        place(metrics, target, margins(metrics, 0, -1, 0), 0, -1);
        return;
    }
    // Prefer labels across the columns, then at 45°, then upright; each costs more height.
    // Within each, the sums' values prefer lying across, then upright, then none.
    const auto fittingCell = [&](const Margins& around) {
        const double width = target.width() - around.left - around.right;
        const double height = target.height() - around.top - around.bottom;
        const double cell = std::max(0.0, std::min(width / columns_, height / rows_));
        return style.maxCellSize > 0 ? std::min(cell, style.maxCellSize) : cell;
    };
    const QVarLengthArray<int, 3> sumAngles =
        hasSums_ ? QVarLengthArray<int, 3>{0, 90, -1} : QVarLengthArray<int, 3>{-1};
    // Narrower still, every n-th label shows: Chinese words stacked, others standing.
    const int lastResort = metrics.stackedLines > 0 ? kStackedLabels : 90;
    for (const int candidate : {0, kStackedLabels, 45, 90}) {
        const int angle = candidate == 90 ? lastResort : candidate;
        for (const int sumAngle : sumAngles) {
            Margins around = margins(metrics, angle, sumAngle, 0);
            cell_ = fittingCell(around);
            if (angle == 45) { // larger cells let the labels lean out less: refine once
                around = margins(metrics, angle, sumAngle, cell_);
                cell_ = fittingCell(around);
            }
            if (!metrics.sumValuesFit(sumAngle, cell_))
                continue;
            if (candidate == 90 || columnLabelsFit(metrics, angle, cell_)) {
                rowHeight_ = cell_;
                place(metrics, target, around, angle, sumAngle);
                return;
            }
            break;
        }
    }
}

HeatmapLayout HeatmapLayout::forCellSize(const HeatmapData& data, const HeatmapStyle& style,
                                         double cellSize, const QPaintDevice* device)
{
    return forCellSize(data, style, QSizeF(cellSize, cellSize), device);
}

HeatmapLayout HeatmapLayout::forCellSize(const HeatmapData& data, const HeatmapStyle& style,
                                         QSizeF cell, const QPaintDevice* device)
{
    const Metrics metrics(data, style, device, std::nullopt);
    HeatmapLayout layout(metrics, data, style);
    const double cellSize = cell.width();
    layout.cell_ = cellSize;
    layout.rowHeight_ = cell.height();
    int angle = metrics.stackedLines > 0 ? kStackedLabels : 90; // every n-th label

    for (const int candidate : {0, kStackedLabels, 45})
        if (layout.columnLabelsFit(metrics, candidate, cellSize)) {
            angle = candidate;
            break;
        }
    int sumAngle = -1;
    if (layout.hasSums_)
        for (const int candidate : {0, 90})
            if (metrics.sumValuesFit(candidate, cellSize)) {
                sumAngle = candidate;
                break;
            }
    const Margins around = layout.margins(metrics, angle, sumAngle, cellSize);
    const QRectF target(0, 0, around.left + layout.columns_ * cellSize + around.right,
                        around.top + layout.rows_ * layout.rowHeight_ + around.bottom);
    layout.place(metrics, target, around, angle, sumAngle);
    return layout;
}

double HeatmapLayout::cellForLabelsAcross(const HeatmapData& data, const HeatmapStyle& style,
                                          const QPaintDevice* device)
{
    const Metrics metrics(data, style, device, std::nullopt);
    return metrics.columnLabelWidth + metrics.pad; // as columnLabelsFit's angle 0
}

double HeatmapLayout::cellForEveryLabel(const HeatmapStyle& style, const QPaintDevice* device)
{
    // A row, and a column of a standing label, one line of the smallest token font; labels
    // across or stacked need more than that, and stand when they do not fit.
    return std::ceil(kMinLabelScale * fontMetrics(style.labelFont, device).height());
}

HeatmapLayout::Margins HeatmapLayout::margins(const Metrics& metrics, int angle, int sumAngle,
                                              double cell) const
{
    const double pad = metrics.pad;
    Margins around;
    around.left =
        pad +
        std::max({metrics.rowLabelWidth, metrics.rowAxisTitleWidth, metrics.columnSumTitleWidth}) +
        pad;
    // The axis title keeps a gap of its own above the key labels, so that it does not read
    // as part of the first one.
    around.top = pad + (hasTitle_ ? metrics.titleHeight + pad : 0) +
                 (hasAxisTitles_ ? metrics.lineHeight + pad : 0) + metrics.columnLabelBand(angle) +
                 pad;
    if (hasSums_) // the row sums' title stands above their strip
        around.top = std::max(around.top, 2 * pad + metrics.lineHeight);
    around.right = pad;
    if (hasSums_)
        around.right += pad + metrics.rowSumStripWidth(sumAngle);
    if (hasColorbar_)
        around.right += 2 * pad + metrics.colorbarWidth() + pad + metrics.tickLabelWidth;
    if (angle == 45)
        around.right = std::max(around.right, pad + metrics.leaningOverhang(cell));
    around.bottom = pad;
    if (hasSums_)
        around.bottom += metrics.columnSumStripHeight(sumAngle) + pad;
    return around;
}

bool HeatmapLayout::columnLabelsFit(const Metrics& metrics, int angle, double cell) const
{
    // Neighbouring labels must not overlap: at 45° two baselines one cell apart are cell/√2 apart.
    if (angle == 0)
        return metrics.columnLabelWidth + metrics.pad <= cell;
    if (angle == kStackedLabels)
        return metrics.stackedLines > 0 && metrics.stackedWidth + metrics.pad <= cell;
    if (angle == 45)
        return cell >= metrics.lineHeight * sqrt2;
    return cell >= metrics.lineHeight;
}

void HeatmapLayout::place(const Metrics& metrics, const QRectF& target, const Margins& around,
                          int angle, int sumAngle)
{
    const double pad = metrics.pad;
    const double lineHeight = metrics.lineHeight;
    const double gridWidth = columns_ * cell_;
    const double gridHeight = rows_ * rowHeight_;
    const QSizeF whole(around.left + gridWidth + around.right,
                       around.top + gridHeight + around.bottom);
    // The figure is centred in the target; the cells are square.
    const QPointF corner(target.left() + (target.width() - whole.width()) / 2,
                         target.top() + (target.height() - whole.height()) / 2);
    bounds_ = QRectF(corner, whole);
    gridOrigin_ = corner + QPointF(around.left, around.top);
    columnLabelAngle_ = angle;
    stackedPitch_ = metrics.stackedWidth;

    titleRect_ = hasTitle_ ? QRectF(corner.x() + pad, corner.y() + pad, whole.width() - 2 * pad,
                                    metrics.titleHeight)
                           : QRectF();
    const double band = metrics.columnLabelBand(angle);
    columnLabelArea_ = QRectF(gridOrigin_.x(), gridOrigin_.y() - pad - band, gridWidth, band);
    rowLabelArea_ = QRectF(corner.x() + pad, gridOrigin_.y(),
                           gridOrigin_.x() - pad - (corner.x() + pad), gridHeight);
    if (hasAxisTitles_) {
        columnAxisTitleRect_ = QRectF(gridOrigin_.x(), columnLabelArea_.top() - pad - lineHeight,
                                      gridWidth + around.right - pad, lineHeight);
        rowAxisTitleRect_ = QRectF(rowLabelArea_.left(), columnLabelArea_.bottom() - lineHeight,
                                   rowLabelArea_.width(), lineHeight);
    }
    // The sums beside the cells, each strip's title by its bars: the row sums' above their
    // strip, the column sums' left of theirs.
    double stripsRight = gridOrigin_.x() + gridWidth;
    if (hasSums_) {
        sumValueAngle_ = sumAngle;
        rowSumArea_ = QRectF(stripsRight + pad, gridOrigin_.y(), metrics.rowSumStripWidth(sumAngle),
                             gridHeight);
        columnSumArea_ = QRectF(gridOrigin_.x(), gridOrigin_.y() + gridHeight + pad, gridWidth,
                                metrics.columnSumStripHeight(sumAngle));
        rowSumTitleRect_ = QRectF(rowSumArea_.left(), gridOrigin_.y() - pad - lineHeight,
                                  rowSumArea_.width(), lineHeight);
        columnSumTitleRect_ =
            QRectF(rowLabelArea_.left(), columnSumArea_.top() + (sumBarLength_ - lineHeight) / 2,
                   rowLabelArea_.width(), lineHeight);
        stripsRight = rowSumArea_.right();
    }
    if (hasColorbar_) {
        colorbarRect_ =
            QRectF(stripsRight + 2 * pad, gridOrigin_.y(), metrics.colorbarWidth(), gridHeight);
        const double labelLeft = colorbarRect_.right() + pad;
        colorbarMaxLabelRect_ =
            QRectF(labelLeft, colorbarRect_.top(), metrics.tickLabelWidth, lineHeight);
        colorbarMinLabelRect_ = QRectF(labelLeft, colorbarRect_.bottom() - lineHeight,
                                       metrics.tickLabelWidth, lineHeight);
    }

    // Labels `needed` long at the label font across rows (columns) `pitch` apart: where
    // they do not fit, a smaller font down to kMinLabelScale, then every n-th label.
    const auto scale = [](double needed, double pitch) {
        return needed > 0 ? std::clamp(pitch / needed, kMinLabelScale, 1.0) : 1.0;
    };
    const double columnNeeded = angle == 0                ? metrics.columnLabelWidth + pad
                                : angle == kStackedLabels ? metrics.stackedWidth + pad
                                : angle == 45             ? lineHeight * sqrt2
                                                          : lineHeight;
    rowLabelScale_ = scale(lineHeight, rowHeight_);
    // Across and leaning labels are chosen only where they fit at the label font.
    columnLabelScale_ = angle == 0 || angle == 45 ? 1.0 : scale(columnNeeded, cell_);
    rowLabelFont_ = scaledFont(labelFont_, rowLabelScale_);
    columnLabelFont_ = scaledFont(labelFont_, columnLabelScale_);
    stackedPitch_ = metrics.stackedWidth * columnLabelScale_;
    rowLabelStride_ =
        labelStride(lineHeight * rowLabelScale_, rowHeight_, rows_, metrics.rowTokens);
    columnLabelStride_ =
        labelStride(columnNeeded * columnLabelScale_, cell_, columns_, metrics.columnTokens);
}

QRectF HeatmapLayout::gridRect() const
{
    return QRectF(gridOrigin_, QSizeF(columns_ * cell_, rows_ * rowHeight_));
}

QRectF HeatmapLayout::cellRect(int row, int column) const
{
    return QRectF(gridOrigin_.x() + column * cell_, gridOrigin_.y() + row * rowHeight_, cell_,
                  rowHeight_);
}

std::optional<QPoint> HeatmapLayout::cellAt(const QPointF& pos) const
{
    if (cell_ <= 0 || rowHeight_ <= 0)
        return std::nullopt;
    const double column = std::floor((pos.x() - gridOrigin_.x()) / cell_);
    const double row = std::floor((pos.y() - gridOrigin_.y()) / rowHeight_);
    if (row < 0 || row >= rows_ || column < 0 || column >= columns_)
        return std::nullopt;
    return QPoint(static_cast<int>(row), static_cast<int>(column));
}

bool sameLayout(const HeatmapData& a, const HeatmapStyle& aStyle, const HeatmapData& b,
                const HeatmapStyle& bStyle)
{
    return sameLayout(a, QSize(a.columns(), a.rows()), aStyle, b, QSize(b.columns(), b.rows()),
                      bStyle);
}

bool sameLayout(const HeatmapData& a, QSize aCells, const HeatmapStyle& aStyle,
                const HeatmapData& b, QSize bCells, const HeatmapStyle& bStyle)
{
    // The margin sums are measured from the weights themselves.
    return !aStyle.marginSums && !bStyle.marginSums && aCells == bCells && a.title == b.title &&
           a.queryLabels == b.queryLabels && a.keyLabels == b.keyLabels &&
           aStyle.colorbar == bStyle.colorbar && aStyle.axisTitles == bStyle.axisTitles &&
           aStyle.maxCellSize == bStyle.maxCellSize && aStyle.labelFont == bStyle.labelFont &&
           (!aStyle.colorbar || (tickText(aStyle.vmin) == tickText(bStyle.vmin) &&
                                 tickText(aStyle.vmax) == tickText(bStyle.vmax)));
}

QSizeF preferredSize(const HeatmapData& data, const HeatmapStyle& style, double cellSize)
{
    return HeatmapLayout::forCellSize(data, style, cellSize).boundingRect().size();
}

bool HeatmapLayout::keepsLabelUpright(const QString& text, double textWidth) const
{
    if (columnLabelAngle_ == 0 || text.isEmpty() ||
        textWidth > std::min(columnLabelLineHeight(), columnLabelStride_ * cell_))
        return false;
    QTextBoundaryFinder graphemes(QTextBoundaryFinder::Grapheme, text);
    return graphemes.toNextBoundary() == text.size();
}

} // namespace attn::ui
