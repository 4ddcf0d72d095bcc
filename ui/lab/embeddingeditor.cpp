#include "embeddingeditor.h"

#include "engine/embedding.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <random>

namespace attn::ui {
namespace {

// A value as typed: in the interface's locale or with a decimal point.
std::optional<float> parseValue(const QString& text)
{
    bool ok = false;
    double value = QLocale().toDouble(text.trimmed(), &ok);
    if (!ok)
        value = QLocale::c().toDouble(text.trimmed(), &ok);
    if (!ok || !std::isfinite(value) || std::abs(value) > 1e30)
        return std::nullopt;
    return static_cast<float>(value);
}

} // namespace

EmbeddingEditor::EmbeddingEditor(QWidget* parent)
    : QDialog(parent), tokenLabel_(new QLabel(this)), tokenCombo_(new QComboBox(this)),
      table_(new QTableWidget(0, 1, this)), sourceLabel_(new QLabel(this)),
      sourceCombo_(new QComboBox(this)), copyButton_(new QPushButton(this)),
      noiseButton_(new QPushButton(this)), sigmaLabel_(new QLabel(this)),
      sigmaSpin_(new QDoubleSpinBox(this)), resetButton_(new QPushButton(this)),
      resetAllButton_(new QPushButton(this)), note_(new QLabel(this))
{
    tokenCombo_->setObjectName(QStringLiteral("tokenCombo"));
    table_->setObjectName(QStringLiteral("vectorTable"));
    sourceCombo_->setObjectName(QStringLiteral("sourceCombo"));
    copyButton_->setObjectName(QStringLiteral("copyButton"));
    noiseButton_->setObjectName(QStringLiteral("noiseButton"));
    sigmaSpin_->setObjectName(QStringLiteral("sigmaSpin"));
    resetButton_->setObjectName(QStringLiteral("resetButton"));
    resetAllButton_->setObjectName(QStringLiteral("resetAllButton"));
    note_->setObjectName(QStringLiteral("editorNote"));

    tokenLabel_->setBuddy(tokenCombo_);
    sourceLabel_->setBuddy(sourceCombo_);
    sigmaLabel_->setBuddy(sigmaSpin_);
    sigmaSpin_->setRange(0.001, 10.0);
    sigmaSpin_->setDecimals(3);
    sigmaSpin_->setSingleStep(0.05);
    sigmaSpin_->setValue(0.1);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    note_->setWordWrap(true);

    connect(tokenCombo_, &QComboBox::currentIndexChanged, this, [this] { showVector(); });
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (!filling_)
            itemEdited(item->row());
    });
    connect(copyButton_, &QPushButton::clicked, this,
            [this] { copyFrom(sourceCombo_->currentText()); });
    connect(noiseButton_, &QPushButton::clicked, this, [this] {
        copyWithNoise(sourceCombo_->currentText(), sigmaSpin_->value(),
                      QRandomGenerator::global()->generate());
    });
    connect(resetButton_, &QPushButton::clicked, this, &EmbeddingEditor::resetToken);
    connect(resetAllButton_, &QPushButton::clicked, this, &EmbeddingEditor::resetAll);

    auto* form = new QFormLayout;
    form->addRow(tokenLabel_, tokenCombo_);
    auto* copyRow = new QHBoxLayout;
    copyRow->addWidget(sourceCombo_, 1);
    copyRow->addWidget(copyButton_);
    form->addRow(sourceLabel_, copyRow);
    auto* noiseRow = new QHBoxLayout;
    noiseRow->addWidget(sigmaSpin_);
    noiseRow->addWidget(noiseButton_, 1);
    form->addRow(sigmaLabel_, noiseRow);
    auto* resetRow = new QHBoxLayout;
    resetRow->addWidget(resetButton_);
    resetRow->addWidget(resetAllButton_);
    resetRow->addStretch(1);

    // Close, as the other dialogs have it: edits apply at once, so there is nothing to accept.
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->setObjectName(QStringLiteral("closeButtons"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(table_, 1);
    layout->addLayout(resetRow);
    layout->addWidget(note_);
    layout->addWidget(buttons);
    resize(420, 560);
    retranslateUi();
}

void EmbeddingEditor::setRequest(const Request& request, const std::vector<std::string>& tokens)
{
    const QString current = currentToken();
    const bool sameVectors = config_.seed == request.config.seed &&
                             config_.dModel == request.config.dModel &&
                             overrides_ == request.embeddingOverrides && tokens_ == tokens;
    config_ = request.config;
    overrides_ = request.embeddingOverrides;
    showNote();
    if (sameVectors && tokenCombo_->count() > 0)
        return; // nothing to refill; an edit in progress stays
    tokens_ = tokens;
    {
        const QSignalBlocker blockTokens(tokenCombo_);
        const QSignalBlocker blockSources(sourceCombo_);
        const QString source = sourceCombo_->currentText();
        tokenCombo_->clear();
        sourceCombo_->clear();
        for (const std::string& token : tokens_) {
            tokenCombo_->addItem(QString::fromStdString(token));
            sourceCombo_->addItem(QString::fromStdString(token));
        }
        tokenCombo_->setCurrentIndex(std::max(0, tokenCombo_->findText(current)));
        // The source is another token than the edited one, unless there is only one.
        int sourceIndex = sourceCombo_->findText(source);
        if (sourceIndex < 0 || (sourceIndex == tokenCombo_->currentIndex() && source.isEmpty()))
            sourceIndex = (tokenCombo_->currentIndex() + 1) % std::max(1, sourceCombo_->count());
        sourceCombo_->setCurrentIndex(sourceIndex);
    }
    showVector();
}

QString EmbeddingEditor::currentToken() const
{
    return tokenCombo_->currentText();
}

std::vector<float> EmbeddingEditor::vectorOf(const std::string& token) const
{
    if (auto it = overrides_.find(token);
        it != overrides_.end() && static_cast<int>(it->second.size()) == config_.dModel)
        return it->second;
    const Vector v = tokenVector(config_.seed, token, config_.dModel);
    return {v.data(), v.data() + v.size()};
}

void EmbeddingEditor::selectToken(const QString& token)
{
    tokenCombo_->setCurrentIndex(tokenCombo_->findText(token));
}

void EmbeddingEditor::setFeature(int feature, float value)
{
    const std::string token = currentToken().toStdString();
    if (token.empty() || feature < 0 || feature >= config_.dModel)
        return;
    std::vector<float> values = vectorOf(token);
    values[std::size_t(feature)] = value;
    setVector(token, std::move(values));
}

void EmbeddingEditor::copyFrom(const QString& source)
{
    const std::string token = currentToken().toStdString();
    if (token.empty() || source.isEmpty())
        return;
    setVector(token, vectorOf(source.toStdString()));
}

void EmbeddingEditor::copyWithNoise(const QString& source, double sigma, std::uint32_t seed)
{
    const std::string token = currentToken().toStdString();
    if (token.empty() || source.isEmpty())
        return;
    std::vector<float> values = vectorOf(source.toStdString());
    std::mt19937 generator(seed);
    std::normal_distribution<double> noise(0.0, sigma);
    for (float& value : values)
        value = static_cast<float>(value + noise(generator));
    setVector(token, std::move(values));
}

void EmbeddingEditor::resetToken()
{
    if (overrides_.erase(currentToken().toStdString()) > 0) {
        showVector();
        emit overridesChanged(overrides_);
    }
}

void EmbeddingEditor::resetAll()
{
    if (overrides_.empty())
        return;
    overrides_.clear();
    showVector();
    emit overridesChanged(overrides_);
}

void EmbeddingEditor::setVector(const std::string& token, std::vector<float> values)
{
    overrides_[token] = std::move(values);
    showVector();
    emit overridesChanged(overrides_);
}

void EmbeddingEditor::showVector()
{
    filling_ = true;
    const std::string token = currentToken().toStdString();
    const int C = token.empty() ? 0 : config_.dModel;
    table_->setRowCount(C);
    QStringList rows;
    const std::vector<float> values = token.empty() ? std::vector<float>{} : vectorOf(token);
    const bool edited = overrides_.count(token) > 0;
    for (int c = 0; c < C; ++c) {
        rows << QStringLiteral("x[%1]").arg(c);
        auto* item = table_->item(c, 0);
        if (!item) {
            item = new QTableWidgetItem;
            table_->setItem(c, 0, item);
        }
        item->setText(QLocale().toString(values[std::size_t(c)], 'g', 6));
        QFont font = item->font();
        font.setBold(edited);
        item->setFont(font);
    }
    table_->setVerticalHeaderLabels(rows);
    resetButton_->setEnabled(edited);
    resetAllButton_->setEnabled(!overrides_.empty());
    filling_ = false;
}

void EmbeddingEditor::itemEdited(int row)
{
    const QTableWidgetItem* item = table_->item(row, 0);
    if (const std::optional<float> value = parseValue(item->text())) {
        setFeature(row, *value);
        note_->setText(QString());
        showNote();
    } else {
        const QString typed = item->text();
        showVector(); // the previous number comes back
        note_->setText(tr("“%1” is not a number; x[%2] keeps its value.").arg(typed).arg(row));
    }
}

void EmbeddingEditor::showNote()
{
    QStringList lines;
    if (config_.embedding == EmbeddingMode::Torch)
        lines << tr("The embedding is torch.randn(B, T, C), which ignores the words: edited "
                    "vectors count only with the embedding “Table”.");
    if (config_.positional == Positional::Sinusoidal)
        lines << tr("Positional encoding is on: x = this vector + PE(position).");
    lines << tr("Edited vectors are shown in bold and saved with the session.");
    note_->setText(lines.join(QLatin1Char('\n')));
}

void EmbeddingEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void EmbeddingEditor::retranslateUi()
{
    setWindowTitle(tr("Embedding Editor"));
    tokenLabel_->setText(tr("&Token:", "the token whose vector is edited"));
    table_->setHorizontalHeaderLabels({tr("value", "one feature of the token's vector")});
    table_->setToolTip(tr("Double-click a value to type a new one; the heatmaps follow."));
    sourceLabel_->setText(tr("&From token:", "copy a vector from another token"));
    copyButton_->setText(tr("&Copy its vector"));
    copyButton_->setToolTip(tr("Give the token exactly the other token's vector: their keys "
                               "match, so a query cannot tell them apart."));
    sigmaLabel_->setText(tr("&Noise σ:"));
    noiseButton_->setText(tr("Copy plus &noise"));
    noiseButton_->setToolTip(tr("The other token's vector plus Gaussian noise of standard "
                                "deviation σ: close, but not the same."));
    resetButton_->setText(tr("&Reset token"));
    resetAllButton_->setText(tr("Reset &all"));
    showNote();
}

std::vector<std::string> editableTokens(const Result& result)
{
    std::vector<std::string> tokens;
    for (const TokenBatch* batch : {result.tokens.get(), result.keyTokens.get()})
        for (std::size_t b = 0; b < batch->tokens.size(); ++b)
            for (int t = 0; t < batch->lengths[b]; ++t) {
                const std::string& token = batch->tokens[b][std::size_t(t)];
                if (std::find(tokens.begin(), tokens.end(), token) == tokens.end())
                    tokens.push_back(token);
            }
    return tokens;
}

} // namespace attn::ui
