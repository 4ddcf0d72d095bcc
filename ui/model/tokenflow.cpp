#include "tokenflow.h"

#include "colormap.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace attn::ui {

namespace {

constexpr int kPadding = 3, kGap = 2;

// A label as the chip shows it: white space made visible.
QString shown(const QString& label)
{
    QString text = label;
    text.replace(QLatin1Char('\n'), QStringLiteral("↵"));
    return text.isEmpty() ? QStringLiteral("∅") : text;
}

} // namespace

TokenFlow::TokenFlow(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setMouseTracking(true);
}

void TokenFlow::setTokens(std::vector<QString> labels, int prompt)
{
    labels_ = std::move(labels);
    prompt_ = prompt;
    weights_.clear();
    layOut(width(), &rects_);
    updateGeometry();
    update();
}

void TokenFlow::addToken(const QString& label)
{
    labels_.push_back(label);
    layOut(width(), &rects_);
    updateGeometry();
    update();
}

void TokenFlow::setWeights(std::vector<float> weights)
{
    weights_ = std::move(weights);
    update();
}

QRect TokenFlow::chipRect(int index) const
{
    return index >= 0 && index < int(rects_.size()) ? rects_[std::size_t(index)] : QRect();
}

QString TokenFlow::chipToolTip(int index) const
{
    if (index < 0 || index >= int(labels_.size()))
        return {};
    const QString token = QStringLiteral("“%1”").arg(shown(labels_[std::size_t(index)]));
    if (index < int(weights_.size()))
        return tr("%1 (position %2): the newest token read it with weight %3")
            .arg(token)
            .arg(index)
            .arg(QLocale().toString(double(weights_[std::size_t(index)]), 'f', 3));
    return tr("%1 (position %2)").arg(token).arg(index);
}

int TokenFlow::layOut(int width, std::vector<QRect>* rects) const
{
    const QFontMetrics metrics(font());
    const int lineHeight = metrics.height() + 2 * kPadding;
    int x = 0, y = 0;
    if (rects)
        rects->clear();
    for (const QString& label : labels_) {
        const int w = metrics.horizontalAdvance(shown(label)) + 2 * kPadding;
        if (x > 0 && x + w > width) {
            x = 0;
            y += lineHeight + kGap;
        }
        if (rects)
            rects->push_back(QRect(x, y, w, lineHeight));
        x += w + kGap;
    }
    return labels_.empty() ? lineHeight : y + lineHeight;
}

int TokenFlow::heightForWidth(int width) const
{
    return layOut(width, nullptr);
}

QSize TokenFlow::sizeHint() const
{
    return {400, heightForWidth(400)};
}

QSize TokenFlow::minimumSizeHint() const
{
    return {100, QFontMetrics(font()).height() + 2 * kPadding};
}

void TokenFlow::resizeEvent(QResizeEvent* event)
{
    layOut(width(), &rects_);
    QWidget::resizeEvent(event);
}

void TokenFlow::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const Colormap colours(ColormapName::Viridis);
    const float largest =
        weights_.empty() ? 0.0f : *std::max_element(weights_.begin(), weights_.end());
    for (std::size_t i = 0; i < labels_.size() && i < rects_.size(); ++i) {
        const QRect r = rects_[i];
        QColor fill = palette().color(QPalette::Base);
        if (i < weights_.size() && largest > 0)
            fill = QColor(colours.color(double(weights_[i] / largest)));
        painter.fillRect(r, fill);
        QFont font = painter.font();
        font.setBold(int(i) >= prompt_);
        painter.setFont(font);
        painter.setPen(i < weights_.size() && largest > 0
                           ? (fill.lightnessF() > 0.55 ? Qt::black : Qt::white)
                           : palette().color(QPalette::Text));
        painter.drawText(r, Qt::AlignCenter, shown(labels_[i]));
        if (i + 1 == labels_.size() && int(i) >= prompt_) { // the newest token
            painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
            painter.drawRect(r.adjusted(1, 1, -1, -1));
        }
    }
}

bool TokenFlow::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        for (std::size_t i = 0; i < rects_.size(); ++i)
            if (rects_[i].contains(help->pos())) {
                QToolTip::showText(help->globalPos(), chipToolTip(int(i)), this);
                return true;
            }
        QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace attn::ui
