// The files of a figure (PNG, SVG, PDF) and of its numbers (CSV, NPY, JSON), and the
// spellings the command line and the file dialogs use for them.
#include "figure.h"

#include "exporters.h"
#include "report.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

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

// SVG viewers pick fonts themselves: a style sheet names the CJK families after the one
// the figure was measured with, so that a viewer without it still finds a CJK font, and
// finally any sans-serif one. (A style sheet outranks the font-family attributes.)
QByteArray withFallbackFamilies(QByteArray svg)
{
    const QStringList& families = figureFontFamilies();
    QStringList quoted = {u'\'' + families.first() + u'\''};
    for (const QString& family :
         families.sliced(families.indexOf(QStringLiteral("Noto Sans CJK SC"))))
        quoted << u'\'' + family + u'\'';
    const QByteArray style = "<style type=\"text/css\">text { font-family: " +
                             quoted.join(QStringLiteral(", ")).toUtf8() +
                             ", sans-serif; }</style>\n";
    const qsizetype defs = svg.indexOf("<defs>");
    return defs < 0 ? svg : svg.insert(defs, style);
}

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

std::optional<QByteArray> pngBytes(const FigureLayout& layout, double pixelsPerPoint,
                                   QString* error)
{
    QImage image = renderFigureImage(layout, pixelsPerPoint);
    if (image.isNull()) {
        *error = tooLarge(QSize(qRound(layout.size.width() * pixelsPerPoint),
                                qRound(layout.size.height() * pixelsPerPoint)));
        return std::nullopt;
    }
    image.setText(QStringLiteral("Title"), documentTitle(layout));
    image.setText(QStringLiteral("Description"), layout.caption);
    image.setText(QStringLiteral("Software"), QStringLiteral("AttnScope"));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        *error = QCoreApplication::translate("Figure", "Cannot encode the figure as PNG.");
        return std::nullopt;
    }
    return bytes;
}

constexpr char kTitleMark[] = "attnscope-figure-title";
constexpr char kDescriptionMark[] = "attnscope-figure-description";

std::optional<QByteArray> svgBytes(const FigureLayout& layout, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QSize points = layout.size.toSize();
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(72); // one SVG unit per point
    svg.setSize(points);
    svg.setViewBox(QRect(QPoint(0, 0), points));
    // Qt 6.4 writes <title> and <desc> unescaped: they are filled in below instead.
    svg.setTitle(QLatin1StringView(kTitleMark));
    svg.setDescription(QLatin1StringView(kDescriptionMark));
    QPainter painter;
    if (!painter.begin(&svg)) {
        *error = QCoreApplication::translate("Figure", "Cannot draw the figure as SVG.");
        return std::nullopt;
    }
    paintFigure(painter, QRectF(QPointF(0, 0), layout.size), layout);
    painter.end();
    const auto element = [](const char* name, const QString& text) {
        return '<' + QByteArray(name) + '>' + text.toHtmlEscaped().toUtf8() + "</" + name + '>';
    };
    bytes.replace(element("title", QLatin1StringView(kTitleMark)),
                  element("title", documentTitle(layout)));
    bytes.replace(element("desc", QLatin1StringView(kDescriptionMark)),
                  element("desc", layout.caption));
    return withFallbackFamilies(bytes);
}

std::optional<QByteArray> pdfBytes(const FigureLayout& layout, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    // One page exactly the figure's size, no margins.
    const QPageSize page(layout.size, QPageSize::Point, QString(), QPageSize::ExactMatch);
    // Portrait keeps the size as given; Landscape would swap a wide figure's sides.
    pdf.setPageLayout(
        QPageLayout(page, QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Point));
    pdf.setTitle(documentTitle(layout));
    pdf.setCreator(QStringLiteral("AttnScope"));
    QPainter painter;
    if (!painter.begin(&pdf)) {
        *error = QCoreApplication::translate("Figure", "Cannot draw the figure as PDF.");
        return std::nullopt;
    }
    paintFigure(painter, QRectF(0, 0, pdf.width(), pdf.height()), layout);
    painter.end();
    return bytes;
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
    switch (format) {
    case FigureFormat::Png:
        return pngBytes(layout, pixelsPerPoint, &reason);
    case FigureFormat::Svg:
    case FigureFormat::Pdf:
        break;
    case FigureFormat::Csv:
    case FigureFormat::Npy:
    case FigureFormat::Json:
        reason = QCoreApplication::translate("Figure", "%1 is not a figure format.")
                     .arg(formatSpelling(format));
        return std::nullopt;
    }
    if (const qint64 cells = cellCount(layout); cells > kMaxVectorCells) {
        reason =
            QCoreApplication::translate("Figure", "The figure has %1 cells, too many for a vector "
                                                  "file (at most %2); export a PNG instead.")
                .arg(cells)
                .arg(kMaxVectorCells);
        return std::nullopt;
    }
    return format == FigureFormat::Svg ? svgBytes(layout, &reason) : pdfBytes(layout, &reason);
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
            .arg(QDir::toNativeSeparators(path), file.errorString());
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
