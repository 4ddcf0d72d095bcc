// What the step-by-step tiles share (pipelinetileparts.h).
#include "pipelinetileparts.h"

#include "lab/explain.h"

#include <algorithm>
#include <cmath>

namespace attn::ui {

namespace tileparts {

// A number in a formula: "0.25", "16", "0.125".
QString number(double value)
{
    return QString::number(value, 'g', 4);
}

QStringList tokenLabels(const TokenBatch& batch, int b)
{
    QStringList labels;
    for (const std::string& token : batch.tokens[std::size_t(b)])
        labels << QString::fromStdString(token);
    return labels;
}

// The rows of Q_h (keys = false), or of K_h and V_h (keys = true; the second text's
// tokens in cross-attention): the tokens, or with head split "view" the piece of a token
// each row holds, "喜欢[16:32]".
QStringList headRowLabels(const Result& result, int b, int h, bool keys)
{
    const TokenBatch& batch = keys ? *result.keyTokens : *result.tokens;
    const int length = batch.length();
    const QStringList tokens = tokenLabels(batch, b);
    if (result.config().headSplit == HeadSplit::Transpose)
        return tokens;
    QStringList labels;
    for (int row = 0; row < length; ++row) {
        const HeadRowSource source = headRowSource(result.config(), length, h, row);
        labels << QStringLiteral("%1[%2:%3]")
                      .arg(tokens.value(source.token))
                      .arg(source.firstFeature)
                      .arg(source.firstFeature + result.dK());
    }
    return labels;
}

// The largest |x| over the finite cells; 1 when there is none.
double largestMagnitude(const Matrix& values)
{
    double largest = 0;
    for (Eigen::Index k = 0; k < values.size(); ++k)
        if (std::isfinite(values.data()[k]))
            largest = std::max(largest, double(std::abs(values.data()[k])));
    return largest > 0 ? largest : 1.0;
}

// Signed values: blue below 0, white at 0, red above, from −largest to +largest so
// that 0 is white.
HeatmapStyle divergingStyle(double largest)
{
    HeatmapStyle style;
    style.colormap = ColormapName::Diverging;
    style.vmax = largest;
    style.vmin = -largest;
    style.annotate = true; // the painter prints values only in cells of ~28 px or more
    style.axisTitles = false;
    return style;
}

HeatmapStyle divergingStyle(const Matrix& values)
{
    return divergingStyle(largestMagnitude(values));
}

HeatmapData heatmapOf(const SharedWeights& values, const MaskMatrix& masked,
                      const QStringList& rows, const QStringList& columns)
{
    HeatmapData data;
    if (masked.size() != 0 && masked.any()) {
        data.masked = masked;
        data.weights = Matrix(masked.select(0.0f, values.get()));
    } else {
        data.weights = values; // the same matrix, not a copy (at T = 2048, 16 MB a tile)
    }
    data.queryLabels = rows;
    data.keyLabels = columns;
    return data;
}

} // namespace tileparts

} // namespace attn::ui
