#include "rolloutbars.h"

#include "figure.h" // printableToken

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attn::ui {

RolloutBars::RolloutBars(QWidget* parent) : QWidget(parent)
{
    setObjectName("rolloutBars");
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void RolloutBars::setRow(std::vector<double> values, QStringList labels, const QString& title)
{
    values_ = std::move(values);
    labels_ = std::move(labels);
    title_ = title;
    update();
}

QRectF RolloutBars::plotRect() const
{
    const QFontMetrics metrics = fontMetrics();
    int labelWidth = 0;
    for (const QString& label : labels_)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(printableToken(label)));
    // The tokens stand turned under their bars, at most 12 characters' room.
    const int below = std::min(labelWidth, metrics.averageCharWidth() * 12) + 8;
    const int left = metrics.horizontalAdvance(QLocale().toString(1.0, 'f', 2)) + 8;
    return QRectF(left, metrics.height() + 8, std::max(1, width() - left - 8),
                  std::max(1, height() - metrics.height() - 8 - below));
}

int RolloutBars::barAt(QPoint pos) const
{
    const QRectF plot = plotRect();
    if (values_.empty() || !plot.contains(pos))
        return -1;
    const int bar = int((pos.x() - plot.left()) / plot.width() * double(values_.size()));
    return std::clamp(bar, 0, int(values_.size()) - 1);
}

bool RolloutBars::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const int bar = barAt(help->pos());
        if (bar >= 0)
            QToolTip::showText(help->globalPos(),
                               tr("“%1” (%2): %3")
                                   .arg(labels_.value(bar))
                                   .arg(bar)
                                   .arg(QLocale().toString(values_[std::size_t(bar)], 'f', 3)),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void RolloutBars::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& colours = palette();
    painter.setPen(colours.color(QPalette::WindowText));
    painter.drawText(QRect(0, 0, width(), fontMetrics().height() + 4),
                     Qt::AlignLeft | Qt::AlignVCenter, title_);
    if (values_.empty())
        return;
    const QRectF plot = plotRect();
    // 1. The scale: 0 at the bottom, the largest value at the top.
    double top = 0;
    for (const double v : values_)
        if (std::isfinite(v))
            top = std::max(top, v);
    if (top <= 0)
        top = 1;
    painter.setPen(colours.color(QPalette::Mid));
    painter.drawLine(plot.bottomLeft(), plot.bottomRight());
    painter.drawLine(plot.bottomLeft(), plot.topLeft());
    painter.setPen(colours.color(QPalette::WindowText));
    painter.drawText(QRectF(0, plot.top() - 6, plot.left() - 4, 12),
                     Qt::AlignRight | Qt::AlignVCenter, QLocale().toString(top, 'f', 2));
    painter.drawText(QRectF(0, plot.bottom() - 6, plot.left() - 4, 12),
                     Qt::AlignRight | Qt::AlignVCenter, QLocale().toString(0.0, 'f', 2));
    // 2. The bars, and each token turned under its own.
    const double step = plot.width() / double(values_.size());
    const QColor bar = colours.color(QPalette::Highlight);
    // Labels level under their bars where every one fits there, else turned.
    bool level = true;
    for (std::size_t j = 0; j < values_.size() && level; ++j)
        level =
            fontMetrics().horizontalAdvance(printableToken(labels_.value(int(j)))) <= step * 0.95;
    for (std::size_t j = 0; j < values_.size(); ++j) {
        const double v = std::isfinite(values_[j]) ? values_[j] : 0;
        const double h = plot.height() * v / top;
        const double x = plot.left() + step * double(j);
        painter.fillRect(QRectF(x + step * 0.1, plot.bottom() - h, step * 0.8, h), bar);
        if (step < fontMetrics().height() * 0.8 &&
            j % std::size_t(std::ceil(fontMetrics().height() / step)) != 0)
            continue; // every n-th label where they would overlap
        if (level) {
            painter.drawText(QRectF(x, plot.bottom() + 2, step, fontMetrics().height() + 2),
                             Qt::AlignHCenter | Qt::AlignTop,
                             printableToken(labels_.value(int(j))));
            continue;
        }
        painter.save();
        painter.translate(x + step / 2 + fontMetrics().ascent() / 2.0, plot.bottom() + 4);
        painter.rotate(90);
        const QString label =
            fontMetrics().elidedText(printableToken(labels_.value(int(j))), Qt::ElideRight,
                                     int(height() - plot.bottom() - 8));
        painter.drawText(QPointF(0, 0), label);
        painter.restore();
    }
}

} // namespace attn::ui
