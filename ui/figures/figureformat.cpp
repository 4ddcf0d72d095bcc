#include "figureformat.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

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

} // namespace attn::ui
