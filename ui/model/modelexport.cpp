#include "modelexport.h"

#include "attention/attentionreport.h"
#include "formats/exporters.h"

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

// The CSV's header and one line a weight of `weights`, named (layer, head), CRLF as RFC
// 4180 has it.
constexpr const char* kCsvHeader = "\xEF\xBB\xBFlayer,head,i,j,query,key,weight\r\n";

void appendCsvRows(std::string& out, const AttentionStack& stack, int sequence, int layer,
                   const std::string& head, const Matrix& weights)
{
    // (T_q, T_k)
    const std::vector<std::string>& queries = stack.queryTokens(sequence);
    const std::vector<std::string>& keys = stack.keyTokens(sequence);
    for (Eigen::Index i = 0; i < weights.rows(); ++i)
        for (Eigen::Index j = 0; j < weights.cols(); ++j) {
            out += std::to_string(layer) + ',' + head + ',' + std::to_string(i) + ',' +
                   std::to_string(j) + ',' + tokenAt(queries, int(i)) + ',' +
                   tokenAt(keys, int(j)) + ',';
            appendFloat(out, weights(i, j));
            out += "\r\n";
        }
}

std::string layerCsv(const AttentionStack& stack, int sequence, int layer)
{
    // (H, T_q, T_k) of one layer
    std::string out = kCsvHeader;
    for (int h = 0; h < stack.shape().heads; ++h)
        appendCsvRows(out, stack, sequence, layer, std::to_string(h),
                      stack.head(layer, sequence, h));
    return out;
}

// One (T_q, T_k) matrix as (1, 1, T_q, T_k) float32.
std::string npyOne(const Matrix& weights)
{
    HeadStack one(1, 1, weights.rows(), weights.cols());
    one.at(0, 0) = weights;
    return npyMatrixStack(one);
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

QByteArray selectionNumbers(const AttentionStack& stack, int sequence, int layer,
                            const FileSelection& selection, FigureFormat format)
{
    const StackShape& s = stack.shape();
    std::string bytes;
    switch (selection.what) {
    case FileWhat::Head: {
        const Matrix weights = stack.head(layer, sequence, selection.head);
        if (format == FigureFormat::Json)
            bytes = attentionJson(stack, sequence, layer, selection.head);
        else if (format == FigureFormat::Csv)
            appendCsvRows(bytes.assign(kCsvHeader), stack, sequence, layer,
                          std::to_string(selection.head), weights);
        else if (format == FigureFormat::Npy)
            bytes = npyOne(weights);
        break;
    }
    case FileWhat::Mean:
        if (format == FigureFormat::Json)
            bytes = attentionMeanJson(stack, sequence, layer);
        else if (format == FigureFormat::Csv)
            appendCsvRows(bytes.assign(kCsvHeader), stack, sequence, layer, "mean",
                          meanHead(stack, layer, sequence));
        else if (format == FigureFormat::Npy)
            bytes = npyOne(meanHead(stack, layer, sequence));
        break;
    case FileWhat::Model:
        if (format == FigureFormat::Json) {
            bytes = attentionJson(stack, sequence);
        } else if (format == FigureFormat::Csv) {
            bytes = kCsvHeader;
            for (int l = 0; l < s.layers; ++l)
                for (int h = 0; h < s.heads; ++h)
                    appendCsvRows(bytes, stack, sequence, l, std::to_string(h),
                                  stack.head(l, sequence, h));
        } else if (format == FigureFormat::Npy) {
            HeadStack all(s.layers, s.heads, s.queries, s.keys); // (L, H, T_q, T_k)
            for (int l = 0; l < s.layers; ++l)
                for (int h = 0; h < s.heads; ++h)
                    all.at(l, h) = stack.head(l, sequence, h);
            bytes = npyMatrixStack(all);
        }
        break;
    }
    return QByteArray::fromStdString(bytes);
}

std::optional<QByteArray> headFigure(const AttentionStack& stack, int sequence, int layer, int head,
                                     ColormapName colormap, FigureFormat format, QString* error)
{
    FileFigureOptions options;
    options.selection = {FileWhat::Head, head};
    options.layer = layer;
    options.sequence = sequence;
    options.colormap = colormap;
    return fileFigureBytes(format, stack, options, error);
}

} // namespace attn::ui
