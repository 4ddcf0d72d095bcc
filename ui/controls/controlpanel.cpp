#include "controlpanel.h"

#include "crossinput.h"
#include "dmodelspin.h"
#include "enumcombo.h"
#include "labels.h"
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

float temperatureAtPosition(int position)
{
    position = std::clamp(position, 0, kTemperatureSteps);
    // The ends and the middle exactly, whatever pow() rounds to.
    if (position == 0)
        return kSliderMinTemperature;
    if (position == kTemperatureSteps)
        return kSliderMaxTemperature;
    if (2 * position == kTemperatureSteps)
        return 1.0f;
    const double range = double{kSliderMaxTemperature} / double{kSliderMinTemperature};
    return static_cast<float>(kSliderMinTemperature *
                              std::pow(range, double(position) / kTemperatureSteps));
}

int positionOfTemperature(float temperature)
{
    if (!(temperature > kSliderMinTemperature)) // NaN too
        return 0;
    const double range = double{kSliderMaxTemperature} / double{kSliderMinTemperature};
    const double position =
        kTemperatureSteps * std::log(temperature / double{kSliderMinTemperature}) / std::log(range);
    return std::clamp(static_cast<int>(std::lround(position)), 0, kTemperatureSteps);
}

std::vector<int> headCounts(int dModel)
{
    std::vector<int> divisors;
    for (int heads = 1; heads <= dModel; ++heads)
        if (dModel % heads == 0)
            divisors.push_back(heads);
    return divisors;
}

int nearestHeadCount(int dModel, int heads)
{
    int nearest = 1;
    for (int divisor : headCounts(dModel))
        if (std::abs(divisor - heads) < std::abs(nearest - heads))
            nearest = divisor;
    return nearest;
}

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

// The same words as tooltip (wrapped, so rich text) and as status tip (one line).
void setHelp(std::initializer_list<QWidget*> widgets, const QString& text)
{
    const QString toolTip = QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
    for (QWidget* widget : widgets) {
        widget->setToolTip(toolTip);
        widget->setStatusTip(text);
    }
}

QLabel* createLabel(QWidget* buddy)
{
    auto* label = new QLabel(buddy->parentWidget());
    label->setBuddy(buddy);
    return label;
}

QFormLayout* createFormLayout(QWidget* parent)
{
    auto* form = new QFormLayout(parent);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    // Compact: the panel lives in a dock about 320 px wide beside the heatmaps.
    form->setContentsMargins(6, 4, 6, 6);
    form->setVerticalSpacing(4);
    return form;
}

// "1.00", "0.05", "20.00"; values set from outside below 0.01 as "1e-06".
QString formatTemperature(float temperature)
{
    return temperature >= 0.01f ? QString::number(temperature, 'f', 2)
                                : QString::number(temperature, 'g', 2);
}

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
    layout->addWidget(createFormulaGroup());
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
    config.positional = positionalCheck_->isChecked() ? Positional::Sinusoidal : Positional::None;
    config.headSplit = currentValue<HeadSplit>(headSplitCombo_);
    config.scale = currentValue<ScaleMode>(scaleCombo_);
    config.temperature = temperature_;
    config.attention = crossInput_->attention();
    // The causal switch is off and disabled in cross-attention (showAttention).
    config.mask = causalCheck_->isChecked() && config.attention == AttentionKind::Self
                      ? MaskKind::Causal
                      : MaskKind::None;
    config.paddingMask = paddingCheck_->isChecked();
    config.maskFill = currentValue<MaskFill>(maskFillCombo_);
    config.maskStage = currentValue<MaskStage>(maskStageCombo_);
    config.axis = currentValue<SoftmaxAxis>(axisCombo_);
    return request;
}

void ControlPanel::setRequest(const Request& request)
{
    debounce_.stop();
    const Config& config = request.config;
    // Every control's signals are blocked: setting them is not a change by the user.
    const QSignalBlocker blockers[] = {
        QSignalBlocker(sentenceEdit_),    QSignalBlocker(tokenizerCombo_),
        QSignalBlocker(dModelSpin_),      QSignalBlocker(headsCombo_),
        QSignalBlocker(seedEdit_),        QSignalBlocker(embeddingCombo_),
        QSignalBlocker(positionalCheck_), QSignalBlocker(headSplitCombo_),
        QSignalBlocker(scaleCombo_),      QSignalBlocker(temperatureSlider_),
        QSignalBlocker(causalCheck_),     QSignalBlocker(paddingCheck_),
        QSignalBlocker(maskFillCombo_),   QSignalBlocker(maskStageCombo_),
        QSignalBlocker(axisCombo_)};

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
    positionalCheck_->setChecked(config.positional == Positional::Sinusoidal);

    setCurrentValue(headSplitCombo_, config.headSplit);
    setCurrentValue(scaleCombo_, config.scale);
    temperature_ = config.temperature;
    temperatureSlider_->setValue(positionOfTemperature(temperature_));
    causalCheck_->setChecked(config.mask == MaskKind::Causal);
    causalBeforeCross_ = config.mask == MaskKind::Causal;
    paddingCheck_->setChecked(config.paddingMask);
    tokenChips_->setPaddingMasked(config.paddingMask);
    crossInput_->setPaddingMasked(config.paddingMask);
    setCurrentValue(maskFillCombo_, config.maskFill);
    setCurrentValue(maskStageCombo_, config.maskStage);
    setCurrentValue(axisCombo_, config.axis);

    showDk();
    showTemperature();
    showAttention();
}

void ControlPanel::setTokens(const TokenBatch& tokens, const TokenBatch* keyTokens)
{
    tokenChips_->setTokens(tokens);
    if (keyTokens && crossInput_->attention() == AttentionKind::Cross)
        crossInput_->setTokens(*keyTokens);
    else
        crossInput_->clearTokens();
}

void ControlPanel::showAttention()
{
    // A causal mask has no meaning in cross-attention; the switch stays visible,
    // disabled and off, and CrossInput's note says why.
    const bool cross = crossInput_->attention() == AttentionKind::Cross;
    if (cross == causalCheck_->isEnabled()) {
        const QSignalBlocker blocker(causalCheck_);
        if (cross) {
            causalBeforeCross_ = causalCheck_->isChecked();
            causalCheck_->setChecked(false);
        } else {
            causalCheck_->setChecked(causalBeforeCross_);
        }
        causalCheck_->setEnabled(!cross);
    }
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
        showAttention();
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

    positionalCheck_ = new QCheckBox(modelGroup_);
    positionalCheck_->setObjectName(QStringLiteral("positionalCheck"));
    connect(positionalCheck_, &QCheckBox::toggled, this, &ControlPanel::requestChanged);

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
    form->addRow(positionalCheck_);
    return modelGroup_;
}

QGroupBox* ControlPanel::createFormulaGroup()
{
    formulaGroup_ = new QGroupBox(this);
    // Rows in the order the pipeline applies them: split, scale, τ, mask, softmax.
    headSplitCombo_ = createEnumCombo<HeadSplit>("headSplitCombo", formulaGroup_);
    headSplitLabel_ = createLabel(headSplitCombo_);
    scaleCombo_ = createEnumCombo<ScaleMode>("scaleCombo", formulaGroup_);
    scaleLabel_ = createLabel(scaleCombo_);

    temperatureSlider_ = new QSlider(Qt::Horizontal, formulaGroup_);
    temperatureSlider_->setObjectName(QStringLiteral("temperatureSlider"));
    temperatureSlider_->setRange(0, kTemperatureSteps);
    temperatureSlider_->setPageStep(kTemperatureSteps / 20);
    temperatureLabel_ = createLabel(temperatureSlider_);
    temperatureValue_ = new QLabel(formulaGroup_);
    temperatureValue_->setObjectName(QStringLiteral("temperatureValue"));
    // Wide enough for "τ = 20.00", so the slider does not jump while dragging.
    temperatureValue_->setMinimumWidth(
        temperatureValue_->fontMetrics().horizontalAdvance(QStringLiteral("τ = 20.00 ")));
    temperatureReset_ = new QToolButton(formulaGroup_);
    temperatureReset_->setObjectName(QStringLiteral("temperatureReset"));
    connect(temperatureSlider_, &QSlider::valueChanged, this, &ControlPanel::temperatureMoved);
    connect(temperatureReset_, &QToolButton::clicked, this, &ControlPanel::resetTemperature);
    auto* temperatureRow = new QHBoxLayout;
    temperatureRow->setSpacing(6);
    temperatureRow->addWidget(temperatureSlider_, 1);
    temperatureRow->addWidget(temperatureValue_);
    temperatureRow->addWidget(temperatureReset_);

    causalCheck_ = new QCheckBox(formulaGroup_);
    causalCheck_->setObjectName(QStringLiteral("causalCheck"));
    paddingCheck_ = new QCheckBox(formulaGroup_);
    paddingCheck_->setObjectName(QStringLiteral("paddingCheck"));
    connect(paddingCheck_, &QCheckBox::toggled, tokenChips_, &TokenChips::setPaddingMasked);
    connect(paddingCheck_, &QCheckBox::toggled, crossInput_, &CrossInput::setPaddingMasked);
    maskFillCombo_ = createEnumCombo<MaskFill>("maskFillCombo", formulaGroup_);
    maskFillLabel_ = createLabel(maskFillCombo_);
    maskStageCombo_ = createEnumCombo<MaskStage>("maskStageCombo", formulaGroup_);
    maskStageLabel_ = createLabel(maskStageCombo_);
    axisCombo_ = createEnumCombo<SoftmaxAxis>("axisCombo", formulaGroup_);
    axisLabel_ = createLabel(axisCombo_);

    for (QComboBox* combo :
         {headSplitCombo_, scaleCombo_, maskFillCombo_, maskStageCombo_, axisCombo_})
        connect(combo, &QComboBox::currentIndexChanged, this, &ControlPanel::requestChanged);
    for (QCheckBox* check : {causalCheck_, paddingCheck_})
        connect(check, &QCheckBox::toggled, this, &ControlPanel::requestChanged);

    auto* form = createFormLayout(formulaGroup_);
    form->addRow(headSplitLabel_, headSplitCombo_);
    form->addRow(scaleLabel_, scaleCombo_);
    form->addRow(temperatureLabel_, temperatureRow);
    form->addRow(causalCheck_);
    form->addRow(paddingCheck_);
    form->addRow(maskFillLabel_, maskFillCombo_);
    form->addRow(maskStageLabel_, maskStageCombo_);
    form->addRow(axisLabel_, axisCombo_);
    return formulaGroup_;
}

void ControlPanel::retranslateUi()
{
    retranslateInputGroup();
    retranslateModelGroup();
    retranslateFormulaGroup();
    showDk();
    showTemperature();
}

void ControlPanel::retranslateInputGroup()
{
    inputGroup_->setTitle(tr("Input", "group box: the sentences and their tokens"));
    sentenceEdit_->setPlaceholderText(
        tr("Type a sentence. Each line is one sequence of the batch; shorter lines are "
           "padded with <pad>."));
    setHelp({sentenceEdit_},
            tr("The text to attend over. Each line becomes one sequence of the batch "
               "(B = number of lines); shorter lines are padded with <pad> up to the longest "
               "(T tokens)."));

    tokenizerLabel_->setText(tr("&Tokenizer:", "how text is cut into tokens"));
    retranslateItems<TokenizerMode>(tokenizerCombo_);
    setHelp({tokenizerLabel_, tokenizerCombo_},
            tr("How the text is cut into tokens: Automatic finds words (Chinese too) with "
               "ICU; Spaces only splits at white space; Characters makes every character a "
               "token."));
}

void ControlPanel::retranslateModelGroup()
{
    modelGroup_->setTitle(tr("Model", "group box: the network's sizes and random draws"));

    dModelLabel_->setText(tr("&d_model:", "the model width C; keep the symbol"));
    setHelp({dModelLabel_, dModelSpin_},
            tr("d_model (C): the length of every token's vector. Q, K and V have C features "
               "each, shared out among the heads."));
    for (QToolButton* preset : dModelPresets_)
        setHelp({preset}, tr("Set d_model to %1.").arg(preset->text()));

    headsLabel_->setText(tr("&Heads:", "number of attention heads H"));
    setHelp({headsLabel_, headsCombo_},
            tr("Number of attention heads H. Only the divisors of d_model are offered: heads "
               "must divide d_model, because each head gets d_k = d_model / heads features."));
    setHelp({dkLabel_}, tr("Features per head, d_k = d_model / heads. The textbook scaling "
                           "divides the scores by √d_k."));
    showModelNote();

    seedLabel_->setText(tr("&Seed:", "random seed"));
    seedEdit_->setPlaceholderText(tr("0 … 18446744073709551615"));
    setHelp({seedLabel_, seedEdit_},
            tr("Random seed, 0 to 2⁶⁴ − 1, as in torch.manual_seed(seed): it draws the "
               "embeddings and the weights W_q, W_k, W_v, W_o. The same seed gives the same "
               "numbers."));

    embeddingLabel_->setText(tr("&Embedding:", "where the token vectors X come from"));
    retranslateItems<EmbeddingMode>(embeddingCombo_);
    setHelp({embeddingLabel_, embeddingCombo_},
            tr("Where the token vectors X come from. Table gives every distinct word its own "
               "vector, the same in every sentence; torch.randn draws X = torch.randn(B, T, C) "
               "exactly as PyTorch does after manual_seed."));

    positionalCheck_->setText(tr("Add &positional encoding (sinusoidal)"));
    setHelp({positionalCheck_},
            tr("Add the sinusoidal positional encoding (Vaswani et al. 2017) to X. Without it "
               "attention cannot tell word order: the same word gets the same vector "
               "everywhere."));
}

void ControlPanel::retranslateFormulaGroup()
{
    formulaGroup_->setTitle(tr("Formula", "group box: the switches of softmax(QKᵀ/√d_k + M)·V"));

    headSplitLabel_->setText(tr("Head &split:", "how Q, K, V are cut into heads"));
    retranslateItems<HeadSplit>(headSplitCombo_);
    setHelp({headSplitLabel_, headSplitCombo_},
            tr("How Q, K, V (B, T, C) are cut into heads. view + transpose gives (B, H, T, d_k) "
               "correctly; view alone reads the memory as (B, H, T, d_k) and mixes tokens "
               "across heads, the classic bug."));

    scaleLabel_->setText(tr("S&caling:", "what QKᵀ is divided by"));
    retranslateItems<ScaleMode>(scaleCombo_);
    setHelp({scaleLabel_, scaleCombo_},
            tr("What the scores QKᵀ are divided by. The tutorial divides by √d_k so that the "
               "scores keep a standard deviation near 1; without it, a large d_k makes "
               "softmax nearly one-hot."));

    temperatureLabel_->setText(tr("Te&mperature:", "softmax temperature τ"));
    setHelp({temperatureLabel_, temperatureSlider_, temperatureValue_},
            tr("Temperature τ divides the logits before softmax: τ < 1 sharpens the weights "
               "towards one-hot, τ > 1 flattens them towards uniform. The textbook formula "
               "has τ = 1."));
    temperatureReset_->setText(tr("Reset", "set the temperature back to 1"));
    setHelp({temperatureReset_}, tr("Set τ back to 1, the textbook formula."));

    causalCheck_->setText(tr("Ca&usal mask", "decoder mask: no looking ahead"));
    setHelp({causalCheck_}, tr("Causal mask M: query i may not look at later keys j > i "
                               "(torch.triu(ones(T, T), 1)), as in a decoder such as GPT."));
    paddingCheck_->setText(tr("Mask <pad> &keys"));
    setHelp({paddingCheck_},
            tr("Mask the keys of <pad> tokens so that no query attends to padding. Without it "
               "the shorter sentences spread weight over the padding."));

    maskFillLabel_->setText(tr("Mask &fill:", "the value written into masked logits"));
    retranslateItems<MaskFill>(maskFillCombo_);
    setHelp({maskFillLabel_, maskFillCombo_},
            tr("What masked logits are set to. -inf gives exactly 0 weight, but a row with "
               "every key masked becomes NaN; -1e9 gives almost 0, and such a row becomes "
               "uniform."));

    maskStageLabel_->setText(tr("Mask s&tage:", "before or after softmax"));
    retranslateItems<MaskStage>(maskStageCombo_);
    setHelp({maskStageLabel_, maskStageCombo_},
            tr("Mask before softmax (correct): masked keys get weight 0 and every row still "
               "sums to 1. Zeroing the weights after softmax leaves rows that no longer sum "
               "to 1, a common bug."));

    axisLabel_->setText(tr("Softmax &over:", "the softmax axis (dim)"));
    retranslateItems<SoftmaxAxis>(axisCombo_);
    setHelp({axisLabel_, axisCombo_},
            tr("The dimension softmax normalizes. It must run over dim=-1: each query's "
               "weights over the keys sum to 1. dim=-2 makes each key's column sum to 1; "
               "dim=0 normalizes across the sentences of the batch."));
}

void ControlPanel::dModelChanged()
{
    const int preferredHeads = headsCombo_->currentData().toInt();
    rebuildHeads(preferredHeads);
    noteModelChange(preferredHeads);
    showDk();
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

void ControlPanel::temperatureMoved(int position)
{
    temperature_ = temperatureAtPosition(position);
    showTemperature();
    emit requestChanged();
}

void ControlPanel::resetTemperature()
{
    if (temperature_ == 1.0f)
        return;
    if (temperatureSlider_->value() != positionOfTemperature(1.0f)) {
        temperatureSlider_->setValue(positionOfTemperature(1.0f)); // emits once
        return;
    }
    // τ came from setRequest() between slider positions; the slider already sits at 1.
    temperature_ = 1.0f;
    showTemperature();
    emit requestChanged();
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

void ControlPanel::showDk()
{
    const int heads = headsCombo_->currentData().toInt();
    dkLabel_->setText(tr("d_k = %1", "features per head; keep the symbol")
                          .arg(heads > 0 ? dModelSpin_->value() / heads : 0));
}

void ControlPanel::showTemperature()
{
    temperatureValue_->setText(
        tr("τ = %1", "the temperature's value").arg(formatTemperature(temperature_)));
}

} // namespace attn::ui
