#include "heatmappainter.h"

#include "heatmapsums.h"
#include "parallel.h"
#include "statistics.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QHash>
#include <QImage>
#include <QLineF>
#include <QLocale>
#include <QMutex>
#include <QPaintEngine>
#include <QPainter>
#include <QTextBoundaryFinder>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <vector>

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

QString rowAxisTitle()
{
    return QCoreApplication::translate("Heatmap", "query ↓", "axis title: rows are query tokens");
}

QString columnAxisTitle()
{
    return QCoreApplication::translate("Heatmap", "key →", "axis title: columns are key tokens");
}

QString tickText(double value)
{
    return QLocale().toString(value, 'g', 3);
}

double widest(const QFontMetricsF& metrics, const QStringList& texts)
{
    double width = 0;
    for (const QString& text : texts)
        width = std::max(width, metrics.horizontalAdvance(text));
    return width;
}

QFontMetricsF fontMetrics(const QFont& font, const QPaintDevice* device)
{
    return device ? QFontMetricsF(font, device) : QFontMetricsF(font);
}

// The widths of token labels in one font on one kind of device, remembered: every head of
// a sentence has the same labels, and a switch of the formula lays every heatmap out again
// (shaping 2 × 512 labels for each of 13 heatmaps took longer than computing them).
class LabelWidths {
public:
    LabelWidths(const QFont& font, const QPaintDevice* device)
        : metrics_(fontMetrics(font, device)),
          key_(font.key() + QLatin1Char('@') + QString::number(device ? device->logicalDpiX() : 0) +
               QLatin1Char('x') + QString::number(device ? device->logicalDpiY() : 0))
    {}

    [[nodiscard]] double operator()(const QString& text)
    {
        if (!widths_) {
            const QMutexLocker lock(&mutex());
            widths_ = &cache()[key_];
        }
        {
            const QMutexLocker lock(&mutex());
            if (const auto it = widths_->constFind(text); it != widths_->constEnd())
                return *it;
        }
        const double width = metrics_.horizontalAdvance(text);
        const QMutexLocker lock(&mutex());
        if (widths_->size() > 200000) // a bound for a long session of long sentences
            widths_->clear();
        widths_->insert(text, width);
        return width;
    }

private:
    static QMutex& mutex()
    {
        static QMutex m;
        return m;
    }
    // One table per font and device; a table's address stays while the hash grows.
    static std::map<QString, QHash<QString, double>>& cache()
    {
        static std::map<QString, QHash<QString, double>> tables;
        return tables;
    }

    QFontMetricsF metrics_;
    QString key_;
    QHash<QString, double>* widths_ = nullptr;
};

QStringList labels(int count, QString (HeatmapData::*label)(int) const, const HeatmapData& data)
{
    QStringList result;
    result.reserve(count);
    for (int k = 0; k < count; ++k)
        result.append((data.*label)(k));
    return result;
}

constexpr double sqrt2 = std::numbers::sqrt2;

} // namespace

QString HeatmapData::queryLabel(int row) const
{
    return row < queryLabels.size() ? visibleToken(queryLabels.at(row)) : QString::number(row);
}

QString HeatmapData::keyLabel(int column) const
{
    return column < keyLabels.size() ? visibleToken(keyLabels.at(column)) : QString::number(column);
}

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
    double rowAxisTitleWidth = 0;
    double tickLabelWidth = 0;
    double elideWidth = 0;
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
            std::optional<double> smallerTargetSide)
        : labelFont(style.labelFont), titleFont(style.labelFont)
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
        for (const QString& query : labels(data.rows(), &HeatmapData::queryLabel, data))
            rowLabelWidth = std::max(rowLabelWidth, std::min(elideWidth, bold(query)));
        for (const QString& key : labels(data.columns(), &HeatmapData::keyLabel, data))
            columnLabelWidths.push_back(std::min(elideWidth, bold(key)));
        columnLabelWidth = columnLabelWidths.empty() ? 0 : std::ranges::max(columnLabelWidths);
        if (style.axisTitles)
            rowAxisTitleWidth = label.horizontalAdvance(rowAxisTitle());
        if (style.colorbar)
            tickLabelWidth = widest(label, {tickText(style.vmin), tickText(style.vmax)});
        if (style.marginSums)
            measureSums(data, device);
    }

    void measureSums(const HeatmapData& data, const QPaintDevice* device)
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

    // The longest bar of the margin sums.
    [[nodiscard]] double sumBarLength() const { return 2.2 * lineHeight; }

    // Width of the strip right of the cells; it holds the row sums' title below it too.
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
            const double reach = (columnLabelWidths[j] + lineHeight / 2) / sqrt2;
            overhang = std::max(overhang, reach - (columns - static_cast<double>(j) - 0.5) * cell);
        }
        return overhang;
    }

    // Height of the band above the cells that holds the key labels at `angle` degrees.
    [[nodiscard]] double columnLabelBand(int angle) const
    {
        switch (angle) {
        case 0:
            return lineHeight;
        case 45:
            return (columnLabelWidth + lineHeight) / sqrt2;
        default:
            return columnLabelWidth;
        }
    }
};

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
        place(metrics, target, margins(metrics, 0, -1, 0), 0, -1);
        return;
    }
    // Prefer labels across the columns, then at 45°, then upright; each costs more height.
    // Within each, the sums' values prefer lying across, then upright, then none.
    const auto fittingCell = [&](const Margins& around) {
        const double width = target.width() - around.left - around.right;
        const double height = target.height() - around.top - around.bottom;
        return std::max(0.0, std::min(width / columns_, height / rows_));
    };
    const QVarLengthArray<int, 3> sumAngles =
        hasSums_ ? QVarLengthArray<int, 3>{0, 90, -1} : QVarLengthArray<int, 3>{-1};
    for (const int angle : {0, 45, 90}) {
        for (const int sumAngle : sumAngles) {
            Margins around = margins(metrics, angle, sumAngle, 0);
            cell_ = fittingCell(around);
            if (angle == 45) { // larger cells let the labels lean out less: refine once
                around = margins(metrics, angle, sumAngle, cell_);
                cell_ = fittingCell(around);
            }
            if (!metrics.sumValuesFit(sumAngle, cell_))
                continue;
            if (angle == 90 || columnLabelsFit(metrics, angle, cell_)) {
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
    const Metrics metrics(data, style, device, std::nullopt);
    HeatmapLayout layout(metrics, data, style);
    layout.cell_ = cellSize;
    int angle = 90;
    for (const int candidate : {0, 45})
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
                        around.top + layout.rows_ * cellSize + around.bottom);
    layout.place(metrics, target, around, angle, sumAngle);
    return layout;
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
    around.top = pad + (hasTitle_ ? metrics.titleHeight + pad : 0) +
                 (hasAxisTitles_ ? metrics.lineHeight : 0) + metrics.columnLabelBand(angle) + pad;
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
    const double gridHeight = rows_ * cell_;
    const QSizeF whole(around.left + gridWidth + around.right,
                       around.top + gridHeight + around.bottom);
    // The figure is centred in the target; the cells are square.
    const QPointF corner(target.left() + (target.width() - whole.width()) / 2,
                         target.top() + (target.height() - whole.height()) / 2);
    bounds_ = QRectF(corner, whole);
    gridOrigin_ = corner + QPointF(around.left, around.top);
    columnLabelAngle_ = angle;

    titleRect_ = hasTitle_ ? QRectF(corner.x() + pad, corner.y() + pad, whole.width() - 2 * pad,
                                    metrics.titleHeight)
                           : QRectF();
    const double band = metrics.columnLabelBand(angle);
    columnLabelArea_ = QRectF(gridOrigin_.x(), gridOrigin_.y() - pad - band, gridWidth, band);
    rowLabelArea_ = QRectF(corner.x() + pad, gridOrigin_.y(),
                           gridOrigin_.x() - pad - (corner.x() + pad), gridHeight);
    if (hasAxisTitles_) {
        columnAxisTitleRect_ = QRectF(gridOrigin_.x(), columnLabelArea_.top() - lineHeight,
                                      gridWidth + around.right - pad, lineHeight);
        rowAxisTitleRect_ = QRectF(rowLabelArea_.left(), columnLabelArea_.bottom() - lineHeight,
                                   rowLabelArea_.width(), lineHeight);
    }
    // The sums beside the cells, each strip's title at the start of the bottom strip's bars.
    double stripsRight = gridOrigin_.x() + gridWidth;
    if (hasSums_) {
        sumValueAngle_ = sumAngle;
        rowSumArea_ = QRectF(stripsRight + pad, gridOrigin_.y(), metrics.rowSumStripWidth(sumAngle),
                             gridHeight);
        columnSumArea_ = QRectF(gridOrigin_.x(), gridOrigin_.y() + gridHeight + pad, gridWidth,
                                metrics.columnSumStripHeight(sumAngle));
        const double titleTop = columnSumArea_.top() + (sumBarLength_ - lineHeight) / 2;
        rowSumTitleRect_ = QRectF(rowSumArea_.left(), titleTop, rowSumArea_.width(), lineHeight);
        columnSumTitleRect_ =
            QRectF(rowLabelArea_.left(), titleTop, rowLabelArea_.width(), lineHeight);
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

    // Show every n-th label when the cells are too small for all of them, n = 1, 2, 5, 10, 20…
    // Then the first label is pushed inside the cells' edge, hence the half label more room.
    const auto stride = [this](double needed) {
        const int count = std::max({1, rows_, columns_});
        if (cell_ <= 0)
            return count;
        double least = needed / cell_ - 1e-9;
        if (least > 1)
            least *= 1.5;
        for (int decade = 1; decade < count; decade *= 10)
            for (const int step : {decade, 2 * decade, 5 * decade})
                if (step >= least)
                    return step;
        return count;
    };
    rowLabelStride_ = stride(lineHeight);
    columnLabelStride_ = stride(angle == 0    ? metrics.columnLabelWidth + pad
                                : angle == 45 ? lineHeight * sqrt2
                                              : lineHeight);
}

QRectF HeatmapLayout::gridRect() const
{
    return QRectF(gridOrigin_, QSizeF(columns_ * cell_, rows_ * cell_));
}

QRectF HeatmapLayout::cellRect(int row, int column) const
{
    return QRectF(gridOrigin_.x() + column * cell_, gridOrigin_.y() + row * cell_, cell_, cell_);
}

std::optional<QPoint> HeatmapLayout::cellAt(const QPointF& pos) const
{
    if (cell_ <= 0)
        return std::nullopt;
    const double column = std::floor((pos.x() - gridOrigin_.x()) / cell_);
    const double row = std::floor((pos.y() - gridOrigin_.y()) / cell_);
    if (row < 0 || row >= rows_ || column < 0 || column >= columns_)
        return std::nullopt;
    return QPoint(static_cast<int>(row), static_cast<int>(column));
}

bool sameLayout(const HeatmapData& a, const HeatmapStyle& aStyle, const HeatmapData& b,
                const HeatmapStyle& bStyle)
{
    // The margin sums are measured from the weights themselves.
    return !aStyle.marginSums && !bStyle.marginSums && a.rows() == b.rows() &&
           a.columns() == b.columns() && a.title == b.title && a.queryLabels == b.queryLabels &&
           a.keyLabels == b.keyLabels && aStyle.colorbar == bStyle.colorbar &&
           aStyle.axisTitles == bStyle.axisTitles && aStyle.labelFont == bStyle.labelFont &&
           (!aStyle.colorbar || (tickText(aStyle.vmin) == tickText(bStyle.vmin) &&
                                 tickText(aStyle.vmax) == tickText(bStyle.vmax)));
}

QSizeF preferredSize(const HeatmapData& data, const HeatmapStyle& style, double cellSize)
{
    return HeatmapLayout::forCellSize(data, style, cellSize).boundingRect().size();
}

namespace {

enum class CellKind { Value, Masked, NaN, PlusInf, MinusInf };

CellKind cellKind(const HeatmapData& data, int row, int column)
{
    const float weight = data.weights(row, column);
    if (std::isnan(weight))
        return CellKind::NaN;
    if (std::isinf(weight))
        return weight > 0 ? CellKind::PlusInf : CellKind::MinusInf;
    return data.isMasked(row, column) ? CellKind::Masked : CellKind::Value;
}

// Where `value` sits between vmin and vmax; a degenerate range maps to the middle.
double normalized(double value, const HeatmapStyle& style)
{
    const double span = style.vmax - style.vmin;
    return span > 0 ? (value - style.vmin) / span : 0.5;
}

QRgb cellColor(CellKind kind, float weight, const Colormap& colormap, const HeatmapStyle& style)
{
    switch (kind) {
    case CellKind::Value:
        return colormap.color(normalized(weight, style));
    case CellKind::Masked:
        return heatmapMaskedFill;
    default:
        return heatmapInvalidFill;
    }
}

bool isVectorDevice(const QPainter& painter)
{
    const QPaintEngine* engine = painter.paintEngine();
    if (!engine)
        return false;
    const auto type = engine->type();
    return type == QPaintEngine::SVG || type == QPaintEngine::Pdf || type == QPaintEngine::Picture;
}

} // namespace

bool HeatmapLayout::keepsLabelUpright(const QString& text, double textWidth) const
{
    if (columnLabelAngle_ == 0 || text.isEmpty() ||
        textWidth > std::min(lineHeight_, columnLabelStride_ * cell_))
        return false;
    QTextBoundaryFinder graphemes(QTextBoundaryFinder::Grapheme, text);
    return graphemes.toNextBoundary() == text.size();
}

QImage cellImage(const HeatmapData& data, const HeatmapStyle& style, QSize maxSize, QImage reuse)
{
    // weights (T_q, T_k) → image (min(T_q, height), min(T_k, width)).
    const int rows = data.rows(), columns = data.columns();
    const int height = maxSize.height() > 0 ? std::min(rows, maxSize.height()) : rows;
    const int width = maxSize.width() > 0 ? std::min(columns, maxSize.width()) : columns;
    QImage image = reuse.size() == QSize(width, height) && reuse.format() == QImage::Format_RGB32
                       ? std::move(reuse)
                       : QImage(width, height, QImage::Format_RGB32);
    if (rows == 0 || columns == 0)
        return image;

    // 1. The colormap's bins, as Colormap::color bins them, without a call per cell.
    const Colormap colormap(style.colormap);
    const auto lut = colormap.entries();
    const double span = style.vmax - style.vmin;
    const float toBin = span > 0 ? float(Colormap::size / span) : 0.0f;
    const float vmin = float(style.vmin);
    const int middle = span > 0 ? 0 : Colormap::size / 2;
    auto valueColor = [&](float weight) {
        const float bin = (weight - vmin) * toBin;
        return lut[std::size_t(std::clamp(int(bin) + middle, 0, Colormap::size - 1))];
    };
    const bool hasMask = data.masked.size() != 0;
    // The image's lines in bands, one band per item of parallelFor: a large head fills
    // both cores, a small one stays on this thread (a thread costs more than its pixels).
    uchar* const bits = image.bits(); // detaches once, here, not in every worker
    const qsizetype bytesPerLine = image.bytesPerLine();
    auto lineOf = [&](int y) { return reinterpret_cast<QRgb*>(bits + y * bytesPerLine); };
    const qint64 cells = qint64(rows) * columns;
    const int bands = cells < (1 << 16) ? 1 : std::min(height, 16);
    auto inBands = [&](auto&& fillLines) {
        attn::parallelFor(bands, [&](int band) {
            fillLines(int(qint64(height) * band / bands), int(qint64(height) * (band + 1) / bands));
        });
    };

    // 2. One pixel per cell: the common case, kept to one branch-light pass per row.
    if (height == rows && width == columns) {
        inBands([&](int firstRow, int endRow) {
            for (int i = firstRow; i < endRow; ++i) {
                const float* weights = data.weights.data() + qsizetype(i) * columns;
                const bool* masked =
                    hasMask ? data.masked.data() + qsizetype(i) * columns : nullptr;
                QRgb* line = lineOf(i);
                for (int j = 0; j < columns; ++j) {
                    const float w = weights[j];
                    line[j] = !std::isfinite(w)       ? heatmapInvalidFill
                              : (masked && masked[j]) ? heatmapMaskedFill
                                                      : valueColor(w);
                }
            }
        });
        return image;
    }

    // 3. Each pixel shows its block of cells: NaN or ±inf if any cell is, else the
    // largest unmasked weight (peaks stay visible when zoomed out), else masked.
    std::vector<int> firstColumn(std::size_t(width) + 1);
    for (int x = 0; x <= width; ++x)
        firstColumn[std::size_t(x)] = int(qint64(x) * columns / width);
    constexpr float kNone = -std::numeric_limits<float>::infinity();
    const float kInvalid = std::numeric_limits<float>::quiet_NaN();
    auto pixelOf = [&](float max, bool invalid) {
        return invalid ? heatmapInvalidFill : max == kNone ? heatmapMaskedFill : valueColor(max);
    };

    // 3a. Under twice as many cells as pixels each way (512 tokens on 456 pixels), a block
    // is at most 2 × 2 cells: its first and last row and column, read without a loop whose
    // length changes from pixel to pixel (those branches cost more than the cells).
    if (rows < 2 * height && columns < 2 * width) {
        const float* const weights = data.weights.data();
        const bool* const masks = data.masked.data();
        // A cell as its block sees it: −inf when masked, else its weight; plus w − w, which
        // is 0 for a finite w and NaN otherwise, so that NaN marks a cell that is not finite.
        auto blocks = [&](auto masked, int firstLine, int endLine) {
            auto shown = [&](qsizetype k) {
                const float w = weights[k];
                return ((masked && masks[k]) ? kNone : w) + (w - w);
            };
            for (int y = firstLine; y < endLine; ++y) {
                const qsizetype top = qsizetype(qint64(y) * rows / height) * columns;
                const qsizetype bottom = qsizetype(qint64(y + 1) * rows / height - 1) * columns;
                QRgb* line = lineOf(y);
                for (int x = 0; x < width; ++x) {
                    const int left = firstColumn[std::size_t(x)];
                    const int right = firstColumn[std::size_t(x) + 1] - 1;
                    const float a = shown(top + left), b = shown(top + right);
                    const float c = shown(bottom + left), d = shown(bottom + right);
                    const bool invalid = (a != a) | (b != b) | (c != c) | (d != d);
                    line[x] = pixelOf(std::max(std::max(a, b), std::max(c, d)), invalid);
                }
            }
        };
        inBands([&](int firstLine, int endLine) {
            if (hasMask)
                blocks(std::true_type(), firstLine, endLine);
            else
                blocks(std::false_type(), firstLine, endLine);
        });
        return image;
    }

    // 3b. Larger blocks: their rows are folded first, column by column in one straight
    // pass per row (each cell read once, in memory order); then each pixel folds its run
    // of columns. A column's fold is NaN when any of its cells is not finite, −inf when
    // all are masked.
    inBands([&](int firstLine, int endLine) {
        std::vector<float> folded(static_cast<std::size_t>(columns));
        for (int y = firstLine; y < endLine; ++y) {
            const int i0 = int(qint64(y) * rows / height), i1 = int(qint64(y + 1) * rows / height);
            std::fill(folded.begin(), folded.end(), kNone);
            for (int i = i0; i < i1; ++i) {
                const float* weights = data.weights.data() + qsizetype(i) * columns;
                const bool* masked =
                    hasMask ? data.masked.data() + qsizetype(i) * columns : nullptr;
                // Branch-free, so that it vectorises: w − w is 0 only for a finite w, and a
                // NaN fold is the only value unequal to itself.
                float* f = folded.data();
                auto fold = [&](int j, float shown) {
                    const float w = weights[j], fj = f[j];
                    const bool invalid = (w - w != 0.0f) | (fj != fj);
                    const float larger = shown > fj ? shown : fj;
                    f[j] = invalid ? kInvalid : larger;
                };
                if (masked)
                    for (int j = 0; j < columns; ++j)
                        fold(j, masked[j] ? kNone : weights[j]);
                else
                    for (int j = 0; j < columns; ++j)
                        fold(j, weights[j]);
            }
            QRgb* line = lineOf(y);
            for (int x = 0; x < width; ++x) {
                float max = kNone;
                bool invalid = false;
                for (int j = firstColumn[std::size_t(x)]; j < firstColumn[std::size_t(x) + 1];
                     ++j) {
                    const float f = folded[std::size_t(j)];
                    invalid = invalid || std::isnan(f);
                    max = std::max(max, f);
                }
                line[x] = pixelOf(max, invalid);
            }
        }
    });
    return image;
}

namespace {

// A pen width that scales with the text, so that exports at high resolution keep proportions.
double lineUnit(const HeatmapLayout& layout)
{
    return std::max(0.5, layout.lineHeight() / 14);
}

// The cell image over the grid: scaled without smoothing, or, when it already has the
// grid's size in device pixels (level of detail) on an untransformed painter, copied
// pixel for pixel at the grid's corner rounded to a pixel (a scaled draw costs more
// than making the image).
void drawCellImage(QPainter& painter, const HeatmapLayout& layout, const QImage& image,
                   QSize pixels)
{
    const QRectF grid = layout.gridRect();
    if (image.size() == pixels && painter.transform().type() <= QTransform::TxTranslate &&
        painter.device()->devicePixelRatioF() == 1.0) {
        painter.drawImage(QPointF(std::round(grid.left()), std::round(grid.top())), image);
        return;
    }
    painter.drawImage(grid, image);
}

// Cells too small to draw one by one: at most one image pixel per device pixel, the
// image scaled without smoothing.
void paintCellImage(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style, CellImageCache* cache)
{
    const QSize pixels =
        painter.deviceTransform().mapRect(layout.gridRect()).size().toSize().expandedTo({1, 1});
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    if (!cache) {
        drawCellImage(painter, layout, cellImage(data, style, pixels), pixels);
        return;
    }
    const bool current = !cache->stale && !cache->image.isNull() && cache->pixels == pixels &&
                         cache->weights == data.weights.data() &&
                         cache->masked == data.masked.data() && cache->colormap == style.colormap &&
                         cache->vmin == style.vmin && cache->vmax == style.vmax;
    if (!current) {
        cache->image = cellImage(data, style, pixels, std::move(cache->image));
        cache->stale = false;
        cache->pixels = pixels;
        cache->weights = data.weights.data();
        cache->masked = data.masked.data();
        cache->colormap = style.colormap;
        cache->vmin = style.vmin;
        cache->vmax = style.vmax;
        ++cache->renders;
    }
    drawCellImage(painter, layout, cache->image, pixels);
}

// Diagonal hatch lines x + y = c (c a multiple of `step` from the grid's corner) inside one
// cell or a run of cells; the common phase makes the hatch run on across neighbouring
// masked cells.
void appendHatch(QList<QLineF>& lines, const QRectF& cells, const QPointF& origin, double step)
{
    const double width = cells.width(), height = cells.height();
    const double a = cells.left() - origin.x();
    const double b = cells.top() - origin.y();
    for (double c = std::floor((a + b) / step + 1) * step; c < a + b + width + height; c += step) {
        const double u = c - (a + b); // 0 < u < width + height: the line x + y = u from the corner
        // It enters through the left or bottom edge and leaves through the top or right one.
        const QPointF from = u <= height ? QPointF(cells.left(), cells.top() + u)
                                         : QPointF(cells.left() + u - height, cells.bottom());
        const QPointF to = u <= width ? QPointF(cells.left() + u, cells.top())
                                      : QPointF(cells.right(), cells.top() + u - width);
        lines.append(QLineF(from, to));
    }
}

// × for NaN, + for +inf, − for −inf.
void appendInvalidMark(QList<QLineF>& lines, CellKind kind, const QRectF& cell)
{
    const QRectF mark =
        cell.adjusted(cell.width() / 5, cell.height() / 5, -cell.width() / 5, -cell.height() / 5);
    const QPointF centre = cell.center();
    if (kind == CellKind::NaN) {
        lines.append(QLineF(mark.topLeft(), mark.bottomRight()));
        lines.append(QLineF(mark.bottomLeft(), mark.topRight()));
        return;
    }
    lines.append(QLineF(mark.left(), centre.y(), mark.right(), centre.y()));
    if (kind == CellKind::PlusInf)
        lines.append(QLineF(centre.x(), mark.top(), centre.x(), mark.bottom()));
}

// The rows [top, bottom) and columns [left, right) of the cells that meet the painter's
// clip, or all of them without one. A zoomed head dialog is far larger than the part
// that shows (3000 tokens at 32 px make 96 000 px a side): painting only what meets the
// exposed rectangle keeps every repaint as cheap as one screenful.
struct CellRange {
    int top, bottom, left, right;
};

CellRange cellsToPaint(const QPainter& painter, const HeatmapLayout& layout)
{
    CellRange all{0, layout.rows(), 0, layout.columns()};
    if (!painter.hasClipping() || layout.cellSize() <= 0)
        return all;
    const QRectF clip = painter.clipBoundingRect().intersected(layout.gridRect());
    if (clip.isEmpty())
        return {0, 0, 0, 0};
    const QPointF origin = layout.gridRect().topLeft();
    const double cell = layout.cellSize();
    auto first = [cell](double offset, int count) {
        return std::clamp(static_cast<int>(std::floor(offset / cell)), 0, count);
    };
    auto end = [cell](double offset, int count) {
        return std::clamp(static_cast<int>(std::ceil(offset / cell)), 0, count);
    };
    return {first(clip.top() - origin.y(), all.bottom), end(clip.bottom() - origin.y(), all.bottom),
            first(clip.left() - origin.x(), all.right), end(clip.right() - origin.x(), all.right)};
}

void paintCellRects(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style, bool vector)
{
    const Colormap colormap(style.colormap);
    const double cell = layout.cellSize();
    // Vector viewers anti-alias each rectangle's edges; a small overlap hides the hairlines.
    const double overlap = vector ? cell / 50 : 0;
    const double unit = lineUnit(layout);
    const double hatchStep = layout.lineHeight() * 0.3 * sqrt2;
    const bool marks = cell >= 6 * unit;
    QList<QLineF> hatch;
    QList<QLineF> invalid;

    const CellRange cells = cellsToPaint(painter, layout);
    painter.setRenderHint(QPainter::Antialiasing, false);
    for (int i = cells.top; i < cells.bottom; ++i) {
        for (int j = cells.left; j < cells.right; ++j) {
            const CellKind kind = cellKind(data, i, j);
            const QRectF rect = layout.cellRect(i, j);
            const QRectF filled = rect.adjusted(0, 0, j + 1 < data.columns() ? overlap : 0,
                                                i + 1 < data.rows() ? overlap : 0);
            painter.fillRect(filled,
                             QColor::fromRgb(cellColor(kind, data.weights(i, j), colormap, style)));
            if (kind == CellKind::Masked)
                appendHatch(hatch, rect, layout.gridRect().topLeft(), hatchStep);
            else if (kind != CellKind::Value && marks)
                appendInvalidMark(invalid, kind, rect);
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(QColor::fromRgb(heatmapMaskedHatch), unit, Qt::SolidLine, Qt::FlatCap));
    painter.drawLines(hatch);
    painter.setPen(
        QPen(QColor::fromRgb(heatmapInvalidMark), 1.5 * unit, Qt::SolidLine, Qt::RoundCap));
    painter.drawLines(invalid);
}

// Cells of a few device pixels or more on a raster target look as paintCellRects draws
// them, in a handful of calls instead of one fillRect per cell (16 000 for each head at
// T = 128, most of a switch's time): the colours as the cell image scaled up without
// smoothing, the hatch as one lattice of lines clipped to the masked cells' runs, and the
// marks of the few NaN and ±inf cells.
// The hatch of masked cells as a tile of one period: x + y ≡ 0 (mod period), so that tiles
// side by side make the lines of appendHatch, anti-aliased alike.
QImage hatchTile(int period, double width)
{
    QImage tile(period, period, QImage::Format_ARGB32_Premultiplied);
    tile.fill(Qt::transparent);
    QPainter painter(&tile);
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(QColor::fromRgb(heatmapMaskedHatch), width, Qt::SolidLine, Qt::FlatCap));
    for (int c = 0; c <= 2 * period; c += period) // the line through the tile and its wraps
        painter.drawLine(QLineF(c + 1.0, -1.0, -1.0, c + 1.0));
    return tile;
}

void paintRasterCells(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                      const HeatmapStyle& style, CellImageCache* cache)
{
    paintCellImage(painter, layout, data, style, cache);
    const CellRange cells = cellsToPaint(painter, layout);
    const double unit = lineUnit(layout);
    const bool marks = layout.cellSize() >= 6 * unit;
    const QPointF origin = layout.gridRect().topLeft();
    const double step = layout.lineHeight() * 0.3 * sqrt2;
    // On a painter that only moves (a widget, an image at its own size) the hatch is a
    // tiled brush over each run, one fill instead of a line per period; otherwise lines.
    const bool tiled = painter.transform().type() <= QTransform::TxTranslate &&
                       painter.device()->devicePixelRatioF() == 1.0;
    QList<QRectF> runs;
    QList<QLineF> hatch;
    QList<QLineF> invalid;
    for (int i = cells.top; i < cells.bottom; ++i) {
        const float* weights = data.weights.data() + qsizetype(i) * data.columns();
        for (int j = cells.left; j < cells.right;) {
            if (!std::isfinite(weights[j])) {
                if (marks)
                    appendInvalidMark(invalid, cellKind(data, i, j), layout.cellRect(i, j));
                ++j;
                continue;
            }
            if (!data.isMasked(i, j)) {
                ++j;
                continue;
            }
            // A run of cells drawn masked (masked, with a finite weight): one stretch of the
            // hatch, whose lines run on across it as across the cells one by one.
            const int first = j;
            while (j < cells.right && data.isMasked(i, j) && std::isfinite(weights[j]))
                ++j;
            const QRectF run = layout.cellRect(i, first).united(layout.cellRect(i, j - 1));
            if (tiled)
                runs.append(run);
            else
                appendHatch(hatch, run, origin, step);
        }
    }
    if (!runs.isEmpty()) {
        const QBrush brush(hatchTile(std::max(3, qRound(step)), unit));
        painter.setBrushOrigin(origin); // the lattice's phase, as appendHatch has it
        for (const QRectF& run : runs)
            painter.fillRect(run, brush);
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setPen(QPen(QColor::fromRgb(heatmapMaskedHatch), unit, Qt::SolidLine, Qt::FlatCap));
    painter.drawLines(hatch);
    painter.setPen(
        QPen(QColor::fromRgb(heatmapInvalidMark), 1.5 * unit, Qt::SolidLine, Qt::RoundCap));
    painter.drawLines(invalid);
}

void paintCells(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                const HeatmapStyle& style, CellImageCache* cache)
{
    const bool vector = style.vectorCells || isVectorDevice(painter);
    const double devicePixels =
        painter.deviceTransform().mapRect(QRectF(0, 0, layout.cellSize(), 1)).width();
    painter.save();
    if (vector)
        paintCellRects(painter, layout, data, style, vector);
    else if (devicePixels < 3)
        paintCellImage(painter, layout, data, style, cache);
    else
        paintRasterCells(painter, layout, data, style, cache);
    painter.restore();
}

// Each weight with 2 decimals, in black or white, whichever contrasts more with the cell.
void paintAnnotations(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                      const HeatmapStyle& style)
{
    constexpr double minimumCell = 28;
    const double cell = layout.cellSize();
    if (!style.annotate || cell < minimumCell)
        return;
    QFont font = layout.labelFont();
    const double sample =
        QFontMetricsF(font, painter.device()).horizontalAdvance(QLocale().toString(-0.99, 'f', 2));
    const double shrink = std::min(1.0, 0.85 * cell / sample);
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * shrink);
    else
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * shrink)));

    const Colormap colormap(style.colormap);
    painter.save();
    painter.setFont(font);
    const CellRange cells = cellsToPaint(painter, layout);
    for (int i = cells.top; i < cells.bottom; ++i) {
        for (int j = cells.left; j < cells.right; ++j) {
            if (cellKind(data, i, j) != CellKind::Value)
                continue;
            const float weight = data.weights(i, j);
            const QRgb background = colormap.color(normalized(weight, style));
            painter.setPen(Colormap::contrastIsDark(background) ? Qt::black : Qt::white);
            painter.drawText(layout.cellRect(i, j), Qt::AlignCenter,
                             QLocale().toString(weight, 'f', 2));
        }
    }
    painter.restore();
}

// White under black: visible on every colour of every scale.
void paintHighlight(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style)
{
    QVarLengthArray<QRectF, 2> strips;
    const QRectF grid = layout.gridRect();
    if (style.highlightRow >= 0 && style.highlightRow < layout.rows())
        strips.append(QRectF(grid.left(), layout.cellRect(style.highlightRow, 0).top(),
                             grid.width(), layout.cellSize()));
    if (style.highlightCol >= 0 && style.highlightCol < layout.columns())
        strips.append(QRectF(layout.cellRect(0, style.highlightCol).left(), grid.top(),
                             layout.cellSize(), grid.height()));
    if (strips.isEmpty())
        return;
    const double unit = lineUnit(layout);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(Qt::white, 3 * unit, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRects(strips.data(), static_cast<int>(strips.size()));
    painter.setPen(QPen(Qt::black, unit, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter.drawRects(strips.data(), static_cast<int>(strips.size()));
    painter.restore();
}

// `centre` moved the least so that ±halfExtent around it stays within [low, high].
double clampedCentre(double centre, double low, double high, double halfExtent)
{
    const double least = low + halfExtent;
    return std::clamp(centre, least, std::max(least, high - halfExtent));
}

QFont labelFontFor(const HeatmapLayout& layout, bool highlighted)
{
    QFont font = layout.labelFont();
    font.setBold(highlighted);
    return font;
}

void paintRowLabels(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                    const HeatmapStyle& style)
{
    const QRectF area = layout.rowLabelArea();
    const double lineHeight = layout.lineHeight();
    LabelWidths boldWidths(labelFontFor(layout, true), painter.device());
    for (int i = 0; i < data.rows(); i += layout.rowLabelStride()) {
        const QFont font = labelFontFor(layout, i == style.highlightRow);
        // Most labels fit as they are (measured bold, the wider): no eliding to work out.
        const QString label = data.queryLabel(i);
        const QString text = boldWidths(label) <= area.width()
                                 ? label
                                 : QFontMetricsF(font, painter.device())
                                       .elidedText(label, Qt::ElideRight, area.width());
        // Labels taller than their row stay within the rows, clear of the axis title above.
        const double centre = clampedCentre(layout.cellRect(i, 0).center().y(), area.top(),
                                            area.bottom(), lineHeight / 2);
        painter.setFont(font);
        painter.drawText(QRectF(area.left(), centre - lineHeight / 2, area.width(), lineHeight),
                         Qt::AlignRight | Qt::AlignVCenter, text);
    }
}

void paintColumnLabels(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                       const HeatmapStyle& style)
{
    const QRectF area = layout.columnLabelArea();
    const double lineHeight = layout.lineHeight();
    const int angle = layout.columnLabelAngle();
    const double span = layout.columnLabelStride() * layout.cellSize();
    LabelWidths widths(labelFontFor(layout, false), painter.device());
    LabelWidths boldWidths(labelFontFor(layout, true), painter.device());
    for (int j = 0; j < data.columns(); j += layout.columnLabelStride()) {
        const bool highlighted = j == style.highlightCol;
        const QFont font = labelFontFor(layout, highlighted);
        const QString label = data.keyLabel(j);
        const QString text = boldWidths(label) <= layout.labelElideWidth()
                                 ? label
                                 : QFontMetricsF(font, painter.device())
                                       .elidedText(label, Qt::ElideRight, layout.labelElideWidth());
        const double column = layout.cellRect(0, j).center().x();
        painter.setFont(font);
        const double width = highlighted ? boldWidths(text) : widths(text);
        if (angle == 0 || layout.keepsLabelUpright(text, width)) {
            const double centre = clampedCentre(column, area.left(), area.right(), width / 2);
            painter.drawText(
                QRectF(centre - span / 2, area.bottom() - lineHeight, span, lineHeight),
                Qt::AlignCenter, text);
            continue;
        }
        // Read upwards from the column; at 45° the text's lower corner reaches h/(2√2) below
        // its anchor, so the anchor is raised by that much.
        const double drop = angle == 45 ? lineHeight / (2 * sqrt2) : 0;
        const double centre =
            clampedCentre(column, area.left(), area.right(), angle == 45 ? drop : lineHeight / 2);
        painter.save();
        painter.translate(centre, area.bottom() - drop);
        painter.rotate(-angle);
        painter.drawText(QRectF(0, -lineHeight / 2, layout.labelElideWidth(), lineHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, text);
        painter.restore();
    }
}

void paintTitles(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data)
{
    if (!layout.titleRect().isEmpty()) {
        painter.setFont(layout.titleFont());
        const QString title =
            QFontMetricsF(layout.titleFont(), painter.device())
                .elidedText(data.title, Qt::ElideRight, layout.titleRect().width());
        painter.drawText(layout.titleRect(), Qt::AlignCenter, title);
    }
    if (!layout.rowAxisTitleRect().isEmpty()) {
        QFont font = layout.labelFont();
        font.setItalic(true);
        painter.setFont(font);
        painter.drawText(layout.rowAxisTitleRect(), Qt::AlignRight | Qt::AlignVCenter,
                         rowAxisTitle());
        painter.drawText(layout.columnAxisTitleRect(), Qt::AlignLeft | Qt::AlignVCenter,
                         columnAxisTitle());
    }
}

// 256 bands from vmin at the bottom to vmax at the top, framed, with two ticks.
void paintColorbar(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style)
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
    painter.setFont(layout.labelFont());
    painter.drawText(layout.colorbarMaxLabelRect(), Qt::AlignLeft | Qt::AlignTop,
                     tickText(style.vmax));
    painter.drawText(layout.colorbarMinLabelRect(), Qt::AlignLeft | Qt::AlignBottom,
                     tickText(style.vmin));
    painter.restore();
}

} // namespace

void paintHeatmap(QPainter& painter, const QRectF& target, const HeatmapData& data,
                  const HeatmapStyle& style)
{
    paintHeatmap(painter, HeatmapLayout(target, data, style, painter.device()), data, style);
}

void paintHeatmap(QPainter& painter, const HeatmapLayout& layout, const HeatmapData& data,
                  const HeatmapStyle& style, CellImageCache* cache)
{
    Q_ASSERT(data.masked.size() == 0 || (data.masked.rows() == data.weights.rows() &&
                                         data.masked.cols() == data.weights.cols()));
    painter.save();
    painter.setPen(style.textColor);
    paintTitles(painter, layout, data);
    if (layout.rows() > 0 && layout.columns() > 0 && layout.cellSize() > 0) {
        paintCells(painter, layout, data, style, cache);
        paintAnnotations(painter, layout, data, style);
        paintHighlight(painter, layout, style);
        painter.setPen(style.textColor);
        paintRowLabels(painter, layout, data, style);
        paintColumnLabels(painter, layout, data, style);
        paintColorbar(painter, layout, style);
        paintMarginSums(painter, layout, style);
    }
    painter.restore();
}

} // namespace attn::ui
