#include "modelfigure.h"

#include "figurefile.h"
#include "heatmaplayout.h"
#include "heatmappainter.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <memory>

namespace attn::ui {
namespace {

QStringList tokenLabels(const std::vector<std::string>& tokens)
{
    QStringList labels;
    labels.reserve(qsizetype(tokens.size()));
    for (const std::string& token : tokens)
        labels << QString::fromStdString(token);
    return labels;
}

HeatmapData labelled(const AttentionStack& stack, int sequence, Matrix weights)
{
    HeatmapData data;
    data.weights = std::move(weights); // (T_q, T_k), converted to float
    data.queryLabels = tokenLabels(stack.queryTokens(sequence));
    data.keyLabels = tokenLabels(stack.keyTokens(sequence));
    return data;
}

double pixelsPerPoint(const FileFigureOptions& options)
{
    return options.dpi > 0 ? options.dpi / 72.0 : options.scale;
}

// A caption's parts, a line breaking after a "·", never before it.
QString joinParts(const QStringList& parts)
{
    return parts.join(QString(QChar(QChar::Nbsp)) + QStringLiteral("· "));
}

// The model figure's body, in points from its top left corner: a header row of head
// numbers, then one row a layer, its number left of its L thumbnails.
struct ModelGridLayout {
    double tile = 0;            // a thumbnail's side
    double gap = 0;             // between thumbnails
    double rowLabel = 0;        // the width of the layer numbers' column
    double header = 0;          // the height of the head numbers' row
    QFont font;                 // of the numbers
    QString layerWord;          // "layer", over the layer numbers
    QString headWord;           // "head →", before the head numbers
    std::vector<QImage> images; // [l·H + h]
    int layers = 0;
    int heads = 0;

    [[nodiscard]] QSizeF size() const
    {
        return {rowLabel + heads * (tile + gap) - gap, header + layers * (tile + gap) - gap};
    }
    [[nodiscard]] QRectF tileRect(int layer, int head) const
    {
        return {rowLabel + head * (tile + gap), header + layer * (tile + gap), tile, tile};
    }
};

void paintModelGrid(QPainter& painter, const ModelGridLayout& grid)
{
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter.setFont(grid.font);
    painter.setPen(Qt::black);
    const QFontMetricsF metrics(grid.font, figureReferenceDevice());
    // Every head number that fits above its column.
    const double numberWidth = metrics.horizontalAdvance(QStringLiteral("00")) + 2;
    const int step = std::max(1, int(std::ceil(numberWidth / (grid.tile + grid.gap))));
    painter.drawText(QRectF(0, 0, grid.rowLabel - grid.gap, grid.header),
                     Qt::AlignRight | Qt::AlignBottom, grid.headWord);
    for (int h = 0; h < grid.heads; h += step)
        painter.drawText(
            QRectF(grid.tileRect(0, h).left() - grid.gap, 0, grid.tile + 2 * grid.gap, grid.header),
            Qt::AlignHCenter | Qt::AlignBottom, QLocale().toString(h));
    for (int l = 0; l < grid.layers; ++l) {
        const QRectF row(0, grid.tileRect(l, 0).top(), grid.rowLabel - grid.gap, grid.tile);
        painter.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
                         l == 0 ? grid.layerWord + u' ' + QLocale().toString(l)
                                : QLocale().toString(l));
        for (int h = 0; h < grid.heads; ++h)
            painter.drawImage(
                grid.tileRect(l, h),
                grid.images[std::size_t(l) * std::size_t(grid.heads) + std::size_t(h)]);
    }
}

} // namespace

QString fileSelectionSpelling(const FileSelection& selection)
{
    switch (selection.what) {
    case FileWhat::Head:
        return QStringLiteral("head:%1").arg(selection.head);
    case FileWhat::Mean:
        return QStringLiteral("mean");
    case FileWhat::Model:
        return QStringLiteral("model");
    }
    return {};
}

std::optional<FileSelection> fileSelectionFromSpelling(QStringView text)
{
    if (text == u"mean")
        return FileSelection{FileWhat::Mean, 0};
    if (text == u"model")
        return FileSelection{FileWhat::Model, 0};
    if (text.startsWith(u"head:")) {
        bool ok = false;
        const int head = text.sliced(5).toInt(&ok);
        if (ok && head >= 0 && !text.sliced(5).startsWith(u'+'))
            return FileSelection{FileWhat::Head, head};
    }
    return std::nullopt;
}

QString allFileSelectionSpellings()
{
    return QStringLiteral("head:H|mean|model");
}

QImage thumbnailImage(const Thumbnail& thumbnail, const Colormap& colormap)
{
    // (rows, cols) → one pixel a cell
    QImage image(std::max(1, thumbnail.cols), std::max(1, thumbnail.rows), QImage::Format_RGB32);
    image.fill(colormap.color(0));
    const double scale = thumbnail.maximum > 0 ? 1.0 / thumbnail.maximum : 1.0;
    for (int r = 0; r < thumbnail.rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(r));
        for (int c = 0; c < thumbnail.cols; ++c) {
            const float value =
                thumbnail.values[std::size_t(r) * std::size_t(thumbnail.cols) + std::size_t(c)];
            line[c] = std::isfinite(value) ? colormap.color(std::max(0.0, value * scale))
                                           : heatmapInvalidFill;
        }
    }
    return image;
}

HeatmapData fileHeadHeatmap(const AttentionStack& stack, int layer, int sequence, int head)
{
    HeatmapData data = labelled(stack, sequence, stack.head(layer, sequence, head));
    // The head view's words (its context), which it shares.
    data.title = stack.shape().sequences > 1
                     ? QCoreApplication::translate("attn::ui::FileHeadDialog",
                                                   "Layer %1 · head %2 · sequence %3")
                           .arg(layer)
                           .arg(head)
                           .arg(sequence)
                     : QCoreApplication::translate("attn::ui::FileHeadDialog", "Layer %1 · head %2")
                           .arg(layer)
                           .arg(head);
    return data;
}

HeatmapData fileMeanHeatmap(const AttentionStack& stack, int layer, int sequence)
{
    HeatmapData data = labelled(stack, sequence, meanHead(stack, layer, sequence));
    data.title = stack.shape().sequences > 1
                     ? QCoreApplication::translate("attn::ui::FileHeadDialog",
                                                   "Layer %1 · mean of the heads · sequence %2")
                           .arg(layer)
                           .arg(sequence)
                     : QCoreApplication::translate("attn::ui::FileHeadDialog",
                                                   "Layer %1 · mean of the heads")
                           .arg(layer);
    return data;
}

HeatmapData fileHeatmap(const AttentionStack& stack, int layer, int sequence,
                        const FileSelection& selection)
{
    return selection.what == FileWhat::Mean
               ? fileMeanHeatmap(stack, layer, sequence)
               : fileHeadHeatmap(stack, layer, sequence, selection.head);
}

QString stackName(const AttentionStack& stack)
{
    const QString file = QFileInfo(QString::fromStdString(stack.source())).fileName();
    return stack.wordGrouped()
               ? QCoreApplication::translate("Figure", "%1 (by word)",
                                             "%1 names a model or file; its attention by word")
                     .arg(file)
               : file;
}

QString stackFileStem(const AttentionStack& stack)
{
    const QString stem = QFileInfo(QString::fromStdString(stack.source())).completeBaseName();
    return stack.wordGrouped()
               ? stem + u'-' +
                     QCoreApplication::translate("Figure", "by-word",
                                                 "part of a suggested file name: attention by "
                                                 "word; no spaces")
               : stem;
}

QString fileFigureCaption(const AttentionStack& stack, const FileFigureOptions& options)
{
    const StackShape& s = stack.shape();
    QStringList parts{stackName(stack)};
    switch (options.selection.what) {
    case FileWhat::Head:
        parts << QCoreApplication::translate("Figure", "layer %1").arg(options.layer)
              << QCoreApplication::translate("Figure", "head %1").arg(options.selection.head);
        break;
    case FileWhat::Mean:
        parts << QCoreApplication::translate("Figure", "layer %1").arg(options.layer)
              << QCoreApplication::translate("Figure", "mean of the heads (H = %1)").arg(s.heads);
        break;
    case FileWhat::Model:
        parts << QCoreApplication::translate("Figure", "layers × heads: %1 × %2",
                                             "the model figure's grid")
                     .arg(s.layers)
                     .arg(s.heads);
        break;
    }
    if (s.sequences > 1)
        parts << QCoreApplication::translate("Figure", "sequence %1 (B = %2)",
                                             "numbered from 0, as the file's")
                     .arg(options.sequence)
                     .arg(s.sequences);
    parts << QString::fromLatin1(elementName(stack.storedType()));
    if (stack.queryTokens(options.sequence).empty())
        parts << QCoreApplication::translate("Figure", "no tokens in the file");
    parts << options.captionNotes;
    return joinParts(parts);
}

FigureLayout fileHeadFigureLayout(const AttentionStack& stack, const FileFigureOptions& options)
{
    const double label = options.labelPointSize;
    FigureTile tile;
    tile.data = fileHeatmap(stack, options.layer, options.sequence, options.selection);
    for (QStringList* labels : {&tile.data.queryLabels, &tile.data.keyLabels})
        for (QString& token : *labels)
            token = printableToken(token);
    FigureLayout figure;
    figure.title = options.title.isEmpty() ? tile.data.title : options.title.simplified();
    tile.data.title.clear(); // the figure's title says it once
    tile.style.colormap = options.colormap;
    tile.style.annotate = options.annotate;
    tile.style.marginSums = options.marginSums;
    tile.style.colorbar = options.colorbar;
    tile.style.labelFont = figureFont(label);
    const float top = finiteMax(tile.data.weights);
    tile.style.vmax = top > 0 ? top : 1.0;
    if (options.logScale) {
        tile.style.logScale = true;
        tile.style.vmin = logScaleFloor(tile.style.vmax, tile.data.columns());
    }
    const int tokens = std::max(tile.data.rows(), tile.data.columns());
    double cell = figureCellSize(tokens, 1, label, options.annotate);
    cell = cellWithLabelsAcross(cell, tokens, tile, label);
    tile.layout = HeatmapLayout::forCellSize(tile.data, tile.style, cell, figureReferenceDevice());
    tile.origin = -tile.layout.boundingRect().topLeft();
    const QSizeF block = tile.layout.boundingRect().size();
    figure.tiles.push_back(std::move(tile));
    figure.titleFont = figureFont(1.6 * label, true);
    figure.caption = options.caption ? fileFigureCaption(stack, options) : QString();
    figure.captionFont = figureFont(0.9 * label);
    arrangeFigure(figure, block, label);
    return figure;
}

FigureDocument modelFigureDocument(const AttentionStack& stack, const FileFigureOptions& options)
{
    // The thumbnails of the model view (at most 32 × 32 cells, the largest of each block).
    constexpr int kThumbnailCells = 32;
    const StackShape& s = stack.shape();
    const double label = options.labelPointSize;

    // 1. The grid: tiles of 1.5 to 5 label heights, about 40 labels wide in all.
    auto grid = std::make_shared<ModelGridLayout>();
    grid->layers = s.layers;
    grid->heads = s.heads;
    grid->tile = std::clamp(40 * label / s.heads, 1.5 * label, 5 * label);
    grid->gap = std::max(1.0, 0.15 * grid->tile);
    grid->font = figureFont(0.9 * label);
    grid->layerWord = QCoreApplication::translate("Figure", "layer", "a row of the model figure");
    grid->headWord = QCoreApplication::translate("Figure", "head →", "the model figure's columns");
    const QFontMetricsF metrics(grid->font, figureReferenceDevice());
    grid->rowLabel = std::max(metrics.horizontalAdvance(grid->layerWord + QStringLiteral(" 00")),
                              metrics.horizontalAdvance(grid->headWord)) +
                     grid->gap + 0.4 * label;
    grid->header = metrics.height() + 0.3 * label;
    const Colormap colormap(options.colormap);
    for (const Thumbnail& thumbnail : stack.thumbnails(options.sequence, kThumbnailCells))
        grid->images.push_back(thumbnailImage(thumbnail, colormap));

    // 2. The title above, the caption below.
    auto figure = std::make_shared<FigureLayout>();
    figure->title = options.title.isEmpty()
                        ? QCoreApplication::translate("Figure", "Model view",
                                                      "the model figure's default title")
                        : options.title.simplified();
    figure->titleFont = figureFont(1.6 * label, true);
    figure->caption = options.caption ? fileFigureCaption(stack, options) : QString();
    figure->captionFont = figureFont(0.9 * label);
    QPointF origin;
    arrangeFigure(*figure, grid->size(), label, &origin);

    // 3. Painted as paintFigure paints a figure, the grid at the block's place.
    FigureDocument document = figureDocument(*figure);
    document.paint = [figure, grid, origin](QPainter& painter, const QRectF& target) {
        paintFigure(painter, target, *figure);
        const QSizeF size = figure->size;
        const double scale =
            std::min(target.width() / size.width(), target.height() / size.height());
        painter.save();
        painter.translate(target.center() -
                          QPointF(size.width() * scale / 2, size.height() * scale / 2));
        painter.scale(scale, scale);
        painter.translate(origin);
        paintModelGrid(painter, *grid);
        painter.restore();
    };
    document.cells = 0; // images, not cells one by one
    return document;
}

std::optional<QByteArray> fileFigureBytes(FigureFormat format, const AttentionStack& stack,
                                          const FileFigureOptions& options, QString* error)
{
    if (options.selection.what == FileWhat::Model)
        return documentBytes(format, modelFigureDocument(stack, options), pixelsPerPoint(options),
                             error);
    return figureLayoutBytes(format, fileHeadFigureLayout(stack, options), pixelsPerPoint(options),
                             error);
}

} // namespace attn::ui
