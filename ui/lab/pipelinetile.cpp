// Step by step's tile: the widget that shows one stage (a StageTile, made in
// pipelinetiles.cpp) as paintTile draws it (pipelinefigure.cpp), and reads its cells to
// the mouse, the keyboard and a screen reader. The strip that lines the tiles up is
// pipelinestrip.cpp.
#include "pipelinetile.h"

#include "widgetaccess.h"

#include <QEvent>
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
    const bool keyboard = keyboardCell_.x() >= 0;
    return paintedTileStyle(tile_, font(), palette(),
                            keyboard ? keyboardCell_ : QPoint(highlightRow_, highlightColumn_));
}

void PipelineTile::relayout()
{
    placement_ = placeTile(tile_, paintedStyle(), font(), this);
    resize(placement_.size);
    updateGeometry();
    update();
}

QRectF PipelineTile::cellRect(int row, int column) const
{
    return placement_.cellRect(row, column);
}

std::optional<QPoint> PipelineTile::cellAt(const QPointF& pos) const
{
    return placement_.heatmap.cellAt(pos - placement_.heatmapOrigin);
}

QSize PipelineTile::sizeHint() const
{
    return placement_.size;
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
    paintTile(painter, tile_, placement_, paintedStyle(), font(), palette(), hasFocus(),
              &cellImage_, &texts_);
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
        *event, from, rows, columns, keyboardPage(this, placement_.heatmap.rowHeight()));
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
