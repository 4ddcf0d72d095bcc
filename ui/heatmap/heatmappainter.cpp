#include "heatmappainter.h"

#include "heatmapcells.h"
#include "heatmapsums.h"
#include "heatmaptext.h"

#include <QFontMetricsF>
#include <QLineF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn::ui {
namespace {

using detail::columnAxisTitle;
using detail::drawLine;
using detail::LabelWidths;
using detail::lineUnit;
using detail::paintAnnotations;
using detail::paintCells;
using detail::paintHighlight;
using detail::rowAxisTitle;
using detail::sqrt2;
using detail::tickText;

} // namespace

QChar verticalForm(QChar c)
{
    // Unicode's Vertical Forms (FE10–FE19) and CJK Compatibility Forms (FE30–FE4F).
    static constexpr std::pair<char16_t, char16_t> kForms[] = {
        {u'，', u'︐'}, {u'、', u'︑'}, {u'。', u'︒'}, {u'：', u'︓'}, {u'；', u'︔'},
        {u'！', u'︕'}, {u'？', u'︖'}, {u'〖', u'︗'}, {u'〗', u'︘'}, {u'（', u'︵'},
        {u'）', u'︶'}, {u'｛', u'︷'}, {u'｝', u'︸'}, {u'〔', u'︹'}, {u'〕', u'︺'},
        {u'【', u'︻'}, {u'】', u'︼'}, {u'《', u'︽'}, {u'》', u'︾'}, {u'〈', u'︿'},
        {u'〉', u'﹀'}, {u'「', u'﹁'}, {u'」', u'﹂'}, {u'『', u'﹃'}, {u'』', u'﹄'},
        {u'［', u'﹇'}, {u'］', u'﹈'},
    };
    for (const auto& [horizontal, vertical] : kForms)
        if (c.unicode() == horizontal)
            return QChar(vertical);
    return c;
}

namespace {

// `centre` moved the least so that ±halfExtent around it stays within [low, high].
double clampedCentre(double centre, double low, double high, double halfExtent)
{
    const double least = low + halfExtent;
    return std::clamp(centre, least, std::max(least, high - halfExtent));
}

QFont labelFontFor(QFont font, bool highlighted)
{
    font.setBold(highlighted);
    return font;
}

// The highlighted row's or column's label where the stride skips it (the mouse or the arrow
// keys are on a cell of it): whether label k is then left out for overlapping it.
struct SkippedHighlight {
    int index = -1;  // the highlighted row or column, −1 when shown anyway or none
    double centre{}; // where its label goes
    double extent{}; // how near another label's centre may come
    [[nodiscard]] bool hides(int k, double centreOfK) const
    {
        return index >= 0 && k != index && std::abs(centreOfK - centre) < extent;
    }
};

void paintRowLabels(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style, TextCache* texts)
{
    const QRectF area = layout.rowLabelArea();
    const double lineHeight = layout.rowLabelLineHeight();
    const int stride = layout.rowLabelStride();
    LabelWidths boldWidths(labelFontFor(layout.rowLabelFont(), true), painter.device());
    // Labels taller than their row stay within the rows, clear of the axis title above.
    const auto centreOf = [&](int i) {
        return clampedCentre(layout.cellRect(i, 0).center().y(), area.top(), area.bottom(),
                             lineHeight / 2);
    };
    const auto draw = [&](int i) {
        const QFont font = labelFontFor(layout.rowLabelFont(), i == style.highlightRow);
        // Most labels fit as they are (measured bold, the wider): no eliding to work out.
        const QString label = data.queryLabel(i);
        const QString text = boldWidths(label) <= area.width()
                                 ? label
                                 : QFontMetricsF(font, painter.device())
                                       .elidedText(label, Qt::ElideRight, area.width());
        const double centre = centreOf(i);
        painter.setFont(font);
        drawLine(painter, texts,
                 QRectF(area.left(), centre - lineHeight / 2, area.width(), lineHeight),
                 Qt::AlignRight | Qt::AlignVCenter, text);
    };
    SkippedHighlight skipped;
    if (style.highlightRow >= 0 && style.highlightRow < data.rows() &&
        style.highlightRow % stride != 0)
        skipped = {style.highlightRow, centreOf(style.highlightRow), lineHeight};
    for (int i = 0; i < data.rows(); i += stride)
        if (!skipped.hides(i, centreOf(i)))
            draw(i);
    if (skipped.index >= 0)
        draw(skipped.index);
}

void paintColumnLabels(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                       const HeatmapStyle& style, TextCache* texts)
{
    const QRectF area = layout.columnLabelArea();
    const double lineHeight = layout.columnLabelLineHeight();
    const int angle = layout.columnLabelAngle();
    const int stride = layout.columnLabelStride();
    const double span = stride * layout.cellSize();
    const double pitch = layout.stackedPitch();
    // Read upwards from the column; at 45° the text's lower corner reaches h/(2√2) below
    // its anchor, so the anchor is raised by that much.
    const double drop = angle == 45 ? lineHeight / (2 * sqrt2) : 0;
    LabelWidths widths(labelFontFor(layout.columnLabelFont(), false), painter.device());
    LabelWidths boldWidths(labelFontFor(layout.columnLabelFont(), true), painter.device());
    const auto textOf = [&](int j, const QFont& font) {
        const QString label = data.keyLabel(j);
        return boldWidths(label) <= layout.labelElideWidth()
                   ? label
                   : QFontMetricsF(font, painter.device())
                         .elidedText(label, Qt::ElideRight, layout.labelElideWidth());
    };
    // Where label j's centre goes across the band, and how wide it is there.
    const auto place = [&](int j, const QString& text, bool highlighted) {
        const double column = layout.cellRect(0, j).center().x();
        if (angle == HeatmapLayout::kStackedLabels)
            return std::pair{clampedCentre(column, area.left(), area.right(), pitch / 2), pitch};
        const double width = highlighted ? boldWidths(text) : widths(text);
        if (angle == 0 || layout.keepsLabelUpright(text, width))
            return std::pair{clampedCentre(column, area.left(), area.right(), width / 2), width};
        return std::pair{
            clampedCentre(column, area.left(), area.right(), angle == 45 ? drop : lineHeight / 2),
            angle == 45 ? lineHeight * sqrt2 : lineHeight};
    };
    const auto draw = [&](int j) {
        const bool highlighted = j == style.highlightCol;
        const QFont font = labelFontFor(layout.columnLabelFont(), highlighted);
        const QString text = textOf(j, font);
        const double centre = place(j, text, highlighted).first;
        painter.setFont(font);
        if (angle == HeatmapLayout::kStackedLabels) {
            // A character a line, upright, the word's last just above the cells.
            // Kept inside the band, as the first and last columns' other labels are, where
            // columns are narrower than a character.
            const QString label = data.keyLabel(j);
            const qsizetype lines = label.size();
            for (qsizetype k = 0; k < lines; ++k) {
                const double middle = area.bottom() - (double(lines - k) - 0.5) * pitch;
                drawLine(painter, texts,
                         QRectF(centre - span / 2, middle - lineHeight / 2, span, lineHeight),
                         Qt::AlignCenter, QString(verticalForm(label[k])));
            }
            return;
        }
        if (angle == 0 ||
            layout.keepsLabelUpright(text, highlighted ? boldWidths(text) : widths(text))) {
            drawLine(painter, texts,
                     QRectF(centre - span / 2, area.bottom() - lineHeight, span, lineHeight),
                     Qt::AlignCenter, text);
            return;
        }
        painter.save();
        painter.translate(centre, area.bottom() - drop);
        painter.rotate(-angle);
        drawLine(painter, texts, QRectF(0, -lineHeight / 2, layout.labelElideWidth(), lineHeight),
                 Qt::AlignLeft | Qt::AlignVCenter, text);
        painter.restore();
    };
    SkippedHighlight skipped;
    const int hovered = style.highlightCol;
    if (hovered >= 0 && hovered < data.columns() && hovered % stride != 0) {
        const auto [centre, extent] =
            place(hovered, textOf(hovered, labelFontFor(layout.columnLabelFont(), true)), true);
        skipped = {hovered, centre, extent};
    }
    for (int j = 0; j < data.columns(); j += stride) {
        if (skipped.index >= 0 &&
            skipped.hides(j, place(j, textOf(j, layout.columnLabelFont()), false).first))
            continue;
        draw(j);
    }
    if (skipped.index >= 0)
        draw(skipped.index);
}

void paintTitles(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                 TextCache* texts)
{
    if (!layout.titleRect().isEmpty()) {
        painter.setFont(layout.titleFont());
        const QString title =
            QFontMetricsF(layout.titleFont(), painter.device())
                .elidedText(data.title, Qt::ElideRight, layout.titleRect().width());
        drawLine(painter, texts, layout.titleRect(), Qt::AlignCenter, title);
    }
    if (!layout.rowAxisTitleRect().isEmpty()) {
        QFont font = layout.labelFont();
        font.setItalic(true);
        painter.setFont(font);
        drawLine(painter, texts, layout.rowAxisTitleRect(), Qt::AlignRight | Qt::AlignVCenter,
                 rowAxisTitle());
        drawLine(painter, texts, layout.columnAxisTitleRect(), Qt::AlignLeft | Qt::AlignVCenter,
                 columnAxisTitle());
    }
}

// 256 bands from vmin at the bottom to vmax at the top, framed, with two ticks.
void paintColorbar(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style,
                   TextCache* texts)
{
    const QRectF bar = layout.colorbarRect();
    if (bar.isEmpty())
        return;
    const Colormap colormap(style.colormap);
    const double band = bar.height() / Colormap::size;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int k = 0; k < Colormap::size; ++k) {
        const double overlap = k + 1 < Colormap::size ? band / 2 : 0;
        painter.fillRect(QRectF(bar.left(), bar.bottom() - (k + 1) * band - overlap, bar.width(),
                                band + overlap),
                         QColor::fromRgb(colormap.entry(k)));
    }
    const double unit = lineUnit(layout);
    const double tick = layout.lineHeight() / 4;
    painter.setPen(QPen(style.textColor, unit, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);
    painter.drawLine(QLineF(bar.right(), bar.top(), bar.right() + tick, bar.top()));
    painter.drawLine(QLineF(bar.right(), bar.bottom(), bar.right() + tick, bar.bottom()));
    // On a logarithmic scale a shorter tick at each power of ten between the ends, so
    // that the equal steps of the decades show.
    if (style.logScale && style.vmin > 0 && style.vmax > style.vmin) {
        const double low = std::log10(style.vmin), high = std::log10(style.vmax);
        for (double decade = std::floor(low) + 1; decade < high; ++decade) {
            const double y = bar.bottom() - (decade - low) / (high - low) * bar.height();
            painter.drawLine(QLineF(bar.right(), y, bar.right() + tick / 2, y));
        }
    }
    painter.setFont(layout.labelFont());
    drawLine(painter, texts, layout.colorbarMaxLabelRect(), Qt::AlignLeft | Qt::AlignTop,
             tickText(style.vmax));
    drawLine(painter, texts, layout.colorbarMinLabelRect(), Qt::AlignLeft | Qt::AlignBottom,
             tickText(style.vmin));
    painter.restore();
}

} // namespace

double fullValueCell(const QFont& labelFont, const QPaintDevice* device)
{
    // The widest value printed (a signed one of a step's matrix) in 85 % of the cell's
    // width, and a line in its height.
    const QFontMetricsF metrics = detail::fontMetrics(labelFont, device);
    return std::max(metrics.horizontalAdvance(QLocale().toString(-0.99, 'f', 2)) / 0.85,
                    1.2 * metrics.height());
}

double minimumValueCell(const QFont& labelFont, const QPaintDevice* device)
{
    return kMinValueScale * fullValueCell(labelFont, device);
}

void paintHeatmap(QPainter& painter, const QRectF& target, const HeatmapData& data,
                  const HeatmapStyle& style)
{
    paintHeatmap(painter, HeatmapLayout(target, data, style, painter.device()), data, style);
}

void paintHeatmap(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                  const HeatmapStyle& style, CellImageCache* cache, TextCache* texts)
{
    Q_ASSERT(data.masked.size() == 0 || (data.masked.rows() == data.weights.rows() &&
                                         data.masked.cols() == data.weights.cols()));
    painter.save();
    painter.setPen(style.textColor);
    paintTitles(painter, layout, data, texts);
    if (layout.rows() > 0 && layout.columns() > 0 && layout.cellSize() > 0) {
        paintCells(painter, layout, data, style, cache);
        paintAnnotations(painter, layout, data, style, texts);
        paintHighlight(painter, layout, style);
        painter.setPen(style.textColor);
        paintRowLabels(painter, layout, data, style, texts);
        paintColumnLabels(painter, layout, data, style, texts);
        paintColorbar(painter, layout, style, texts);
        paintMarginSums(painter, layout, style);
    }
    painter.restore();
}

} // namespace attn::ui
