// The model window's "Let It Write…" button (beside its text): opens, or raises, the Let It
// Write dialog (generatedialog.h). Disabled for an encoder (BERT), which fills in [MASK].
#pragma once

#include <QPushButton>

namespace attn::ui {

class GenerateDialog;
class LanguageModelWindow;

// The window's "Let It Write…" button: opens (or raises) its dialog.
class GenerateButton : public QPushButton {
    Q_OBJECT

public:
    explicit GenerateButton(LanguageModelWindow* window);
    [[nodiscard]] GenerateDialog* dialog() const { return dialog_; }
    void openDialog();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    LanguageModelWindow* window_;
    GenerateDialog* dialog_ = nullptr;
};

} // namespace attn::ui
