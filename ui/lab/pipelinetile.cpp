// Step by step's tile: the widget that draws one stage (a StageTile, made in
// pipelinetiles.cpp) under its title, formula and shape, and reads its cells to the mouse,
// the keyboard and a screen reader. The strip that lines the tiles up is pipelinestrip.cpp.
#include "pipelinestrip.h"

#include "widgetaccess.h"

#include <QEvent>
#include <QFontDatabase>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
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

} // namespace attn::ui
