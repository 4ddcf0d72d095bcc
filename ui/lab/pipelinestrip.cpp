#include "pipelinestrip.h"

#include "figurefile.h"
#include "widgetaccess.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextDocument>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr double kPad = 10;           // inside a tile, around its parts
constexpr double kMinTextWidth = 250; // the header wraps at this width at least
constexpr double kTargetExtent = 260; // a matrix's longer side, when its cells allow
constexpr double kMaxCell = 40;
constexpr double kMaxExtent = 1400; // beyond it cells shrink and labels thin out
constexpr int kColumnGap = 32;      // between tiles on a line: room for the arrow
constexpr int kLineGap = 18;

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

QString valueText(float value)
{
    if (std::isnan(value))
        return PipelineTile::tr("NaN", "not a number");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+inf") : QStringLiteral("-inf");
    return QLocale().toString(value, 'g', 4);
}

} // namespace

// ---------------------------------------------------------------------------------------

PipelineTile::PipelineTile(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setFocusPolicy(Qt::StrongFocus);
}

void PipelineTile::setTile(StageTile tile)
{
    tile_ = std::move(tile);
    cellImage_.clear();
    relayout();
    // Another sequence, head or length: the keyboard's cell stays where it still is.
    const int rows = tile_.heatmap.rows(), columns = tile_.heatmap.columns();
    if (keyboardCell_.x() >= 0)
        keyboardCell_ = rows > 0 && columns > 0 ? QPoint(std::min(keyboardCell_.x(), rows - 1),
                                                         std::min(keyboardCell_.y(), columns - 1))
                                                : QPoint(-1, -1);
    describe();
}

void PipelineTile::setHighlight(int row, int column)
{
    highlightRow_ = row;
    highlightColumn_ = column;
    update();
}

HeatmapStyle PipelineTile::paintedStyle() const
{
    HeatmapStyle style = tile_.style;
    style.labelFont = scaled(font(), 0.9);
    style.textColor = palette().color(QPalette::Text);
    const bool keyboard = keyboardCell_.x() >= 0;
    style.highlightRow = keyboard ? keyboardCell_.x() : highlightRow_;
    style.highlightCol = keyboard ? keyboardCell_.y() : highlightColumn_;
    return style;
}

void PipelineTile::relayout()
{
    // 1. The matrix at a cell size that shows every token label.
    const HeatmapStyle style = paintedStyle();
    const double lineHeight = QFontMetricsF(style.labelFont, this).height();
    const QSizeF cell = cellSizeFor(tile_.heatmap.rows(), tile_.heatmap.columns(), lineHeight);
    heatmapLayout_ = HeatmapLayout::forCellSize(tile_.heatmap, style, cell, this);
    const QSizeF heatmap = heatmapLayout_.boundingRect().size();

    // 2. The header wraps at the matrix's width, or kMinTextWidth when it is narrower.
    const double width = std::max(heatmap.width(), kMinTextWidth);
    double y = kPad;
    titleRect_ = wrapped(scaled(font(), 1.1, true), tile_.title, kPad, y, width, this);
    y = titleRect_.bottom() + 2;
    formulaRect_ = wrapped(font(), tile_.formula, kPad, y, width, this);
    y = formulaRect_.bottom() + 2;
    shapeRect_ = wrapped(monospace(font()), tile_.shape, kPad, y, width, this);
    y = shapeRect_.bottom() + 2;
    noteRect_ = wrapped(scaled(font(), 0.9), tile_.note, kPad, y, width, this);
    y = noteRect_.bottom() + kPad / 2;

    // 3. The matrix, centred, and what its axes are below it.
    heatmapOrigin_ = QPointF(kPad + (width - heatmap.width()) / 2, y);
    y += heatmap.height();
    axesRect_ = wrapped(scaled(font(), 0.9), tile_.axes, kPad, y, width, this);
    y = axesRect_.bottom() + kPad;
    size_ = QSize(int(std::ceil(width + 2 * kPad)), int(std::ceil(y)));
    resize(size_);
    updateGeometry();
    update();
}

QRectF PipelineTile::cellRect(int row, int column) const
{
    return heatmapLayout_.cellRect(row, column).translated(heatmapOrigin_);
}

std::optional<QPoint> PipelineTile::cellAt(const QPointF& pos) const
{
    return heatmapLayout_.cellAt(pos - heatmapOrigin_);
}

QSize PipelineTile::sizeHint() const
{
    return size_;
}

QString PipelineTile::cellText(int row, int column, bool clickHint) const
{
    const HeatmapData& data = tile_.heatmap;
    const bool tokens = tile_.explainsCells();
    const QString where =
        tokens ? tr("query %1 (row %2) → key %3 (column %4)")
                     .arg(data.queryLabel(row))
                     .arg(row)
                     .arg(data.keyLabel(column))
                     .arg(column)
               : tr("%1 (row %2), feature %3").arg(data.queryLabel(row)).arg(row).arg(column);
    QString text = tr("%1: %2", "a cell of a step's matrix: where it is, its value")
                       .arg(where, valueText(tile_.values(row, column)));
    if (data.isMasked(row, column))
        text += tr(" (masked)");
    if (tokens && clickHint)
        text += QLatin1Char('\n') + tr("Click to see the arithmetic of this cell.");
    return text;
}

bool PipelineTile::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const auto cell = cellAt(help->pos()))
            QToolTip::showText(help->globalPos(), cellText(cell->x(), cell->y()), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void PipelineTile::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& colors = palette();

    // The card: the base colour, a thin frame; tiles one can click get an accent frame.
    const QRectF card = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.setPen(QPen(colors.color(QPalette::Mid), 1));
    painter.setBrush(colors.color(QPalette::Base));
    painter.drawRoundedRect(card, 6, 6);
    if (tile_.explainsCells()) {
        painter.setPen(QPen(colors.color(QPalette::Highlight), 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(card.adjusted(1, 1, -1, -1), 5, 5);
    }

    const auto text = [&](const QRectF& where, const QFont& font, const QColor& color,
                          const QString& line) {
        painter.setFont(font);
        painter.setPen(color);
        painter.drawText(where, Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop, line);
    };
    const QColor ink = colors.color(QPalette::Text);
    const QColor quiet = colors.color(QPalette::PlaceholderText);
    text(titleRect_, scaled(font(), 1.1, true), ink, tile_.title);
    text(formulaRect_, font(), ink, tile_.formula);
    text(shapeRect_, monospace(font()), colors.color(QPalette::Link), tile_.shape);
    text(noteRect_, scaled(font(), 0.9), quiet, tile_.note);
    text(axesRect_, scaled(font(), 0.9), quiet, tile_.axes);
    if (hasFocus()) { // which tile the arrow keys move over
        painter.setPen(QPen(colors.color(QPalette::Highlight), 2.5, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(card.adjusted(2.5, 2.5, -2.5, -2.5), 4, 4);
    }

    painter.save();
    painter.translate(heatmapOrigin_);
    paintHeatmap(painter, heatmapLayout_, tile_.heatmap, paintedStyle(), &cellImage_, &texts_);
    painter.restore();

    // Head h's columns in the concatenation.
    if (tile_.blockColumns > 0 && tile_.heatmap.rows() > 0) {
        const QRectF block = cellRect(0, tile_.blockFirstColumn)
                                 .united(cellRect(tile_.heatmap.rows() - 1,
                                                  tile_.blockFirstColumn + tile_.blockColumns - 1));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::white, 4));
        painter.drawRect(block);
        painter.setPen(QPen(Qt::black, 2));
        painter.drawRect(block);
    }
}

void PipelineTile::mouseMoveEvent(QMouseEvent* event)
{
    const bool overCell = tile_.explainsCells() && cellAt(event->position());
    setCursor(overCell ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(event);
}

void PipelineTile::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        if (const auto cell = cellAt(event->position()))
            emit cellClicked(cell->x(), cell->y());
    QWidget::mouseReleaseEvent(event);
}

void PipelineTile::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        relayout();
    if (event->type() == QEvent::LanguageChange)
        describe();
    QWidget::changeEvent(event);
}

void PipelineTile::keyPressEvent(QKeyEvent* event)
{
    const int rows = tile_.heatmap.rows(), columns = tile_.heatmap.columns();
    if (isActivationKey(*event) && tile_.explainsCells() && keyboardCell_.x() >= 0) {
        emit cellClicked(keyboardCell_.x(), keyboardCell_.y());
        return;
    }
    // From the keyboard's cell, else the highlighted one (the explained cell, or q_i's row).
    QPoint from = keyboardCell_;
    if (from.x() < 0 && highlightRow_ >= 0)
        from = QPoint(highlightRow_, std::max(0, highlightColumn_));
    const std::optional<QPoint> next = keyboardCellStep(
        *event, from, rows, columns, keyboardPage(this, heatmapLayout_.rowHeight()));
    if (!next) {
        QWidget::keyPressEvent(event);
        return;
    }
    showKeyboardCell(next->x(), next->y());
    if (tile_.explainsCells())
        emit cellClicked(next->x(), next->y());
}

void PipelineTile::focusInEvent(QFocusEvent* event)
{
    // Tabbed to: the keyboard's cell starts on the highlighted one (the explained cell),
    // else the first; it explains nothing until it moves.
    const int rows = tile_.heatmap.rows(), columns = tile_.heatmap.columns();
    if (isTabFocus(*event) && rows > 0 && columns > 0)
        showKeyboardCell(std::clamp(highlightRow_, 0, rows - 1),
                         std::clamp(highlightColumn_, 0, columns - 1));
    QWidget::focusInEvent(event);
    update();
}

void PipelineTile::focusOutEvent(QFocusEvent* event)
{
    // Tabbing or clicking away gives the outline back to the highlight; a window that goes
    // inactive keeps the keyboard's cell.
    if (leftWithinWindow(*event) && keyboardCell_.x() >= 0) {
        QToolTip::hideText();
        showKeyboardCell(-1, -1);
    }
    QWidget::focusOutEvent(event);
    update();
}

void PipelineTile::showKeyboardCell(int row, int column)
{
    keyboardCell_ = QPoint(row, column);
    update();
    describe();
    if (row < 0)
        return;
    showKeyboardCellTip(this, cellRect(row, column).toAlignedRect(), cellText(row, column, false));
}

void PipelineTile::describe()
{
    QStringList lines;
    if (keyboardCell_.x() >= 0)
        lines << cellText(keyboardCell_.x(), keyboardCell_.y(), false);
    else
        for (const QString& line : {tile_.formula, tile_.shape, tile_.note})
            if (!line.isEmpty())
                lines << line;
    const QString description = lines.join(QLatin1Char('\n'));
    setAccessibleText(this, tile_.title, description);
}

// ---------------------------------------------------------------------------------------

PipelineStrip::PipelineStrip(QWidget* parent) : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void PipelineStrip::setResult(const Result& result, int b, int h)
{
    result_ = result;
    b_ = std::clamp(b, 0, std::max(0, result.batch() - 1));
    h_ = std::clamp(h, 0, std::max(0, result.heads() - 1));
    rebuild();
}

void PipelineStrip::setWeightColours(const WeightColours& colours)
{
    if (colours == colours_)
        return;
    colours_ = colours;
    if (PipelineTile* weights = tile(PipelineStage::Weights)) {
        StageTile recoloured = weights->tile(); // shares its matrices
        recoloured.style = weightStyle(colours_, recoloured.heatmap.columns());
        weights->setTile(std::move(recoloured));
        weights->update();
    }
}

void PipelineStrip::clear()
{
    result_ = Result{};
    rebuild();
}

PipelineTile* PipelineStrip::tile(PipelineStage stage) const
{
    for (PipelineTile* tile : tiles_)
        if (tile->tile().stage == stage)
            return tile;
    return nullptr;
}

void PipelineStrip::setSelectedCell(int i, int j)
{
    selectedRow_ = i;
    selectedColumn_ = j;
    for (PipelineTile* tile : tiles_) {
        switch (tile->tile().stage) {
        case PipelineStage::Queries:
        case PipelineStage::HeadOutput:
            tile->setHighlight(i, -1); // q_i, and o_i = Σ_j P[i][j]·v_j
            break;
        case PipelineStage::Keys:
            tile->setHighlight(j, -1); // k_j
            break;
        case PipelineStage::Scores:
        case PipelineStage::Logits:
        case PipelineStage::Masked:
        case PipelineStage::Weights:
            tile->setHighlight(i, j);
            break;
        default:
            tile->setHighlight(-1, -1);
            break;
        }
    }
}

void PipelineStrip::rebuild()
{
    for (PipelineTile* tile : tiles_)
        delete tile;
    tiles_.clear();
    std::vector<StageTile> tiles = pipelineTiles(result_, b_, h_, colours_);
    for (std::size_t k = 0; k < tiles.size(); ++k) {
        StageTile& numbered = tiles[k];
        numbered.title =
            tr("%1. %2", "step number, then the step's title").arg(k + 1).arg(numbered.title);
        const PipelineStage stage = numbered.stage;
        auto* tile = new PipelineTile(this);
        tile->setTile(std::move(numbered));
        connect(tile, &PipelineTile::cellClicked, this,
                [this, stage](int row, int column) { emit cellClicked(stage, row, column); });
        tile->show();
        tiles_.push_back(tile);
    }
    setSelectedCell(selectedRow_, selectedColumn_);
    relayout();
    updateGeometry();
    update();
}

PipelineStrip::Flow PipelineStrip::flow(int width) const
{
    Flow result;
    int x = 0, y = 0, line = 0;
    for (const PipelineTile* tile : tiles_) {
        const QSize size = tile->sizeHint();
        if (x > 0 && x + size.width() > width) {
            x = 0;
            y += line + kLineGap;
            line = 0;
        }
        result.places.emplace_back(QPoint(x, y), size);
        x += size.width() + kColumnGap;
        line = std::max(line, size.height());
    }
    result.height = tiles_.empty() ? 0 : y + line;
    return result;
}

int PipelineStrip::heightForWidth(int width) const
{
    return flow(width).height;
}

QSize PipelineStrip::sizeHint() const
{
    int width = 0;
    for (const PipelineTile* tile : tiles_)
        width += tile->sizeHint().width() + kColumnGap;
    width = std::min(width, 1200);
    return {width, heightForWidth(width)};
}

void PipelineStrip::layOut(int width)
{
    // A hidden widget gets its resize event only when shown: lay out now.
    resize(width, heightForWidth(width));
    relayout();
    resize(std::max(width, minimumWidth()), minimumHeight());
}

void PipelineStrip::relayout()
{
    const Flow placed = flow(width());
    int widest = 0;
    for (std::size_t k = 0; k < tiles_.size(); ++k) {
        tiles_[k]->setGeometry(placed.places[k]);
        widest = std::max(widest, placed.places[k].width());
    }
    // The scroll area shows what does not fit: the widest tile across, every line down.
    setMinimumSize(widest, placed.height);
    update();
}

void PipelineStrip::paintEvent(QPaintEvent*)
{
    // An arrow from each tile to the next one on the same line: the data flows along them.
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor color = palette().color(QPalette::Mid);
    painter.setPen(QPen(color, 2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(color);
    for (std::size_t k = 0; k + 1 < tiles_.size(); ++k) {
        const QRect from = tiles_[k]->geometry(), to = tiles_[k + 1]->geometry();
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
}

void PipelineStrip::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
}

void PipelineStrip::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && result_.hasWeights())
        rebuild(); // the titles and formulas are translated
    QWidget::changeEvent(event);
}

std::optional<QByteArray> PipelineStrip::figureBytes(FigureFormat format, double pixelsPerPixel,
                                                     QString* error, const QString& appendixHtml)
{
    QString scratch;
    QString& reason = error ? *error : scratch;
    const QSize strip = size();
    // The appendix as rich text at the strip's width, below it.
    QTextDocument appendix;
    appendix.setDefaultFont(font());
    appendix.setDocumentMargin(kPad);
    appendix.setHtml(appendixHtml);
    appendix.setTextWidth(strip.width());
    const int appendixHeight =
        appendixHtml.isEmpty() ? 0 : int(std::ceil(appendix.size().height())) + kLineGap;
    const QSize pixels(strip.width(), strip.height() + appendixHeight);
    if (tiles_.empty() || pixels.isEmpty()) {
        reason = QCoreApplication::translate("Figure", "There is nothing to export yet.");
        return std::nullopt;
    }
    qint64 cells = 0;
    for (const PipelineTile* tile : tiles_)
        cells += qint64(tile->tile().heatmap.rows()) * tile->tile().heatmap.columns();
    // The strip paints itself, its fonts resolved as on its screen: a vector file takes
    // the screen's units, and its size in points follows from them.
    const int dpi = std::max(1, logicalDpiX());
    FigureDocument document;
    document.size = QSizeF(pixels) * (72.0 / dpi);
    document.title = QCoreApplication::translate("Figure", "Step by step", "figure file title");
    // An SVG viewer is told the strip's family, then the Chinese ones a figure names.
    document.svgFamilies = {font().family()};
    const QStringList& families = figureFontFamilies();
    document.svgFamilies << families.sliced(families.indexOf(QStringLiteral("Noto Sans CJK SC")));
    document.vectorResolution = dpi;
    document.paint = [this, pixels, strip, &appendix](QPainter& painter, const QRectF& target) {
        painter.fillRect(target, Qt::white);
        painter.save();
        painter.translate(target.topLeft());
        painter.scale(target.width() / pixels.width(), target.height() / pixels.height());
        // A scroll area fills its widget's background: not on the handout's white.
        const bool filled = autoFillBackground();
        setAutoFillBackground(false);
        render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
        setAutoFillBackground(filled);
        painter.translate(0, strip.height() + kLineGap);
        appendix.drawContents(&painter);
        painter.restore();
    };
    document.cells = cells;
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
