#include "generatebutton.h"

#include "generatedialog.h"
#include "languagemodelwindow.h"

#include <QEvent>

namespace attn::ui {

GenerateButton::GenerateButton(LanguageModelWindow* window)
    : DialogButton(
          window, "generate", [window] { return new GenerateDialog(window); },
          [](QDialog& dialog) { static_cast<GenerateDialog&>(dialog).follow(); })
{
    setEnabled(window->model().info().causal); // an encoder fills in [MASK] instead
    retranslate();
}

GenerateDialog* GenerateButton::dialog() const
{
    return static_cast<GenerateDialog*>(openedDialog());
}

void GenerateButton::retranslate()
{
    setText(tr("Let It &Write…"));
    setToolTip(isEnabled() ? tr("Let the model write on from this text, token by token, with "
                                "your switches and beside the model as trained")
                           : tr("An encoder (BERT) fills in [MASK] tokens; it does not write on"));
}

} // namespace attn::ui
