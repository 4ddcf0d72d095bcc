// What a language model would write next: the most probable next tokens at one position
// of the text, each a row with its token, a bar as long as its probability and the
// probability in per cent. Which position is the window's business (the last one, or the
// query row the mouse points at).
//
// For a masked language model (BERT, setMaskedLanguageModel) the rows are the fill-ins the
// masked-LM head gives at a position instead: a tab per [MASK] of the text (setMasks) picks
// which one is shown; with no [MASK] the panel says to type one.
#pragma once

#include "models/languagemodel.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTabBar;

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
    // Shows no rows: a masked language model's text without [MASK] (the hint to type one).
    void clearPredictions();

    // The model fills in [MASK]s (BERT) rather than predicting the next token: the titles
    // say so, and the tabs of setMasks() show.
    void setMaskedLanguageModel(bool masked);
    [[nodiscard]] bool maskedLanguageModel() const { return masked_; }
    // The positions of the text's [MASK]s, a tab each (the one chosen kept where it still
    // is); none: the hint to type one (noMaskHint()) instead of rows.
    void setMasks(const std::vector<int>& positions);
    [[nodiscard]] const std::vector<int>& masks() const { return masks_; }
    // The position of the [MASK] whose tab is chosen, −1 without any.
    [[nodiscard]] int chosenMask() const;
    void chooseMask(int index);
    [[nodiscard]] QTabBar* maskTabs() const { return tabs_; }
    // "Type [MASK] in the sentence to see what BERT would fill in".
    [[nodiscard]] static QString noMaskHint();
    // What shows instead of rows for a model without an output head (ModelInfo::predicts).
    [[nodiscard]] static QString noHeadMessage();

    [[nodiscard]] const std::vector<Prediction>& predictions() const;
    // The position shown, −1 without predictions.
    [[nodiscard]] int position() const { return position_; }
    [[nodiscard]] bool atLast() const { return last_; }
    [[nodiscard]] QString title() const;

    // A token as a row shows it: in quotes, with its spaces visible (“␣mat”).
    [[nodiscard]] static QString displayToken(const std::string& label);

signals:
    // Another [MASK]'s tab was chosen: its position.
    void maskChosen(int position);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();

    QLabel* title_;
    QTabBar* tabs_;
    PredictionBars* bars_;
    std::vector<int> masks_;
    bool masked_ = false;
    int position_ = -1;
    QString token_;
    QString message_;
    bool last_ = true;
};

} // namespace attn::ui
