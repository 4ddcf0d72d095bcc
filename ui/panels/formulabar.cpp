#include "formulabar.h"

#include "formulatext.h"

#include "engine/positions.h"

#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace attn::ui {
namespace {

const QString kLegendSeparator = QStringLiteral("&nbsp;&nbsp;·&nbsp;&nbsp;");

// τ as the user set it: "0.5", "2", "0.125".
QString number(double value)
{
    return QString::number(value, 'g', 4);
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
    const QString line = formulaSymbol(FormulaPart::Scores, FormulaMarkup::RichText) +
                         QStringLiteral(" / ") +
                         formulaSymbol(FormulaPart::ScaleSqrtDk, FormulaMarkup::RichText);
    formulaLabel_->setMinimumHeight(height(formulaLabel_, line));
    legendLabel_->setMinimumHeight(height(legendLabel_, line + QStringLiteral("<br/>") + line));
    summaryLabel_->setMinimumHeight(height(summaryLabel_, QStringLiteral("Tg\nTg")));
}

QString FormulaBar::alert(const QString& html) const
{
    return alertSpan(html, alertColor(palette()));
}

QStringList FormulaBar::departuresOf(const Config& config, bool hasPadding)
{
    return formulaDepartures(config, hasPadding);
}

void FormulaBar::rebuild()
{
    const Formula formula = formulaOf(config_, hasPadding_);
    QStringList legend; // what the symbols stand for
    QStringList notes;  // departures the formula cannot show, in red under the legend
    if (config_.scale == ScaleMode::SqrtDk)
        legend << QStringLiteral("<i>d</i><sub>k</sub> = %1 / %2 = %3")
                      .arg(config_.dModel)
                      .arg(config_.heads)
                      .arg(config_.dK());
    else if (config_.scale == ScaleMode::SqrtDModel)
        legend << QStringLiteral("<i>d</i><sub>model</sub> = %1").arg(config_.dModel);
    if (formula.temperature)
        legend << alert(QStringLiteral("<b><i>τ</i> = %1</b>").arg(number(config_.temperature)));
    todaysLegend(formula, legend, notes);
    if (formula.maskAfter)
        notes << alert(tr("mask after softmax").toHtmlEscaped());
    if (formula.masked)
        legend.prepend(maskLegend());
    // Cross-attention is no departure, but the reader must know where K and V come from.
    if (config_.attention == AttentionKind::Cross)
        legend.prepend(tr("cross-attention: <i>Q</i> from the text, <i>K</i> and <i>V</i> from "
                          "the second text"));
    if (formula.paddingAttended)
        notes << alert(tr("<pad> tokens not masked").toHtmlEscaped());
    // The head split, which the formula itself does not show.
    if (formula.viewSplit)
        notes << alert(tr("heads split with view(B, H, T, d_k)").toHtmlEscaped());

    formulaLabel_->setText(writeFormula(formula, FormulaMarkup::RichText, alertColor(palette())));
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

// The symbols of today's models' switches: the normed and rotated Q and K, ALiBi's slopes,
// c and s (in the alert colour, as τ); the shared K/V heads, which the terms do not show, as
// a note.
void FormulaBar::todaysLegend(const Formula& formula, QStringList& legend, QStringList& notes) const
{
    if (config_.qkNorm)
        legend << tr("<i>Q̂</i>, <i>K̂</i>: each row divided by its RMS");
    if (config_.positional == Positional::Rope)
        legend << alert(tr("<i>R</i><sub><i>i</i></sub>: rotation of position <i>i</i>, "
                           "<i>θ</i> = %1")
                            .arg(QString::number(config_.ropeTheta, 'g', 7)));
    if (config_.alibi && config_.heads > 0)
        legend << alert(tr("<i>m</i><sub>h</sub> = %1 … %2", "ALiBi's slopes of the first and "
                                                             "the last head")
                            .arg(number(alibiSlope(0, config_.heads)),
                                 number(alibiSlope(config_.heads - 1, config_.heads))));
    if (config_.softcap > 0)
        legend << alert(QStringLiteral("<b><i>c</i> = %1</b>").arg(number(config_.softcap)));
    if (config_.sink)
        legend << alert(QStringLiteral("<b><i>s</i> = %1</b>").arg(number(*config_.sink)));
    if (formula.sharedKeys)
        notes << alert(tr("%1 query heads share each of the %2 K/V heads")
                           .arg(config_.heads / std::max(1, config_.kvHeadCount()))
                           .arg(config_.kvHeadCount())
                           .toHtmlEscaped());
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
    if (config_.window > 0)
        return (causal || padding ? tr("M_W: M and the sliding window, %1 where |i − j| ≥ %2")
                                  : tr("M_W: the sliding window, %1 where |i − j| ≥ %2"))
            .arg(fill)
            .arg(config_.window)
            .toHtmlEscaped();
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
