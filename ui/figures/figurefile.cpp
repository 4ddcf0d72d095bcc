// The files of a figure (PNG, SVG, PDF) and of its numbers (CSV, NPY, JSON), and the
// spellings the command line and the file dialogs use for them.
#include "figure.h"

#include "exporters.h"
#include "figureencoding.h"
#include "report.h"
#include "systemerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QStandardPaths>

#include <algorithm>
#include <iterator>

namespace attn::ui {
namespace {

// The one table of export formats: spelling (also the file suffix) and dialog filter.
struct FormatRow {
    FigureFormat format;
    const char* spelling;
    const char* filter;
};

constexpr FormatRow kFormats[] = {
    {FigureFormat::Png, "png", QT_TRANSLATE_NOOP("Figure", "PNG image (*.png)")},
    {FigureFormat::Svg, "svg", QT_TRANSLATE_NOOP("Figure", "SVG vector image (*.svg)")},
    {FigureFormat::Pdf, "pdf", QT_TRANSLATE_NOOP("Figure", "PDF document (*.pdf)")},
    {FigureFormat::Csv, "csv", QT_TRANSLATE_NOOP("Figure", "CSV table (*.csv)")},
    {FigureFormat::Npy, "npy", QT_TRANSLATE_NOOP("Figure", "NumPy array of the weights (*.npy)")},
    {FigureFormat::Json, "json", QT_TRANSLATE_NOOP("Figure", "JSON with every number (*.json)")},
};

const FormatRow& formatRow(FigureFormat format)
{
    const auto* row = std::ranges::find(kFormats, format, &FormatRow::format);
    Q_ASSERT(row != std::end(kFormats));
    return *row;
}

// The one table of --what spellings; "head:" takes the head's number after the colon.
struct SelectionRow {
    FigureWhat what;
    QLatin1StringView spelling;
};

constexpr SelectionRow kSelections[] = {
    {FigureWhat::Grid, QLatin1StringView("heads")},
    {FigureWhat::Mean, QLatin1StringView("mean")},
    {FigureWhat::Head, QLatin1StringView("head:")},
};

QString tooLarge(QSize pixels)
{
    return QCoreApplication::translate("Figure",
                                       "The figure would be %1 × %2 pixels, more than %3 on a "
                                       "side; lower the scale or the DPI.")
        .arg(pixels.width())
        .arg(pixels.height())
        .arg(kMaxFigurePixels);
}

qint64 cellCount(const FigureLayout& layout)
{
    qint64 cells = 0;
    for (const FigureTile& tile : layout.tiles)
        cells += qint64(tile.data.rows()) * tile.data.columns();
    return cells;
}

QString documentTitle(const FigureLayout& layout)
{
    return layout.title.isEmpty()
               ? QCoreApplication::translate("Figure", "Attention weights", "figure file title")
               : layout.title;
}

// The heatmap figure as a document: its size, title, caption and painting. An SVG viewer
// is told the measured family, then the CJK ones, then sans-serif.
FigureDocument figureDocument(const FigureLayout& layout)
{
    const QStringList& families = figureFontFamilies();
    QStringList svgFamilies = {families.first()};
    svgFamilies << families.sliced(families.indexOf(QStringLiteral("Noto Sans CJK SC")));
    return {layout.size, documentTitle(layout), layout.caption, svgFamilies,
            [&layout](QPainter& painter, const QRectF& target) {
                paintFigure(painter, target, layout);
            }};
}

std::optional<QByteArray> pngBytes(const FigureLayout& layout, double pixelsPerPoint,
                                   QString* error)
{
    QImage image = renderFigureImage(layout, pixelsPerPoint);
    if (image.isNull()) {
        *error = tooLarge(QSize(qRound(layout.size.width() * pixelsPerPoint),
                                qRound(layout.size.height() * pixelsPerPoint)));
        return std::nullopt;
    }
    return encodePng(std::move(image), figureDocument(layout), error);
}

} // namespace

bool isFigureFormat(FigureFormat format)
{
    return format == FigureFormat::Png || format == FigureFormat::Svg ||
           format == FigureFormat::Pdf;
}

QString formatSpelling(FigureFormat format)
{
    return QString::fromLatin1(formatRow(format).spelling);
}

std::optional<FigureFormat> formatFromSpelling(QStringView text)
{
    for (const FormatRow& row : kFormats)
        if (text.compare(QLatin1StringView(row.spelling), Qt::CaseInsensitive) == 0)
            return row.format;
    return std::nullopt;
}

std::optional<FigureFormat> formatFromPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix();
    if (suffix.isEmpty())
        return std::nullopt;
    return formatFromSpelling(suffix);
}

QString allFormatSpellings()
{
    QStringList spellings;
    for (const FormatRow& row : kFormats)
        spellings << QString::fromLatin1(row.spelling);
    return spellings.join(QLatin1Char('|'));
}

QString formatFilter(FigureFormat format)
{
    return QCoreApplication::translate("Figure", formatRow(format).filter);
}

QString& lastExportDirectory()
{
    static QString directory = [] {
        const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        return pictures.isEmpty() ? QDir::homePath() : pictures;
    }();
    return directory;
}

QString chooseExportPath(QWidget* parent, const QString& title, const QString& suggestedName,
                         std::span<const FigureFormat> formats)
{
    QStringList filters;
    for (const FigureFormat format : formats)
        filters << formatFilter(format);
    QString filter = filters.first();
    QString path = QFileDialog::getSaveFileName(parent, title,
                                                QDir(lastExportDirectory()).filePath(suggestedName),
                                                filters.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += u'.' + formatSpelling(
                           formats[std::size_t(std::max<qsizetype>(0, filters.indexOf(filter)))]);
    lastExportDirectory() = QFileInfo(path).absolutePath();
    return path;
}

void chooseAndExport(QWidget* parent, const QString& title, const QString& suggestedName,
                     std::span<const FigureFormat> formats,
                     const std::function<QString(const QString& path)>& write)
{
    const QString path = chooseExportPath(parent, title, suggestedName, formats);
    if (path.isEmpty())
        return;
    if (const QString error = write(path); !error.isEmpty())
        QMessageBox::warning(parent, title, error);
}

std::optional<FigureFormat> figureFormatOfPath(const QString& path, QString* error)
{
    const std::optional<FigureFormat> format = formatFromPath(path);
    if (format && isFigureFormat(*format))
        return format;
    *error = QCoreApplication::translate(
                 "Figure", "Cannot tell the format of %1: name it .png, .svg or .pdf.")
                 .arg(QDir::toNativeSeparators(path));
    return std::nullopt;
}

QString selectionSpelling(const FigureSelection& selection)
{
    const auto* row = std::ranges::find(kSelections, selection.what, &SelectionRow::what);
    Q_ASSERT(row != std::end(kSelections));
    return selection.what == FigureWhat::Head ? row->spelling + QString::number(selection.head)
                                              : QString(row->spelling);
}

std::optional<FigureSelection> selectionFromSpelling(QStringView text)
{
    for (const SelectionRow& row : kSelections) {
        if (row.what != FigureWhat::Head) {
            if (text == row.spelling)
                return FigureSelection{row.what, 0};
            continue;
        }
        if (!text.startsWith(row.spelling))
            continue;
        const QStringView number = text.sliced(row.spelling.size());
        // Digits only: no sign, no spaces, at most what an int holds comfortably.
        if (number.isEmpty() || number.size() > 6 ||
            !std::ranges::all_of(number, [](QChar c) { return c >= u'0' && c <= u'9'; }))
            return std::nullopt;
        return FigureSelection{FigureWhat::Head, number.toInt()};
    }
    return std::nullopt;
}

QString allSelectionSpellings()
{
    QStringList spellings;
    for (const SelectionRow& row : kSelections)
        spellings << (row.what == FigureWhat::Head ? row.spelling + u'N' : QString(row.spelling));
    return spellings.join(u'|');
}

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
    if (format == FigureFormat::Png)
        return pngBytes(layout, pixelsPerPoint, &reason);
    return vectorFigureBytes(format, figureDocument(layout), cellCount(layout), &reason);
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

QString writeFigureFile(const QString& path, const QByteArray& bytes)
{
    // QSaveFile writes a temporary file beside `path` and renames it on commit; until
    // then, and on any failure, an existing file stays as it was.
    QSaveFile file(path);
    const auto failure = [&] {
        return QCoreApplication::translate("Figure", "Cannot write %1: %2")
            .arg(QDir::toNativeSeparators(path), systemErrorText(file.errorString()));
    };
    if (!file.open(QIODevice::WriteOnly))
        return failure();
    if (file.write(bytes) != bytes.size()) {
        const QString reason = failure();
        file.cancelWriting();
        return reason;
    }
    if (!file.commit())
        return failure();
    return {};
}

} // namespace attn::ui
