#include "crossinput.h"

#include "enumcombo.h"
#include "tokenchips.h"

#include <QEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace attn::ui {

CrossInput::CrossInput(QWidget* parent)
    : QWidget(parent), attentionLabel_(new QLabel(this)),
      attentionCombo_(createEnumCombo<AttentionKind>("attentionCombo", this)),
      crossLabel_(new QLabel(this)), crossEdit_(new QPlainTextEdit(this)),
      crossChips_(new TokenChips(this)), note_(new QLabel(this))
{
    attentionLabel_->setBuddy(attentionCombo_);
    connect(attentionCombo_, &QComboBox::currentIndexChanged, this, [this] {
        showAttention();
        emit attentionChanged();
    });

    crossEdit_->setObjectName(QStringLiteral("crossEdit"));
    // As the sentence above: no wrapping, one line on screen is one sequence.
    crossEdit_->setLineWrapMode(QPlainTextEdit::NoWrap);
    crossEdit_->setTabChangesFocus(true);
    const int frame =
        2 * (crossEdit_->frameWidth() + static_cast<int>(crossEdit_->document()->documentMargin()));
    crossEdit_->setFixedHeight(2 * crossEdit_->fontMetrics().lineSpacing() + frame);
    crossLabel_->setBuddy(crossEdit_);
    connect(crossEdit_, &QPlainTextEdit::textChanged, this, &CrossInput::textEdited);

    crossChips_->setObjectName(QStringLiteral("crossChips"));
    crossChips_->setKeys(true);
    note_->setObjectName(QStringLiteral("crossNote"));
    note_->setWordWrap(true);
    note_->setForegroundRole(QPalette::PlaceholderText);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(crossLabel_);
    layout->addWidget(crossEdit_);
    layout->addWidget(crossChips_);
    layout->addWidget(note_);

    retranslateUi();
    showAttention();
}

AttentionKind CrossInput::attention() const
{
    return currentValue<AttentionKind>(attentionCombo_);
}

std::string CrossInput::crossText() const
{
    return crossEdit_->toPlainText().toStdString();
}

void CrossInput::set(AttentionKind attention, const std::string& crossText)
{
    const QSignalBlocker comboBlocker(attentionCombo_);
    const QSignalBlocker editBlocker(crossEdit_);
    setCurrentValue(attentionCombo_, attention);
    if (crossEdit_->toPlainText().toStdString() != crossText)
        crossEdit_->setPlainText(QString::fromStdString(crossText));
    showAttention();
}

void CrossInput::setTokens(const TokenBatch& keys)
{
    crossChips_->setTokens(keys);
}

void CrossInput::clearTokens()
{
    crossChips_->clear();
}

void CrossInput::setPaddingMasked(bool masked)
{
    crossChips_->setPaddingMasked(masked);
}

void CrossInput::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CrossInput::showAttention()
{
    // The second text matters in cross-attention only; it is kept, hidden, meanwhile.
    const bool cross = attention() == AttentionKind::Cross;
    for (QWidget* widget : {static_cast<QWidget*>(crossLabel_), static_cast<QWidget*>(crossEdit_),
                            static_cast<QWidget*>(crossChips_), static_cast<QWidget*>(note_)})
        widget->setVisible(cross);
    if (!cross)
        crossChips_->clear();
}

void CrossInput::retranslateUi()
{
    attentionLabel_->setText(tr("Atte&ntion:", "self- or cross-attention"));
    retranslateItems<AttentionKind>(attentionCombo_);
    const QString help =
        tr("Self-attention: Q, K and V all come from the sentence above, so every token "
           "looks at the tokens of its own sentence. Cross-attention: Q comes from the "
           "sentence above and K, V from a second text, as a translation decoder's words "
           "look at the source sentence; the heatmaps become T_q × T_k.");
    attentionLabel_->setToolTip(QStringLiteral("<p>%1</p>").arg(help.toHtmlEscaped()));
    attentionCombo_->setToolTip(attentionLabel_->toolTip());
    attentionCombo_->setStatusTip(help);

    crossLabel_->setText(tr("Keys &and values from:", "cross-attention's second text"));
    crossEdit_->setPlaceholderText(
        tr("The second text: one line for every sequence above, or one line each."));
    const QString editHelp =
        tr("Cross-attention's second text. Its tokens are the columns (keys) of every "
           "heatmap and give the values; the sentence above gives the rows (queries). One "
           "line serves every sequence above; otherwise give one line per sequence.");
    crossEdit_->setToolTip(QStringLiteral("<p>%1</p>").arg(editHelp.toHtmlEscaped()));
    crossEdit_->setStatusTip(editHelp);
    note_->setText(tr("No causal mask here: the keys come from the other text, so none of "
                      "them lies in a query's future."));
}

} // namespace attn::ui
