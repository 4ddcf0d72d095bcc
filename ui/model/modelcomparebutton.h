// The language model window's Compare A/B… button: enabled while the switches depart from
// the model's textbook formula, it opens a ModelCompareDialog of the window's run and keeps
// it following the window (each run the window shows, of a new text or new switches).
#pragma once

#include <QPushButton>

namespace attn::ui {

class LanguageModelWindow;
class ModelCompareDialog;

class ModelCompareButton : public QPushButton {
    Q_OBJECT

public:
    explicit ModelCompareButton(LanguageModelWindow* window);

    // The dialog, once opened (nullptr before).
    [[nodiscard]] ModelCompareDialog* dialog() const { return dialog_; }
    // Opens (or raises) the dialog with the window's run.
    void openDialog();

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateEnabled();
    void follow();
    void retranslate();

    LanguageModelWindow* window_;
    ModelCompareDialog* dialog_ = nullptr;
};

} // namespace attn::ui
