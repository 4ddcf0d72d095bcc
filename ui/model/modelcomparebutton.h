// The language model window's Compare A/B… button: enabled while the switches depart from
// the model's textbook formula, it opens a ModelCompareDialog of the window's run and keeps
// it following the window (each run the window shows, of a new text or new switches).
#pragma once

#include "dialogbutton.h"

#include <QPushButton>

namespace attn::ui {

class LanguageModelWindow;
class ModelCompareDialog;

class ModelCompareButton : public DialogButton {
    Q_OBJECT

public:
    explicit ModelCompareButton(LanguageModelWindow* window);
    // The dialog, once opened (nullptr before).
    [[nodiscard]] ModelCompareDialog* dialog() const;

protected:
    void retranslate() override;

private:
    // Enabled where the switches depart from the textbook formula.
    void updateEnabled();
};

} // namespace attn::ui
