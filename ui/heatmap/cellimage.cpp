// The cells of a heatmap as an image: one pixel per cell, or one per block of cells
// (level of detail, each block's largest weight).
#include "cellimage.h"

#include "base/parallel.h"
#include "colormap.h"
#include "engine/fastexp.h"

#include <QImage>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace attn::ui {
namespace {

// Below every weight a softmax gives (0 to 1), and finite: a block with no unmasked cell.
constexpr float kNone = std::numeric_limits<float>::lowest();
// The codes of a pixel: 0 masked, 1 + the colormap's bin, the last for a cell that is not
// finite.
constexpr int kInvalidCode = Colormap::size + 1;

// What every line of one image needs: the cells, how lines and pixels take them, the
// binning and the colour of each code.
struct CellPass {
    const float* weights = nullptr;
    const unsigned char* masks = nullptr; // null: no mask
    int rows = 0, columns = 0, height = 0, width = 0;
    const int* firstColumn = nullptr; // width + 1 entries: pixel x takes [first[x], first[x+1])
    float vmin = 0, toBin = 0, firstBin = 0, lastBin = 0; // of log2(v) when `log`
    bool log = false;
    const QRgb* color = nullptr; // kInvalidCode + 1 entries
    uchar* bits = nullptr;
    qsizetype bytesPerLine = 0;
};

// Lines [firstLine, endLine) of the image, in three straight passes per line that the
// compiler vectorises (no branch per cell), then one lookup per pixel. Inlined into a
// baseline and an AVX2 copy below; no FMA, so that both bin every value alike.
[[gnu::always_inline]] inline void fillLines(const CellPass& pass, int firstLine, int endLine)
{
    const int columns = pass.columns, width = pass.width;
    std::vector<float> foldedBuffer(static_cast<std::size_t>(columns));
    std::vector<float> shownBuffer(static_cast<std::size_t>(width));
    std::vector<std::int32_t> codeBuffer(static_cast<std::size_t>(width));
    float* __restrict folded = foldedBuffer.data();
    float* __restrict shown = shownBuffer.data();
    std::int32_t* __restrict code = codeBuffer.data();
    const int* __restrict first = pass.firstColumn;
    const bool onePerColumn = width == columns;
    // Under twice as many columns as pixels (512 tokens on 456 pixels) a pixel's run is
    // one or two columns, its first and last, read without a loop whose length changes
    // from pixel to pixel.
    const bool pairs = columns < 2 * width;
    const float vmin = pass.vmin, toBin = pass.toBin, firstBin = pass.firstBin,
                lastBin = pass.lastBin;
    for (int y = firstLine; y < endLine; ++y) {
        // 1. The line's rows of cells folded column by column into `folded`. A masked
        // cell counts as kNone; w − w is 0 for a finite w and NaN otherwise, and a NaN
        // stays NaN through every later fold (x − x is NaN only for NaN, kNone being
        // finite), so NaN marks a column with a cell that is not finite. The larger of two
        // values is (a > b ? a : b) + ((a − a) + (b − b)): NaN if either is.
        const int i0 = int(qint64(y) * pass.rows / pass.height);
        const int i1 = int(qint64(y + 1) * pass.rows / pass.height);
        for (int i = i0; i < i1; ++i) {
            const float* __restrict w = pass.weights + qsizetype(i) * columns;
            const unsigned char* __restrict m =
                pass.masks ? pass.masks + qsizetype(i) * columns : nullptr;
            if (i == i0 && m) {
                for (int j = 0; j < columns; ++j)
                    folded[j] = (m[j] ? kNone : w[j]) + (w[j] - w[j]);
            } else if (i == i0) {
                for (int j = 0; j < columns; ++j)
                    folded[j] = w[j] + (w[j] - w[j]);
            } else if (m) {
                for (int j = 0; j < columns; ++j) {
                    const float a = (m[j] ? kNone : w[j]) + (w[j] - w[j]), b = folded[j];
                    folded[j] = (a > b ? a : b) + ((a - a) + (b - b));
                }
            } else {
                for (int j = 0; j < columns; ++j) {
                    const float a = w[j] + (w[j] - w[j]), b = folded[j];
                    folded[j] = (a > b ? a : b) + ((a - a) + (b - b));
                }
            }
        }
        // 2. Each pixel folds its run of columns the same way (NaN stays NaN).
        const float* __restrict value = folded;
        if (onePerColumn) {
            value = folded;
        } else if (pairs) {
            for (int x = 0; x < width; ++x) {
                const float a = folded[first[x]], b = folded[first[x + 1] - 1];
                shown[x] = (a > b ? a : b) + ((a - a) + (b - b));
            }
            value = shown;
        } else {
            for (int x = 0; x < width; ++x) {
                float max = folded[first[x]];
                for (int j = first[x] + 1; j < first[x + 1]; ++j) {
                    const float a = folded[j];
                    max = (a > max ? a : max) + ((a - a) + (max - max));
                }
                shown[x] = max;
            }
            value = shown;
        }
        // 3. Each pixel's value becomes its code, binned as Colormap::color bins it (a NaN
        // fails the clamps' comparisons and lands in bin 0, then takes the last code). On a
        // logarithmic scale the bins are of log2(v), 0 going to −inf and the first bin; the
        // block maximum came first, as the logarithm keeps the order.
        auto binAll = [&](auto position) {
            for (int x = 0; x < width; ++x) {
                const float v = value[x];
                float bin = (position(v) - vmin) * toBin + firstBin;
                bin = bin > 0.0f ? bin : 0.0f;
                bin = bin < lastBin ? bin : lastBin;
                const std::int32_t binned = v == kNone ? 0 : std::int32_t(bin) + 1;
                code[x] = v != v ? kInvalidCode : binned;
            }
        };
        if (pass.log)
            binAll([](float v) { return std::log2(v); });
        else
            binAll([](float v) { return v; });
        // 4. One lookup per pixel gives its colour.
        QRgb* __restrict line = reinterpret_cast<QRgb*>(pass.bits + y * pass.bytesPerLine);
        for (int x = 0; x < width; ++x)
            line[x] = pass.color[code[x]];
    }
}

// The same passes eight floats at a time where the CPU has AVX2 (chosen at run time, the
// build staying portable): the codes are integers, so both copies give the same image.
__attribute__((target("avx2"))) void fillLinesAvx2(const CellPass& pass, int firstLine, int endLine)
{
    fillLines(pass, firstLine, endLine);
}

void fillLinesBaseline(const CellPass& pass, int firstLine, int endLine)
{
    fillLines(pass, firstLine, endLine);
}

} // namespace

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

    // 1. The colormap's bins, as Colormap::color bins them, without a call per cell:
    // code 0 masked, 1 + the bin, kInvalidCode for a value that is not finite.
    const Colormap colormap(style.colormap);
    const auto lut = colormap.entries();
    const bool log = style.logScale && style.vmin > 0;
    const double low = log ? std::log2(style.vmin) : style.vmin;
    const double span = (log ? std::log2(style.vmax) : style.vmax) - low;
    std::array<QRgb, kInvalidCode + 1> colorOfCode;
    colorOfCode[0] = heatmapMaskedFill;
    for (int k = 0; k < Colormap::size; ++k)
        colorOfCode[std::size_t(k + 1)] = lut[std::size_t(k)];
    colorOfCode[kInvalidCode] = heatmapInvalidFill;

    // 2. Each pixel shows its block of cells (one cell when the image has a pixel per
    // cell): NaN or ±inf if any cell is, else the largest unmasked weight (peaks stay
    // visible when zoomed out), else masked.
    std::vector<int> firstColumn(std::size_t(width) + 1);
    for (int x = 0; x <= width; ++x)
        firstColumn[std::size_t(x)] = int(qint64(x) * columns / width);
    CellPass pass;
    pass.weights = data.weights.data();
    pass.masks = data.masked.size() != 0
                     ? reinterpret_cast<const unsigned char*>(data.masked.data())
                     : nullptr;
    pass.rows = rows;
    pass.columns = columns;
    pass.height = height;
    pass.width = width;
    pass.firstColumn = firstColumn.data();
    pass.vmin = float(low);
    pass.log = log;
    pass.toBin = span > 0 ? float(Colormap::size / span) : 0.0f;
    pass.firstBin = span > 0 ? 0.0f : float(Colormap::size / 2);
    pass.lastBin = float(Colormap::size - 1);
    pass.color = colorOfCode.data();
    pass.bits = image.bits(); // detaches once, here, not in every worker
    pass.bytesPerLine = image.bytesPerLine();

    // 3. The image's lines in bands, one band per item of parallelFor: a large head fills
    // both cores, a small one stays on this thread (a thread costs more than its pixels).
    const qint64 cells = qint64(rows) * columns;
    const int bands = cells < (1 << 16) ? 1 : std::min(height, 16);
    const auto fill = attn::rowPassesUseAvx2() ? fillLinesAvx2 : fillLinesBaseline;
    attn::parallelFor(bands, [&](int band) {
        fill(pass, int(qint64(height) * band / bands), int(qint64(height) * (band + 1) / bands));
    });
    return image;
}

} // namespace attn::ui
