// The one editor of the switches of softmax(QKᵀ/√d_k + M)·V — the head split, the
// scaling, τ, the masks and the softmax axis, in the order the pipeline applies them.
// It is the control panel's Formula group and each side of Compare. The text, the seed
// and the sizes are not its business.
#pragma once

#include "engine/options.h"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace attn::ui {

// Object names of the controls: headSplitCombo, scaleCombo, temperatureSlider,
// temperatureValue, temperatureReset, causalCheck, paddingCheck, maskFillCombo,
// maskStageCombo, axisCombo, notesLabel.
class SwitchesForm : public QGroupBox {
    Q_OBJECT

public:
    explicit SwitchesForm(QWidget* parent = nullptr);

    // The last setConfig() with the switches the controls show now; no causal mask in
    // cross-attention.
    [[nodiscard]] Config config() const;
    // Shows the switches of `config` (τ exactly, even between slider positions) and its
    // attention; does NOT emit switchesChanged.
    void setConfig(const Config& config);
    // A causal mask has no meaning in cross-attention: the switch stays visible, disabled
    // and off, and is restored on the way back to self-attention. Emits nothing.
    void setAttention(AttentionKind attention);

    // Off: the labels have no Alt+letter (two forms side by side would share them).
    void setMnemonics(bool on);

    // A line under the controls, e.g. the departures from the textbook formula, in red
    // when `alert`; hidden until set.
    void setNotes(const QString& text, bool alert);

signals:
    // The user changed a switch.
    void switchesChanged();
    // The user switched the mask of the <pad> keys.
    void paddingMaskToggled(bool on);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void temperatureMoved(int position);
    void resetTemperature();
    void showTemperature();
    // `text` as a label shows it: without its Alt+letter when mnemonics are off.
    [[nodiscard]] QString labelText(const QString& text) const;

    Config config_;
    float temperature_ = Config{}.temperature; // exact, even between slider positions
    bool causalBeforeCross_ = false; // the causal switch, restored on the way back to self
    bool alert_ = false;
    bool mnemonics_ = true;

    QLabel* headSplitLabel_;
    QComboBox* headSplitCombo_;
    QLabel* scaleLabel_;
    QComboBox* scaleCombo_;
    QLabel* temperatureLabel_;
    QSlider* temperatureSlider_;
    QLabel* temperatureValue_;
    QToolButton* temperatureReset_;
    QCheckBox* causalCheck_;
    QCheckBox* paddingCheck_;
    QLabel* maskFillLabel_;
    QComboBox* maskFillCombo_;
    QLabel* maskStageLabel_;
    QComboBox* maskStageCombo_;
    QLabel* axisLabel_;
    QComboBox* axisCombo_;
    QLabel* notesLabel_;
};

} // namespace attn::ui
