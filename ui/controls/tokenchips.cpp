#include "tokenchips.h"
#include "widgetaccess.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace attn::ui {
namespace {

constexpr int kSpacing = 4;         // between chips, and between lines of chips
constexpr int kChipPaddingX = 6;    // text to the chip's left and right edge
constexpr int kChipPaddingY = 2;    // text to the chip's top and bottom edge
constexpr int kMaxChipTextEms = 10; // longer tokens are elided
constexpr qreal kChipRadius = 5;

QString tokenText(const TokenBatch& batch, int sequence, int position)
{
    return QString::fromStdString(
        batch.tokens[static_cast<std::size_t>(sequence)][static_cast<std::size_t>(position)]);
}

} // namespace

TokenChips::TokenChips(QWidget* parent) : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(true);
}

void TokenChips::setTokens(const TokenBatch& batch)
{
    batch_ = batch;
    error_.clear();
    contentChanged();
}

void TokenChips::setError(const QString& message)
{
    batch_ = {};
    error_ = message;
    contentChanged();
}

void TokenChips::clear()
{
    batch_ = {};
    error_.clear();
    contentChanged();
}

void TokenChips::setKeys(bool keys)
{
    keys_ = keys;
    update();
    describe();
}

void TokenChips::setPaddingMasked(bool masked)
{
    paddingMasked_ = masked;
}

QString TokenChips::countText() const
{
    if (batch_.batch() == 0)
        return {};
    if (keys_)
        return tr("keys and values: length T_k = %1",
                  "T_k: tokens of the second text, padding included")
            .arg(batch_.length());
    return tr("batch B = %1 · length T = %2",
              "B: the number of sequences (lines) in the batch; T: tokens per sequence, "
              "padding included")
        .arg(batch_.batch())
        .arg(batch_.length());
}

int TokenChips::padChipCount() const
{
    const ChipLayout& layout = chipLayout(width());
    return static_cast<int>(
        std::count_if(layout.chips.begin(), layout.chips.end(), [&](const Chip& chip) {
            return chip.position != kMoreChip && batch_.isPad(chip.sequence, chip.position);
        }));
}

QRect TokenChips::chipRect(int sequence, int position) const
{
    for (const Chip& chip : chipLayout(width()).chips)
        if (chip.sequence == sequence && chip.position == position)
            return chip.rect;
    return {};
}

QString TokenChips::chipToolTip(int sequence, int position) const
{
    if (sequence < 0 || sequence >= batch_.batch())
        return {};
    if (position == kMoreChip)
        return tr("Tokens not shown: %1", "chip at the end of a long sequence; %1 is how many")
            .arg(hiddenTokens());
    if (position < 0 || position >= batch_.length())
        return {};
    if (batch_.isPad(sequence, position))
        return paddingMasked_ ? tr("padding: its key is masked", "tooltip of a <pad> token chip")
                              : tr("padding: its key is not masked, so queries attend to it",
                                   "tooltip of a <pad> token chip");
    return tr("“%1”: sequence %2, token %3", "tooltip of a token chip; positions count from 0")
        .arg(tokenText(batch_, sequence, position))
        .arg(sequence)
        .arg(position);
}

int TokenChips::heightForWidth(int width) const
{
    return chipLayout(width).height;
}

QSize TokenChips::sizeHint() const
{
    const int hintWidth = width() > 0 ? width() : 240;
    return {hintWidth, heightForWidth(hintWidth)};
}

QSize TokenChips::minimumSizeHint() const
{
    return {fontMetrics().horizontalAdvance(QLatin1Char('M')) * 6, 0};
}

bool TokenChips::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        if (const Chip* chip = chipAt(help->pos())) {
            QToolTip::showText(help->globalPos(), chipToolTip(chip->sequence, chip->position), this,
                               chip->rect);
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void TokenChips::paintEvent(QPaintEvent*)
{
    const ChipLayout& layout = chipLayout(width());
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor grey = palette().color(QPalette::PlaceholderText);

    if (!error_.isEmpty()) {
        // A dark red that stays readable on light and dark backgrounds alike.
        painter.setPen(palette().color(QPalette::Base).lightness() > 128
                           ? QColor(0xb0, 0x1c, 0x1c)
                           : QColor(0xff, 0x6b, 0x6b));
        painter.drawText(layout.errorRect, Qt::TextWordWrap, error_);
        return;
    }
    if (batch_.batch() == 0)
        return;

    painter.setPen(grey);
    painter.drawText(layout.countLine, Qt::AlignLeft | Qt::AlignVCenter, countText());
    for (std::size_t b = 0; b < layout.sequenceLabels.size(); ++b)
        painter.drawText(layout.sequenceLabels[b], Qt::AlignLeft | Qt::AlignVCenter,
                         QStringLiteral("%1:").arg(b));

    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(40);
    QColor outline = palette().color(QPalette::Highlight);
    outline.setAlpha(140);
    QPen padOutline(grey, 1, Qt::DashLine);

    for (const Chip& chip : layout.chips) {
        const QRectF box = QRectF(chip.rect).adjusted(0.5, 0.5, -0.5, -0.5);
        if (chip.position == kMoreChip) {
            painter.setFont(font());
            painter.setPen(grey);
        } else if (batch_.isPad(chip.sequence, chip.position)) {
            painter.setBrush(Qt::NoBrush);
            painter.setPen(padOutline);
            painter.drawRoundedRect(box, kChipRadius, kChipRadius);
            painter.setFont(padFont());
            painter.setPen(grey);
        } else {
            painter.setBrush(fill);
            painter.setPen(outline);
            painter.drawRoundedRect(box, kChipRadius, kChipRadius);
            painter.setFont(font());
            painter.setPen(palette().color(QPalette::Text));
        }
        painter.drawText(chip.rect, Qt::AlignCenter, chip.text);
    }
}

void TokenChips::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    update();
}

void TokenChips::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    switch (event->type()) {
    case QEvent::FontChange:
    case QEvent::StyleChange:
    case QEvent::LanguageChange: // the count line and "+N more" change length
        contentChanged();
        break;
    default:
        break;
    }
}

const TokenChips::ChipLayout& TokenChips::chipLayout(int width) const
{
    if (!layout_ || layout_->width != width)
        layout_ = computeLayout(width);
    return *layout_;
}

TokenChips::ChipLayout TokenChips::computeLayout(int width) const
{
    ChipLayout layout;
    layout.width = width;
    const QFontMetrics metrics = fontMetrics();
    const QFontMetrics padMetrics(padFont());

    if (!error_.isEmpty()) {
        layout.errorRect = metrics.boundingRect(QRect(0, 0, std::max(1, width), 1 << 20),
                                                Qt::TextWordWrap, error_);
        layout.errorRect.setWidth(std::max(1, width));
        layout.height = layout.errorRect.height();
        return layout;
    }
    if (batch_.batch() == 0)
        return layout;

    // The count line as tall as its text is laid out: Chinese in it brings the CJK font's
    // taller line, and drawText() clips to the rectangle (T_k lost its underscore).
    const int lineHeight = std::max(
        metrics.height(), metrics
                              .boundingRect(QRect(0, 0, std::max(1, width), 1 << 20),
                                            Qt::AlignLeft | Qt::TextSingleLine, countText())
                              .height());
    layout.countLine = QRect(0, 0, width, lineHeight);
    int y = lineHeight + kSpacing;

    // Every line of chips starts after the widest label, so the chips line up.
    const int labelWidth =
        metrics.horizontalAdvance(QStringLiteral("%1:").arg(batch_.batch() - 1)) + kSpacing;
    const int chipHeight = std::max(metrics.height(), padMetrics.height()) + 2 * kChipPaddingY;
    const int lineStart = labelWidth;
    const int maxTextWidth =
        std::max(metrics.horizontalAdvance(QStringLiteral("M…")),
                 std::min(width - lineStart - 2 * kChipPaddingX,
                          metrics.horizontalAdvance(QLatin1Char('M')) * kMaxChipTextEms));

    for (int b = 0; b < batch_.batch(); ++b) {
        layout.sequenceLabels.emplace_back(0, y, labelWidth, chipHeight);
        int x = lineStart;
        auto place = [&](int position, const QString& text, const QFontMetrics& chipMetrics) {
            const QString elided = chipMetrics.elidedText(text, Qt::ElideRight, maxTextWidth);
            const int chipWidth = chipMetrics.horizontalAdvance(elided) + 2 * kChipPaddingX;
            if (x > lineStart && x + chipWidth > width) {
                x = lineStart;
                y += chipHeight + kSpacing;
            }
            layout.chips.push_back({b, position, QRect(x, y, chipWidth, chipHeight), elided});
            x += chipWidth + kSpacing;
        };
        const int shown = std::min(batch_.length(), kMaxChipsPerSequence);
        for (int t = 0; t < shown; ++t)
            place(t, tokenText(batch_, b, t), batch_.isPad(b, t) ? padMetrics : metrics);
        if (const int hidden = hiddenTokens(); hidden > 0)
            place(kMoreChip, moreText(hidden), metrics);
        y += chipHeight + kSpacing;
    }
    layout.height = y - kSpacing;
    return layout;
}

const TokenChips::Chip* TokenChips::chipAt(QPoint point) const
{
    for (const Chip& chip : chipLayout(width()).chips)
        if (chip.rect.contains(point))
            return &chip;
    return nullptr;
}

int TokenChips::hiddenTokens() const
{
    return std::max(0, batch_.length() - kMaxChipsPerSequence);
}

QFont TokenChips::padFont() const
{
    QFont italic = font();
    italic.setItalic(true);
    return italic;
}

void TokenChips::contentChanged()
{
    layout_.reset();
    updateGeometry();
    update();
    describe();
}

QString TokenChips::moreText(int hidden)
{
    return tr("+%1 more", "tokens not shown as chips").arg(hidden);
}

QString TokenChips::accessibleText() const
{
    if (!error_.isEmpty())
        return error_;
    // The count line, then each sequence's real tokens as its chips show them.
    QStringList lines;
    if (const QString count = countText(); !count.isEmpty())
        lines << count;
    for (int b = 0; b < batch_.batch(); ++b) {
        const int length = batch_.lengths[std::size_t(b)];
        QStringList tokens;
        for (int t = 0; t < std::min(length, kMaxChipsPerSequence); ++t)
            tokens << QString::fromStdString(batch_.tokens[std::size_t(b)][std::size_t(t)]);
        if (length > kMaxChipsPerSequence)
            tokens << moreText(length - kMaxChipsPerSequence);
        lines << QStringLiteral("%1: %2").arg(b).arg(tokens.join(QStringLiteral(" · ")));
    }
    return lines.join(QLatin1Char('\n'));
}

void TokenChips::describe()
{
    setAccessibleText(this,
                      keys_ ? tr("Tokens of the keys and values", "for screen readers")
                            : tr("Tokens", "for screen readers"),
                      accessibleText());
}

} // namespace attn::ui
