// The d_model spin box: any whole number may be typed, and one out of the range is
// brought into it when the typing is finished, with a record of what was typed, so that
// the window can say what it changed instead of refusing keystrokes in silence.
#pragma once

#include <QSpinBox>

#include <optional>

namespace attn::ui {

class DModelSpin : public QSpinBox {
    Q_OBJECT

public:
    explicit DModelSpin(QWidget* parent = nullptr);

    // The number typed before it was brought into the range, once; then nothing until
    // the next such number.
    [[nodiscard]] std::optional<qint64> takeClamped();
    [[nodiscard]] bool hasClamped() const { return clamped_.has_value(); }

protected:
    QValidator::State validate(QString& input, int& position) const override;
    void fixup(QString& input) const override;

private:
    mutable std::optional<qint64> clamped_; // fixup() is const in QAbstractSpinBox
};

} // namespace attn::ui
