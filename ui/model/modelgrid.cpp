#include "modelgrid.h"

#include "formulabar.h" // alertColor
#include "heatmappainter.h"
#include "widgetaccess.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr int kGap = 3; // between tiles
// The tiles share about this many pixels a row: 12 heads get 50 px tiles, 32 heads 18 px.
constexpr int kRowWidth = 640;
constexpr int kMinTile = 18;
constexpr int kMaxTile = 56;

} // namespace

ModelGrid::ModelGrid(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    describe();
}

void ModelGrid::setThumbnails(std::vector<Thumbnail> thumbnails, int layers, int heads)
{
    Q_ASSERT(thumbnails.size() == std::size_t(layers) * std::size_t(heads));
    thumbnails_ = std::move(thumbnails);
    computing_ = false;
    setFrame(layers, heads);
}

void ModelGrid::setComputing(int layers, int heads)
{
    thumbnails_.clear();
    computing_ = true;
    setFrame(layers, heads);
}

void ModelGrid::setFrame(int layers, int heads)
{
    layers_ = layers;
    heads_ = heads;
    tile_ = fittedTile(room_);
    if (current_.x() >= layers_ || current_.y() >= heads_)
        current_ = {-1, -1};
    if (hovered_.x() >= layers_ || hovered_.y() >= heads_)
        hovered_ = {-1, -1};
    rebuildImages();
    updateGeometry();
    resize(sizeHint()); // inside a scroll area that does not resize it
    update();
    describe();
}

int ModelGrid::fittedTile(QSize room) const
{
    const int usual = std::clamp(kRowWidth / std::max(1, heads_) - kGap, kMinTile, kMaxTile);
    if (!room.isValid() || layers_ < 1 || heads_ < 1)
        return usual;
    const int byWidth = (room.width() - labelWidth() - 4) / heads_ - kGap;
    const int byHeight = (room.height() - headerHeight()) / layers_ - kGap;
    return std::clamp(std::min(byWidth, byHeight), usual, std::max(usual, kLargestTile));
}

void ModelGrid::setRoom(QSize room)
{
    room_ = room;
    const int tile = fittedTile(room_);
    if (tile == tile_)
        return;
    tile_ = tile;
    updateGeometry();
    resize(sizeHint());
    update();
}

int ModelGrid::widthForHeight(int height) const
{
    const int tile = fittedTile(QSize(QWIDGETSIZE_MAX, height));
    return labelWidth() + heads_ * (tile + kGap) + 4;
}

void ModelGrid::setColormap(ColormapName name)
{
    colormap_ = Colormap(name);
    rebuildImages();
    update();
}

const Thumbnail& ModelGrid::thumbnail(int layer, int head) const
{
    return thumbnails_.at(std::size_t(layer) * std::size_t(heads_) + std::size_t(head));
}

void ModelGrid::rebuildImages()
{
    images_.clear();
    images_.reserve(thumbnails_.size());
    for (const Thumbnail& thumbnail : thumbnails_)
        images_.push_back(thumbnailImage(thumbnail, colormap_));
}

QString ModelGrid::tileName(int layer, int head)
{
    return tr("Layer %1, head %2").arg(layer).arg(head);
}

QString ModelGrid::kvShares(int head, int heads, int kvHeads)
{
    if (kvHeads <= 0 || kvHeads >= heads || heads % kvHeads != 0)
        return {};
    const int group = heads / kvHeads;
    const int kv = head / group;
    return tr("shares K/V head %1 with heads %2–%3", "grouped-query attention")
        .arg(kv)
        .arg(kv * group)
        .arg(kv * group + group - 1);
}

QString ModelGrid::kvSharing(int head, int heads, int kvHeads)
{
    const QString shares = kvShares(head, heads, kvHeads);
    return shares.isEmpty() ? shares
                            : tr("head %1 · %2", "a head and the K/V head it reads")
                                  .arg(QString::number(head), shares);
}

QString ModelGrid::tileToolTip(int layer, int head) const
{
    const QString shares = kvShares(head, heads_, kvHeads_);
    QString tip = shares.isEmpty() ? tileName(layer, head)
                                   : tr("%1 · %2", "a tile's name and the K/V head it reads")
                                         .arg(tileName(layer, head), shares);
    if (const RoleMark* mark = roleMark(layer, head))
        tip += tr(" · %1", "a tile's name and its role").arg(mark->text);
    if (knockedOut(layer, head))
        tip += tr(" · knocked out (K restores it)");
    else if (knockable_)
        tip += tr(" · K or right-click knocks it out");
    return tip;
}

int ModelGrid::labelWidth() const
{
    return fontMetrics().horizontalAdvance(QLocale().toString(std::max(0, layers_ - 1))) +
           fontMetrics().horizontalAdvance(tr("layer", "a row of the model view")) + 12;
}

int ModelGrid::headerHeight() const
{
    return fontMetrics().height() + 4;
}

QRect ModelGrid::tileRect(int layer, int head) const
{
    return {labelWidth() + head * (tile_ + kGap), headerHeight() + layer * (tile_ + kGap), tile_,
            tile_};
}

std::optional<QPoint> ModelGrid::tileAt(QPoint pos) const
{
    const int x = pos.x() - labelWidth();
    const int y = pos.y() - headerHeight();
    if (x < 0 || y < 0)
        return std::nullopt;
    const int head = x / (tile_ + kGap);
    const int layer = y / (tile_ + kGap);
    if (layer >= layers_ || head >= heads_ || !tileRect(layer, head).contains(pos))
        return std::nullopt;
    return QPoint(layer, head);
}

void ModelGrid::setCurrent(int layer, int head)
{
    const QPoint cell = layer < 0 || head < 0 ? QPoint(-1, -1) : QPoint(layer, head);
    if (cell == current_)
        return;
    current_ = cell;
    update();
    describe();
    if (cell.x() >= 0)
        revealInScrollArea(this, tileRect(cell.x(), cell.y()));
    emit currentChanged(cell.x(), cell.y());
}

QSize ModelGrid::sizeHint() const
{
    return {labelWidth() + heads_ * (tile_ + kGap) + 4, headerHeight() + layers_ * (tile_ + kGap)};
}

void ModelGrid::describe()
{
    QString description;
    if (computing_ && current_.x() >= 0) {
        description = tr("%1: computing the thumbnails…").arg(tileName(current_.x(), current_.y()));
    } else if (computing_) {
        description = tr("layers × heads: %1 × %2, computing the thumbnails; the arrow keys "
                         "move, Enter opens a head")
                          .arg(layers_)
                          .arg(heads_);
    } else if (current_.x() >= 0) {
        const Thumbnail& t = thumbnail(current_.x(), current_.y());
        description =
            tr("%1: largest weight %2")
                .arg(tileName(current_.x(), current_.y()), QLocale().toString(t.maximum, 'f', 3));
        if (t.nonFinite > 0)
            description += u' ' + tr("(NaN or infinite weights: %n)", "", int(t.nonFinite));
    } else {
        description = tr("layers × heads: %1 × %2; the arrow keys move, Enter opens a head")
                          .arg(layers_)
                          .arg(heads_);
    }
    setAccessibleText(this, tr("Model view"), description);
}

bool ModelGrid::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<QPoint> tile = tileAt(help->pos())) {
            QToolTip::showText(help->globalPos(), tileToolTip(tile->x(), tile->y()), this,
                               tileRect(tile->x(), tile->y()));
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void ModelGrid::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
    const QPalette& colours = palette();
    painter.setPen(colours.color(QPalette::WindowText));
    const int left = labelWidth();
    const QFontMetrics metrics = fontMetrics();
    // Header: head numbers, every one that fits.
    const int step =
        std::max(1, (metrics.horizontalAdvance(QStringLiteral("00")) + 4) / (tile_ + kGap) + 1);
    for (int h = 0; h < heads_; h += step)
        painter.drawText(QRect(left + h * (tile_ + kGap), 0, tile_, headerHeight()),
                         Qt::AlignHCenter | Qt::AlignBottom, QLocale().toString(h));
    for (int l = 0; l < layers_; ++l) {
        const QRect row(0, headerHeight() + l * (tile_ + kGap), left - 6, tile_);
        painter.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
                         tr("layer", "a row of the model view") + u' ' + QLocale().toString(l));
        for (int h = 0; h < heads_; ++h) {
            if (computing_)
                painter.fillRect(tileRect(l, h), colours.color(QPalette::Midlight));
            else
                painter.drawImage(tileRect(l, h),
                                  images_[std::size_t(l) * std::size_t(heads_) + std::size_t(h)]);
        }
    }
    if (computing_)
        paintComputing(painter);
    // A head's role: its letter on a badge in the tile's top right corner.
    QFont badgeFont = font();
    badgeFont.setBold(true);
    badgeFont.setPixelSize(std::clamp(tile_ / 3, 8, 16));
    painter.setFont(badgeFont);
    for (const RoleMark& mark : roleMarks_) {
        if (mark.head.layer >= layers_ || mark.head.head >= heads_)
            continue;
        const QRect tile = tileRect(mark.head.layer, mark.head.head);
        const int side = badgeFont.pixelSize() + 4;
        const QRect badge(tile.right() - side + 1, tile.top(), side, side);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colours.color(QPalette::Highlight));
        painter.drawRoundedRect(badge, 3, 3);
        painter.setPen(colours.color(QPalette::HighlightedText));
        painter.drawText(badge, Qt::AlignCenter, mark.letter);
    }
    painter.setFont(font());
    // A knocked-out head: its tile veiled and crossed out.
    for (const HeadIndex& head : knockedOut_) {
        if (head.layer >= layers_ || head.head >= heads_)
            continue;
        const QRect tile = tileRect(head.layer, head.head);
        QColor veil = colours.color(QPalette::Window);
        veil.setAlpha(150);
        painter.fillRect(tile, veil);
        painter.setPen(QPen(alertColor(colours), std::max(2, tile_ / 16)));
        painter.drawLine(tile.topLeft(), tile.bottomRight());
        painter.drawLine(tile.topRight(), tile.bottomLeft());
    }
    const auto outline = [&](QPoint tile, const QColor& colour, int width) {
        if (tile.x() < 0)
            return;
        painter.setPen(QPen(colour, width));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(tileRect(tile.x(), tile.y()).adjusted(-2, -2, 1, 1));
    };
    outline(hovered_, colours.color(QPalette::Mid), 1);
    outline(current_, colours.color(QPalette::Highlight), hasFocus() ? 3 : 2);
}

// Over the first rows of empty tiles, where the grid opens: what it is waiting for.
void ModelGrid::paintComputing(QPainter& painter)
{
    const QPalette& colours = palette();
    const QString text = tr("Computing the thumbnails…");
    const QRect tiles(tileRect(0, 0).topLeft(), tileRect(layers_ - 1, heads_ - 1).bottomRight());
    QRect box = painter.fontMetrics().boundingRect(text).adjusted(-10, -6, 10, 6);
    box.moveCenter({tiles.center().x(), tiles.top() + std::min(tiles.height() / 2, 60)});
    box.moveLeft(std::max(box.left(), 1)); // a grid of few heads is narrower than the words
    painter.setPen(colours.color(QPalette::Mid));
    painter.setBrush(colours.color(QPalette::Base));
    painter.drawRoundedRect(box, 4, 4);
    painter.setPen(colours.color(QPalette::Text));
    painter.drawText(box, Qt::AlignCenter, text);
}

void ModelGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange) {
        tile_ = fittedTile(room_); // the layers' labels take another width
        updateGeometry();
        describe();
        update();
    }
    QWidget::changeEvent(event);
}

void ModelGrid::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint tile = tileAt(event->position().toPoint()).value_or(QPoint(-1, -1));
    if (tile != hovered_) {
        hovered_ = tile;
        update();
        emit hovered(tile.x(), tile.y());
    }
    if (tile.x() < 0) {
        emit rowHovered(-1, -1, -1);
        return;
    }
    const QRect rect = tileRect(tile.x(), tile.y());
    emit rowHovered(tile.x(), tile.y(),
                    std::clamp(double(event->position().y() - rect.top()) / rect.height(), 0.0,
                               std::nextafter(1.0, 0.0)));
}

void ModelGrid::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (const std::optional<QPoint> tile = tileAt(event->position().toPoint())) {
        setCurrent(tile->x(), tile->y());
        emit activated(tile->x(), tile->y());
    }
}

void ModelGrid::leaveEvent(QEvent*)
{
    if (hovered_.x() >= 0) {
        hovered_ = {-1, -1};
        update();
        emit hovered(-1, -1);
        emit rowHovered(-1, -1, -1);
    }
}

void ModelGrid::setKnockedOut(std::vector<HeadIndex> heads)
{
    std::sort(heads.begin(), heads.end());
    knockedOut_ = std::move(heads);
    update();
}

void ModelGrid::setRoleMarks(std::vector<RoleMark> marks)
{
    roleMarks_ = std::move(marks);
    update();
}

const ModelGrid::RoleMark* ModelGrid::roleMark(int layer, int head) const
{
    for (const RoleMark& mark : roleMarks_)
        if (mark.head.layer == layer && mark.head.head == head)
            return &mark;
    return nullptr;
}

bool ModelGrid::knockedOut(int layer, int head) const
{
    return std::binary_search(knockedOut_.begin(), knockedOut_.end(), HeadIndex{layer, head});
}

QMenu* ModelGrid::knockOutMenu(QPoint pos)
{
    if (!knockable_ || computing_)
        return nullptr;
    auto* menu = new QMenu(this);
    if (const std::optional<QPoint> tile = tileAt(pos)) {
        const int layer = tile->x(), head = tile->y();
        const bool out = !knockedOut(layer, head);
        QAction* action = menu->addAction(out ? tr("&Knock Out Head %1.%2").arg(layer).arg(head)
                                              : tr("&Restore Head %1.%2").arg(layer).arg(head));
        action->setShortcut(Qt::Key_K);
        connect(action, &QAction::triggered, this,
                [this, layer, head, out] { emit knockOutRequested(layer, head, out); });
        return menu;
    }
    const int row = pos.y() - headerHeight();
    if (pos.x() < labelWidth() && row >= 0 && row % (tile_ + kGap) < tile_ &&
        row / (tile_ + kGap) < layers_) {
        const int layer = row / (tile_ + kGap);
        int out = 0;
        for (int h = 0; h < heads_; ++h)
            out += knockedOut(layer, h);
        if (out < heads_)
            connect(menu->addAction(tr("&Knock Out Layer %1's Attention").arg(layer)),
                    &QAction::triggered, this,
                    [this, layer] { emit knockOutRequested(layer, -1, true); });
        if (out > 0)
            connect(menu->addAction(tr("&Restore Layer %1's Heads").arg(layer)),
                    &QAction::triggered, this,
                    [this, layer] { emit knockOutRequested(layer, -1, false); });
        return menu;
    }
    delete menu;
    return nullptr;
}

void ModelGrid::contextMenuEvent(QContextMenuEvent* event)
{
    if (QMenu* menu = knockOutMenu(event->pos())) {
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(event->globalPos());
        return;
    }
    QWidget::contextMenuEvent(event);
}

void ModelGrid::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_K && knockable_ && current_.x() >= 0 && !computing_) {
        emit knockOutRequested(current_.x(), current_.y(), !knockedOut(current_.x(), current_.y()));
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter ||
         event->key() == Qt::Key_Space) &&
        current_.x() >= 0) {
        emit activated(current_.x(), current_.y());
        return;
    }
    const int page = std::max(1, height() / (tile_ + kGap) - 1);
    if (const std::optional<QPoint> step =
            keyboardCellStep(*event, current_, layers_, heads_, page)) {
        setCurrent(step->x(), step->y());
        emit hovered(step->x(), step->y());
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace attn::ui
