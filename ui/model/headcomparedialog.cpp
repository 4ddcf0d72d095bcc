#include "headcomparedialog.h"

#include "attention/attentionreport.h"
#include "engine/statistics.h"
#include "heatmapview.h"

#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace attn::ui {
namespace {

QString number(double value, int decimals = 3)
{
    return QLocale().toString(value, 'f', decimals);
}

QString label(const QStringList& labels, int index)
{
    return index < labels.size() && !labels[index].isEmpty() ? labels[index]
                                                             : QString::number(index);
}

} // namespace

HeadDifference headDifference(const Matrix& a, const Matrix& b)
{
    HeadDifference d;
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return d;
    double sum = 0;
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            if (!std::isfinite(a(i, j)) || !std::isfinite(b(i, j)))
                continue;
            const double gap = std::abs(double(a(i, j)) - double(b(i, j)));
            sum += gap;
            ++d.cells;
            if (d.row < 0 || gap > d.largest) {
                d.largest = gap;
                d.row = int(i);
                d.column = int(j);
            }
        }
    d.mean = d.cells > 0 ? sum / d.cells : 0;
    return d;
}

std::pair<int, FileSelection> defaultComparison(const StackShape& shape, int layer,
                                                const FileSelection& selection)
{
    if (shape.layers > 1)
        return {layer + 1 < shape.layers ? layer + 1 : layer - 1, selection};
    if (selection.what == FileWhat::Head && selection.head + 1 < shape.heads)
        return {layer, {FileWhat::Head, selection.head + 1}};
    if (selection.what == FileWhat::Head)
        return {layer, {FileWhat::Mean, 0}};
    return {layer, {FileWhat::Head, 0}};
}

HeadCompareDialog::HeadCompareDialog(QWidget* parent)
    : QDialog(parent), layer_(new QSpinBox), head_(new QComboBox), layerLabel_(new QLabel),
      headLabel_(new QLabel), viewA_(new HeatmapView), viewB_(new HeatmapView), hover_(new QLabel),
      numbers_(new QLabel)
{
    setObjectName("headCompareDialog");
    layer_->setObjectName("compareLayer");
    head_->setObjectName("compareHead");
    viewA_->setObjectName("compareA");
    viewB_->setObjectName("compareB");
    numbers_->setObjectName("compareNumbers");
    hover_->setObjectName("compareHover");
    layerLabel_->setBuddy(layer_);
    headLabel_->setBuddy(head_);
    numbers_->setWordWrap(true);
    numbers_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(layer_, &QSpinBox::valueChanged, this, [this] {
        if (!filling_)
            refresh();
    });
    connect(head_, &QComboBox::currentIndexChanged, this, [this] {
        if (!filling_)
            refresh();
    });
    for (HeatmapView* view : {viewA_, viewB_})
        connect(view, &HeatmapView::cellHovered, this,
                [this](int row, int column) { hover_->setText(cellText(row, column)); });

    auto* choose = new QHBoxLayout;
    choose->addWidget(layerLabel_);
    choose->addWidget(layer_);
    choose->addWidget(headLabel_);
    choose->addWidget(head_);
    choose->addStretch(1);
    auto* sides = new QHBoxLayout;
    sides->addWidget(viewA_);
    sides->addWidget(viewB_);
    auto* box = new QVBoxLayout(this);
    box->addLayout(choose);
    box->addLayout(sides, 1);
    box->addWidget(hover_);
    box->addWidget(numbers_);
    resize(1000, 620);
    retranslate();
}

void HeadCompareDialog::compare(std::shared_ptr<const AttentionStack> stack, int layer,
                                int sequence, const FileSelection& selection, ColormapName colormap)
{
    stack_ = std::move(stack);
    layerA_ = layer;
    sequence_ = sequence;
    selectionA_ = selection;
    colormap_ = colormap;
    filling_ = true;
    layer_->setRange(0, std::max(0, stack_->shape().layers - 1));
    fillHeads();
    filling_ = false;
    const auto [otherLayer, other] = defaultComparison(stack_->shape(), layer, selection);
    setOther(otherLayer, other);
}

void HeadCompareDialog::fillHeads()
{
    const int current = head_->currentIndex();
    head_->clear();
    const int heads = stack_ ? stack_->shape().heads : 0;
    for (int h = 0; h < heads; ++h)
        head_->addItem(tr("Head %1").arg(h), h);
    head_->addItem(tr("Mean of the heads"), -1);
    if (current >= 0 && current < head_->count())
        head_->setCurrentIndex(current);
}

void HeadCompareDialog::setOther(int layer, const FileSelection& selection)
{
    filling_ = true;
    layer_->setValue(layer);
    const int wanted = selection.what == FileWhat::Head ? selection.head : -1;
    head_->setCurrentIndex(std::max(0, head_->findData(wanted)));
    filling_ = false;
    refresh();
}

int HeadCompareDialog::otherLayer() const
{
    return layer_->value();
}

FileSelection HeadCompareDialog::otherSelection() const
{
    const int h = head_->currentData().toInt();
    return h >= 0 ? FileSelection{FileWhat::Head, h} : FileSelection{FileWhat::Mean, 0};
}

void HeadCompareDialog::refresh()
{
    if (!stack_)
        return;
    HeatmapData a = fileHeatmap(*stack_, layerA_, sequence_, selectionA_);
    HeatmapData b = fileHeatmap(*stack_, otherLayer(), sequence_, otherSelection());
    setWindowTitle(tr("Compare: %1 and %2").arg(a.title, b.title));
    // Each view draws its title: "A: Layer 0 · head 1".
    a.title = tr("A: %1").arg(a.title);
    b.title = tr("B: %1").arg(b.title);
    difference_ = headDifference(a.weights, b.weights);
    // One scale for both sides, so that a colour means the same weight left and right.
    const float top = std::max(finiteMax(a.weights), finiteMax(b.weights));
    HeatmapStyle style;
    style.colormap = colormap_;
    style.vmax = top > 0 ? top : 1.0;
    viewA_->setData(a);
    viewB_->setData(b);
    viewA_->setHeatmapStyle(style);
    viewB_->setHeatmapStyle(style);
    hover_->clear();
    retranslate();
}

QString HeadCompareDialog::cellText(int row, int column) const
{
    const HeatmapData& a = viewA_->data();
    const HeatmapData& b = viewB_->data();
    if (row < 0 || column < 0 || row >= a.rows() || column >= a.columns() || row >= b.rows() ||
        column >= b.columns())
        return {};
    const double wa = a.weights(row, column);
    const double wb = b.weights(row, column);
    return tr("query %1 (row %2) → key %3 (column %4): A %5 · B %6 · B − A %7")
        .arg(label(a.queryLabels, row))
        .arg(row)
        .arg(label(a.keyLabels, column))
        .arg(column)
        .arg(number(wa, 4), number(wb, 4), number(wb - wa, 4));
}

QString HeadCompareDialog::numbersText() const
{
    return numbers_->text();
}

void HeadCompareDialog::retranslate()
{
    layerLabel_->setText(tr("Compare with &layer"));
    headLabel_->setText(tr("&head"));
    if (!stack_)
        return;
    const HeatmapData& a = viewA_->data();
    const HeatmapData& b = viewB_->data();
    QStringList lines;
    if (difference_.row >= 0)
        lines << tr("Largest |A − B| %1 at query %2 (row %3) → key %4 (column %5) · mean "
                    "|A − B| %6")
                     .arg(number(difference_.largest, 4), label(a.queryLabels, difference_.row))
                     .arg(difference_.row)
                     .arg(label(a.keyLabels, difference_.column))
                     .arg(difference_.column)
                     .arg(number(difference_.mean, 4));
    else
        lines << tr("No cell where both weights are finite.");
    const auto side = [](const QString& name, const HeatmapData& data) {
        const HeadStatistics s = weightStatistics(data.weights);
        return tr("%1: rows sum to %2 … %3 · mean entropy %4 bits")
            .arg(name, number(s.rowSumMin, 4), number(s.rowSumMax, 4), number(s.meanEntropy, 2));
    };
    lines << side(QStringLiteral("A"), a) << side(QStringLiteral("B"), b);
    numbers_->setText(lines.join(u'\n'));
}

void HeadCompareDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    // Hidden, it waits for the head view's next compare() rather than refilling now.
    if (event->type() == QEvent::LanguageChange && stack_ && isVisible()) {
        filling_ = true;
        fillHeads();
        filling_ = false;
        refresh(); // the titles come translated from fileHeatmap
    } else if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attn::ui
