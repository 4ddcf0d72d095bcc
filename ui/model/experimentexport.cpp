#include "experimentexport.h"

#include "exportpath.h"
#include "figurefile.h"
#include "formats/exporters.h" // csvField
#include "modelcomparison.h"   // modelDepartures

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr double kLabelPoints = 10;
constexpr double kPixelsPerPoint = 2.0; // PNG
constexpr double kMargin = 12;          // points around a table figure
constexpr double kTileGap = 18;         // points between heatmaps side by side

} // namespace

QString exportExperimentTo(const QString& path, const ExperimentBytes& bytes)
{
    const std::optional<FigureFormat> format = formatFromPath(path);
    if (!format || std::find(kExperimentFormats.begin(), kExperimentFormats.end(), *format) ==
                       kExperimentFormats.end())
        return QCoreApplication::translate(
                   "ExperimentExport",
                   "Cannot tell the format of %1: name it .png, .svg, .pdf, .csv or .json.")
            .arg(QFileInfo(path).fileName());
    QString error;
    const std::optional<QByteArray> file = bytes(*format, &error);
    if (!file)
        return error.isEmpty() ? QCoreApplication::translate("ExperimentExport",
                                                             "There is nothing to export yet.")
                               : error;
    return writeFigureFile(path, *file);
}

void exportExperimentInteractively(QWidget* parent, const QString& title, const QString& stem,
                                   const ExperimentBytes& bytes)
{
    chooseAndExport(parent, title, stem, kExperimentFormats,
                    [&bytes](const QString& path) { return exportExperimentTo(path, bytes); });
}

HeatmapData layerHeadData(const std::vector<std::vector<double>>& grid, const QString& title)
{
    const int L = int(grid.size()), H = grid.empty() ? 0 : int(grid.front().size());
    Matrix values(L, H);
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h)
            values(l, h) = float(grid[std::size_t(l)][std::size_t(h)]);
    HeatmapData data;
    data.weights = std::move(values);
    data.title = title;
    for (int l = 0; l < L; ++l)
        data.queryLabels << QCoreApplication::translate("ExperimentExport", "layer %1",
                                                        "a row of a layers × heads grid")
                                .arg(l);
    for (int h = 0; h < H; ++h)
        data.keyLabels << QCoreApplication::translate("ExperimentExport", "head %1",
                                                      "a column of a layers × heads grid")
                              .arg(h);
    return data;
}

FigureLayout heatmapsFigure(std::vector<FigureHeatmap> heatmaps, const QString& title,
                            const QString& caption)
{
    FigureLayout figure;
    figure.title = title;
    figure.titleFont = figureFont(1.6 * kLabelPoints, true);
    figure.caption = caption;
    figure.captionFont = figureFont(0.9 * kLabelPoints);
    // 1. Each heatmap laid out on its own, in a row left to right, tops aligned.
    double x = 0, height = 0;
    for (FigureHeatmap& heatmap : heatmaps) {
        FigureTile tile;
        tile.data = std::move(heatmap.data);
        for (QStringList* labels : {&tile.data.queryLabels, &tile.data.keyLabels})
            for (QString& label : *labels)
                label = printableToken(label);
        tile.style = heatmap.style;
        tile.style.labelFont = figureFont(kLabelPoints);
        const int cells = std::max(tile.data.rows(), tile.data.columns());
        double cell =
            figureCellSize(cells, int(heatmaps.size()), kLabelPoints, tile.style.annotate);
        cell = cellWithLabelsAcross(cell, cells, tile, kLabelPoints);
        tile.layout =
            HeatmapLayout::forCellSize(tile.data, tile.style, cell, figureReferenceDevice());
        const QRectF bounds = tile.layout.boundingRect();
        tile.origin = QPointF(x, 0) - bounds.topLeft();
        x += bounds.width() + kTileGap;
        height = std::max(height, bounds.height());
        figure.tiles.push_back(std::move(tile));
    }
    // 2. The title above and the caption below.
    arrangeFigure(figure, QSizeF(std::max(0.0, x - kTileGap), height), kLabelPoints);
    return figure;
}

std::optional<QByteArray> heatmapsFigureBytes(FigureFormat format, const FigureLayout& layout,
                                              QString* error)
{
    return figureLayoutBytes(format, layout, kPixelsPerPoint, error);
}

std::optional<QByteArray> tableFigureBytes(FigureFormat format, const TableFigure& table,
                                           QString* error)
{
    const int rows = int(table.rowLabels.size()), columns = int(table.columnLabels.size());
    if (rows == 0 || columns == 0 || int(table.texts.size()) != rows * columns) {
        *error = QCoreApplication::translate("ExperimentExport", "There is nothing to export yet.");
        return std::nullopt;
    }
    // 1. Measured on the figures' reference device, in points.
    const QFont font = figureFont(kLabelPoints);
    const QFont titleFont = figureFont(1.6 * kLabelPoints, true);
    const QFont captionFont = figureFont(0.9 * kLabelPoints);
    const QFontMetricsF metrics(font, figureReferenceDevice());
    const QFontMetricsF titleMetrics(titleFont, figureReferenceDevice());
    const QFontMetricsF captionMetrics(captionFont, figureReferenceDevice());
    const double pad = 4, rowHeight = metrics.height() + 2 * pad;
    double labelWidth = 0;
    for (const QString& label : table.rowLabels)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(printableToken(label)));
    labelWidth += 2 * pad;
    std::vector<double> widths(std::size_t(columns), 0.0);
    for (int c = 0; c < columns; ++c) {
        double w = metrics.horizontalAdvance(printableToken(table.columnLabels[c]));
        for (int r = 0; r < rows; ++r)
            w = std::max(w, metrics.horizontalAdvance(
                                printableToken(table.texts[std::size_t(r * columns + c)])));
        widths[std::size_t(c)] = w + 2 * pad;
    }
    double gridWidth = labelWidth;
    for (const double w : widths)
        gridWidth += w;
    const double width = std::max(gridWidth, titleMetrics.horizontalAdvance(table.title));
    const QRectF captionBox = captionMetrics.boundingRect(QRectF(0, 0, std::max(width, 360.0), 1e6),
                                                          Qt::TextWordWrap, table.caption);
    const double titleHeight = titleMetrics.height() + pad;
    const double gridHeight = rowHeight * (rows + 1);
    auto layout = std::make_shared<const TableFigure>(table);
    const QSizeF size(
        std::ceil(std::max(width, captionBox.width()) + 2 * kMargin),
        std::ceil(titleHeight + gridHeight + captionBox.height() + pad + 2 * kMargin));

    // 2. The document: title, column labels, the rows, the caption.
    FigureDocument document;
    document.size = size;
    document.title = table.title;
    document.description = table.caption;
    document.svgFamilies = figureFontFamilies();
    document.cells = qint64(rows) * columns;
    document.paint = [=](QPainter& painter, const QRectF& target) {
        painter.fillRect(target, Qt::white);
        painter.save();
        painter.translate(target.topLeft());
        painter.scale(target.width() / size.width(), target.height() / size.height());
        painter.setPen(Qt::black);
        painter.setFont(titleFont);
        painter.drawText(QRectF(kMargin, kMargin, width, titleHeight), Qt::AlignLeft,
                         layout->title);
        painter.setFont(font);
        const double top = kMargin + titleHeight;
        double x = kMargin + labelWidth;
        for (int c = 0; c < columns; ++c) {
            const double w = widths[std::size_t(c)];
            painter.setPen(Qt::black);
            painter.drawText(QRectF(x, top, w, rowHeight), Qt::AlignCenter,
                             printableToken(layout->columnLabels[c]));
            for (int r = 0; r < rows; ++r) {
                const std::size_t k = std::size_t(r * columns + c);
                const QRectF cell(x, top + rowHeight * (r + 1), w, rowHeight);
                const QColor fill = k < layout->fills.size() ? layout->fills[k] : Qt::white;
                painter.fillRect(cell, fill);
                painter.setPen(fill.lightnessF() > 0.55 ? Qt::black : Qt::white);
                painter.drawText(cell, Qt::AlignCenter, printableToken(layout->texts[k]));
            }
            x += w;
        }
        painter.setPen(Qt::black);
        for (int r = 0; r < rows; ++r)
            painter.drawText(
                QRectF(kMargin, top + rowHeight * (r + 1), labelWidth - pad, rowHeight),
                Qt::AlignRight | Qt::AlignVCenter, printableToken(layout->rowLabels[r]));
        painter.setFont(captionFont);
        painter.drawText(
            QRectF(kMargin, top + gridHeight + pad, captionBox.width(), captionBox.height()),
            Qt::TextWordWrap, layout->caption);
        painter.restore();
    };
    // 3. The file.
    return documentBytes(format, document, kPixelsPerPoint, error);
}

QByteArray csvNumber(double value)
{
    return QByteArray::number(value, 'g', 17);
}

QByteArray csvText(const QString& text)
{
    return QByteArray::fromStdString(csvField(text.toStdString()));
}

QByteArray experimentJson(const ModelRun& run, ModelRunExtras extras)
{
    extras.weights = false;
    return QByteArray::fromStdString(modelRunJson(run, 10, extras));
}

QString runCaption(const ModelRun& run)
{
    const ModelInfo& info = run.model->info();
    const QStringList departures = modelDepartures(run.switches, info);
    const QString formula =
        departures.isEmpty()
            ? QCoreApplication::translate("ExperimentExport", "the textbook formula")
            : QCoreApplication::translate("ExperimentExport", "departs from the textbook: %1")
                  .arg(departures.join(QCoreApplication::translate(
                      "ExperimentExport", "; ", "separator between departures")));
    return QCoreApplication::translate("ExperimentExport",
                                       "%1 · %2 layers × %3 heads · %4 tokens · %5")
        .arg(QString::fromStdString(info.name))
        .arg(info.layers)
        .arg(info.heads)
        .arg(run.ids.size())
        .arg(formula);
}

} // namespace attn::ui
