// What a language model would write next: the most probable next tokens at one position
// of the text, each a row with its token, a bar as long as its probability and the
// probability in per cent. Which position is the window's business (the last one, or the
// query row the mouse points at).
#pragma once

#include "languagemodel.h"

#include <QWidget>

#include <vector>

class QLabel;

namespace attn::ui {

class PredictionBars;

class PredictionPanel : public QWidget {
    Q_OBJECT

public:
    explicit PredictionPanel(QWidget* parent = nullptr);

    // The predictions after token `position` (“token” its readable label); `last`: the
    // position is the text's last, so they continue the text.
    void setPredictions(std::vector<Prediction> predictions, int position, const QString& token,
                        bool last);
    // Shows `message` instead (no run yet, or the run failed).
    void setMessage(const QString& message);

    [[nodiscard]] const std::vector<Prediction>& predictions() const;
    // The position shown, −1 without predictions.
    [[nodiscard]] int position() const { return position_; }
    [[nodiscard]] bool atLast() const { return last_; }
    [[nodiscard]] QString title() const;

    // A token as a row shows it: in quotes, with its spaces visible (“␣mat”).
    [[nodiscard]] static QString displayToken(const std::string& label);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();

    QLabel* title_;
    PredictionBars* bars_;
    int position_ = -1;
    QString token_;
    QString message_;
    bool last_ = true;
};

} // namespace attn::ui
