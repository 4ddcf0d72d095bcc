// The cells of a heatmap as an image: one pixel per cell, or one per block of cells
// (level of detail, each block's largest weight).
#include "heatmappainter.h"
#include "parallel.h"

#include <QImage>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace attn::ui {

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

} // namespace attn::ui
