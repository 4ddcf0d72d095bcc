#include "controlpanel.h"

#include "controlform.h"
#include "crossinput.h"
#include "dmodelspin.h"
#include "enumcombo.h"
#include "lab/comparison.h"
#include "labels.h"
#include "switchesform.h"
#include "todaysform.h"
#include "tokenchips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <QValidator>

#include <algorithm>
#include <cmath>
#include <initializer_list>

namespace attn::ui {

namespace {

constexpr int kDModelPresets[] = {16, 64, 128, 512, 768};

// Accepts 0 … 2⁶⁴ − 1 in decimal; QIntValidator stops at 2³¹ − 1.
class SeedValidator : public QValidator {
public:
    using QValidator::QValidator;

    State validate(QString& input, int&) const override
    {
        if (input.isEmpty())
            return Intermediate;
        // ASCII digits only: toULongLong() would also take "+7" and " 7".
        const bool digitsOnly = std::all_of(input.cbegin(), input.cend(),
                                            [](QChar c) { return c >= u'0' && c <= u'9'; });
        bool fits = false;
        input.toULongLong(&fits);
        return digitsOnly && fits ? Acceptable : Invalid;
    }
};

} // namespace

ControlPanel::ControlPanel(QWidget* parent) : QWidget(parent)
{
    debounce_.setSingleShot(true);
    debounce_.setInterval(kDebounceMs);
    connect(&debounce_, &QTimer::timeout, this, &ControlPanel::requestChanged);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(createInputGroup());
    layout->addWidget(createModelGroup());
    switches_ = new SwitchesForm(this);
    connect(switches_, &SwitchesForm::switchesChanged, this, [this] {
        todays_->setAxis(switches_->config().axis); // a sink needs the keys
        emit requestChanged();
    });
    connect(switches_, &SwitchesForm::paddingMaskToggled, tokenChips_,
            &TokenChips::setPaddingMasked);
    connect(switches_, &SwitchesForm::paddingMaskToggled, crossInput_,
            &CrossInput::setPaddingMasked);
    layout->addWidget(switches_);
    todays_ = new TodaysForm(this);
    connect(todays_, &TodaysForm::switchesChanged, this, &ControlPanel::requestChanged);
    layout->addWidget(todays_);
    layout->addStretch(1);

    setRequest(Request{});
    retranslateUi();
}

Request ControlPanel::request() const
{
    Request request;
    request.text = sentenceEdit_->toPlainText().toStdString();
    request.crossText = crossInput_->crossText();
    request.embeddingOverrides = embeddingOverrides_;
    Config& config = request.config;
    config.tokenizer = currentValue<TokenizerMode>(tokenizerCombo_);
    config.dModel = dModelSpin_->value();
    config.heads = headsCombo_->currentData().toInt();
    config.seed = seed_;
    config.embedding = currentValue<EmbeddingMode>(embeddingCombo_);
    config.attention = crossInput_->attention();
    config = withSwitches(config, switches_->config());
    config = todays_->apply(config);
    return request;
}

void ControlPanel::setRequest(const Request& request)
{
    debounce_.stop();
    const Config& config = request.config;
    // Every control's signals are blocked: setting them is not a change by the user.
    const QSignalBlocker blockers[] = {
        QSignalBlocker(sentenceEdit_), QSignalBlocker(tokenizerCombo_),
        QSignalBlocker(dModelSpin_),   QSignalBlocker(headsCombo_),
        QSignalBlocker(seedEdit_),     QSignalBlocker(embeddingCombo_)};

    if (sentenceEdit_->toPlainText().toStdString() != request.text)
        sentenceEdit_->setPlainText(QString::fromStdString(request.text));
    embeddingOverrides_ = request.embeddingOverrides;
    setCurrentValue(tokenizerCombo_, config.tokenizer);
    crossInput_->set(config.attention, request.crossText);

    dModelSpin_->setValue(config.dModel);
    rebuildHeads(config.heads);
    clearModelNote(); // a session or preset: nothing the user typed was changed
    seed_ = config.seed;
    seedEdit_->setText(QString::number(seed_));
    setCurrentValue(embeddingCombo_, config.embedding);

    switches_->setConfig(config);
    Config shown = config;
    shown.heads = headsCombo_->currentData().toInt();
    shown.dModel = dModelSpin_->value();
    todays_->setConfig(shown);
    tokenChips_->setPaddingMasked(config.paddingMask);
    crossInput_->setPaddingMasked(config.paddingMask);
    showDk();
}

void ControlPanel::setTokens(const TokenBatch& tokens, const TokenBatch* keyTokens)
{
    tokenChips_->setTokens(tokens);
    if (keyTokens && crossInput_->attention() == AttentionKind::Cross)
        crossInput_->setTokens(*keyTokens);
    else
        crossInput_->clearTokens();
}

void ControlPanel::setEmbeddingOverrides(const std::map<std::string, std::vector<float>>& overrides)
{
    embeddingOverrides_ = overrides;
    emit requestChanged();
}

void ControlPanel::setInputError(const QString& message)
{
    crossInput_->clearTokens();
    tokenChips_->setError(message);
}

void ControlPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

QGroupBox* ControlPanel::createInputGroup()
{
    inputGroup_ = new QGroupBox(this);

    sentenceEdit_ = new QPlainTextEdit(inputGroup_);
    sentenceEdit_->setObjectName(QStringLiteral("sentenceEdit"));
    // No wrapping: one line on screen is one sequence of the batch.
    sentenceEdit_->setLineWrapMode(QPlainTextEdit::NoWrap);
    sentenceEdit_->setTabChangesFocus(true);
    const int frame = 2 * (sentenceEdit_->frameWidth() +
                           static_cast<int>(sentenceEdit_->document()->documentMargin()));
    sentenceEdit_->setFixedHeight(4 * sentenceEdit_->fontMetrics().lineSpacing() + frame);
    connect(sentenceEdit_, &QPlainTextEdit::textChanged, &debounce_, qOverload<>(&QTimer::start));

    tokenChips_ = new TokenChips(inputGroup_);
    tokenChips_->setObjectName(QStringLiteral("tokenChips"));

    tokenizerCombo_ = createEnumCombo<TokenizerMode>("tokenizerCombo", inputGroup_);
    tokenizerLabel_ = createLabel(tokenizerCombo_);
    connect(tokenizerCombo_, &QComboBox::currentIndexChanged, this, &ControlPanel::requestChanged);

    crossInput_ = new CrossInput(inputGroup_);
    connect(crossInput_, &CrossInput::attentionChanged, this, [this] {
        switches_->setAttention(crossInput_->attention());
        emit requestChanged();
    });
    connect(crossInput_, &CrossInput::textEdited, &debounce_, qOverload<>(&QTimer::start));

    auto* form = createFormLayout(inputGroup_);
    form->addRow(sentenceEdit_);
    form->addRow(tokenChips_);
    form->addRow(tokenizerLabel_, tokenizerCombo_);
    form->addRow(crossInput_->attentionLabel(), crossInput_->attentionCombo());
    form->addRow(crossInput_);
    return inputGroup_;
}

QGroupBox* ControlPanel::createModelGroup()
{
    modelGroup_ = new QGroupBox(this);

    dModelSpin_ = new DModelSpin(modelGroup_);
    dModelSpin_->setObjectName(QStringLiteral("dModelSpin"));
    dModelSpin_->setRange(kMinDModel, kMaxDModel);
    // Only a finished number counts: typing "768" must not pass through d_model = 7.
    dModelSpin_->setKeyboardTracking(false);
    dModelSpin_->setAccelerated(true);
    dModelLabel_ = createLabel(dModelSpin_);
    connect(dModelSpin_, &QSpinBox::valueChanged, this, &ControlPanel::dModelChanged);
    // A number past the range typed where d_model already stood changes no value: the
    // note still says what became of it.
    connect(dModelSpin_, &QAbstractSpinBox::editingFinished, this, [this] {
        if (dModelSpin_->hasClamped())
            noteModelChange(headsCombo_->currentData().toInt());
    });

    // The usual widths, one click each, on their own line under the spin box.
    auto* presetRow = new QHBoxLayout;
    presetRow->setSpacing(2);
    for (int value : kDModelPresets) {
        auto* preset = new QToolButton(modelGroup_);
        preset->setObjectName(QStringLiteral("dModelPreset%1").arg(value));
        preset->setText(QString::number(value));
        connect(preset, &QToolButton::clicked, dModelSpin_,
                [this, value] { dModelSpin_->setValue(value); });
        dModelPresets_.push_back(preset);
        presetRow->addWidget(preset);
    }
    presetRow->addStretch(1);

    headsCombo_ = new QComboBox(modelGroup_);
    headsCombo_->setObjectName(QStringLiteral("headsCombo"));
    headsLabel_ = createLabel(headsCombo_);
    dkLabel_ = new QLabel(modelGroup_);
    dkLabel_->setObjectName(QStringLiteral("dkLabel"));
    connect(headsCombo_, &QComboBox::currentIndexChanged, this, [this] {
        clearModelNote(); // the user chose the heads: nothing of theirs was changed
        showDk();
        showHeadsToTodays();
        emit requestChanged();
    });
    auto* headsRow = new QHBoxLayout;
    headsRow->setSpacing(8);
    headsRow->addWidget(headsCombo_, 1);
    headsRow->addWidget(dkLabel_, 1);

    seedEdit_ = new QLineEdit(modelGroup_);
    seedEdit_->setObjectName(QStringLiteral("seedEdit"));
    seedEdit_->setValidator(new SeedValidator(seedEdit_));
    seedLabel_ = createLabel(seedEdit_);
    connect(seedEdit_, &QLineEdit::textEdited, this, &ControlPanel::seedEdited);
    connect(seedEdit_, &QLineEdit::editingFinished, this, &ControlPanel::seedEditingFinished);

    embeddingCombo_ = createEnumCombo<EmbeddingMode>("embeddingCombo", modelGroup_);
    embeddingLabel_ = createLabel(embeddingCombo_);
    connect(embeddingCombo_, &QComboBox::currentIndexChanged, this, &ControlPanel::requestChanged);

    modelNote_ = new QLabel(modelGroup_);
    modelNote_->setObjectName(QStringLiteral("modelNote"));
    modelNote_->setWordWrap(true);
    modelNote_->setTextFormat(Qt::PlainText);
    modelNote_->setForegroundRole(QPalette::Link); // stands out from the labels, not alarming
    modelNote_->hide();

    auto* form = createFormLayout(modelGroup_);
    form->addRow(dModelLabel_, dModelSpin_);
    form->setLayout(form->rowCount(), QFormLayout::FieldRole, presetRow);
    form->addRow(headsLabel_, headsRow);
    form->addRow(modelNote_);
    form->addRow(seedLabel_, seedEdit_);
    form->addRow(embeddingLabel_, embeddingCombo_);
    return modelGroup_;
}

void ControlPanel::retranslateUi()
{
    retranslateInputGroup();
    retranslateModelGroup();
    switches_->setTitle(tr("Formula", "group box: the switches of softmax(QKᵀ/√d_k + M)·V"));
    showDk();
}

void ControlPanel::retranslateInputGroup()
{
    inputGroup_->setTitle(tr("Input", "group box: the sentences and their tokens"));
    sentenceEdit_->setPlaceholderText(
        tr("Type a sentence. Each line is one sequence of the batch; shorter lines are "
           "padded with <pad>."));
    setHelp({sentenceEdit_}, helpText(ControlHelp::Sentence));

    tokenizerLabel_->setText(tr("&Tokenizer:", "how text is cut into tokens"));
    retranslateItems<TokenizerMode>(tokenizerCombo_);
    setHelp({tokenizerLabel_, tokenizerCombo_}, helpText(ControlHelp::Tokenizer));
}

void ControlPanel::retranslateModelGroup()
{
    modelGroup_->setTitle(tr("Model", "group box: the network's sizes and random draws"));

    dModelLabel_->setText(tr("&d_model:", "the model width C; keep the symbol"));
    setHelp({dModelLabel_, dModelSpin_}, helpText(ControlHelp::DModel));
    for (QToolButton* preset : dModelPresets_)
        setHelp({preset}, helpText(ControlHelp::DModelPreset).arg(preset->text()));

    headsLabel_->setText(tr("&Heads:", "number of attention heads H"));
    setHelp({headsLabel_, headsCombo_}, helpText(ControlHelp::Heads));
    setHelp({dkLabel_}, helpText(ControlHelp::Dk));
    showModelNote();

    seedLabel_->setText(tr("&Seed:", "random seed"));
    seedEdit_->setPlaceholderText(tr("0 … 18446744073709551615"));
    setHelp({seedLabel_, seedEdit_}, helpText(ControlHelp::Seed));

    embeddingLabel_->setText(tr("&Embedding:", "where the token vectors X come from"));
    retranslateItems<EmbeddingMode>(embeddingCombo_);
    setHelp({embeddingLabel_, embeddingCombo_}, helpText(ControlHelp::Embedding));
}

void ControlPanel::dModelChanged()
{
    const int preferredHeads = headsCombo_->currentData().toInt();
    rebuildHeads(preferredHeads);
    noteModelChange(preferredHeads);
    showDk();
    showHeadsToTodays();
    emit requestChanged();
}

void ControlPanel::noteModelChange(int preferredHeads)
{
    noteTyped_ = dModelSpin_->takeClamped();
    const int heads = headsCombo_->currentData().toInt();
    noteHeads_ = preferredHeads > 0 && heads != preferredHeads ? std::optional(preferredHeads)
                                                               : std::nullopt;
    showModelNote();
}

void ControlPanel::clearModelNote()
{
    noteTyped_.reset();
    noteHeads_.reset();
    showModelNote();
}

void ControlPanel::showModelNote()
{
    QStringList notes;
    if (noteTyped_)
        notes << tr("d_model %1 is outside %2 to %3, so %4 is used.",
                    "a typed d_model was brought into the range")
                     .arg(*noteTyped_)
                     .arg(kMinDModel)
                     .arg(kMaxDModel)
                     .arg(dModelSpin_->value());
    if (noteHeads_)
        notes << tr("%1 heads do not divide d_model %2, so the nearest divisor, %3, is used.",
                    "heads must divide d_model")
                     .arg(*noteHeads_)
                     .arg(dModelSpin_->value())
                     .arg(headsCombo_->currentData().toInt());
    modelNote_->setText(notes.join(u' '));
    modelNote_->setVisible(!notes.isEmpty());
}

void ControlPanel::seedEdited(const QString& text)
{
    bool ok = false;
    const std::uint64_t seed = text.toULongLong(&ok);
    if (!ok || seed == seed_)
        return;
    seed_ = seed;
    debounce_.start();
}

void ControlPanel::seedEditingFinished()
{
    // An empty field falls back to the seed in use; "007" becomes "7".
    if (seedEdit_->text() != QString::number(seed_))
        seedEdit_->setText(QString::number(seed_));
}

void ControlPanel::rebuildHeads(int preferredHeads)
{
    const QSignalBlocker blocker(headsCombo_);
    const int dModel = dModelSpin_->value();
    headsCombo_->clear();
    for (int heads : headCounts(dModel))
        headsCombo_->addItem(QString::number(heads), heads);
    headsCombo_->setCurrentIndex(headsCombo_->findData(nearestHeadCount(dModel, preferredHeads)));
}

void ControlPanel::showHeadsToTodays()
{
    if (!todays_)
        return; // during construction
    const int heads = headsCombo_->currentData().toInt();
    todays_->setHeads(heads, heads > 0 ? dModelSpin_->value() / heads : 0);
}

void ControlPanel::showDk()
{
    const int heads = headsCombo_->currentData().toInt();
    dkLabel_->setText(tr("d_k = %1", "features per head; keep the symbol")
                          .arg(heads > 0 ? dModelSpin_->value() / heads : 0));
}

} // namespace attn::ui
