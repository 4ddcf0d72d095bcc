#include "switchesform.h"

#include "controlform.h"
#include "enumcombo.h"
#include "formulabar.h"
#include "lab/controlscales.h"
#include "labels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

namespace attn::ui {
namespace {

// "1.00", "0.05", "20.00"; values set from outside below 0.01 as "1e-06".
QString formatTemperature(float temperature)
{
    return temperature >= 0.01f ? QString::number(temperature, 'f', 2)
                                : QString::number(temperature, 'g', 2);
}

} // namespace

SwitchesForm::SwitchesForm(QWidget* parent)
    : QGroupBox(parent), headSplitCombo_(createEnumCombo<HeadSplit>("headSplitCombo", this)),
      scaleCombo_(createEnumCombo<ScaleMode>("scaleCombo", this)),
      temperatureSlider_(new QSlider(Qt::Horizontal, this)), temperatureValue_(new QLabel(this)),
      temperatureReset_(new QToolButton(this)), causalCheck_(new QCheckBox(this)),
      paddingCheck_(new QCheckBox(this)),
      maskFillCombo_(createEnumCombo<MaskFill>("maskFillCombo", this)),
      maskStageCombo_(createEnumCombo<MaskStage>("maskStageCombo", this)),
      axisCombo_(createEnumCombo<SoftmaxAxis>("axisCombo", this)), notesLabel_(new QLabel(this))
{
    // Rows in the order the pipeline applies them: split, scale, τ, mask, softmax.
    headSplitLabel_ = createLabel(headSplitCombo_);
    scaleLabel_ = createLabel(scaleCombo_);
    temperatureSlider_->setObjectName(QStringLiteral("temperatureSlider"));
    temperatureSlider_->setRange(0, kTemperatureSteps);
    temperatureSlider_->setPageStep(kTemperatureSteps / 20);
    temperatureLabel_ = createLabel(temperatureSlider_);
    temperatureValue_->setObjectName(QStringLiteral("temperatureValue"));
    // Wide enough for "τ = 20.00", so the slider does not jump while dragging.
    temperatureValue_->setMinimumWidth(
        temperatureValue_->fontMetrics().horizontalAdvance(QStringLiteral("τ = 20.00 ")));
    temperatureReset_->setObjectName(QStringLiteral("temperatureReset"));
    connect(temperatureSlider_, &QSlider::valueChanged, this, &SwitchesForm::temperatureMoved);
    connect(temperatureReset_, &QToolButton::clicked, this, &SwitchesForm::resetTemperature);
    auto* temperatureRow = new QHBoxLayout;
    temperatureRow->setSpacing(6);
    temperatureRow->addWidget(temperatureSlider_, 1);
    temperatureRow->addWidget(temperatureValue_);
    temperatureRow->addWidget(temperatureReset_);

    causalCheck_->setObjectName(QStringLiteral("causalCheck"));
    paddingCheck_->setObjectName(QStringLiteral("paddingCheck"));
    connect(paddingCheck_, &QCheckBox::toggled, this, &SwitchesForm::paddingMaskToggled);
    maskFillLabel_ = createLabel(maskFillCombo_);
    maskStageLabel_ = createLabel(maskStageCombo_);
    axisLabel_ = createLabel(axisCombo_);
    notesLabel_->setObjectName(QStringLiteral("notesLabel"));
    notesLabel_->setWordWrap(true);
    notesLabel_->setTextFormat(Qt::PlainText);
    notesLabel_->hide();

    for (QComboBox* combo :
         {headSplitCombo_, scaleCombo_, maskFillCombo_, maskStageCombo_, axisCombo_})
        connect(combo, &QComboBox::currentIndexChanged, this, &SwitchesForm::switchesChanged);
    for (QCheckBox* check : {causalCheck_, paddingCheck_})
        connect(check, &QCheckBox::toggled, this, &SwitchesForm::switchesChanged);

    auto* form = createFormLayout(this);
    form->addRow(headSplitLabel_, headSplitCombo_);
    form->addRow(scaleLabel_, scaleCombo_);
    form->addRow(temperatureLabel_, temperatureRow);
    form->addRow(causalCheck_);
    form->addRow(paddingCheck_);
    form->addRow(maskFillLabel_, maskFillCombo_);
    form->addRow(maskStageLabel_, maskStageCombo_);
    form->addRow(axisLabel_, axisCombo_);
    form->addRow(notesLabel_);

    setConfig(Config{});
    retranslateUi();
}

Config SwitchesForm::config() const
{
    Config config = config_;
    config.headSplit = currentValue<HeadSplit>(headSplitCombo_);
    config.scale = currentValue<ScaleMode>(scaleCombo_);
    config.temperature = temperature_;
    // The causal switch is off and disabled in cross-attention (setAttention).
    config.mask = causalCheck_->isChecked() && config.attention == AttentionKind::Self
                      ? MaskKind::Causal
                      : MaskKind::None;
    config.paddingMask = paddingCheck_->isChecked();
    config.maskFill = currentValue<MaskFill>(maskFillCombo_);
    config.maskStage = currentValue<MaskStage>(maskStageCombo_);
    config.axis = currentValue<SoftmaxAxis>(axisCombo_);
    return config;
}

void SwitchesForm::setConfig(const Config& config)
{
    const QSignalBlocker blocker(this);
    const QSignalBlocker blockers[] = {
        QSignalBlocker(headSplitCombo_),    QSignalBlocker(scaleCombo_),
        QSignalBlocker(temperatureSlider_), QSignalBlocker(causalCheck_),
        QSignalBlocker(paddingCheck_),      QSignalBlocker(maskFillCombo_),
        QSignalBlocker(maskStageCombo_),    QSignalBlocker(axisCombo_)};
    config_ = config;
    setCurrentValue(headSplitCombo_, config.headSplit);
    setCurrentValue(scaleCombo_, config.scale);
    temperature_ = config.temperature;
    temperatureSlider_->setValue(positionOfTemperature(temperature_));
    causalCheck_->setChecked(config.mask == MaskKind::Causal);
    causalBeforeCross_ = config.mask == MaskKind::Causal;
    paddingCheck_->setChecked(config.paddingMask);
    setCurrentValue(maskFillCombo_, config.maskFill);
    setCurrentValue(maskStageCombo_, config.maskStage);
    setCurrentValue(axisCombo_, config.axis);
    showTemperature();
    setAttention(config.attention);
}

void SwitchesForm::setAttention(AttentionKind attention)
{
    config_.attention = attention;
    const bool cross = attention == AttentionKind::Cross;
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

void SwitchesForm::setMnemonics(bool on)
{
    mnemonics_ = on;
    retranslateUi();
}

QString SwitchesForm::labelText(const QString& text) const
{
    if (mnemonics_)
        return text;
    // "分头方式(&S)：" as the Chinese write it, "Head &split:" as English does.
    static const QRegularExpression bracketed(QStringLiteral("\\(&[^&]\\)"));
    static const QRegularExpression marker(QStringLiteral("&(?=[^&])"));
    return QString(text).remove(bracketed).remove(marker);
}

void SwitchesForm::setNotes(const QString& text, bool alert)
{
    alert_ = alert;
    notesLabel_->setText(text);
    notesLabel_->setVisible(!text.isEmpty());
    QPalette palette = notesLabel_->palette();
    palette.setColor(QPalette::WindowText, alert ? alertColor(this->palette())
                                                 : this->palette().color(QPalette::WindowText));
    notesLabel_->setPalette(palette);
}

void SwitchesForm::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    else if (event->type() == QEvent::PaletteChange && !notesLabel_->text().isEmpty())
        setNotes(notesLabel_->text(), alert_);
    QGroupBox::changeEvent(event);
}

void SwitchesForm::temperatureMoved(int position)
{
    temperature_ = temperatureAtPosition(position);
    showTemperature();
    emit switchesChanged();
}

void SwitchesForm::resetTemperature()
{
    if (temperature_ == 1.0f)
        return;
    if (temperatureSlider_->value() != positionOfTemperature(1.0f)) {
        temperatureSlider_->setValue(positionOfTemperature(1.0f)); // emits once
        return;
    }
    // τ came from setConfig() between slider positions; the slider already sits at 1.
    temperature_ = 1.0f;
    showTemperature();
    emit switchesChanged();
}

void SwitchesForm::showTemperature()
{
    temperatureValue_->setText(
        tr("τ = %1", "the temperature's value").arg(formatTemperature(temperature_)));
}

void SwitchesForm::retranslateUi()
{
    headSplitLabel_->setText(labelText(tr("Head &split:", "how Q, K, V are cut into heads")));
    retranslateItems<HeadSplit>(headSplitCombo_);
    setHelp({headSplitLabel_, headSplitCombo_}, helpText(ControlHelp::HeadSplit));
    scaleLabel_->setText(labelText(tr("S&caling:", "what QKᵀ is divided by")));
    retranslateItems<ScaleMode>(scaleCombo_);
    setHelp({scaleLabel_, scaleCombo_}, helpText(ControlHelp::Scale));
    temperatureLabel_->setText(labelText(tr("Te&mperature:", "softmax temperature τ")));
    setHelp({temperatureLabel_, temperatureSlider_, temperatureValue_},
            helpText(ControlHelp::Temperature));
    temperatureReset_->setText(tr("Reset", "set the temperature back to 1"));
    setHelp({temperatureReset_}, helpText(ControlHelp::TemperatureReset));
    causalCheck_->setText(labelText(tr("Ca&usal mask", "decoder mask: no looking ahead")));
    setHelp({causalCheck_}, helpText(ControlHelp::Causal));
    paddingCheck_->setText(labelText(tr("Mask <pad> &keys")));
    setHelp({paddingCheck_}, helpText(ControlHelp::Padding));
    maskFillLabel_->setText(labelText(tr("Mask &fill:", "the value written into masked logits")));
    retranslateItems<MaskFill>(maskFillCombo_);
    setHelp({maskFillLabel_, maskFillCombo_}, helpText(ControlHelp::MaskFill));
    maskStageLabel_->setText(labelText(tr("Mask s&tage:", "before or after softmax")));
    retranslateItems<MaskStage>(maskStageCombo_);
    setHelp({maskStageLabel_, maskStageCombo_}, helpText(ControlHelp::MaskStage));
    axisLabel_->setText(labelText(tr("Softmax &over:", "the softmax axis (dim)")));
    retranslateItems<SoftmaxAxis>(axisCombo_);
    setHelp({axisLabel_, axisCombo_}, helpText(ControlHelp::Axis));
    showTemperature();
}

} // namespace attn::ui
