#include "formulabar.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

namespace attn::ui {
namespace {

// Symbols are written as the tutorial writes them, not translated.
const QString kQKt = QStringLiteral("<i>QK</i><sup>T</sup>");
const QString kSqrtDk = QStringLiteral("√<i>d</i><sub>k</sub>");
const QString kSqrtDModel = QStringLiteral("√<i>d</i><sub>model</sub>");
const QString kLegendSeparator = QStringLiteral("&nbsp;&nbsp;·&nbsp;&nbsp;");

// τ as the user set it: "0.5", "2", "0.125".
QString number(double value)
{
    return QString::number(value, 'g', 4);
}

// Whether M takes part: a causal mask, or a padding mask over a text that has <pad>.
bool hasMask(const Config& config, bool hasPadding)
{
    return config.mask == MaskKind::Causal || (config.paddingMask && hasPadding);
}

} // namespace

QColor alertColor(const QPalette& palette)
{
    // #d32f2f on a light window, a lighter red on a dark one: both keep about 4.5:1.
    return palette.color(QPalette::Window).lightness() < 128 ? QColor(0xff, 0x6e, 0x6e)
                                                             : QColor(0xd3, 0x2f, 0x2f);
}

FormulaBar::FormulaBar(QWidget* parent)
    : QWidget(parent), formulaLabel_(new QLabel(this)), legendLabel_(new QLabel(this)),
      summaryLabel_(new QLabel(this))
{
    QFont formulaFont = font();
    formulaFont.setPointSizeF(formulaFont.pointSizeF() * 1.6);
    formulaLabel_->setFont(formulaFont);
    for (QLabel* label : {formulaLabel_, legendLabel_, summaryLabel_}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    formulaLabel_->setTextFormat(Qt::RichText);
    legendLabel_->setTextFormat(Qt::RichText);
    summaryLabel_->setTextFormat(Qt::PlainText);
    // The bar keeps its height as the switches change its texts, so that the heatmaps
    // under it do not jump: room for the formula, two lines of legend (the symbols, the
    // red notes) and two of summary, whether they are used or not. Only text longer than
    // that (a narrow window) makes it grow.
    for (QLabel* label : {formulaLabel_, legendLabel_, summaryLabel_})
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    reserveLines();

    auto* layout = new QVBoxLayout(this);
    layout->setSpacing(2);
    layout->addWidget(formulaLabel_);
    layout->addWidget(legendLabel_);
    layout->addSpacing(4);
    layout->addWidget(summaryLabel_);
    layout->addStretch(1);
    rebuild();
}

void FormulaBar::setConfig(const Config& config, bool hasPadding)
{
    config_ = config;
    hasPadding_ = hasPadding;
    rebuild();
}

QString FormulaBar::formulaHtml() const
{
    if (legendLabel_->text().isEmpty())
        return formulaLabel_->text();
    return formulaLabel_->text() + QStringLiteral("<br/>") + legendLabel_->text();
}

void FormulaBar::changeEvent(QEvent* event)
{
    // The red is chosen for the palette, so a palette change rebuilds the text too.
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
    if (event->type() == QEvent::FontChange)
        reserveLines();
    QWidget::changeEvent(event);
}

void FormulaBar::reserveLines()
{
    // Measured as the labels lay text out, lines with a subscript and a superscript, which
    // some texts have and others not.
    auto height = [](const QLabel* label, const QString& text) {
        QLabel probe;
        probe.setFont(label->font());
        probe.setTextFormat(label->textFormat());
        probe.setText(text);
        return probe.sizeHint().height();
    };
    const QString line = kQKt + QStringLiteral(" / ") + kSqrtDk;
    formulaLabel_->setMinimumHeight(height(formulaLabel_, line));
    legendLabel_->setMinimumHeight(height(legendLabel_, line + QStringLiteral("<br/>") + line));
    summaryLabel_->setMinimumHeight(height(summaryLabel_, QStringLiteral("Tg\nTg")));
}

QString FormulaBar::alert(const QString& html) const
{
    return QStringLiteral("<span style=\"color:%1\">%2</span>")
        .arg(alertColor(palette()).name(), html);
}

QStringList FormulaBar::departuresOf(const Config& config, bool hasPadding)
{
    const bool masked = hasMask(config, hasPadding);
    QStringList departures;
    if (config.scale == ScaleMode::None)
        departures << tr("no scaling by √d_k");
    else if (config.scale == ScaleMode::SqrtDModel)
        departures << tr("divided by √d_model instead of √d_k");
    if (!qFuzzyCompare(config.temperature, 1.0f))
        departures << tr("temperature τ = %1 instead of 1").arg(number(config.temperature));
    if (config.axis == SoftmaxAxis::Queries)
        departures << tr("softmax over the queries (dim=-2) instead of the keys (dim=-1)");
    else if (config.axis == SoftmaxAxis::Batch)
        departures << tr("softmax over the batch (dim=0) instead of the keys (dim=-1)");
    if (masked && config.maskStage == MaskStage::AfterSoftmax)
        departures << tr("mask applied after the softmax instead of before");
    if (hasPadding && !config.paddingMask)
        departures << tr("<pad> tokens not masked");
    // With one head, view(B, 1, T, C) is the correct split anyway.
    if (config.headSplit == HeadSplit::View && config.heads > 1)
        departures << tr("heads split with view(B, H, T, d_k) instead of "
                         "view(B, T, H, d_k).transpose(1, 2)");
    return departures;
}

void FormulaBar::rebuild()
{
    const bool masked = hasMask(config_, hasPadding_);
    const bool maskAfter = masked && config_.maskStage == MaskStage::AfterSoftmax;
    QStringList legend; // what the symbols stand for
    QStringList notes;  // departures the formula cannot show, in red under the legend

    // 1. The logits: QKᵀ, the scaling, the temperature.
    QString logits = kQKt;
    switch (config_.scale) {
    case ScaleMode::SqrtDk:
        logits += QStringLiteral(" / ") + kSqrtDk;
        legend << QStringLiteral("<i>d</i><sub>k</sub> = %1 / %2 = %3")
                      .arg(config_.dModel)
                      .arg(config_.heads)
                      .arg(config_.dK());
        break;
    case ScaleMode::None:
        logits += QLatin1Char(' ') + alert(QStringLiteral("<s>/ %1</s>").arg(kSqrtDk));
        break;
    case ScaleMode::SqrtDModel:
        logits += QLatin1Char(' ') + alert(QStringLiteral("/ ") + kSqrtDModel);
        legend << QStringLiteral("<i>d</i><sub>model</sub> = %1").arg(config_.dModel);
        break;
    }
    if (!qFuzzyCompare(config_.temperature, 1.0f)) {
        logits += QLatin1Char(' ') + alert(QStringLiteral("/ <i>τ</i>"));
        legend << alert(QStringLiteral("<b><i>τ</i> = %1</b>").arg(number(config_.temperature)));
    }

    // 2. The axis of the softmax: the keys of each query (dim=-1) in the textbook.
    QString axis = QStringLiteral("dim=-1");
    if (config_.axis == SoftmaxAxis::Queries)
        axis = alert(QStringLiteral("dim=-2"));
    else if (config_.axis == SoftmaxAxis::Batch)
        axis = alert(QStringLiteral("dim=0"));

    // 3. The mask: added to the logits, or (the bug) multiplied into the weights.
    QString formula;
    if (maskAfter) {
        formula = QStringLiteral("softmax(%1, %2) %3 · <i>V</i>")
                      .arg(logits, axis, alert(QStringLiteral("⊙ (1 − <i>M</i>)")));
        notes << alert(tr("mask after softmax").toHtmlEscaped());
    } else {
        const QString plusMask = masked ? QStringLiteral(" + <i>M</i>") : QString();
        formula = QStringLiteral("softmax(%1%2, %3) · <i>V</i>").arg(logits, plusMask, axis);
    }
    if (masked)
        legend.prepend(maskLegend());
    // Cross-attention is no departure, but the reader must know where K and V come from.
    if (config_.attention == AttentionKind::Cross)
        legend.prepend(tr("cross-attention: <i>Q</i> from the text, <i>K</i> and <i>V</i> from "
                          "the second text"));
    if (hasPadding_ && !config_.paddingMask)
        notes << alert(tr("<pad> tokens not masked").toHtmlEscaped());

    // 4. The head split, which the formula itself does not show.
    if (config_.headSplit == HeadSplit::View && config_.heads > 1)
        notes << alert(tr("heads split with view(B, H, T, d_k)").toHtmlEscaped());

    formulaLabel_->setText(formula);
    QStringList legendLines; // the symbols on one line, the red notes on the next
    for (const QStringList& line : {legend, notes})
        if (!line.isEmpty())
            legendLines << line.join(kLegendSeparator);
    legendLabel_->setText(legendLines.join(QStringLiteral("<br/>")));
    departures_ = departuresOf(config_, hasPadding_);
    setSummary();
}

// The departures in one plain sentence under the formula.
void FormulaBar::setSummary()
{
    if (departures_.isEmpty()) {
        summaryLabel_->setText(tr("This is the textbook formula."));
        return;
    }
    const QString list = departures_.join(tr("; ", "separator between departures"));
    if (departures_.size() == 1)
        //: %1 is the departure in plain words
        summaryLabel_->setText(tr("1 departure from the textbook formula: %1.").arg(list));
    else
        //: %1 is how many, %2 lists them separated by semicolons
        summaryLabel_->setText(tr("%1 departures from the textbook formula: %2.")
                                   .arg(QString::number(departures_.size()), list));
}

// What M holds, e.g. "M: causal, −∞ above the diagonal".
QString FormulaBar::maskLegend() const
{
    // After the softmax M is a 0/1 matrix multiplied in; before, it carries the fill.
    QString fill = QStringLiteral("1");
    if (config_.maskStage == MaskStage::BeforeSoftmax)
        fill = config_.maskFill == MaskFill::NegInf ? QStringLiteral("−∞") : QStringLiteral("−1e9");
    const bool causal = config_.mask == MaskKind::Causal;
    const bool padding = config_.paddingMask && hasPadding_;
    QString text;
    if (causal && padding)
        text = tr("M: causal and padding, %1 above the diagonal and for <pad> keys");
    else if (causal)
        text = tr("M: causal, %1 above the diagonal");
    else
        text = tr("M: padding, %1 for <pad> keys");
    return text.arg(fill).toHtmlEscaped();
}

} // namespace attn::ui
