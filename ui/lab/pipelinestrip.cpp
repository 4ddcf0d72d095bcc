// Step by step's strip: the tiles of one head left to right, wrapped into lines with an
// arrow between neighbours, and the strip as a figure file. Each tile is a PipelineTile
// (pipelinetilewidget.cpp).
#include "pipelinestrip.h"

#include "figurefile.h"

#include <QCoreApplication>
#include <QEvent>
#include <QPainter>
#include <QPainterPath>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

constexpr double kPad = 10;    // around the figure's appendix, as inside a tile
constexpr int kColumnGap = 32; // between tiles on a line: room for the arrow
constexpr int kLineGap = 18;

} // namespace

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
