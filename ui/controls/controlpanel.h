// The left-hand panel: the sentence, the model's sizes and every switch of
// softmax(QKᵀ/√d_k + M)·V, read and written as one attn::Request.
#pragma once

#include "engine.h"

#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSlider;
class QSpinBox;
class QToolButton;

namespace attn::ui {

class CrossInput;
class DModelSpin;
class TokenChips;

// The temperature slider is logarithmic: τ = 0.05 · 400^(position / kTemperatureSteps).
// Because 400 = 20², its middle position is exactly τ = 1.
inline constexpr int kTemperatureSteps = 1000;
inline constexpr float kSliderMinTemperature = 0.05f;
inline constexpr float kSliderMaxTemperature = 20.0f;

// τ at slider `position` (clamped to 0..kTemperatureSteps); the middle gives exactly 1.
[[nodiscard]] float temperatureAtPosition(int position);
// The slider position whose τ is nearest to `temperature` (clamped to the slider's ends).
[[nodiscard]] int positionOfTemperature(float temperature);

// The head counts d_model allows: its divisors, ascending.
[[nodiscard]] std::vector<int> headCounts(int dModel);
// `heads` when it divides d_model, else the nearest divisor (the smaller one on a tie,
// which keeps d_k larger).
[[nodiscard]] int nearestHeadCount(int dModel, int heads);

// Object names of the controls (for tests and style sheets): sentenceEdit, tokenChips,
// tokenizerCombo, dModelSpin, dModelPreset<N>, headsCombo, dkLabel, modelNote, seedEdit,
// embeddingCombo, positionalCheck, headSplitCombo, scaleCombo, temperatureSlider,
// temperatureValue, temperatureReset, causalCheck, paddingCheck, maskFillCombo,
// maskStageCombo, axisCombo; and those of CrossInput: attentionCombo, crossEdit,
// crossChips, crossNote.
class ControlPanel : public QWidget {
    Q_OBJECT

public:
    // Text edits (the sentence, the seed) wait this long after the last keystroke.
    static constexpr int kDebounceMs = 200;

    explicit ControlPanel(QWidget* parent = nullptr);

    // What the controls say now, with the embedding overrides of the last setRequest().
    [[nodiscard]] Request request() const;
    // Sets every control; does NOT emit requestChanged (and drops a pending debounced
    // edit). d_model is clamped to its range and heads that do not divide it become the
    // nearest divisor; otherwise request() returns `request` unchanged afterwards.
    void setRequest(const Request& request);

    // The tokens of the current text, shown as chips under the editor, and in
    // cross-attention the keys' tokens under the second text.
    void setTokens(const TokenBatch& tokens, const TokenBatch* keyTokens = nullptr);
    // Replaces the hand-set vectors (the embedding editor's) and emits requestChanged.
    void setEmbeddingOverrides(const std::map<std::string, std::vector<float>>& overrides);
    // Shows `message` instead of the chips, e.g. "invalid UTF-8 at byte 3".
    void setInputError(const QString& message);

signals:
    // A control changed: switches, spin boxes and the slider at once, typed text after
    // kDebounceMs without a keystroke.
    void requestChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    QGroupBox* createInputGroup();
    QGroupBox* createModelGroup();
    QGroupBox* createFormulaGroup();
    void retranslateUi();
    void retranslateInputGroup();
    void retranslateModelGroup();
    void retranslateFormulaGroup();

    void dModelChanged();
    void seedEdited(const QString& text);
    void seedEditingFinished();
    void temperatureMoved(int position);
    void resetTemperature();
    void rebuildHeads(int preferredHeads);
    void showDk();
    // Notes what the last change of d_model changed: `preferredHeads` the heads before it.
    void noteModelChange(int preferredHeads);
    void clearModelNote();
    void showModelNote();
    void showTemperature();
    void showAttention();

    QTimer debounce_;
    std::uint64_t seed_ = Config{}.seed;
    float temperature_ = Config{}.temperature; // exact, even between slider positions
    std::map<std::string, std::vector<float>> embeddingOverrides_;

    QGroupBox* inputGroup_ = nullptr;
    QPlainTextEdit* sentenceEdit_ = nullptr;
    TokenChips* tokenChips_ = nullptr;
    QLabel* tokenizerLabel_ = nullptr;
    QComboBox* tokenizerCombo_ = nullptr;
    CrossInput* crossInput_ = nullptr;
    bool causalBeforeCross_ = false; // the causal switch, restored on the way back to self

    QGroupBox* modelGroup_ = nullptr;
    QLabel* dModelLabel_ = nullptr;
    DModelSpin* dModelSpin_ = nullptr;
    std::vector<QToolButton*> dModelPresets_;
    QLabel* headsLabel_ = nullptr;
    QComboBox* headsCombo_ = nullptr;
    QLabel* dkLabel_ = nullptr;
    // What the window changed of the user's d_model and heads, and why, until the next
    // change of either: the number typed past the range, the heads asked for.
    QLabel* modelNote_ = nullptr;
    std::optional<qint64> noteTyped_;
    std::optional<int> noteHeads_;
    QLabel* seedLabel_ = nullptr;
    QLineEdit* seedEdit_ = nullptr;
    QLabel* embeddingLabel_ = nullptr;
    QComboBox* embeddingCombo_ = nullptr;
    QCheckBox* positionalCheck_ = nullptr;

    QGroupBox* formulaGroup_ = nullptr;
    QLabel* headSplitLabel_ = nullptr;
    QComboBox* headSplitCombo_ = nullptr;
    QLabel* scaleLabel_ = nullptr;
    QComboBox* scaleCombo_ = nullptr;
    QLabel* temperatureLabel_ = nullptr;
    QSlider* temperatureSlider_ = nullptr;
    QLabel* temperatureValue_ = nullptr;
    QToolButton* temperatureReset_ = nullptr;
    QCheckBox* causalCheck_ = nullptr;
    QCheckBox* paddingCheck_ = nullptr;
    QLabel* maskFillLabel_ = nullptr;
    QComboBox* maskFillCombo_ = nullptr;
    QLabel* maskStageLabel_ = nullptr;
    QComboBox* maskStageCombo_ = nullptr;
    QLabel* axisLabel_ = nullptr;
    QComboBox* axisCombo_ = nullptr;
};

} // namespace attn::ui
