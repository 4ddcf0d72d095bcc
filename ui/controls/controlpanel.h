// The left-hand panel: the sentence, the model's sizes and every switch of
// softmax(QKᵀ/√d_k + M)·V, read and written as one attn::Request.
#pragma once

#include "engine/engine.h"
#include "lab/controlscales.h"

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
class QToolButton;

namespace attn::ui {

class CrossInput;
class DModelSpin;
class SwitchesForm;
class TodaysForm;
class TokenChips;

// Object names of the controls (for tests and style sheets): sentenceEdit, tokenChips,
// tokenizerCombo, dModelSpin, dModelPreset<N>, headsCombo, dkLabel, modelNote, seedEdit,
// embeddingCombo, headSplitCombo, scaleCombo, temperatureSlider, temperatureValue,
// temperatureReset, causalCheck, paddingCheck, maskFillCombo, maskStageCombo, axisCombo
// (those of SwitchesForm, the Formula group); kvHeadsCombo, qkNormCheck, positionalCombo,
// ropeThetaEdit, alibiCheck, softcapCheck, softcapEdit, windowCheck, windowSpin, sinkCheck,
// sinkEdit, todaysNote (those of TodaysForm, the Today's models group); and those of
// CrossInput: attentionCombo, crossEdit, crossChips, crossNote.
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
    void retranslateUi();
    void retranslateInputGroup();
    void retranslateModelGroup();

    void dModelChanged();
    void seedEdited(const QString& text);
    void seedEditingFinished();
    void rebuildHeads(int preferredHeads);
    void showDk();
    // The heads and d_k to the Today's models group (its K/V heads and RoPE depend on them).
    void showHeadsToTodays();
    // Notes what the last change of d_model changed: `preferredHeads` the heads before it.
    void noteModelChange(int preferredHeads);
    void clearModelNote();
    void showModelNote();
    void showAttention();

    QTimer debounce_;
    std::uint64_t seed_ = Config{}.seed;
    std::map<std::string, std::vector<float>> embeddingOverrides_;

    QGroupBox* inputGroup_ = nullptr;
    QPlainTextEdit* sentenceEdit_ = nullptr;
    TokenChips* tokenChips_ = nullptr;
    QLabel* tokenizerLabel_ = nullptr;
    QComboBox* tokenizerCombo_ = nullptr;
    CrossInput* crossInput_ = nullptr;

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

    SwitchesForm* switches_ = nullptr; // the Formula group
    TodaysForm* todays_ = nullptr;     // the Today's models group
};

} // namespace attn::ui
