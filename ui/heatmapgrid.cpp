#include "heatmapgrid.h"

#include "softmax.h"
#include "statistics.h"

#include <QEvent>
#include <QScrollArea>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr int kSpacing = 12;
constexpr int kMinTile = 220;
constexpr int kMaxTile = 520;

QStringList tokenLabels(const TokenBatch& tokens, int b)
{
    QStringList labels;
    for (const std::string& token : tokens.tokens[std::size_t(b)])
        labels << QString::fromStdString(token);
    return labels;
}

} // namespace

HeatmapLabels heatmapLabels(const Result& result, int b)
{
    // Rows are the queries' tokens, columns the keys' (the second text's in
    // cross-attention).
    HeatmapLabels labels;
    labels.queries = tokenLabels(*result.tokens, b);
    labels.keys =
        result.keyTokens == result.tokens ? labels.queries : tokenLabels(*result.keyTokens, b);
    return labels;
}

HeatmapData headHeatmap(const Result& result, int b, int h)
{
    return headHeatmap(result, b, h, heatmapLabels(result, b));
}

HeatmapData headHeatmap(const Result& result, int b, int h, const HeatmapLabels& labels,
                        SharedWeights mean)
{
    HeatmapData data;
    if (h < 0) {
        if (mean.size() != 0)
            data.weights = std::move(mean);
        else
            data.weights = meanOverHeads(*result.weights, b);
        data.title = HeatmapGrid::tr("Mean of the heads", "heatmap title");
    } else {
        data.weights = SharedWeights(result.weights, result.weights->at(b, h));
        data.scores = SharedWeights(result.scores, result.scores->at(b, h));
        data.maskedScoresPending = result.maskedScoresPending;
        data.logitRule = logitRule(result.config());
        data.title = HeatmapGrid::tr("Head %1", "heatmap title").arg(h);
    }
    data.masked = SharedMask(result.mask, (*result.mask)[std::size_t(b)]);
    data.queryLabels = labels.queries;
    data.keyLabels = labels.keys;
    return data;
}

std::pair<double, double> weightRange(const std::vector<float>& maxima, int h, bool shared)
{
    const float max =
        shared || h < 0 || h >= int(maxima.size())
            ? (maxima.empty() ? 0.0f : *std::max_element(maxima.begin(), maxima.end()))
            : maxima[std::size_t(h)];
    return {0.0, max > 0 ? double(max) : 1.0};
}

void setWeightScale(HeatmapStyle& style, const std::vector<float>& maxima, int h, bool shared,
                    bool log, int keys)
{
    std::tie(style.vmin, style.vmax) = weightRange(maxima, h, shared);
    style.logScale = log;
    if (log)
        style.vmin = logScaleFloor(style.vmax, keys);
}

std::pair<double, double> weightRange(const Result& result, int b, int h, bool shared)
{
    return weightRange(finiteMaxima(*result.weights, b), h, shared);
}

HeatmapGrid::HeatmapGrid(QWidget* parent) : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void HeatmapGrid::setResult(const Result& result, const ViewOptions& view)
{
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
    rebuild();
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
    const int wanted = result_.hasWeights() ? result_.heads() + 1 : 0;
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
        }
    }
    valueTile_ = tileSideFor(&fullValueCell);
    leastValueTile_ = tileSideFor(&minimumValueCell);
    relayout();
    updateGeometry();
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
}

void HeatmapGrid::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && result_.hasWeights())
        rebuild(); // the titles are translated
    QWidget::changeEvent(event);
}

} // namespace attn::ui
