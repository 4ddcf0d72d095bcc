#include "modelexport.h"

#include "attentionreport.h"
#include "exporters.h"
#include "fileheaddialog.h"

#include <charconv>
#include <cmath>
#include <string>

namespace attn::ui {
namespace {

void appendFloat(std::string& out, float value)
{
    if (std::isnan(value)) {
        out += "nan";
    } else if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
    } else {
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
        out.append(buffer, end);
    }
}

std::string tokenAt(const std::vector<std::string>& tokens, int index)
{
    return index < int(tokens.size()) ? csvField(csvToken(tokens[std::size_t(index)]))
                                      : std::to_string(index);
}

std::string layerCsv(const AttentionStack& stack, int sequence, int layer)
{
    // (H, T_q, T_k) of one layer, one line a weight, CRLF as RFC 4180 has it
    std::string out = "\xEF\xBB\xBFlayer,head,i,j,query,key,weight\r\n";
    const std::vector<std::string>& queries = stack.queryTokens(sequence);
    const std::vector<std::string>& keys = stack.keyTokens(sequence);
    for (int h = 0; h < stack.shape().heads; ++h) {
        const Matrix weights = stack.head(layer, sequence, h);
        for (Eigen::Index i = 0; i < weights.rows(); ++i)
            for (Eigen::Index j = 0; j < weights.cols(); ++j) {
                out += std::to_string(layer) + ',' + std::to_string(h) + ',' + std::to_string(i) +
                       ',' + std::to_string(j) + ',' + tokenAt(queries, int(i)) + ',' +
                       tokenAt(keys, int(j)) + ',';
                appendFloat(out, weights(i, j));
                out += "\r\n";
            }
    }
    return out;
}

} // namespace

QByteArray layerNumbers(const AttentionStack& stack, int sequence, int layer, FigureFormat format)
{
    std::string bytes;
    switch (format) {
    case FigureFormat::Json:
        bytes = attentionJson(stack, sequence, layer);
        break;
    case FigureFormat::Csv:
        bytes = layerCsv(stack, sequence, layer);
        break;
    case FigureFormat::Npy: {
        const StackShape& s = stack.shape();
        HeadStack heads(1, s.heads, s.queries, s.keys); // (1, H, T_q, T_k)
        for (int h = 0; h < s.heads; ++h)
            heads.at(0, h) = stack.head(layer, sequence, h);
        bytes = npyMatrixStack(heads);
        break;
    }
    default:
        break;
    }
    return QByteArray::fromStdString(bytes);
}

std::optional<QByteArray> headFigure(const AttentionStack& stack, int sequence, int layer, int head,
                                     ColormapName colormap, FigureFormat format, QString* error)
{
    constexpr double kLabelPoints = 10;
    constexpr double kMargin = 12;
    FigureTile tile;
    tile.data = fileHeadHeatmap(stack, layer, sequence, head);
    tile.style.colormap = colormap;
    const float top = finiteMax(tile.data.weights);
    tile.style.vmax = top > 0 ? top : 1.0;
    tile.style.vectorCells = format != FigureFormat::Png;
    tile.style.labelFont = QFont(figureFontFamilies());
    tile.style.labelFont.setPointSizeF(kLabelPoints);
    const int tokens = std::max(tile.data.rows(), tile.data.columns());
    const double cell = figureCellSize(tokens, 1, kLabelPoints, false);
    tile.layout = HeatmapLayout::forCellSize(tile.data, tile.style, cell);
    tile.origin = QPointF(kMargin, kMargin) - tile.layout.boundingRect().topLeft();

    FigureLayout figure;
    figure.size = QSizeF(std::ceil(tile.layout.boundingRect().width() + 2 * kMargin),
                         std::ceil(tile.layout.boundingRect().height() + 2 * kMargin));
    figure.tiles.push_back(std::move(tile));
    return figureLayoutBytes(format, figure, 2.0, error);
}

} // namespace attn::ui
