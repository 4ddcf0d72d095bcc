#include "heatmapsums.h"

#include "engine/statistics.h"

#include <QCoreApplication>
#include <QLineF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// What max(1, largest finite sum) is drawn as: the full bar. A strip whose sums are all 1
// or less thus keeps its reference line at the bar's end.
double barScale(const std::vector<double>& sums)
{
    double scale = 1;
    for (const double sum : sums)
        if (std::isfinite(sum))
            scale = std::max(scale, sum);
    return scale;
}

// A lighter red on a dark background (light text), as the formula bar's alert colour.
QColor alertColor(const HeatmapStyle& style)
{
    return style.textColor.lightness() > 128 ? QColor(0xff, 0x6e, 0x6e)
                                             : QColor::fromRgb(heatmapSumAlert);
}

// The part of `slot` that `sum` fills, growing from the cells' side: rightwards for row
// sums, downwards for column sums. Empty for NaN; a full slot for +inf.
QRectF bar(const QRectF& slot, double sum, double scale, Qt::Orientation orientation)
{
    if (std::isnan(sum))
        return {};
    const double share = std::clamp(sum / scale, 0.0, 1.0);
    if (orientation == Qt::Horizontal)
        return QRectF(slot.topLeft(), QSizeF(slot.width() * share, slot.height()));
    return QRectF(slot.topLeft(), QSizeF(slot.width(), slot.height() * share));
}

struct Strip {
    const std::vector<double>& sums;
    QRectF (HeatmapLayout::*slot)(int) const;
    QRectF (HeatmapLayout::*valueRect)(int) const;
    Qt::Orientation orientation;
};

// The bars of one strip: grey ones first, then red ones, so that a red bar stays visible
// where bars of tiny cells overlap; NaN as a red outline of the whole slot.
void paintBars(QPainter& painter, const HeatmapLayout& layout, const Strip& strip,
               const HeatmapStyle& style, double unit)
{
    const double scale = barScale(strip.sums);
    const auto count = static_cast<int>(strip.sums.size());
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (const bool alert : {false, true})
        for (int k = 0; k < count; ++k) {
            const double sum = strip.sums[std::size_t(k)];
            if (isUnitSum(sum) == alert)
                continue;
            const QRectF slot = (layout.*strip.slot)(k);
            const QColor colour = alert ? alertColor(style) : QColor::fromRgb(heatmapSumBar);
            if (std::isnan(sum)) {
                painter.setPen(QPen(colour, unit, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(slot.adjusted(unit / 2, unit / 2, -unit / 2, -unit / 2));
                continue;
            }
            painter.fillRect(bar(slot, sum, scale, strip.orientation), colour);
        }

    // The reference line at 1, across every bar of the strip.
    if (count == 0)
        return;
    const QRectF first = (layout.*strip.slot)(0);
    const QRectF last = (layout.*strip.slot)(count - 1);
    const double overhang = layout.lineHeight() / 8;
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(style.textColor, unit, Qt::SolidLine, Qt::FlatCap));
    if (strip.orientation == Qt::Horizontal) {
        const double x = first.left() + first.width() / scale;
        painter.drawLine(QLineF(x, first.top() - overhang, x, last.bottom() + overhang));
    } else {
        const double y = first.top() + first.height() / scale;
        painter.drawLine(QLineF(first.left() - overhang, y, last.right() + overhang, y));
    }
}

// The values: right-aligned beside the row bars, centred or standing under the column bars.
void paintValues(QPainter& painter, const HeatmapLayout& layout, const Strip& strip,
                 const HeatmapStyle& style)
{
    painter.setFont(layout.sumValueFont());
    const bool upright = strip.orientation == Qt::Vertical && layout.sumValueAngle() == 90;
    for (std::size_t k = 0; k < strip.sums.size(); ++k) {
        const double sum = strip.sums[k];
        painter.setPen(isUnitSum(sum) ? style.textColor : alertColor(style));
        const QRectF rect = (layout.*strip.valueRect)(static_cast<int>(k));
        if (strip.orientation == Qt::Horizontal) {
            painter.drawText(rect, Qt::AlignRight | Qt::AlignVCenter, marginSumText(sum));
        } else if (!upright) {
            painter.drawText(rect, Qt::AlignHCenter | Qt::AlignTop, marginSumText(sum));
        } else {
            // Read upwards, ending at the bar.
            painter.save();
            painter.translate(rect.bottomLeft());
            painter.rotate(-90);
            painter.drawText(QRectF(0, 0, rect.height(), rect.width()),
                             Qt::AlignRight | Qt::AlignVCenter, marginSumText(sum));
            painter.restore();
        }
    }
}

} // namespace

// Where HeatmapLayout put each bar and value; the strips themselves are placed with the
// rest of the layout.
double HeatmapLayout::sumBarThickness() const
{
    // Tiny cells: bars as thick as their row, so that a red one stays visible.
    return cell_ < 3 ? cell_ : std::min(0.6 * cell_, 0.6 * lineHeight_);
}

QRectF HeatmapLayout::rowSumBarSlot(int row) const
{
    const double thickness = sumBarThickness();
    return QRectF(rowSumArea_.left(), cellRect(row, 0).center().y() - thickness / 2, sumBarLength_,
                  thickness);
}

QRectF HeatmapLayout::columnSumBarSlot(int column) const
{
    const double thickness = sumBarThickness();
    return QRectF(cellRect(0, column).center().x() - thickness / 2, columnSumArea_.top(), thickness,
                  sumBarLength_);
}

QRectF HeatmapLayout::rowSumValueRect(int row) const
{
    const double left = rowSumArea_.left() + sumBarLength_ + lineHeight_ / 2;
    return QRectF(left, cellRect(row, 0).center().y() - sumValueHeight_ / 2,
                  rowSumArea_.right() - left, sumValueHeight_);
}

QRectF HeatmapLayout::columnSumValueRect(int column) const
{
    const QRectF cell = cellRect(0, column);
    const double top = columnSumArea_.top() + sumBarLength_ + lineHeight_ / 8;
    if (sumValueAngle_ == 90)
        return QRectF(cell.center().x() - sumValueHeight_ / 2, top, sumValueHeight_,
                      sumValueWidth_);
    return QRectF(cell.left(), top, cell.width(), columnSumArea_.bottom() - top);
}

bool isUnitSum(double sum)
{
    return std::abs(sum - 1.0) <= attn::kSumTolerance; // false for NaN
}

QString marginSumText(double sum)
{
    if (std::isnan(sum))
        return QCoreApplication::translate("Heatmap", "NaN", "not a number");
    if (std::isinf(sum))
        return sum > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
    const QLocale locale;
    const QString text = locale.toString(sum, 'f', 2);
    // 1.004 is not 1, so it must not read "1.00".
    if (!isUnitSum(sum) && text == locale.toString(1.0, 'f', 2))
        return locale.toString(sum, 'f', 3);
    return text;
}

QString rowSumTitle()
{
    return QCoreApplication::translate("Heatmap", "Σ row",
                                       "title of the bars showing each row's sum of weights");
}

QString columnSumTitle()
{
    return QCoreApplication::translate("Heatmap", "Σ column",
                                       "title of the bars showing each column's sum of weights");
}

void paintMarginSums(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style)
{
    if (layout.rowSumArea().isNull())
        return;
    const double unit = std::max(0.5, layout.lineHeight() / 14);
    const Strip rows{layout.rowSums(), &HeatmapLayout::rowSumBarSlot,
                     &HeatmapLayout::rowSumValueRect, Qt::Horizontal};
    const Strip columns{layout.columnSums(), &HeatmapLayout::columnSumBarSlot,
                        &HeatmapLayout::columnSumValueRect, Qt::Vertical};
    painter.save();
    // 1. The titles, in italics like the axis titles.
    QFont titleFont = layout.labelFont();
    titleFont.setItalic(true);
    painter.setFont(titleFont);
    painter.setPen(style.textColor);
    // Centred over the row sums' bars and values: clear of key labels leaning out at 45°.
    painter.drawText(layout.rowSumTitleRect(), Qt::AlignHCenter | Qt::AlignVCenter, rowSumTitle());
    painter.drawText(layout.columnSumTitleRect(), Qt::AlignRight | Qt::AlignVCenter,
                     columnSumTitle());
    // 2. The bars and their reference lines at 1.
    paintBars(painter, layout, rows, style, unit);
    paintBars(painter, layout, columns, style, unit);
    // 3. The values, when the cells leave room for them.
    if (layout.sumValueAngle() >= 0) {
        paintValues(painter, layout, rows, style);
        paintValues(painter, layout, columns, style);
    }
    painter.restore();
}

} // namespace attn::ui
