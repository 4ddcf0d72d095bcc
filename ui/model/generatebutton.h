// The model window's "Let It Write…" button (beside its text): opens, or raises, the Let It
// Write dialog (generatedialog.h). Disabled for an encoder (BERT), which fills in [MASK].
#pragma once

#include "dialogbutton.h"

#include <QPushButton>

namespace attn::ui {

class GenerateDialog;
class LanguageModelWindow;

// The window's "Let It Write…" button: opens (or raises) its dialog.
class GenerateButton : public DialogButton {
    Q_OBJECT

public:
    explicit GenerateButton(LanguageModelWindow* window);
    // The dialog, once opened (nullptr before).
    [[nodiscard]] GenerateDialog* dialog() const;

protected:
    void retranslate() override;
};

} // namespace attn::ui
