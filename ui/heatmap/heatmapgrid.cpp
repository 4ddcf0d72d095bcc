#include "heatmapgrid.h"

#include "engine/softmax.h"
#include "engine/statistics.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QStyle>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr int kSpacing = 12;
constexpr int kMinTile = 220;
constexpr int kMaxTile = 520;

// Over stale tiles: why the newest input has no heatmaps, and whose these are.
class StaleNote : public QWidget {
public:
    explicit StaleNote(QWidget* parent) : QWidget(parent)
    {
        setObjectName(QStringLiteral("staleNote"));
        setAttribute(Qt::WA_TransparentForMouseEvents); // the tiles under it still open
        hide();
    }

    void setReason(const QString& reason)
    {
        reason_ = reason;
        setAccessibleName(heading());
        setAccessibleDescription(reason);
        update();
    }

    // The note's size when it may be `room` wide at most.
    [[nodiscard]] QSize sizeFor(int room) const
    {
        const int width = std::clamp(room, 160, kMaxWidth);
        return {width, int(std::ceil(texts(width).whose.bottom() + kPadding))};
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing);
        QPainterPath frame;
        frame.addRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 8, 8);
        painter.fillPath(frame, palette().window());
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawPath(frame);
        const Texts t = texts(width());
        style()
            ->standardIcon(QStyle::SP_MessageBoxWarning)
            .paint(&painter, QRect(kPadding, int(t.heading.top()), t.icon, t.icon));
        painter.setPen(palette().color(QPalette::WindowText));
        painter.setFont(t.headingFont);
        painter.drawText(t.heading, Qt::TextWordWrap, heading());
        painter.setFont(font());
        painter.drawText(t.reason, Qt::TextWordWrap, reason_);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(t.whose, Qt::TextWordWrap, whose());
    }

private:
    static constexpr int kPadding = 14;
    static constexpr int kMaxWidth = 520;

    struct Texts {
        QFont headingFont;
        int icon; // the warning sign's side, before the heading
        QRectF heading, reason, whose;
    };

    static QString heading()
    {
        return HeatmapGrid::tr("Cannot compute", "over grey heatmaps, before the reason");
    }
    static QString whose()
    {
        return HeatmapGrid::tr("The grey heatmaps are those of the last input that could be "
                               "computed.");
    }

    // Where each text goes in a note `width` wide, one below the other.
    [[nodiscard]] Texts texts(int width) const
    {
        Texts t;
        t.headingFont = font();
        t.headingFont.setBold(true);
        t.headingFont.setPointSizeF(font().pointSizeF() * 1.15);
        const QFontMetricsF headingMetrics(t.headingFont);
        const double inner = width - 2.0 * kPadding;
        t.icon = int(std::ceil(headingMetrics.height()));
        auto below = [&](const QFontMetricsF& metrics, double top, double indent,
                         const QString& text) {
            const QRectF room(kPadding + indent, top, inner - indent, 1e6);
            const QRectF used = metrics.boundingRect(room, Qt::TextWordWrap, text);
            return QRectF(room.left(), top, room.width(), used.height());
        };
        t.heading = below(headingMetrics, kPadding, t.icon + 6, heading());
        const QFontMetricsF metrics(font());
        t.reason = below(metrics, t.heading.bottom() + 6, 0, reason_);
        t.whose = below(metrics, t.reason.bottom() + 6, 0, whose());
        return t;
    }

    QString reason_;
};

} // namespace

HeatmapGrid::HeatmapGrid(QWidget* parent) : QWidget(parent), staleNote_(new StaleNote(this))
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void HeatmapGrid::setResult(const Result& result, const ViewOptions& view)
{
    setStale({}); // new heatmaps, of the newest input
    // The complete result after its heatmaps were shown: the same weights, nothing to paint.
    const bool same = result.weights == result_.weights && result.tokens == result_.tokens &&
                      view == view_ && count() > 0;
    result_ = result;
    if (same)
        return;
    view_ = view;
    rebuild();
}

void HeatmapGrid::setViewOptions(const ViewOptions& view)
{
    const bool sequenceChanged = view.sequence != view_.sequence;
    // (A colorbar tick that changes, as the log scale's floor does, the views measure
    // themselves: setHeatmapStyle lays them out again.)
    const bool tilesResized =
        view.marginSums != view_.marginSums || view.annotate != view_.annotate;
    view_ = view;
    if (sequenceChanged)
        rebuild();
    else if (result_.hasWeights()) {
        const int b = std::clamp(view_.sequence, 0, result_.batch() - 1);
        const std::shared_ptr<const HeadsOverview> made = madeOverview(b);
        const std::vector<float> maxima = made ? made->maxima : finiteMaxima(*result_.weights, b);
        for (int k = 0; k < count(); ++k) {
            const int h = k < result_.heads() ? k : -1;
            HeatmapStyle style = views_[std::size_t(k)]->heatmapStyle();
            style.colormap = view_.colormap;
            style.annotate = view_.annotate;
            style.marginSums = view_.marginSums;
            setWeightScale(style, maxima, h, view_.sharedScale, view_.logScale,
                           result_.keyLength());
            views_[std::size_t(k)]->setHeatmapStyle(style);
        }
        if (tilesResized) {
            valueTile_ = tileSideFor(&fullValueCell);
            leastValueTile_ = tileSideFor(&minimumValueCell);
            relayout();
            updateGeometry();
        }
    }
}

void HeatmapGrid::clear()
{
    result_ = Result{};
    setStale({});
    rebuild();
}

void HeatmapGrid::setStale(const QString& reason)
{
    if (reason == staleReason_)
        return;
    staleReason_ = reason;
    for (HeatmapView* view : views_)
        view->setStale(reason);
    static_cast<StaleNote*>(staleNote_)->setReason(reason);
    // The note stays in the middle of what the scroll area shows, also when that grows
    // taller than the grid's tiles (no resize of the grid then).
    if (parentWidget())
        parentWidget()->installEventFilter(this);
    placeStaleNote();
}

void HeatmapGrid::placeStaleNote()
{
    if (!isStale()) {
        staleNote_->hide();
        return;
    }
    QRect sight = rect();
    if (parentWidget())
        sight &= QRect(mapFromParent(QPoint(0, 0)), parentWidget()->size());
    const QSize size = static_cast<StaleNote*>(staleNote_)->sizeFor(sight.width() - 2 * kSpacing);
    QRect note(QPoint(0, 0), size);
    note.moveCenter(sight.center());
    staleNote_->setGeometry(note);
    staleNote_->raise();
    staleNote_->show();
}

void HeatmapGrid::letGo()
{
    if (!result_.hasWeights())
        return;
    for (HeatmapView* view : views_)
        view->letGo();
    result_ = withoutHeadTensors(result_);
}

std::shared_ptr<const HeadsOverview> HeatmapGrid::madeOverview(int b) const
{
    if (!result_.overviews || b >= int(result_.overviews->size()))
        return nullptr;
    return {result_.overviews, &(*result_.overviews)[std::size_t(b)]};
}

void HeatmapGrid::rebuild()
{
    if (hasLetGo()) { // the tiles keep their pictures until the new result comes
        relayout();
        return;
    }
    // One head has no mean tile: it would be the same picture twice.
    const int heads = result_.hasWeights() ? result_.heads() : 0;
    const int wanted = heads > 1 ? heads + 1 : heads;
    while (count() > wanted) {
        delete views_.back();
        views_.pop_back();
    }
    while (count() < wanted) {
        auto* view = new HeatmapView(this);
        const int index = count();
        connect(view, &HeatmapView::cellHovered, this, [this, view](int row, int column) {
            emit hovered(row < 0 ? QString() : hoverText(view->data(), row, column));
        });
        connect(view, &HeatmapView::activated, this,
                [this, index] { emit headActivated(index < result_.heads() ? index : -1); });
        view->show();
        // Tab goes through the heads in their order right after the area they scroll in
        // (or the grid), not after every widget made before the first result.
        QWidget* before = views_.empty() ? static_cast<QWidget*>(this) : views_.back();
        if (views_.empty())
            for (QWidget* ancestor = parentWidget(); ancestor; ancestor = ancestor->parentWidget())
                if (qobject_cast<QScrollArea*>(ancestor)) {
                    before = ancestor;
                    break;
                }
        setTabOrder(before, view);
        views_.push_back(view);
    }
    if (result_.hasWeights()) {
        const int b = std::clamp(view_.sequence, 0, result_.batch() - 1);
        // The heads' maxima for the colour scale and their mean: the worker's when it made
        // them, else one pass here.
        std::shared_ptr<const HeadsOverview> overview = madeOverview(b);
        if (!overview)
            overview = std::make_shared<const HeadsOverview>(overviewOfHeads(*result_.weights, b));
        // The labels of the last rebuild while the tokens stay (a switch of the formula),
        // shared by every head: the views then see the same lists and keep their layouts.
        if (labelTokens_ != result_.tokens || labelKeyTokens_ != result_.keyTokens ||
            labelSequence_ != b) {
            labels_ = heatmapLabels(result_, b);
            labelTokens_ = result_.tokens;
            labelKeyTokens_ = result_.keyTokens;
            labelSequence_ = b;
        }
        for (int k = 0; k < wanted; ++k) {
            const int h = k < result_.heads() ? k : -1;
            HeatmapStyle style;
            style.colormap = view_.colormap;
            style.annotate = view_.annotate;
            style.marginSums = view_.marginSums;
            setWeightScale(style, overview->maxima, h, view_.sharedScale, view_.logScale,
                           result_.keyLength());
            views_[std::size_t(k)]->setData(
                h < 0 ? headHeatmap(result_, b, h, labels_, SharedWeights(overview, overview->mean))
                      : headHeatmap(result_, b, h, labels_));
            views_[std::size_t(k)]->setHeatmapStyle(style);
            views_[std::size_t(k)]->setToolTip(QString());
            views_[std::size_t(k)]->setStale(staleReason_); // a new sequence of stale heads
        }
    }
    valueTile_ = tileSideFor(&fullValueCell);
    leastValueTile_ = tileSideFor(&minimumValueCell);
    relayout();
    updateGeometry();
    placeStaleNote();
}

QSize HeatmapGrid::tileSize() const
{
    // The smallest tile that still shows every token label: about 18 px a row, plus
    // room for the labels, the title, the colorbar and the margin sums.
    const int tokens = result_.tokens ? std::max(result_.length(), result_.keyLength()) : 0;
    const int sums = view_.marginSums ? 80 : 0;
    const int side = std::clamp(tokens * 18 + 130 + sums, kMinTile, kMaxTile + sums);
    return {side, side};
}

int HeatmapGrid::tileSideFor(double (*cell)(const QFont&, const QPaintDevice*)) const
{
    if (!result_.hasWeights())
        return 0;
    const int tokens = std::max(result_.length(), result_.keyLength());
    double side = 0;
    for (const HeatmapView* view : views_) {
        HeatmapStyle style = view->heatmapStyle();
        style.labelFont = view->font();
        const double size = cell(style.labelFont, view);
        if (tokens * size > 2 * kMaxTile)
            return 0; // no need to measure the labels of a long sentence
        const QSizeF tile =
            HeatmapLayout::forCellSize(view->data(), style, size, view).boundingRect().size();
        side = std::max({side, tile.width(), tile.height()});
    }
    return side > 2 * kMaxTile ? 0 : static_cast<int>(std::ceil(side));
}

int HeatmapGrid::columnsFor(int width) const
{
    return std::max(1, (width + kSpacing) / (tileSize().width() + kSpacing));
}

HeatmapGrid::Tiling HeatmapGrid::tiling(QSize room) const
{
    const int n = count();
    const auto widthFill = [&](int columns) {
        return (room.width() - (columns - 1) * kSpacing) / columns;
    };
    const auto heightFill = [&](int columns) {
        const int rows = (n + columns - 1) / columns;
        return (room.height() - (rows - 1) * kSpacing) / rows;
    };
    if (valueTile_ > 0 && n > 0) {
        // A short sentence: the tiles grow to fill the width, up to cells that hold their
        // values (never larger), and the grid scrolls when they do not all fit in sight.
        // Never smaller than a tile that labels every token, or with values in cells,
        // that prints them.
        const int least = std::min(
            valueTile_, std::max(tileSize().width(), view_.annotate ? leastValueTile_ : 0));
        Tiling best{std::clamp((room.width() + kSpacing) / (valueTile_ + kSpacing), 1, n), 0};
        best.side = std::min(valueTile_, widthFill(best.columns));
        // Tiles that leave more than a tenth of the width empty: a column more, filling it.
        const int used = best.columns * (best.side + kSpacing) - kSpacing;
        if (best.columns < n && used < 0.9 * room.width() && widthFill(best.columns + 1) >= least)
            best = {best.columns + 1, widthFill(best.columns + 1)};
        best.side = std::max(best.side, least);
        // Every head in sight at a larger size still: so much the better.
        for (int columns = 1; columns <= n; ++columns) {
            const int side = std::min({valueTile_, widthFill(columns), heightFill(columns)});
            if (side > best.side)
                best = {columns, side};
        }
        return best;
    }
    // A long sentence: the number of columns that gives the largest tiles while every head
    // still fits in the visible room; when none fits, keep tiles readable and scroll.
    Tiling best{columnsFor(room.width()), tileSize().width()};
    int bestSide = 0;
    for (int columns = 1; columns <= n; ++columns) {
        const int rows = (n + columns - 1) / columns;
        const int side = std::min((room.width() - (columns - 1) * kSpacing) / columns,
                                  (room.height() - (rows - 1) * kSpacing) / rows);
        if (side > bestSide) {
            bestSide = side;
            best = {columns, side};
        }
    }
    if (bestSide < tileSize().width()) {
        best.columns = columnsFor(room.width());
        best.side = std::max(tileSize().width(),
                             (room.width() - (best.columns - 1) * kSpacing) / best.columns);
    }
    best.side = std::min(best.side, kMaxTile * 2);
    return best;
}

int HeatmapGrid::heightForWidth(int width) const
{
    if (views_.empty())
        return 0;
    const Tiling t = tiling({width, parentWidget() ? parentWidget()->height() : width});
    const int rows = (count() + t.columns - 1) / t.columns;
    return rows * t.side + (rows - 1) * kSpacing;
}

QSize HeatmapGrid::sizeHint() const
{
    const QSize tile = tileSize();
    const int columns = std::min(count(), 3);
    const int width = std::max(1, columns) * (tile.width() + kSpacing);
    return {width, heightForWidth(width)};
}

void HeatmapGrid::relayout()
{
    if (views_.empty())
        return;
    // The room is what the scroll area shows, not the grid's own (grown) height.
    const QSize room(width(), parentWidget() ? parentWidget()->height() : height());
    const Tiling t = tiling(room);
    for (int k = 0; k < count(); ++k) {
        const int row = k / t.columns, column = k % t.columns;
        views_[std::size_t(k)]->setGeometry(column * (t.side + kSpacing), row * (t.side + kSpacing),
                                            t.side, t.side);
    }
    const int rows = (count() + t.columns - 1) / t.columns;
    setMinimumHeight(rows * t.side + (rows - 1) * kSpacing);
}

void HeatmapGrid::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
    placeStaleNote();
}

void HeatmapGrid::moveEvent(QMoveEvent* event)
{
    QWidget::moveEvent(event);
    placeStaleNote(); // scrolled: the note follows what is in sight
}

bool HeatmapGrid::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        placeStaleNote();
    return QWidget::eventFilter(watched, event);
}

void HeatmapGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (result_.hasWeights())
            rebuild(); // the titles are translated
        staleNote_->update();
    }
    QWidget::changeEvent(event);
}

} // namespace attn::ui
