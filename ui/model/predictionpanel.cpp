#include "predictionpanel.h"

#include "modelcomparison.h"

#include "formulabar.h"

#include <QEvent>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QTabBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attn::ui {

// The rows: a token, its bar and its probability, painted.
class PredictionBars : public QWidget {
public:
    explicit PredictionBars(QWidget* parent) : QWidget(parent)
    {
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    }

    void setPredictions(std::vector<Prediction> predictions)
    {
        predictions_ = std::move(predictions);
        QStringList lines;
        for (const Prediction& p : predictions_)
            lines << QStringLiteral("%1 %2").arg(PredictionPanel::displayToken(p.label),
                                                 percentText(p.probability));
        setAccessibleDescription(lines.join(QStringLiteral("; ")));
        updateGeometry();
        update();
    }
    [[nodiscard]] const std::vector<Prediction>& predictions() const { return predictions_; }

    [[nodiscard]] QSize sizeHint() const override
    {
        return {260, rowHeight() * int(std::max<std::size_t>(predictions_.size(), 10))};
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        const QFontMetrics metrics = fontMetrics();
        const int tokenWidth = std::min(width() / 3, metrics.horizontalAdvance(QString(14, 'M')));
        const int numberWidth = metrics.horizontalAdvance(QStringLiteral("100.000%")) + 6;
        const int barRoom = std::max(10, width() - tokenWidth - numberWidth - 12);
        for (std::size_t i = 0; i < predictions_.size(); ++i) {
            const Prediction& p = predictions_[i];
            const QRect row(0, int(i) * rowHeight(), width(), rowHeight());
            const QRect token(row.left(), row.top(), tokenWidth, row.height());
            painter.setPen(palette().color(QPalette::WindowText));
            painter.drawText(token, Qt::AlignVCenter | Qt::AlignLeft,
                             metrics.elidedText(PredictionPanel::displayToken(p.label),
                                                Qt::ElideRight, tokenWidth));
            if (std::isnan(p.probability)) {
                painter.drawText(row.adjusted(tokenWidth + 6, 0, 0, 0),
                                 Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("NaN"));
                continue; // the title says why
            }
            const QRect bar(token.right() + 6, row.top() + 3,
                            std::max(1, int(barRoom * double(p.probability))), row.height() - 6);
            painter.fillRect(bar, palette().color(QPalette::Highlight));
            painter.drawText(QRect(bar.right() + 6, row.top(), numberWidth, row.height()),
                             Qt::AlignVCenter | Qt::AlignLeft, percentText(p.probability));
        }
    }

private:
    [[nodiscard]] int rowHeight() const { return fontMetrics().height() + 6; }

    std::vector<Prediction> predictions_;
};

PredictionPanel::PredictionPanel(QWidget* parent)
    : QWidget(parent), title_(new QLabel), tabs_(new QTabBar), bars_(new PredictionBars(this))
{
    setObjectName("predictions");
    title_->setObjectName("predictionsTitle");
    title_->setWordWrap(true);
    tabs_->setObjectName("maskTabs");
    tabs_->setExpanding(false);
    tabs_->setUsesScrollButtons(true);
    tabs_->hide();
    connect(tabs_, &QTabBar::currentChanged, this, [this](int index) {
        if (index >= 0 && index < int(masks_.size()))
            emit maskChosen(masks_[std::size_t(index)]);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);
    layout->addWidget(title_);
    layout->addWidget(bars_);
    layout->addStretch(1);
    retranslateUi();
}

void PredictionPanel::setPredictions(std::vector<Prediction> predictions, int position,
                                     const QString& token, bool last)
{
    position_ = position;
    token_ = token;
    last_ = last;
    message_.clear();
    bars_->setPredictions(std::move(predictions));
    retranslateUi();
}

void PredictionPanel::setMessage(const QString& message)
{
    message_ = message;
    position_ = -1;
    bars_->setPredictions({});
    retranslateUi();
}

void PredictionPanel::clearPredictions()
{
    message_.clear();
    position_ = -1;
    bars_->setPredictions({});
    retranslateUi();
}

void PredictionPanel::setMaskedLanguageModel(bool masked)
{
    masked_ = masked;
    tabs_->setVisible(masked_ && !masks_.empty());
    retranslateUi();
}

void PredictionPanel::setMasks(const std::vector<int>& positions)
{
    const int chosen = chosenMask();
    masks_ = positions;
    const QSignalBlocker blocker(tabs_);
    while (tabs_->count() > 0)
        tabs_->removeTab(0);
    for (std::size_t i = 0; i < masks_.size(); ++i)
        tabs_->addTab(QString());
    const auto kept = std::find(masks_.begin(), masks_.end(), chosen);
    tabs_->setCurrentIndex(kept == masks_.end() ? 0 : int(kept - masks_.begin()));
    tabs_->setVisible(masked_ && !masks_.empty());
    retranslateUi();
}

int PredictionPanel::chosenMask() const
{
    const int index = tabs_->currentIndex();
    return index >= 0 && index < int(masks_.size()) ? masks_[std::size_t(index)] : -1;
}

void PredictionPanel::chooseMask(int index)
{
    tabs_->setCurrentIndex(index);
}

QString PredictionPanel::noMaskHint()
{
    return tr("Type [MASK] in the sentence to see what BERT would fill in");
}

QString PredictionPanel::noHeadMessage()
{
    return tr("This GGUF file has no masked-language-model head: attention only");
}

const std::vector<Prediction>& PredictionPanel::predictions() const
{
    return bars_->predictions();
}

QString PredictionPanel::title() const
{
    return title_->text();
}

QString PredictionPanel::displayToken(const std::string& label)
{
    return quotedToken(label); // as Compare A/B and the figures spell it
}

void PredictionPanel::retranslateUi()
{
    for (int i = 0; i < tabs_->count(); ++i)
        tabs_->setTabText(i, tr("[MASK] at %1").arg(masks_[std::size_t(i)]));
    const QString token = displayToken(token_.toStdString()).toHtmlEscaped();
    const bool atMask = std::find(masks_.begin(), masks_.end(), position_) != masks_.end();
    if (!message_.isEmpty())
        title_->setText(message_);
    else if (masked_ && position_ < 0)
        title_->setText(masks_.empty() ? noMaskHint() : tr("<b>Fill-ins</b>"));
    else if (masked_ && atMask)
        title_->setText(tr("<b>Fill-ins</b> for the [MASK] at position %1: the masked-LM "
                           "head's most probable tokens there")
                            .arg(position_));
    else if (masked_)
        title_->setText(tr("<b>Fill-ins</b> at %1, position %2, the query row pointed at: "
                           "what the masked-LM head would put there")
                            .arg(token)
                            .arg(position_));
    else if (position_ < 0)
        title_->setText(tr("<b>Next token</b>"));
    else if (last_)
        title_->setText(tr("<b>Next token</b> after %1, the text's last (position %2): the "
                           "model's continuation")
                            .arg(token)
                            .arg(position_));
    else
        title_->setText(tr("<b>Next token</b> after %1 at position %2, the query row pointed "
                           "at: what the model predicts there")
                            .arg(token)
                            .arg(position_));
    const std::vector<Prediction>& shown = bars_->predictions();
    if (!shown.empty() && std::isnan(shown.front().probability))
        title_->setText(title_->text() + QStringLiteral("<br/>") +
                        tr("<span style='color:%1'>The probabilities are not numbers (NaN): a "
                           "row of the softmax had no finite score (0/0), and the NaN spread "
                           "through every later layer.</span>")
                            .arg(alertColor(palette()).name()));
    bars_->setAccessibleName(masked_ ? tr("Most probable fill-ins")
                                     : tr("Most probable next tokens"));
}

void PredictionPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace attn::ui
