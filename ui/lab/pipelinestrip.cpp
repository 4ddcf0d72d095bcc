// Step by step's strip: the tiles of one head left to right, wrapped into lines with an
// arrow between neighbours (flowTiles, paintArrows), and the strip as a figure file
// (pipelineFigureBytes). Each tile is a PipelineTile.
#include "pipelinestrip.h"

#include "pipelinefigure.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace attn::ui {

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
        const QPoint highlight = pipelineHighlight(tile->tile().stage, i, j);
        tile->setHighlight(highlight.x(), highlight.y());
    }
}

void PipelineStrip::rebuild()
{
    for (PipelineTile* tile : tiles_)
        delete tile;
    tiles_.clear();
    for (StageTile& numbered : numberedPipelineTiles(result_, b_, h_, colours_)) {
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

TileFlow PipelineStrip::flow(int width) const
{
    std::vector<QSize> sizes;
    for (const PipelineTile* tile : tiles_)
        sizes.push_back(tile->sizeHint());
    return flowTiles(sizes, width);
}
int PipelineStrip::heightForWidth(int width) const
{
    return flow(width).height;
}

QSize PipelineStrip::sizeHint() const
{
    int width = 0;
    for (const PipelineTile* tile : tiles_)
        width += tile->sizeHint().width() + kTileColumnGap;
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
    const TileFlow placed = flow(width());
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
    std::vector<QRect> places;
    for (const PipelineTile* tile : tiles_)
        places.push_back(tile->geometry());
    QPainter painter(this);
    paintArrows(painter, places, palette().color(QPalette::Mid));
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
    std::vector<StageTile> tiles;
    for (const PipelineTile* tile : tiles_)
        tiles.push_back(tile->tile());
    return pipelineFigureBytes(format, tiles, size(), QPoint(selectedRow_, selectedColumn_),
                               {font(), palette(), this}, pixelsPerPixel, error, appendixHtml);
}

} // namespace attn::ui
