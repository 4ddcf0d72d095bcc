// A language model window's experiment button (Compare A/B…, Logit Lens…, Which Heads
// Matter…, Find Induction Heads…, Rollout…, Let It Write…): the first click makes its dialog
// (a window of its own over the model's), every click shows and raises it; while it is
// shown it follows the window's runs. A family of buttons each with its text, its dialog
// and what following means for it.
#pragma once

#include <QPushButton>

#include <functional>

class QDialog;

namespace attn::ui {

class LanguageModelWindow;

class DialogButton : public QPushButton {
    Q_OBJECT

public:
    // Shows (making it the first time) and raises the dialog, then lets it follow.
    void openDialog();

protected:
    // When a dialog follows the window's runs: while it is shown (and on opening), or
    // whenever it exists (it keeps marks on the window's view up to date while hidden).
    enum class Follow { WhileShown, Always };
    // `name` is the button's object name; `make` makes the dialog; `follow` (may be empty)
    // tells the dialog of the window's run: when the window shows one, and on opening.
    // The subclass's constructor calls its retranslate().
    DialogButton(LanguageModelWindow* window, const char* name, std::function<QDialog*()> make,
                 std::function<void(QDialog&)> follow, Follow when = Follow::WhileShown);

    [[nodiscard]] QDialog* openedDialog() const { return dialog_; }
    [[nodiscard]] LanguageModelWindow* modelWindow() const { return window_; }
    // The button's text and tooltip in the interface's language.
    virtual void retranslate() = 0;
    void changeEvent(QEvent* event) override;

private:
    void follow();

    LanguageModelWindow* window_;
    std::function<QDialog*()> make_;
    std::function<void(QDialog&)> follow_;
    Follow when_;
    QDialog* dialog_ = nullptr;
};

} // namespace attn::ui
