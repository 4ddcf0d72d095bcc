// A compact editor for the switches of softmax(QKᵀ/√d_k + M)·V alone — scaling, τ, the
// softmax axis, the masks and the head split — for one side of a comparison. The text,
// the seed and the sizes are not its business.
#pragma once

#include "options.h"

#include <QGroupBox>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;

namespace attn::ui {

// Object names of the controls: scaleCombo, temperatureSlider, temperatureValue, axisCombo,
// causalCheck, paddingCheck, maskFillCombo, maskStageCombo, headSplitCombo, notesLabel.
class SwitchesForm : public QGroupBox {
    Q_OBJECT

public:
    explicit SwitchesForm(QWidget* parent = nullptr);

    // The last setConfig() with the switches the controls show now.
    [[nodiscard]] Config config() const;
    // Shows the switches of `config` (τ exactly, even between slider positions); does NOT
    // emit switchesChanged.
    void setConfig(const Config& config);

    // A line under the controls, e.g. the departures from the textbook formula, in red
    // when `alert`.
    void setNotes(const QString& text, bool alert);

signals:
    // The user changed a switch.
    void switchesChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void showTemperature();

    Config config_;
    float temperature_ = Config{}.temperature; // exact, even between slider positions
    bool alert_ = false;

    QLabel* scaleLabel_;
    QComboBox* scaleCombo_;
    QLabel* temperatureLabel_;
    QSlider* temperatureSlider_;
    QLabel* temperatureValue_;
    QLabel* axisLabel_;
    QComboBox* axisCombo_;
    QLabel* maskLabel_;
    QCheckBox* causalCheck_;
    QCheckBox* paddingCheck_;
    QLabel* maskFillLabel_;
    QComboBox* maskFillCombo_;
    QLabel* maskStageLabel_;
    QComboBox* maskStageCombo_;
    QLabel* headSplitLabel_;
    QComboBox* headSplitCombo_;
    QLabel* notesLabel_;
};

} // namespace attn::ui
