#include "figureencoding.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>

#include <algorithm>

namespace attn::ui {
namespace {

constexpr char kTitleMark[] = "attnscope-figure-title";
constexpr char kDescriptionMark[] = "attnscope-figure-description";

// SVG viewers pick fonts themselves: a style sheet (which outranks the font-family
// attributes) names the families, so a viewer without the measured one still finds a
// CJK font, and finally any sans-serif one.
QByteArray withFamilies(QByteArray svg, const QStringList& families)
{
    QStringList quoted;
    for (const QString& family : families)
        quoted << u'\'' + family + u'\'';
    const QByteArray style = "<style type=\"text/css\">text { font-family: " +
                             quoted.join(QStringLiteral(", ")).toUtf8() +
                             ", sans-serif; }</style>\n";
    const qsizetype defs = svg.indexOf("<defs>");
    return defs < 0 ? svg : svg.insert(defs, style);
}

} // namespace

QSize documentUnits(const FigureDocument& document)
{
    return (document.size * (document.vectorResolution / 72.0)).toSize();
}

QImage renderDocument(const FigureDocument& document, double pixelsPerUnit)
{
    const QSize units = documentUnits(document);
    const QSize pixels(std::max(1, qRound(units.width() * pixelsPerUnit)),
                       std::max(1, qRound(units.height() * pixelsPerUnit)));
    if (units.isEmpty() || !(pixelsPerUnit > 0) || pixels.width() > kMaxFigurePixels ||
        pixels.height() > kMaxFigurePixels)
        return {};
    QImage image(pixels, QImage::Format_RGB32);
    if (image.isNull())
        return {};
    image.fill(Qt::white);
    image.setDevicePixelRatio(pixelsPerUnit);
    // A unit is 1/vectorResolution inch, so the image holds that many times pixelsPerUnit
    // pixels per inch.
    // The painter resolves point sizes at the image's resolution in device-independent
    // units: the document's own while painting (fonts as measured when it was laid out),
    // the file's pixels per inch afterwards.
    const int paintedDotsPerMeter = qRound(document.vectorResolution / 0.0254);
    image.setDotsPerMeterX(paintedDotsPerMeter);
    image.setDotsPerMeterY(paintedDotsPerMeter);
    {
        QPainter painter(&image);
        document.paint(painter, QRectF(QPointF(0, 0), QSizeF(units)));
    }
    const int dotsPerMeter = qRound(document.vectorResolution * pixelsPerUnit / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    return image;
}

std::optional<QByteArray> encodePng(QImage image, const FigureDocument& document, QString* error)
{
    image.setText(QStringLiteral("Title"), document.title);
    image.setText(QStringLiteral("Description"), document.description);
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

std::optional<QByteArray> encodeSvg(const FigureDocument& document, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // One SVG unit per point at the usual 72 units per inch.
    const QSize units = documentUnits(document);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setResolution(document.vectorResolution);
    svg.setSize(units);
    svg.setViewBox(QRect(QPoint(0, 0), units));
    // Qt 6.4 writes <title> and <desc> unescaped: they are filled in below instead.
    svg.setTitle(QLatin1StringView(kTitleMark));
    svg.setDescription(QLatin1StringView(kDescriptionMark));
    QPainter painter;
    if (!painter.begin(&svg)) {
        *error = QCoreApplication::translate("Figure", "Cannot draw the figure as SVG.");
        return std::nullopt;
    }
    document.paint(painter, QRectF(QPointF(0, 0), QSizeF(units)));
    painter.end();
    const auto element = [](const char* name, const QString& text) {
        return '<' + QByteArray(name) + '>' + text.toHtmlEscaped().toUtf8() + "</" + name + '>';
    };
    bytes.replace(element("title", QLatin1StringView(kTitleMark)),
                  element("title", document.title));
    bytes.replace(element("desc", QLatin1StringView(kDescriptionMark)),
                  element("desc", document.description));
    return withFamilies(bytes, document.svgFamilies);
}

std::optional<QByteArray> encodePdf(const FigureDocument& document, QString* error)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    const QPageSize page(document.size, QPageSize::Point, QString(), QPageSize::ExactMatch);
    // Portrait keeps the size as given; Landscape would swap a wide figure's sides.
    pdf.setPageLayout(
        QPageLayout(page, QPageLayout::Portrait, QMarginsF(0, 0, 0, 0), QPageLayout::Point));
    // A figure laid out in points is painted at the writer's own 1200 dpi (it scales to
    // the target); a widget at its screen's resolution, so that its fonts fit its layout.
    if (document.vectorResolution != 72)
        pdf.setResolution(document.vectorResolution);
    pdf.setTitle(document.title);
    pdf.setCreator(QStringLiteral("AttnScope"));
    QPainter painter;
    if (!painter.begin(&pdf)) {
        *error = QCoreApplication::translate("Figure", "Cannot draw the figure as PDF.");
        return std::nullopt;
    }
    document.paint(painter, QRectF(0, 0, pdf.width(), pdf.height()));
    painter.end();
    return bytes;
}

} // namespace attn::ui
