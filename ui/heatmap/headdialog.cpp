#include "headdialog.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// From a tenth of a pixel, where 2048 tokens take 205 px by level of detail (each pixel
// the largest weight of its block), to cells that hold their values.
constexpr double kMinCell = 0.1;
constexpr double kMaxCell = 120;
// The cell size a new heatmap opens at, at most: a few tokens fill the window at this
// size, and more are fitted to it.
constexpr double kOpeningCell = 32;
// A head opens with every token labelled (cells a label's line tall, scrolling) while that
// takes at most this many windows a side; longer ones open whole, by level of detail.
constexpr double kLabelledWindows = 3;

// The zoom slider is logarithmic in the cell size: position 0..100.
int sliderPosition(double cell)
{
    return int(std::lround(100 * std::log(cell / kMinCell) / std::log(kMaxCell / kMinCell)));
}

double cellForPosition(int position)
{
    return kMinCell * std::pow(kMaxCell / kMinCell, position / 100.0);
}

} // namespace

HeadDialog::HeadDialog(QWidget* parent)
    : QDialog(parent), view_(new HeatmapView), scroll_(new QScrollArea), zoom_(new QSlider),
      zoomLabel_(new QLabel), hover_(new QLabel)
{
    scroll_->setWidget(view_);
    scroll_->setWidgetResizable(false);
    scroll_->setAlignment(Qt::AlignCenter);
    scroll_->viewport()->installEventFilter(this);

    zoom_->setOrientation(Qt::Horizontal);
    zoom_->setRange(0, 100);
    zoom_->setValue(sliderPosition(cellSize_));
    connect(zoom_, &QSlider::valueChanged, this,
            [this](int position) { setCellSize(cellForPosition(position)); });
    auto* fit = new QPushButton;
    fit->setObjectName("fit");
    connect(fit, &QPushButton::clicked, this, &HeadDialog::fitToWindow);

    auto* zoomRow = new QHBoxLayout;
    zoomRow->addWidget(zoomLabel_);
    zoomRow->addWidget(zoom_, 1);
    zoomRow->addWidget(fit);

    hover_->setObjectName("headHover");
    hover_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(view_, &HeatmapView::cellHovered, this, [this](int row, int column) {
        const QString text = row < 0 ? QString() : hoverText(view_->data(), row, column);
        hover_->setText(text);
        emit hovered(text);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll_, 1);
    layout->addLayout(zoomRow);
    layout->addWidget(hover_);
    resize(820, 760);
    retranslateUi();
}

void HeadDialog::setHeatmap(const HeatmapData& data, const HeatmapStyle& style)
{
    // Another head of the same shape keeps the zoom; a new shape opens whole in the
    // window (2048 tokens at 32 px a cell would show a corner of 65 k px).
    // (The shape the view showed also when it let go of its matrices for a large switch.)
    const bool newShape = QSize(data.columns(), data.rows()) != view_->cells();
    view_->setData(data);
    view_->setHeatmapStyle(style);
    setWindowTitle(data.title);
    if (newShape) {
        fitCap_ = kOpeningCell;
        everyLabel_ = true;
        applyFit();
    } else if (fitCap_ > 0) {
        applyFit(); // a fit the dialog's resizing asked for while the view had let go
    } else {
        applyCellSize(cellSize_);
    }
}

void HeadDialog::setCellSize(double pixels)
{
    fitCap_ = 0; // a zoom of one's own: kept as the window changes
    applyCellSize(pixels);
}

void HeadDialog::applyFit()
{
    // While the view has let go of its matrices there is no layout to fit: the new data
    // (setHeatmap) fits.
    if (view_->hasLetGo())
        return;
    double cell = fittingCellSize();
    if (everyLabel_) {
        HeatmapStyle style = view_->heatmapStyle();
        style.labelFont = view_->font();
        const double labelled = HeatmapLayout::cellForEveryLabel(style, view_);
        const QSizeF room = scroll_->viewport()->size();
        const int tokens = std::max(view_->data().rows(), view_->data().columns());
        if (tokens * labelled <= kLabelledWindows * std::min(room.width(), room.height()))
            cell = std::max(cell, labelled);
    }
    applyCellSize(std::min(fitCap_, cell));
}

void HeadDialog::applyCellSize(double pixels)
{
    const double before = cellSize_;
    cellSize_ = std::clamp(pixels, kMinCell, kMaxCell);
    if (view_->hasLetGo()) {
        // A zoom while the view has let go of its matrices (a large switch computing): its
        // kept picture scaled by the zoom's ratio, labels too, until the new data comes
        // and gets its exact size.
        view_->resize((QSizeF(view_->size()) * (cellSize_ / before)).toSize());
    } else {
        view_->resize(preferredSize(view_->data(), view_->heatmapStyle(), cellSize_).toSize());
    }
    const QSignalBlocker block(zoom_);
    zoom_->setValue(sliderPosition(cellSize_));
    zoomLabel_->setText(zoomText());
}

void HeadDialog::fitToWindow()
{
    fitCap_ = kMaxCell;
    everyLabel_ = false; // the whole heatmap in the window, as the button says
    applyFit();
}

double HeadDialog::fittingCellSize() const
{
    const HeatmapData& data = view_->data();
    const QSizeF room = QSizeF(scroll_->viewport()->size()) - QSizeF(4, 4);
    const int rows = std::max(1, data.rows()), columns = std::max(1, data.columns());
    // The labels, title and colorbar take about the same room at any cell size: measure
    // it at one size, give the cells the rest, and shrink while the layout (whose labels
    // may take more at the new size) still does not fit.
    auto cellFor = [&](double cell) {
        const QSizeF around =
            preferredSize(data, view_->heatmapStyle(), cell) - QSizeF(columns * cell, rows * cell);
        return std::min((room.width() - around.width()) / columns,
                        (room.height() - around.height()) / rows);
    };
    double cell = std::clamp(cellFor(kOpeningCell), kMinCell, kMaxCell);
    for (int step = 0; step < 4; ++step) {
        const QSizeF size = preferredSize(data, view_->heatmapStyle(), cell);
        if (size.width() <= room.width() && size.height() <= room.height())
            break;
        cell = std::clamp(std::min(cellFor(cell), cell * 0.9), kMinCell, kMaxCell);
    }
    return cell;
}

bool HeadDialog::eventFilter(QObject* watched, QEvent* event)
{
    // A fitted heatmap follows the room it has: the first show, a resized dialog.
    if (watched == scroll_->viewport() && event->type() == QEvent::Resize && fitCap_ > 0)
        applyFit();
    // Ctrl + wheel zooms, as in image viewers; a plain wheel scrolls.
    if (watched == scroll_->viewport() && event->type() == QEvent::Wheel) {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() & Qt::ControlModifier) {
            wheel->angleDelta().y() > 0 ? zoomIn() : zoomOut();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

void HeadDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

QString HeadDialog::zoomText() const
{
    // Two figures below a pixel (0.23), one below ten (2.4), whole pixels above.
    const int decimals = cellSize_ < 1 ? 2 : cellSize_ < 10 ? 1 : 0;
    return tr("Zoom: %1 px per cell").arg(locale().toString(cellSize_, 'f', decimals));
}

void HeadDialog::retranslateUi()
{
    zoomLabel_->setText(zoomText());
    zoom_->setToolTip(tr("Cell size; Ctrl + mouse wheel over the heatmap zooms too"));
    findChild<QPushButton*>("fit")->setText(tr("Fit to window"));
    hover_->setText(hoverHint_.isEmpty() ? tr("Hover a cell to read its weight, logit and score.")
                                         : hoverHint_);
}

void HeadDialog::setHoverHint(const QString& hint)
{
    hoverHint_ = hint;
    hover_->setText(hint);
}

} // namespace attn::ui
