// The files of a figure (PNG, SVG, PDF) and of its numbers (CSV, NPY, JSON).
#include "figurefile.h"

#include "formats/exporters.h"
#include "formats/report.h"

#include <QCoreApplication>
#include <QPainter>

namespace attn::ui {
namespace {

QString tooLarge(QSize pixels)
{
    return QCoreApplication::translate("Figure",
                                       "The figure would be %1 × %2 pixels, more than %3 on a "
                                       "side; lower the scale or the DPI.")
        .arg(pixels.width())
        .arg(pixels.height())
        .arg(kMaxFigurePixels);
}

} // namespace

std::optional<QByteArray> figureBytes(FigureFormat format, const Result& result,
                                      const FigureOptions& options, QString* error)
{
    QString scratch;
    QString& reason = error ? *error : scratch;
    if (!result.valid()) {
        reason = QCoreApplication::translate("Figure", "There is nothing to export yet.");
        return std::nullopt;
    }
    switch (format) {
    case FigureFormat::Csv:
        return QByteArray::fromStdString(csvReport(result));
    case FigureFormat::Npy:
        return QByteArray::fromStdString(npyWeights(result));
    case FigureFormat::Json:
        return QByteArray::fromStdString(jsonReport(result));
    case FigureFormat::Png:
    case FigureFormat::Svg:
    case FigureFormat::Pdf:
        break;
    }
    const double pixelsPerPoint = options.dpi > 0 ? options.dpi / 72.0 : options.scale;
    return figureLayoutBytes(format, figureLayout(result, options), pixelsPerPoint, &reason);
}

std::optional<QByteArray> figureLayoutBytes(FigureFormat format, const FigureLayout& layout,
                                            double pixelsPerPoint, QString* error)
{
    QString scratch;
    QString& reason = error ? *error : scratch;
    if (layout.size.isEmpty()) {
        reason = QCoreApplication::translate("Figure", "There is nothing to export yet.");
        return std::nullopt;
    }
    return documentBytes(format, figureDocument(layout), pixelsPerPoint, &reason);
}

std::optional<QByteArray> documentBytes(FigureFormat format, const FigureDocument& document,
                                        double pixelsPerUnit, QString* error)
{
    QString scratch;
    QString& reason = error ? *error : scratch;
    if (format != FigureFormat::Png)
        return vectorFigureBytes(format, document, document.cells, &reason);
    QImage image = renderDocument(document, pixelsPerUnit);
    if (image.isNull()) {
        const QSize units = documentUnits(document);
        reason = tooLarge(
            QSize(qRound(units.width() * pixelsPerUnit), qRound(units.height() * pixelsPerUnit)));
        return std::nullopt;
    }
    return encodePng(std::move(image), document, &reason);
}

std::optional<QByteArray> vectorFigureBytes(FigureFormat format, const FigureDocument& document,
                                            qint64 cells, QString* error)
{
    if (format != FigureFormat::Svg && format != FigureFormat::Pdf) {
        *error = QCoreApplication::translate("Figure", "%1 is not a figure format.")
                     .arg(formatSpelling(format));
        return std::nullopt;
    }
    if (cells > kMaxVectorCells) {
        *error =
            QCoreApplication::translate("Figure", "The figure has %1 cells, too many for a vector "
                                                  "file (at most %2); export a PNG instead.")
                .arg(cells)
                .arg(kMaxVectorCells);
        return std::nullopt;
    }
    return format == FigureFormat::Svg ? encodeSvg(document, error) : encodePdf(document, error);
}

QString exportFigure(const QString& path, FigureFormat format, const Result& result,
                     const FigureOptions& options)
{
    QString error;
    const std::optional<QByteArray> bytes = figureBytes(format, result, options, &error);
    return bytes ? writeFigureFile(path, *bytes) : error;
}

} // namespace attn::ui
