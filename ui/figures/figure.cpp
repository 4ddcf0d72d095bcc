#include "figure.h"

#include "engine/statistics.h"
#include "headheatmap.h"
#include "labels.h"

#include <QCoreApplication>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// Fonts in pixels of the layout, which are points: the same size on every device
// whatever its DPI. Unhinted, so raster and vector output measure text alike.
QFont exportFont(double points, bool bold = false)
{
    QFont font;
    font.setFamilies(figureFontFamilies());
    font.setStyleHint(QFont::SansSerif);
    font.setHintingPreference(QFont::PreferNoHinting);
    font.setPixelSize(std::max(1, qRound(points)));
    font.setBold(bold);
    return font;
}

// How a figure shows control characters: a token's as their control pictures (␁), so the
// token stays recognisable; a title's not at all, as they are typing accidents there.
enum class Controls { Show, Drop };

// `text` without the characters XML 1.0 does not allow (controls, noncharacters, lone
// surrogates), so that an SVG stays valid whatever a token or a title holds.
QString printable(const QString& text, Controls controls)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype k = 0; k < text.size(); ++k) {
        const QChar c = text.at(k);
        const bool control = c.unicode() < 0x20 || c.unicode() == 0x7f;
        if (c.isHighSurrogate() && k + 1 < text.size() && text.at(k + 1).isLowSurrogate()) {
            out += c;
            out += text.at(++k);
        } else if (control && controls == Controls::Drop) {
            if (c == u'\t' || c == u'\n')
                out += u' ';
        } else if (control) {
            out += QChar(c.unicode() == 0x7f ? 0x2421 : 0x2400 + c.unicode());
        } else if (c.isSurrogate() || c.unicode() >= 0xfffe ||
                   (c.unicode() >= 0x80 && c.unicode() < 0xa0)) {
            out += QChar(QChar::ReplacementCharacter);
        } else {
            out += c;
        }
    }
    return out;
}

// Parts of the caption keep their inner spaces together; lines break only between parts.
QString captionPart(QString text)
{
    return text.replace(QLatin1Char(' '), QChar(QChar::Nbsp));
}

// Heads of the figure in tile order; −1 is the mean.
std::vector<int> tileHeads(const Result& result, const FigureOptions& options)
{
    switch (options.what) {
    case FigureWhat::Head:
        return {std::clamp(options.head, 0, result.heads() - 1)};
    case FigureWhat::Mean:
        return {-1};
    case FigureWhat::Grid:
        break;
    }
    std::vector<int> heads;
    for (int h = 0; h < result.heads(); ++h)
        heads.push_back(h);
    if (result.heads() > 1) // the mean of one head is that head
        heads.push_back(-1);
    return heads;
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

// Up to this many tokens a sentence is short: its cells are large enough to read each.
constexpr int kFewTokens = 24;

QString documentTitle(const FigureLayout& layout)
{
    return layout.title.isEmpty()
               ? QCoreApplication::translate("Figure", "Attention weights", "figure file title")
               : layout.title;
}

double pixelsPerPoint(const FigureOptions& options)
{
    return options.dpi > 0 ? options.dpi / 72.0 : options.scale;
}

} // namespace

// Families tried in order, per character: a Latin sans, then Simplified Chinese, so CJK
// tokens never fall back to whatever font happens to come first. The Latin family found
// on this system goes first, so that an SVG names the font its text was measured with.
const QStringList& figureFontFamilies()
{
    static const QStringList families = [] {
        QStringList latin = {QStringLiteral("Noto Sans"), QStringLiteral("DejaVu Sans"),
                             QStringLiteral("Liberation Sans"), QStringLiteral("Arial"),
                             QStringLiteral("Helvetica")};
        const QStringList chinese = {
            QStringLiteral("Noto Sans CJK SC"),    QStringLiteral("Source Han Sans SC"),
            QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("Microsoft YaHei"),
            QStringLiteral("PingFang SC"),
        };
        QFont probe;
        probe.setFamilies(latin);
        probe.setStyleHint(QFont::SansSerif);
        const QString found = QFontInfo(probe).family();
        latin.removeAll(found);
        return QStringList{found} + latin + chinese;
    }();
    return families;
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

const QPaintDevice* figureReferenceDevice()
{
    static const QImage device(1, 1, QImage::Format_RGB32);
    return &device;
}

FigureOptions figureOptions(const ViewOptions& view)
{
    FigureOptions options;
    options.what = FigureWhat::Grid;
    options.sequence = view.sequence;
    options.colormap = view.colormap;
    options.sharedScale = view.sharedScale;
    options.annotate = view.annotate;
    options.marginSums = view.marginSums;
    options.logScale = view.logScale;
    return options;
}

QString figureCaption(const Result& result, int sequence)
{
    const Config& c = result.config();
    QStringList parts = {
        captionPart(QCoreApplication::translate("Figure", "d_model %1").arg(c.dModel)),
        captionPart(QCoreApplication::translate("Figure", "heads %1").arg(c.heads)),
        captionPart(QCoreApplication::translate("Figure", "d_k %1").arg(c.dK())),
        captionPart(QCoreApplication::translate("Figure", "seed %1").arg(qulonglong(c.seed))),
        captionPart(captionPhrase(c.scale)),
        captionPart(captionPhrase(c.axis)),
        captionPart(captionPhrase(c.mask)),
        captionPart(QCoreApplication::translate("Figure", "τ %1", "temperature")
                        .arg(QLocale().toString(c.temperature, 'f', 2))),
    };
    if (c.attention == AttentionKind::Cross)
        parts.prepend(
            captionPart(QCoreApplication::translate("Figure", "cross-attention: T_q %1 × T_k %2")
                            .arg(result.length())
                            .arg(result.keyLength())));
    // The switches a lesson flips to show a bug: named whenever they are not the default.
    const Config defaults;
    if (c.maskStage != defaults.maskStage)
        parts << captionPart(captionPhrase(c.maskStage));
    if (c.maskFill != defaults.maskFill && c.mask != MaskKind::None)
        parts << captionPart(
            QCoreApplication::translate("Figure", "fill %1").arg(displayName(c.maskFill)));
    if (c.headSplit != defaults.headSplit)
        parts << captionPart(captionPhrase(c.headSplit));
    if (c.embedding != defaults.embedding)
        parts << captionPart(captionPhrase(c.embedding));
    if (c.positional != defaults.positional)
        parts << captionPart(captionPhrase(c.positional));
    if (result.batch() > 1)
        parts << captionPart(QCoreApplication::translate("Figure", "sequence %1 of %2")
                                 .arg(std::clamp(sequence, 0, result.batch() - 1) + 1)
                                 .arg(result.batch()));
    // A line may break after a "·", never before it.
    return parts.join(QString(QChar(QChar::Nbsp)) + QStringLiteral("· "));
}

double figureCellSize(int tokens, int tileCount, double labelPointSize, bool annotate)
{
    const double label = labelPointSize;
    const double side = (tileCount > 1 ? 16 : 24) * label;
    double cell = std::clamp(side / std::max(1, tokens), 0.25, 4 * label);
    if (tokens <= kFewTokens)
        cell = std::max(cell, 1.5 * label);
    if (annotate) // must hold "−0.00"
        cell = std::max({cell, 28.0, 3.2 * label});
    return cell;
}

double cellWithLabelsAcross(double cell, int tokens, const FigureTile& tile, double labelPointSize)
{
    if (tokens > kFewTokens)
        return cell;
    const double across =
        HeatmapLayout::cellForLabelsAcross(tile.data, tile.style, figureReferenceDevice());
    return across <= 3.5 * labelPointSize ? std::max(cell, across) : cell;
}

FigureLayout figureLayout(const Result& result, const FigureOptions& options)
{
    FigureLayout figure;
    if (!result.valid())
        return figure;
    const double label = options.labelPointSize;
    const double gap = 1.5 * label;
    const int b = std::clamp(options.sequence, 0, result.batch() - 1);

    // 1. The tiles, each measured at the same cell size; heads in rows of ⌈√n⌉.
    const std::vector<int> heads = tileHeads(result, options);
    const int count = static_cast<int>(heads.size());
    const int columns = static_cast<int>(std::ceil(std::sqrt(double(count))));
    const int tokens = std::max(result.length(), result.keyLength());
    double cell = figureCellSize(tokens, count, options.labelPointSize, options.annotate);
    const std::vector<float> maxima = finiteMaxima(*result.weights, b);
    for (int k = 0; k < count; ++k) {
        FigureTile tile;
        tile.data = headHeatmap(result, b, heads[std::size_t(k)]);
        for (QStringList* labels : {&tile.data.queryLabels, &tile.data.keyLabels})
            for (QString& token : *labels)
                token = printable(token, Controls::Show);
        tile.style.colormap = options.colormap;
        tile.style.annotate = options.annotate;
        tile.style.marginSums = options.marginSums;
        tile.style.labelFont = exportFont(label);
        setWeightScale(tile.style, maxima, heads[std::size_t(k)], options.sharedScale,
                       options.logScale, result.keyLength());
        // One shared scale needs one colorbar per row, at its end.
        const bool lastInRow = k % columns == columns - 1 || k == count - 1;
        tile.style.colorbar = options.colorbar && (!options.sharedScale || lastInRow);
        figure.tiles.push_back(std::move(tile));
    }
    if (count > 0) // every tile has the same keys
        cell = cellWithLabelsAcross(cell, tokens, figure.tiles.front(), label);
    for (FigureTile& tile : figure.tiles)
        tile.layout =
            HeatmapLayout::forCellSize(tile.data, tile.style, cell, figureReferenceDevice());

    // 2. Rows of tiles, as wide as their tiles and gaps.
    std::vector<double> rowWidths, rowHeights;
    for (int k = 0; k < count; ++k) {
        const QSizeF size = figure.tiles[std::size_t(k)].layout.boundingRect().size();
        if (k % columns == 0) {
            rowWidths.push_back(size.width());
            rowHeights.push_back(size.height());
        } else {
            rowWidths.back() += gap + size.width();
            rowHeights.back() = std::max(rowHeights.back(), size.height());
        }
    }
    const double blockWidth = std::ranges::max(rowWidths);
    double blockHeight = double(rowHeights.size() - 1) * gap;
    for (const double height : rowHeights)
        blockHeight += height;

    // 3. The tiles row by row, from the block's top left corner.
    double rowTop = 0;
    for (int k = 0; k < count; ++k) {
        FigureTile& tile = figure.tiles[std::size_t(k)];
        if (k % columns == 0) {
            if (k > 0)
                rowTop += rowHeights[std::size_t(k / columns - 1)] + gap;
            tile.origin = QPointF(0, rowTop);
        } else {
            const FigureTile& left = figure.tiles[std::size_t(k - 1)];
            tile.origin =
                QPointF(left.origin.x() + left.layout.boundingRect().width() + gap, rowTop);
        }
    }

    // 4. The title above, the caption below.
    figure.title = printable(options.title, Controls::Drop).simplified();
    figure.titleFont = exportFont(1.6 * label, true);
    figure.caption = options.caption ? figureCaption(result, b) : QString();
    figure.captionFont = exportFont(0.9 * label);
    arrangeFigure(figure, QSizeF(blockWidth, blockHeight), label);
    return figure;
}

void arrangeFigure(FigureLayout& figure, QSizeF block, double labelPointSize, QPointF* blockOrigin)
{
    const double label = labelPointSize;
    const double margin = 1.2 * label;
    // 1. The title and caption widen the figure up to a readable line, then wrap or elide.
    const QFontMetricsF titleMetrics(figure.titleFont, figureReferenceDevice());
    const QFontMetricsF captionMetrics(figure.captionFont, figureReferenceDevice());
    const double readable = std::max(block.width(), 46 * label);
    double width = block.width();
    if (!figure.title.isEmpty())
        width = std::max(width, std::min(readable, titleMetrics.horizontalAdvance(figure.title)));
    for (const QString& line : figure.caption.split(u'\n', Qt::SkipEmptyParts))
        width = std::max(width, std::min(readable, captionMetrics.horizontalAdvance(line) + 1));

    // 2. Top to bottom: title, tiles (centred), caption.
    double y = margin;
    if (!figure.title.isEmpty()) {
        figure.titleRect = QRectF(margin, y, width, titleMetrics.height());
        y += titleMetrics.height() + 0.6 * label;
    }
    const QPointF origin(margin + (width - block.width()) / 2, y);
    for (FigureTile& tile : figure.tiles)
        tile.origin += origin;
    if (blockOrigin)
        *blockOrigin = origin;
    y += block.height();
    if (!figure.caption.isEmpty()) {
        y += 0.8 * label;
        const QRectF wrapped = captionMetrics.boundingRect(
            QRectF(0, 0, width, 1e6), Qt::AlignHCenter | Qt::TextWordWrap, figure.caption);
        figure.captionRect = QRectF(margin, y, width, wrapped.height());
        y += wrapped.height();
    }
    figure.size = QSizeF(std::ceil(width + 2 * margin), std::ceil(y + margin));
}

QSizeF figureSize(const Result& result, const FigureOptions& options)
{
    return figureLayout(result, options).size;
}

QSize figurePixelSize(const Result& result, const FigureOptions& options)
{
    const QSizeF points = figureSize(result, options);
    const double factor = pixelsPerPoint(options);
    return {std::max(1, qRound(points.width() * factor)),
            std::max(1, qRound(points.height() * factor))};
}

void paintFigure(QPainter& painter, const QRectF& target, const Result& result,
                 const FigureOptions& options)
{
    paintFigure(painter, target, figureLayout(result, options));
}

void paintFigure(QPainter& painter, const QRectF& target, const FigureLayout& layout)
{
    const QSizeF size = layout.size;
    if (size.isEmpty() || target.isEmpty())
        return;
    const bool vector = detail::isVectorDevice(painter);
    painter.save();
    const double s = std::min(target.width() / size.width(), target.height() / size.height());
    painter.translate(target.center() - QPointF(size.width() * s / 2, size.height() * s / 2));
    painter.scale(s, s);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);

    if (!layout.titleRect.isEmpty()) {
        painter.setFont(layout.titleFont);
        painter.setPen(Qt::black);
        const QString title =
            QFontMetricsF(layout.titleFont, painter.device())
                .elidedText(layout.title, Qt::ElideRight, layout.titleRect.width());
        painter.drawText(layout.titleRect, Qt::AlignCenter, title);
    }
    for (const FigureTile& tile : layout.tiles) {
        HeatmapStyle style = tile.style;
        style.vectorCells = vector;
        painter.save();
        painter.translate(tile.origin);
        paintHeatmap(painter, tile.layout, tile.data, style);
        painter.restore();
    }
    if (!layout.captionRect.isEmpty()) {
        painter.setFont(layout.captionFont);
        painter.setPen(QColor(0x4d, 0x4d, 0x4d));
        painter.drawText(layout.captionRect, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                         layout.caption);
    }
    painter.restore();
}

QImage renderFigureImage(const Result& result, const FigureOptions& options)
{
    return renderFigureImage(figureLayout(result, options), pixelsPerPoint(options));
}

QImage renderFigureImage(const FigureLayout& layout, double factor)
{
    if (layout.size.isEmpty())
        return {};
    return renderDocument(figureDocument(layout), factor);
}

QFont figureFont(double points, bool bold)
{
    return exportFont(points, bold);
}

QString printableToken(const QString& token)
{
    return printable(token, Controls::Show);
}

FigureDocument figureDocument(const FigureLayout& layout)
{
    // An SVG viewer is told the measured family, then the CJK ones, then sans-serif.
    const QStringList& families = figureFontFamilies();
    QStringList svgFamilies = {families.first()};
    svgFamilies << families.sliced(families.indexOf(QStringLiteral("Noto Sans CJK SC")));
    FigureDocument document{layout.size, documentTitle(layout), layout.caption, svgFamilies,
                            [&layout](QPainter& painter, const QRectF& target) {
                                paintFigure(painter, target, layout);
                            }};
    for (const FigureTile& tile : layout.tiles)
        document.cells += qint64(tile.data.rows()) * tile.data.columns();
    return document;
}

} // namespace attn::ui
