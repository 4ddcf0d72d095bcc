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
    // By value, so that the pixel loops keep them in registers (a store to a line of QRgb
    // could alias `middle`, which a capture by reference would read again every pixel).
    auto valueColor = [table = lut.data(), vmin, toBin, middle](float weight) {
        const float bin = (weight - vmin) * toBin;
        return table[std::size_t(std::clamp(int(bin) + middle, 0, Colormap::size - 1))];
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
    // Below every weight a softmax gives (0 to 1), and finite: a block with no unmasked cell.
    constexpr float kNone = std::numeric_limits<float>::lowest();
    auto pixelOf = [valueColor](float max, bool invalid) {
        return invalid ? heatmapInvalidFill : max == kNone ? heatmapMaskedFill : valueColor(max);
    };

    // 3a. The block's rows first: each line folds its rows of cells column by column into
    // `folded`, in straight passes over memory that vectorise. A masked cell counts as
    // kNone; w − w is 0 for a finite w and NaN otherwise, and a NaN stays NaN through every
    // later fold (x − x is NaN only for NaN, kNone being finite), so NaN marks a column
    // with a cell that is not finite. No branch, so that the compiler vectorises them.
    const float* const weights = data.weights.data();
    const auto* const masks =
        hasMask ? reinterpret_cast<const unsigned char*>(data.masked.data()) : nullptr;
    auto foldRows = [&](int i0, int i1, float* __restrict f) {
        for (int i = i0; i < i1; ++i) {
            const float* __restrict w = weights + qsizetype(i) * columns;
            const unsigned char* __restrict m = masks ? masks + qsizetype(i) * columns : nullptr;
            auto fold = [&](int j, float shown) {
                shown += w[j] - w[j];
                const float fj = f[j];
                f[j] = (shown > fj ? shown : fj) + ((shown - shown) + (fj - fj));
            };
            if (i == i0 && m)
                for (int j = 0; j < columns; ++j)
                    f[j] = (m[j] ? kNone : w[j]) + (w[j] - w[j]);
            else if (i == i0)
                for (int j = 0; j < columns; ++j)
                    f[j] = w[j] + (w[j] - w[j]);
            else if (m)
                for (int j = 0; j < columns; ++j)
                    fold(j, m[j] ? kNone : w[j]);
            else
                for (int j = 0; j < columns; ++j)
                    fold(j, w[j]);
        }
    };
    // 3b. Then each pixel folds its run of columns: under twice as many columns as pixels
    // (512 tokens on 456 pixels) a run is one or two columns, its first and last, read
    // without a loop whose length changes from pixel to pixel.
    const bool pairs = columns < 2 * width;
    inBands([&](int firstLine, int endLine) {
        std::vector<float> folded(static_cast<std::size_t>(columns));
        const float* f = folded.data();
        const int* const first = firstColumn.data();
        const auto pixel = pixelOf; // this thread's copy, held in registers

        for (int y = firstLine; y < endLine; ++y) {
            foldRows(int(qint64(y) * rows / height), int(qint64(y + 1) * rows / height),
                     folded.data());
            QRgb* line = lineOf(y);
            if (pairs) {
                for (int x = 0; x < width; ++x) {
                    const float a = f[first[x]], b = f[first[x + 1] - 1];
                    line[x] = pixel(a > b ? a : b, (a != a) | (b != b));
                }
                continue;
            }
            for (int x = 0; x < width; ++x) {
                float max = kNone;
                bool invalid = false;
                for (int j = first[x]; j < first[x + 1]; ++j) {
                    invalid = invalid || f[j] != f[j];
                    max = std::max(max, f[j]);
                }
                line[x] = pixel(max, invalid);
            }
        }
    });
    return image;
}

} // namespace attn::ui
