#include "heatmapview.h"
#include "widgetaccess.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// Two decimals, or three significant digits for a fill like −1e9; NaN and ±inf spelled out.
QString formatValue(float value)
{
    if (std::isnan(value))
        return HeatmapView::tr("NaN", "not a number");
    if (std::isinf(value))
        return value > 0 ? HeatmapView::tr("+inf", "plus infinity")
                         : HeatmapView::tr("-inf", "minus infinity");
    const QLocale locale;
    return std::abs(value) >= 1e5f ? locale.toString(value, 'g', 3)
                                   : locale.toString(value, 'f', 2);
}

bool hasCell(const attn::Matrix& matrix, int row, int column)
{
    return row < matrix.rows() && column < matrix.cols();
}

} // namespace

QString hoverText(const HeatmapData& data, int row, int column)
{
    if (row < 0 || column < 0 || !hasCell(data.weights, row, column))
        return {};
    QStringList values;
    if (data.isMasked(row, column))
        values.append(HeatmapView::tr("masked", "the mask hides this key from this query"));
    values.append(HeatmapView::tr("weight %1", "attention weight of one cell")
                      .arg(formatValue(data.weights(row, column))));
    if (const std::optional<float> logit = data.logit(row, column))
        values.append(HeatmapView::tr("logit %1", "scaled score after the mask fill")
                          .arg(formatValue(*logit)));
    if (const std::optional<float> score = data.score(row, column))
        values.append(HeatmapView::tr("score %1", "q·k before scaling").arg(formatValue(*score)));
    return HeatmapView::tr("query %1 (row %2) → key %3 (column %4): %5",
                           "hover text; %5 lists the cell's values")
        .arg(data.queryLabel(row))
        .arg(row)
        .arg(data.keyLabel(column))
        .arg(column)
        .arg(values.join(QStringLiteral(" · ")));
}

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    // Tab, not a click: a click opens the head, and a cell chosen on focus would fight the
    // mouse's.
    setFocusPolicy(Qt::TabFocus);
}

void HeatmapView::setData(const HeatmapData& data)
{
    const bool sameFrame =
        sameLayout(data_, cells(), style_, data, QSize(data.columns(), data.rows()), style_);
    letGo_ = false;
    picture_ = QPixmap();
    pictureRect_ = QRect();
    data_ = data;
    changed(sameFrame);
    // New numbers under a mouse that stayed put (e.g. while a slider is dragged): say so.
    if (hoveredRow_ >= data_.rows() || hoveredColumn_ >= data_.columns())
        setHoveredCell(-1, -1);
    else if (hoveredRow_ >= 0)
        emit cellHovered(hoveredRow_, hoveredColumn_);
    describe();
}

void HeatmapView::letGo()
{
    if (letGo_)
        return;
    setHoveredCell(-1, -1);
    // A view in sight keeps a picture of what is in sight (a grab: no colouring again), not
    // of all of itself: a head dialog zoomed to 8 px a cell at T = 2048 is a view of 16 k px
    // square, whose whole picture would take a GB. One out of sight has none to keep and
    // shows its title and "computing…" until the new data.
    pictureRect_ = isVisible() ? visibleRegion().boundingRect() : QRect();
    picture_ = pictureRect_.isEmpty() ? QPixmap() : grab(pictureRect_);
    sizeAtLetGo_ = size();
    cellsBeforeLetGo_ = QSize(data_.columns(), data_.rows());
    data_.weights = SharedWeights();
    data_.scores = SharedWeights();
    data_.masked = SharedMask();
    cellImage_.clear();
    letGo_ = true;
}

void HeatmapView::setStale(const QString& reason)
{
    if (reason == staleReason_)
        return;
    if (!reason.isEmpty() && hoveredRow_ >= 0) {
        // The outline leaves quietly: whoever shows the reason shows it instead of a value.
        hoveredRow_ = hoveredColumn_ = -1;
        keyboardCell_ = false;
        QToolTip::hideText();
    }
    staleReason_ = reason;
    update();
    describe();
}

void HeatmapView::setHeatmapStyle(const HeatmapStyle& style)
{
    const bool sameFrame = sameLayout(data_, cells(), style_, data_, cells(), style);
    style_ = style;
    changed(sameFrame);
}

void HeatmapView::changed(bool sameFrame)
{
    if (sameFrame) { // e.g. a switch of the formula: new cells or colours in the same frame
        cellImage_.clear();
        update();
    } else {
        cellImage_.clear();
        invalidateLayout();
        updateGeometry();
    }
}

const HeatmapLayout& HeatmapView::heatmapLayout() const
{
    if (!layout_) {
        layout_.emplace(QRectF(rect()), data_, paintedStyle(), this);
        ++layoutBuilds_;
    }
    return *layout_;
}

QSize HeatmapView::sizeHint() const
{
    if (sizeHint_)
        return *sizeHint_;
    // Cells of 30 px (room for annotations) for short sentences; about 360 px of cells for
    // long ones.
    const int tokens = std::max({1, data_.rows(), data_.columns()});
    const double cell = std::min(30.0, 360.0 / tokens);
    const QSizeF size =
        HeatmapLayout::forCellSize(data_, paintedStyle(), cell, this).boundingRect().size();
    sizeHint_ = QSize(static_cast<int>(std::ceil(size.width())),
                      static_cast<int>(std::ceil(size.height())));
    return *sizeHint_;
}

QSize HeatmapView::minimumSizeHint() const
{
    return QSize(120, 100);
}

bool HeatmapView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip && isStale() && !letGo_) {
        // The reason, never a stale value as if it were current.
        QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), staleReason_, this);
        return true;
    }
    if (event->type() == QEvent::ToolTip && letGo_) {
        QToolTip::hideText(); // no numbers until the new ones come
        event->ignore();
        return true;
    }
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::optional<QPoint> cell = heatmapLayout().cellAt(help->pos());
        if (cell) {
            QToolTip::showText(help->globalPos(), hoverText(data_, cell->x(), cell->y()), this,
                               heatmapLayout().cellRect(cell->x(), cell->y()).toAlignedRect());
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void HeatmapView::paintEvent(QPaintEvent* event)
{
    QPainter painter(this);
    if (isStale())
        paintGreyed(painter, event->rect());
    else
        paintContent(painter, event->rect());
}

void HeatmapView::paintContent(QPainter& painter, const QRect& exposed)
{
    if (letGo_) { // the last picture, until the new data comes (a large switch's compute)
        painter.fillRect(exposed, palette().window());
        if (picture_.isNull()) {
            // Out of sight when it let go (a tile scrolled to meanwhile): which heatmap
            // this is, and that it comes, rather than an empty square.
            paintComputing(painter);
            return;
        }
        // Zoomed (or resized) meanwhile: the picture scaled with the view, a preview of the
        // new zoom until the new data is drawn in full detail.
        const double sx = double(width()) / std::max(1, sizeAtLetGo_.width());
        const double sy = double(height()) / std::max(1, sizeAtLetGo_.height());
        const QRectF target(pictureRect_.x() * sx, pictureRect_.y() * sy, pictureRect_.width() * sx,
                            pictureRect_.height() * sy);
        painter.drawPixmap(target, picture_, QRectF(picture_.rect()));
        return;
    }
    // An explicit clip tells paintHeatmap which cells show (the system clip is hidden
    // from QPainter::hasClipping()); in a zoomed head dialog that is a small part.
    painter.setClipRect(exposed);
    // The background around the cells; the cells cover their whole grid themselves, so its
    // inner whole pixels are not filled twice (half of a large heatmap's paint otherwise).
    const HeatmapLayout& layout = heatmapLayout();
    const QRectF grid = layout.gridRect();
    const QRect cells(
        QPoint(int(std::ceil(grid.left())), int(std::ceil(grid.top()))),
        QPoint(int(std::floor(grid.right())) - 1, int(std::floor(grid.bottom())) - 1));
    QRegion background(rect());
    if (cells.isValid())
        background -= cells;
    for (const QRect& part : background)
        painter.fillRect(part, palette().window());
    paintHeatmap(painter, layout, data_, paintedStyle(), &cellImage_, &texts_);
    if (hasFocus()) { // which heatmap the arrow keys move over
        painter.setClipping(false);
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
    }
}

void HeatmapView::paintGreyed(QPainter& painter, const QRect& exposed)
{
    // Only the exposed part goes through an image: a zoomed head can be many screens large.
    const qreal ratio = devicePixelRatioF();
    QImage image((QSizeF(exposed.size()) * ratio).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    {
        QPainter content(&image);
        content.translate(-exposed.topLeft());
        paintContent(content, exposed);
    }
    painter.drawImage(exposed.topLeft(), image.convertToFormat(QImage::Format_Grayscale8));
    // Grey alone could pass for the grey colormap: the veil makes it faint as well.
    QColor veil = palette().color(QPalette::Window);
    veil.setAlpha(140);
    painter.fillRect(exposed, veil);
}

void HeatmapView::paintComputing(QPainter& painter) const
{
    const QRectF area = QRectF(rect()).adjusted(4, 4, -4, -4);
    QFont title = style_.labelFont;
    title.setBold(true);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.setFont(title);
    const QFontMetricsF titleMetrics(title, this);
    painter.drawText(QRectF(area.left(), area.top(), area.width(), titleMetrics.height()),
                     Qt::AlignHCenter | Qt::AlignTop,
                     titleMetrics.elidedText(data_.title, Qt::ElideRight, area.width()));
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.setFont(style_.labelFont);
    painter.drawText(area, Qt::AlignCenter,
                     tr("computing…", "a heatmap waits for its new weights"));
}

void HeatmapView::resizeEvent(QResizeEvent* event)
{
    invalidateLayout();
    QWidget::resizeEvent(event);
}

void HeatmapView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        invalidateLayout();
    QWidget::changeEvent(event);
}

void HeatmapView::mouseMoveEvent(QMouseEvent* event)
{
    if (letGo_ || isStale()) {
        QWidget::mouseMoveEvent(event);
        return;
    }
    const std::optional<QPoint> cell = heatmapLayout().cellAt(event->position());
    setHoveredCell(cell ? cell->x() : -1, cell ? cell->y() : -1);
    keyboardCell_ = false;
    QWidget::mouseMoveEvent(event);
}

void HeatmapView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint()))
        emit activated();
    QWidget::mouseReleaseEvent(event);
}

void HeatmapView::leaveEvent(QEvent* event)
{
    setHoveredCell(-1, -1);
    QWidget::leaveEvent(event);
}

HeatmapStyle HeatmapView::paintedStyle() const
{
    HeatmapStyle style = style_;
    style.labelFont = font();
    style.textColor = palette().color(QPalette::WindowText);
    if (hoveredRow_ >= 0) {
        style.highlightRow = hoveredRow_;
        style.highlightCol = hoveredColumn_;
    }
    return style;
}

void HeatmapView::setHoveredCell(int row, int column)
{
    if (row == hoveredRow_ && column == hoveredColumn_)
        return;
    hoveredRow_ = row;
    hoveredColumn_ = column;
    update();
    emit cellHovered(row, column);
    describe();
}

void HeatmapView::keyPressEvent(QKeyEvent* event)
{
    const int rows = data_.rows(), columns = data_.columns();
    // A stale heatmap has no cell values, but it still opens.
    if (letGo_ || rows == 0 || columns == 0 || (isStale() && !isActivationKey(*event))) {
        QWidget::keyPressEvent(event);
        return;
    }
    if (isActivationKey(*event)) {
        emit activated();
        return;
    }
    const std::optional<QPoint> next = keyboardCellStep(
        *event, currentCell(), rows, columns, keyboardPage(this, heatmapLayout().rowHeight()));
    if (!next) {
        QWidget::keyPressEvent(event);
        return;
    }
    showKeyboardCell(next->x(), next->y());
}

void HeatmapView::focusInEvent(QFocusEvent* event)
{
    // Tabbed to: the keyboard's cell where the mouse is, else the first. Focus that comes
    // with a window (a head's dialog opening) shows the frame only: the first arrow key
    // starts there.
    if (isTabFocus(*event) && !letGo_ && !isStale() && data_.rows() > 0 && data_.columns() > 0)
        showKeyboardCell(std::max(0, hoveredRow_), std::max(0, hoveredColumn_));
    QWidget::focusInEvent(event);
    update();
}

void HeatmapView::focusOutEvent(QFocusEvent* event)
{
    // Tabbing or clicking away leaves the keyboard's cell (the mouse's stays until the
    // mouse leaves); a window that goes inactive, or closes, keeps it.
    if (keyboardCell_ && leftWithinWindow(*event)) {
        QToolTip::hideText();
        setHoveredCell(-1, -1);
    }
    QWidget::focusOutEvent(event);
    update();
}

void HeatmapView::showKeyboardCell(int row, int column)
{
    setHoveredCell(row, column);
    keyboardCell_ = true;
    showKeyboardCellTip(this, heatmapLayout().cellRect(row, column).toAlignedRect(),
                        hoverText(data_, row, column));
}

void HeatmapView::describe()
{
    const QString description =
        isStale()          ? staleReason_
        : hoveredRow_ >= 0 ? hoverText(data_, hoveredRow_, hoveredColumn_)
                           : tr("%1 queries × %2 keys", "a heatmap's shape, for screen readers")
                                 .arg(data_.rows())
                                 .arg(data_.columns());
    setAccessibleText(this, data_.title, description);
}

void HeatmapView::invalidateLayout()
{
    layout_.reset();
    sizeHint_.reset();
    // The cell image stays: it depends on the data and style (changed() clears it), and
    // the cache tells a new size of image itself. A zoom step or a resize past a pixel per
    // cell then keeps it.
    update();
}

} // namespace attn::ui
