// Step by step's tiles laid out and painted from their data, the strip's flow and arrows,
// and the strip as a figure file: one drawing for the screen and the file.
#include "pipelinefigure.h"

#include "figure.h"
#include "figurefile.h"
#include "heatmappainter.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QPainter>
#include <QPainterPath>
#include <QScreen>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr double kPad = 10;           // inside a tile, around its parts; around the appendix
constexpr double kMinTextWidth = 250; // the header wraps at this width at least
constexpr double kTargetExtent = 260; // a matrix's longer side, when its cells allow
constexpr double kMaxCell = 40;
constexpr double kMaxExtent = 1400; // beyond it cells shrink and labels thin out

QFont scaled(QFont font, double factor, bool bold = false)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(std::max(1, qRound(font.pixelSize() * factor)));
    font.setBold(bold);
    return font;
}

QFont monospace(const QFont& like)
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (like.pointSizeF() > 0)
        font.setPointSizeF(like.pointSizeF());
    else
        font.setPixelSize(like.pixelSize());
    return font;
}

// Square cells: large enough for a token label per row, small enough that the longer
// side stays near kTargetExtent, and never past kMaxExtent. A matrix of a few tokens by
// many features (X, Q_h, K_h, V_h at d_model 512) keeps rows a label tall, its columns
// narrower: square cells there were 2–3 px a row.
QSizeF cellSizeFor(int rows, int columns, double lineHeight)
{
    const double extent = std::max({rows, columns, 1});
    const double cell = std::clamp(kTargetExtent / extent, lineHeight + 2, kMaxCell);
    const double width = std::max(2.0, std::min(cell, kMaxExtent / extent));
    const double height = std::max(width, std::min(lineHeight + 2, kMaxExtent / std::max(rows, 1)));
    return {width, height};
}

// The rectangle `text` takes when wrapped at `width`, placed at (x, y).
QRectF wrapped(const QFont& font, const QString& text, double x, double y, double width,
               const QPaintDevice* device)
{
    if (text.isEmpty())
        return QRectF(x, y, width, 0);
    const QRectF bounds =
        QFontMetricsF(font, device).boundingRect(QRectF(0, 0, width, 1e6), Qt::TextWordWrap, text);
    return QRectF(x, y, width, std::ceil(bounds.height()));
}

// The logical DPI fonts are measured at on `device`, or on the screen.
int logicalDpi(const QPaintDevice* device)
{
    if (device)
        return std::max(1, device->logicalDpiX());
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? std::max(1, qRound(screen->logicalDotsPerInchX())) : 96;
}

} // namespace

QRectF TilePlacement::cellRect(int row, int column) const
{
    return heatmap.cellRect(row, column).translated(heatmapOrigin);
}

HeatmapStyle paintedTileStyle(const StageTile& tile, const QFont& font, const QPalette& palette,
                              QPoint highlight)
{
    HeatmapStyle style = tile.style;
    style.labelFont = scaled(font, 0.9);
    style.textColor = palette.color(QPalette::Text);
    style.highlightRow = highlight.x();
    style.highlightCol = highlight.y();
    return style;
}

TilePlacement placeTile(const StageTile& tile, const HeatmapStyle& painted, const QFont& font,
                        const QPaintDevice* device)
{
    TilePlacement placed;
    // 1. The matrix at a cell size that shows every token label.
    const double lineHeight = QFontMetricsF(painted.labelFont, device).height();
    const QSizeF cell = cellSizeFor(tile.heatmap.rows(), tile.heatmap.columns(), lineHeight);
    placed.heatmap = HeatmapLayout::forCellSize(tile.heatmap, painted, cell, device);
    const QSizeF heatmap = placed.heatmap.boundingRect().size();

    // 2. The header wraps at the matrix's width, or kMinTextWidth when it is narrower.
    const double width = std::max(heatmap.width(), kMinTextWidth);
    double y = kPad;
    placed.title = wrapped(scaled(font, 1.1, true), tile.title, kPad, y, width, device);
    y = placed.title.bottom() + 2;
    placed.formula = wrapped(font, tile.formula, kPad, y, width, device);
    y = placed.formula.bottom() + 2;
    placed.shape = wrapped(monospace(font), tile.shape, kPad, y, width, device);
    y = placed.shape.bottom() + 2;
    placed.note = wrapped(scaled(font, 0.9), tile.note, kPad, y, width, device);
    y = placed.note.bottom() + kPad / 2;

    // 3. The matrix, centred, and what its axes are below it.
    placed.heatmapOrigin = QPointF(kPad + (width - heatmap.width()) / 2, y);
    y += heatmap.height();
    placed.axes = wrapped(scaled(font, 0.9), tile.axes, kPad, y, width, device);
    y = placed.axes.bottom() + kPad;
    placed.size = QSize(int(std::ceil(width + 2 * kPad)), int(std::ceil(y)));
    return placed;
}

void paintTile(QPainter& painter, const StageTile& tile, const TilePlacement& placement,
               const HeatmapStyle& painted, const QFont& font, const QPalette& palette,
               bool focused, CellImageCache* cache, TextCache* texts)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);

    // The card: the base colour, a thin frame; tiles one can click get an accent frame.
    const QRectF card = QRectF(QPointF(), QSizeF(placement.size)).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.setPen(QPen(palette.color(QPalette::Mid), 1));
    painter.setBrush(palette.color(QPalette::Base));
    painter.drawRoundedRect(card, 6, 6);
    if (tile.explainsCells()) {
        painter.setPen(QPen(palette.color(QPalette::Highlight), 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(card.adjusted(1, 1, -1, -1), 5, 5);
    }

    const auto text = [&](const QRectF& where, const QFont& inFont, const QColor& color,
                          const QString& line) {
        painter.setFont(inFont);
        painter.setPen(color);
        painter.drawText(where, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, line);
    };
    const QColor ink = palette.color(QPalette::Text);
    const QColor quiet = palette.color(QPalette::PlaceholderText);
    text(placement.title, scaled(font, 1.1, true), ink, tile.title);
    text(placement.formula, font, ink, tile.formula);
    text(placement.shape, monospace(font), palette.color(QPalette::Link), tile.shape);
    text(placement.note, scaled(font, 0.9), quiet, tile.note);
    text(placement.axes, scaled(font, 0.9), quiet, tile.axes);
    if (focused) { // which tile the arrow keys move over
        painter.setPen(QPen(palette.color(QPalette::Highlight), 2.5, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(card.adjusted(2.5, 2.5, -2.5, -2.5), 4, 4);
    }

    painter.save();
    painter.translate(placement.heatmapOrigin);
    paintHeatmap(painter, placement.heatmap, tile.heatmap, painted, cache, texts);
    painter.restore();

    // Head h's columns in the concatenation.
    if (tile.blockColumns > 0 && tile.heatmap.rows() > 0) {
        const QRectF block =
            placement.cellRect(0, tile.blockFirstColumn)
                .united(placement.cellRect(tile.heatmap.rows() - 1,
                                           tile.blockFirstColumn + tile.blockColumns - 1));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::white, 4));
        painter.drawRect(block);
        painter.setPen(QPen(Qt::black, 2));
        painter.drawRect(block);
    }
    painter.restore();
}

TileFlow flowTiles(const std::vector<QSize>& sizes, int width)
{
    TileFlow result;
    int x = 0, y = 0, line = 0;
    for (const QSize& size : sizes) {
        if (x > 0 && x + size.width() > width) {
            x = 0;
            y += line + kTileLineGap;
            line = 0;
        }
        result.places.emplace_back(QPoint(x, y), size);
        x += size.width() + kTileColumnGap;
        line = std::max(line, size.height());
    }
    result.height = sizes.empty() ? 0 : y + line;
    return result;
}

void paintArrows(QPainter& painter, const std::vector<QRect>& places, const QColor& color)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(color, 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(color);
    for (std::size_t k = 0; k + 1 < places.size(); ++k) {
        const QRect& from = places[k];
        const QRect& to = places[k + 1];
        if (to.left() < from.right())
            continue; // the next tile starts a new line
        const double y = std::min(from.center().y(), to.center().y());
        const double x0 = from.right() + 6, x1 = to.left() - 6;
        painter.drawLine(QPointF(x0, y), QPointF(x1 - 6, y));
        QPainterPath head;
        head.moveTo(x1, y);
        head.lineTo(x1 - 8, y - 5);
        head.lineTo(x1 - 8, y + 5);
        head.closeSubpath();
        painter.drawPath(head);
    }
    painter.restore();
}

std::optional<QByteArray> pipelineFigureBytes(FigureFormat format,
                                              const std::vector<StageTile>& tiles, QSize area,
                                              QPoint cell, const PipelineLook& look,
                                              double pixelsPerPixel, QString* error,
                                              const QString& appendixHtml)
{
    QString scratch;
    QString& reason = error ? *error : scratch;

    // 1. The tiles as the strip places them: flowed at the area's width, the widest tile
    // across and every line down at least.
    std::vector<HeatmapStyle> styles;
    std::vector<TilePlacement> placements;
    std::vector<QSize> sizes;
    int widest = 0;
    qint64 cells = 0;
    for (const StageTile& tile : tiles) {
        styles.push_back(paintedTileStyle(tile, look.font, look.palette,
                                          pipelineHighlight(tile.stage, cell.x(), cell.y())));
        placements.push_back(placeTile(tile, styles.back(), look.font, look.device));
        sizes.push_back(placements.back().size);
        widest = std::max(widest, sizes.back().width());
        cells += qint64(tile.heatmap.rows()) * tile.heatmap.columns();
    }
    const TileFlow flow = flowTiles(sizes, area.width());
    const QSize strip(std::max(area.width(), widest), std::max(area.height(), flow.height));

    // 2. The appendix as rich text at the strip's width, below it.
    QTextDocument appendix;
    appendix.setDefaultFont(look.font);
    appendix.setDocumentMargin(kPad);
    appendix.setHtml(appendixHtml);
    appendix.setTextWidth(strip.width());
    const int appendixHeight =
        appendixHtml.isEmpty() ? 0 : int(std::ceil(appendix.size().height())) + kTileLineGap;
    const QSize pixels(strip.width(), strip.height() + appendixHeight);
    if (tiles.empty() || pixels.isEmpty()) {
        reason = QCoreApplication::translate("Figure", "There is nothing to export yet.");
        return std::nullopt;
    }

    // 3. The document, in the screen's units: its fonts resolved as on the screen, its
    // size in points following from them.
    const int dpi = logicalDpi(look.device);
    FigureDocument document;
    document.size = QSizeF(pixels) * (72.0 / dpi);
    document.title = QCoreApplication::translate("Figure", "Step by step", "figure file title");
    // An SVG viewer is told the strip's family, then the Chinese ones a figure names.
    document.svgFamilies = {look.font.family()};
    const QStringList& families = figureFontFamilies();
    document.svgFamilies << families.sliced(families.indexOf(QStringLiteral("Noto Sans CJK SC")));
    document.vectorResolution = dpi;
    document.paint = [&](QPainter& painter, const QRectF& target) {
        painter.fillRect(target, Qt::white);
        painter.save();
        painter.translate(target.topLeft());
        painter.scale(target.width() / pixels.width(), target.height() / pixels.height());
        paintArrows(painter, flow.places, look.palette.color(QPalette::Mid));
        for (std::size_t k = 0; k < tiles.size(); ++k) {
            painter.save();
            painter.translate(flow.places[k].topLeft());
            paintTile(painter, tiles[k], placements[k], styles[k], look.font, look.palette);
            painter.restore();
        }
        painter.translate(0, strip.height() + kTileLineGap);
        appendix.drawContents(&painter);
        painter.restore();
    };
    document.cells = cells;

    // 4. The file.
    const QSize image(qRound(pixels.width() * pixelsPerPixel),
                      qRound(pixels.height() * pixelsPerPixel));
    if (format == FigureFormat::Png &&
        (image.width() > kMaxFigurePixels || image.height() > kMaxFigurePixels)) {
        reason = QCoreApplication::translate("Figure",
                                             "The figure would be %1 × %2 pixels, more than %3 "
                                             "on a side; export an SVG or a PDF instead.")
                     .arg(image.width())
                     .arg(image.height())
                     .arg(kMaxFigurePixels);
        return std::nullopt;
    }
    return documentBytes(format, document, pixelsPerPixel, &reason);
}

} // namespace attn::ui
