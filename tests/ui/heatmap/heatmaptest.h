// What the heatmap tests share: test data (ramps, special cells, uniform weights), painting
// a heatmap on white, and reading its pixels back.
#pragma once

#include "colormap.h"
#include "engine/engine.h"
#include "figure.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"
#include "heatmapsums.h"
#include "heatmapview.h"

#include <QAccessible>
#include <QBuffer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTest>
#include <QToolTip>

#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>

Q_DECLARE_METATYPE(attn::ui::ColormapName)
Q_DECLARE_METATYPE(attn::SoftmaxAxis)

namespace attn::ui::test {

inline constexpr float notANumber = std::numeric_limits<float>::quiet_NaN();
inline constexpr float inf = std::numeric_limits<float>::infinity();

inline QString hex(QRgb color)
{
    return QColor::fromRgb(color).name();
}

// (T, T) weights w(i, j) = (i·T + j) / (T·T − 1): every cell a different value in [0, 1].
// A causal self-attention request over `text` with d_model 32.
inline attn::Request causalRequest(const std::string& text, int heads)
{
    attn::Request r;
    r.text = text;
    r.config.dModel = 32;
    r.config.heads = heads;
    r.config.mask = attn::MaskKind::Causal;
    return r;
}

inline HeatmapData ramp(int tokens, double low = 0, double high = 1)
{
    HeatmapData data;
    data.weights.edit().resize(tokens, tokens);
    const double last = std::max(1, tokens * tokens - 1);
    for (int i = 0; i < tokens; ++i)
        for (int j = 0; j < tokens; ++j)
            data.weights.edit()(i, j) =
                static_cast<float>(low + (high - low) * (i * tokens + j) / last);
    for (int k = 0; k < tokens; ++k) {
        data.queryLabels.append(QStringLiteral("q%1").arg(k));
        data.keyLabels.append(QStringLiteral("k%1").arg(k));
    }
    return data;
}

// Rows 0..T−1 causal-masked above the diagonal, row `nanRow` all NaN, two infinities.
inline HeatmapData withSpecialCells(int tokens, int nanRow)
{
    HeatmapData data = ramp(tokens);
    data.masked = attn::MaskMatrix::Zero(tokens, tokens);
    for (int i = 0; i < tokens; ++i)
        for (int j = i + 1; j < tokens; ++j)
            data.masked.edit()(i, j) = true;
    data.weights.edit().row(nanRow).setConstant(notANumber);
    data.weights.edit()(tokens - 1, 0) = inf;
    data.weights.edit()(tokens - 1, 1) = -inf;
    return data;
}

inline QImage paint(const HeatmapData& data, const HeatmapStyle& style, QSize size,
                    HeatmapLayout* layout = nullptr)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    const HeatmapLayout computed(QRectF(QPointF(0, 0), size), data, style, &image);
    paintHeatmap(painter, computed, data, style);
    if (layout)
        *layout = computed;
    return image;
}

inline QRgb pixelAt(const QImage& image, QPointF point)
{
    return image.pixel(static_cast<int>(std::floor(point.x())),
                       static_cast<int>(std::floor(point.y())));
}

inline QRgb expectedColor(const HeatmapData& data, const HeatmapStyle& style, int i, int j)
{
    return Colormap(style.colormap)
        .color((data.weights(i, j) - style.vmin) / (style.vmax - style.vmin));
}

// Every pixel of the cell's inside (one pixel in from its edges).
inline QList<QRgb> cellPixels(const QImage& image, const QRectF& cell)
{
    QList<QRgb> pixels;
    const QRect inside = cell.toAlignedRect().adjusted(1, 1, -2, -2);
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            pixels.append(image.pixel(x, y));
    return pixels;
}

// (T, T) weights of 1/T each: every row and column sums to exactly 1.
// The rows of `image` within the columns [x0, x1] that hold ink (grey below 160), top down.
inline std::vector<bool> inkRows(const QImage& image, int x0, int x1)
{
    std::vector<bool> rows(std::size_t(image.height()), false);
    for (int y = 0; y < image.height(); ++y)
        for (int x = std::max(0, x0); x <= std::min(image.width() - 1, x1); ++x)
            if (qGray(image.pixel(x, y)) < 160)
                rows[std::size_t(y)] = true;
    return rows;
}

// A heatmap laid out as the window does (in `size`) or as a figure does (from the cell
// size, in the figures' fonts), painted on white.
inline QImage paintLaidOut(const HeatmapData& data, HeatmapStyle style, QSize size, bool figure,
                           HeatmapLayout* layout)
{
    if (figure) {
        QFont font;
        font.setFamilies(figureFontFamilies());
        font.setPixelSize(13);
        style.labelFont = font;
        *layout = HeatmapLayout::forCellSize(data, style, 44);
        size = layout->boundingRect().size().toSize() + QSize(2, 2);
    }
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    if (!figure)
        *layout = HeatmapLayout(QRectF(QPointF(0, 0), size), data, style, &image);
    QPainter painter(&image);
    paintHeatmap(painter, *layout, data, style);
    return image;
}

inline HeatmapData uniform(int tokens)
{
    HeatmapData data;
    data.weights = attn::Matrix::Constant(tokens, tokens, 1.0f / static_cast<float>(tokens));
    return data;
}

// Red text is anti-aliased: any clearly red pixel counts.
inline bool isReddish(QRgb pixel)
{
    return qRed(pixel) > 150 && qGreen(pixel) < 130 && qBlue(pixel) < 130;
}

inline int countPixels(const QImage& image, const QRectF& rect, bool (*wanted)(QRgb))
{
    int count = 0;
    const QRect inside = rect.toAlignedRect().intersected(image.rect());
    for (int y = inside.top(); y <= inside.bottom(); ++y)
        for (int x = inside.left(); x <= inside.right(); ++x)
            count += wanted(image.pixel(x, y)) ? 1 : 0;
    return count;
}

inline std::set<QRgb> allColormapColors()
{
    std::set<QRgb> colors;
    for (const ColormapName name : Colormap::names())
        for (const QRgb color : Colormap(name).entries())
            colors.insert(color);
    return colors;
}

} // namespace attn::ui::test
