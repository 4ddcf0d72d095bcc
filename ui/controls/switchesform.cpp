#include "switchesform.h"

#include "controlpanel.h"
#include "enumcombo.h"
#include "formulabar.h"
#include "labels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSlider>

namespace attn::ui {

SwitchesForm::SwitchesForm(QWidget* parent)
    : QGroupBox(parent), scaleLabel_(new QLabel(this)),
      scaleCombo_(createEnumCombo<ScaleMode>("scaleCombo", this)),
      temperatureLabel_(new QLabel(this)), temperatureSlider_(new QSlider(Qt::Horizontal, this)),
      temperatureValue_(new QLabel(this)), axisLabel_(new QLabel(this)),
      axisCombo_(createEnumCombo<SoftmaxAxis>("axisCombo", this)), maskLabel_(new QLabel(this)),
      causalCheck_(new QCheckBox(this)), paddingCheck_(new QCheckBox(this)),
      maskFillLabel_(new QLabel(this)),
      maskFillCombo_(createEnumCombo<MaskFill>("maskFillCombo", this)),
      maskStageLabel_(new QLabel(this)),
      maskStageCombo_(createEnumCombo<MaskStage>("maskStageCombo", this)),
      headSplitLabel_(new QLabel(this)),
      headSplitCombo_(createEnumCombo<HeadSplit>("headSplitCombo", this)),
      notesLabel_(new QLabel(this))
{
    temperatureSlider_->setObjectName(QStringLiteral("temperatureSlider"));
    temperatureSlider_->setRange(0, kTemperatureSteps);
    temperatureValue_->setObjectName(QStringLiteral("temperatureValue"));
    // Room for "τ = 0.123" so that the slider does not jump while it is dragged.
    temperatureValue_->setMinimumWidth(
        temperatureValue_->fontMetrics().horizontalAdvance(QStringLiteral("τ = 0.000")));
    causalCheck_->setObjectName(QStringLiteral("causalCheck"));
    paddingCheck_->setObjectName(QStringLiteral("paddingCheck"));
    notesLabel_->setObjectName(QStringLiteral("notesLabel"));
    notesLabel_->setWordWrap(true);
    notesLabel_->setTextFormat(Qt::PlainText);

    auto* temperatureRow = new QHBoxLayout;
    temperatureRow->addWidget(temperatureSlider_, 1);
    temperatureRow->addWidget(temperatureValue_);
    auto* maskRow = new QHBoxLayout;
    maskRow->addWidget(causalCheck_);
    maskRow->addWidget(paddingCheck_);
    maskRow->addStretch(1);

    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setVerticalSpacing(4);
    form->addRow(scaleLabel_, scaleCombo_);
    form->addRow(temperatureLabel_, temperatureRow);
    form->addRow(axisLabel_, axisCombo_);
    form->addRow(maskLabel_, maskRow);
    form->addRow(maskFillLabel_, maskFillCombo_);
    form->addRow(maskStageLabel_, maskStageCombo_);
    form->addRow(headSplitLabel_, headSplitCombo_);
    form->addRow(notesLabel_);

    for (QComboBox* combo :
         {scaleCombo_, axisCombo_, maskFillCombo_, maskStageCombo_, headSplitCombo_})
        connect(combo, &QComboBox::currentIndexChanged, this, &SwitchesForm::switchesChanged);
    for (QCheckBox* check : {causalCheck_, paddingCheck_})
        connect(check, &QCheckBox::toggled, this, &SwitchesForm::switchesChanged);
    connect(temperatureSlider_, &QSlider::valueChanged, this, [this](int position) {
        temperature_ = temperatureAtPosition(position);
        showTemperature();
        emit switchesChanged();
    });

    setConfig(Config{});
    retranslateUi();
}

Config SwitchesForm::config() const
{
    Config config = config_;
    config.scale = currentValue<ScaleMode>(scaleCombo_);
    config.temperature = temperature_;
    config.axis = currentValue<SoftmaxAxis>(axisCombo_);
    config.mask = causalCheck_->isChecked() ? MaskKind::Causal : MaskKind::None;
    config.paddingMask = paddingCheck_->isChecked();
    config.maskFill = currentValue<MaskFill>(maskFillCombo_);
    config.maskStage = currentValue<MaskStage>(maskStageCombo_);
    config.headSplit = currentValue<HeadSplit>(headSplitCombo_);
    return config;
}

void SwitchesForm::setConfig(const Config& config)
{
    const QSignalBlocker blocker(this);
    config_ = config;
    setCurrentValue(scaleCombo_, config.scale);
    temperatureSlider_->setValue(positionOfTemperature(config.temperature));
    temperature_ = config.temperature; // after the slider, which rounds it to a position
    showTemperature();
    setCurrentValue(axisCombo_, config.axis);
    causalCheck_->setChecked(config.mask == MaskKind::Causal);
    // Cross-attention has no causal mask (the main window's note says why).
    causalCheck_->setEnabled(config.attention == AttentionKind::Self);
    paddingCheck_->setChecked(config.paddingMask);
    setCurrentValue(maskFillCombo_, config.maskFill);
    setCurrentValue(maskStageCombo_, config.maskStage);
    setCurrentValue(headSplitCombo_, config.headSplit);
}

void SwitchesForm::setNotes(const QString& text, bool alert)
{
    alert_ = alert;
    notesLabel_->setText(text);
    QPalette palette = notesLabel_->palette();
    palette.setColor(QPalette::WindowText, alert ? alertColor(this->palette())
                                                 : this->palette().color(QPalette::WindowText));
    notesLabel_->setPalette(palette);
}

void SwitchesForm::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (event->type() == QEvent::PaletteChange)
        setNotes(notesLabel_->text(), alert_);
    QGroupBox::changeEvent(event);
}

void SwitchesForm::retranslateUi()
{
    scaleLabel_->setText(tr("Scaling:", "what QKᵀ is divided by"));
    retranslateItems<ScaleMode>(scaleCombo_);
    temperatureLabel_->setText(tr("Temperature:", "softmax temperature τ"));
    showTemperature();
    axisLabel_->setText(tr("Softmax over:", "the softmax axis (dim)"));
    retranslateItems<SoftmaxAxis>(axisCombo_);
    maskLabel_->setText(tr("Mask:", "which masks M holds"));
    causalCheck_->setText(tr("Causal", "decoder mask: no looking ahead"));
    paddingCheck_->setText(tr("<pad> keys"));
    maskFillLabel_->setText(tr("Mask fill:", "the value written into masked logits"));
    retranslateItems<MaskFill>(maskFillCombo_);
    maskStageLabel_->setText(tr("Mask stage:", "before or after softmax"));
    retranslateItems<MaskStage>(maskStageCombo_);
    headSplitLabel_->setText(tr("Head split:", "how Q, K, V are cut into heads"));
    retranslateItems<HeadSplit>(headSplitCombo_);
}

void SwitchesForm::showTemperature()
{
    temperatureValue_->setText(tr("τ = %1", "the temperature's value")
                                   .arg(QLocale().toString(double(temperature_), 'g', 3)));
}

} // namespace attn::ui
