#include "modelcomparebutton.h"

#include "languagemodelwindow.h"
#include "modelcomparedialog.h"
#include "modelcomparison.h"
#include "switchesform.h"

#include <QComboBox>
#include <QEvent>

#include <memory>

namespace attn::ui {

ModelCompareButton::ModelCompareButton(LanguageModelWindow* window)
    : DialogButton(
          window, "compareAB", [window] { return new ModelCompareDialog(window); },
          [window](QDialog& dialog) {
              static_cast<ModelCompareDialog&>(dialog).follow(
                  std::make_shared<const ModelRun>(window->shownRun()), window->text());
          })
{
    connect(window->switchesForm(), &SwitchesForm::switchesChanged, this,
            &ModelCompareButton::updateEnabled);
    connect(window->scopeCombo(), &QComboBox::currentIndexChanged, this,
            &ModelCompareButton::updateEnabled);
    // setSwitches() changes the form without its signal.
    connect(window, &LanguageModelWindow::runShown, this, &ModelCompareButton::updateEnabled);
    updateEnabled();
    retranslate();
}

void ModelCompareButton::updateEnabled()
{
    setEnabled(
        !modelDepartures(modelWindow()->switches(), modelWindow()->model().info()).isEmpty());
}

ModelCompareDialog* ModelCompareButton::dialog() const
{
    return static_cast<ModelCompareDialog*>(openedDialog());
}

void ModelCompareButton::retranslate()
{
    setText(tr("Compare A/&B…"));
    setToolTip(tr("The textbook model (A) beside the switched one (B): heads, B − A and both "
                  "predictions"));
}

} // namespace attn::ui
