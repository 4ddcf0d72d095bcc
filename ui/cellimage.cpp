// The cells of a heatmap as an image: one pixel per cell, or one per block of cells
// (level of detail, each block's largest weight).
#include "heatmappainter.h"
#include "parallel.h"

#include <QImage>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
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

    // 3a. The block's rows first: each line folds its rows of cells column by column into
    // `folded`, in straight passes over memory that vectorise. A masked cell counts as
    // kNone; w − w is 0 for a finite w and NaN otherwise, and a NaN stays NaN through every
    // later fold (x − x is NaN only for NaN, kNone being finite), so NaN marks a column
    // with a cell that is not finite. No branch, so that the compiler vectorises them.
    // The larger of two values, NaN if either is (x − x is 0 for a finite x, NaN else).
    auto maxKeepingNaN = [](float a, float b) { return (a > b ? a : b) + ((a - a) + (b - b)); };
    const float* const weights = data.weights.data();
    const auto* const masks =
        hasMask ? reinterpret_cast<const unsigned char*>(data.masked.data()) : nullptr;
    auto foldRows = [&](int i0, int i1, float* __restrict f) {
        for (int i = i0; i < i1; ++i) {
            const float* __restrict w = weights + qsizetype(i) * columns;
            const unsigned char* __restrict m = masks ? masks + qsizetype(i) * columns : nullptr;
            auto fold = [&](int j, float shown) {
                shown += w[j] - w[j];
                f[j] = maxKeepingNaN(shown, f[j]);
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
    // 3b. Then each pixel folds its run of columns the same way (NaN stays NaN): under
    // twice as many columns as pixels (512 tokens on 456 pixels) a run is one or two
    // columns, its first and last, read without a loop whose length changes from pixel to
    // pixel.
    const bool pairs = columns < 2 * width;
    auto foldColumns = [&](const float* __restrict f, float* __restrict shown) {
        const int* const first = firstColumn.data();
        if (pairs) {
            for (int x = 0; x < width; ++x) {
                shown[x] = maxKeepingNaN(f[first[x]], f[first[x + 1] - 1]);
            }
            return;
        }
        for (int x = 0; x < width; ++x) {
            float max = f[first[x]];
            for (int j = first[x] + 1; j < first[x + 1]; ++j)
                max = maxKeepingNaN(f[j], max);
            shown[x] = max;
        }
    };
    // 3c. Each pixel's value becomes a code in one straight pass, binned as valueColor
    // bins it: 0 masked, 1 + the colormap's bin, or the last for a block that is not
    // finite (a NaN fails the clamps' comparisons and lands in bin 0, then takes the last
    // code); one lookup then gives its colour.
    constexpr int kInvalidCode = Colormap::size + 1;
    std::array<QRgb, Colormap::size + 2> colorOfCode;
    colorOfCode[0] = heatmapMaskedFill;
    for (int k = 0; k < Colormap::size; ++k)
        colorOfCode[std::size_t(k + 1)] = lut[std::size_t(k)];
    colorOfCode[kInvalidCode] = heatmapInvalidFill;
    const float firstBin = float(middle), lastBin = float(Colormap::size - 1);
    auto codes = [vmin, toBin, firstBin, lastBin](const float* __restrict shown, int n,
                                                  std::int32_t* __restrict code) {
        for (int x = 0; x < n; ++x) {
            const float v = shown[x];
            float bin = (v - vmin) * toBin + firstBin;
            bin = bin > 0.0f ? bin : 0.0f;
            bin = bin < lastBin ? bin : lastBin;
            const std::int32_t binned = v == kNone ? 0 : std::int32_t(bin) + 1;
            code[x] = v != v ? kInvalidCode : binned;
        }
    };
    inBands([&](int firstLine, int endLine) {
        std::vector<float> folded(static_cast<std::size_t>(columns));
        std::vector<float> shown(static_cast<std::size_t>(width));
        std::vector<std::int32_t> code(static_cast<std::size_t>(width));
        const QRgb* const color = colorOfCode.data();
        for (int y = firstLine; y < endLine; ++y) {
            foldRows(int(qint64(y) * rows / height), int(qint64(y + 1) * rows / height),
                     folded.data());
            foldColumns(folded.data(), shown.data());
            codes(shown.data(), width, code.data());
            QRgb* line = lineOf(y);
            for (int x = 0; x < width; ++x)
                line[x] = color[code[std::size_t(x)]];
        }
    });
    return image;
}

} // namespace attn::ui
