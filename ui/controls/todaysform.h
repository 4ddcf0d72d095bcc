// The control panel's "Today's models" group: the switches models since 2017 added to
// softmax(QKᵀ/√d_k + M)·V, in the order the pipeline applies them — the K/V heads (GQA),
// QK-norm, the positions (sinusoidal, none or RoPE and its θ), ALiBi, soft-capping, a sliding
// window and a sink. A value a switch cannot take is refused with a note saying why, and a
// change of the heads, d_k or the softmax axis that would make a switch invalid changes it and
// says so: the group never hands out a config checkConfig refuses.
#pragma once

#include "engine/options.h"

#include <QGroupBox>

#include <functional>
#include <optional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace attn::ui {

class DModelSpin;

// Object names of the controls: kvHeadsCombo, qkNormCheck, positionalCombo, ropeThetaEdit,
// alibiCheck, softcapCheck, softcapEdit, windowCheck, windowSpin, sinkCheck, sinkEdit,
// todaysNote.
class TodaysForm : public QGroupBox {
    Q_OBJECT

public:
    // The values a switch takes when the user turns it on for the first time.
    static constexpr float kFirstSoftcap = 50.0f; // Gemma 2's attention cap
    static constexpr int kFirstWindow = 4;
    static constexpr float kFirstSink = 0.0f; // "softmax off by one"

    explicit TodaysForm(QWidget* parent = nullptr);

    // `config` with today's switches as the controls show them (kvHeads, qkNorm,
    // positional, ropeTheta, alibi, softcap, window, sink); no sink unless the softmax runs
    // over the keys.
    [[nodiscard]] Config apply(Config config) const;
    // Shows today's switches of `config`, for its heads, d_k and softmax axis; emits
    // nothing. K/V heads that do not divide the heads become the nearest divisor.
    void setConfig(const Config& config);
    // The user changed the heads (or d_model changed them): K/V heads that no longer
    // divide them become the nearest divisor, and RoPE with an odd d_k gives way to no
    // positions; the note says so. Emits nothing (the heads' change is the request's).
    void setHeads(int heads, int dK);
    // The softmax axis: the sink needs the keys, so it is off and disabled (with a tooltip
    // saying why) on the other axes, and comes back on the way back. Emits nothing.
    void setAxis(SoftmaxAxis axis);
    // A trained model's window: only the switches it can take (the cap, the window and the
    // sink); its K/V heads, QK-norm and positions are its weights' and are hidden.
    void showModelSwitchesOnly();

signals:
    // The user changed a switch.
    void switchesChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void rebuildKvHeads(int preferred);
    void showPositionalItems();
    void showEnabled();
    void positionalChosen();
    void alibiToggled(bool on);
    void userChanged();
    // Reads a number typed into `edit`: accepted by `valid`, it replaces `value` and the
    // switches change; refused, the edit shows `value` again and the note says `why`.
    void readNumber(QLineEdit* edit, float& value, const std::function<bool(double)>& valid,
                    const std::function<QString(const QString&)>& why);
    void setNote(const QString& text);
    void showNumbers();
    void showSinkHelp();

    int heads_ = Config{}.heads;
    int dK_ = Config{}.dK();
    SoftmaxAxis axis_ = SoftmaxAxis::Keys;
    float ropeTheta_ = kDefaultRopeTheta;
    float softcap_ = kFirstSoftcap;
    float sink_ = kFirstSink;
    bool sinkBeforeAxis_ = false; // the sink switch, restored on the way back to the keys

    QLabel* kvHeadsLabel_;
    QComboBox* kvHeadsCombo_;
    QCheckBox* qkNormCheck_;
    QLabel* positionalLabel_;
    QComboBox* positionalCombo_;
    QLabel* ropeThetaLabel_;
    QLineEdit* ropeThetaEdit_;
    QCheckBox* alibiCheck_;
    QCheckBox* softcapCheck_;
    QLineEdit* softcapEdit_;
    QCheckBox* windowCheck_;
    DModelSpin* windowSpin_;
    QCheckBox* sinkCheck_;
    QLineEdit* sinkEdit_;
    QLabel* noteLabel_;
};

} // namespace attn::ui
