// The window's actions: the one table of their texts, status tips and shortcuts, the
// colour scales and the languages, built once and shared by menus and toolbar.
#pragma once

#include "settings.h"

#include <map>

class QAction;
class QActionGroup;
class QObject;

namespace attn::ui {

// Every action of the window; the table in windowactions.cpp gives each its text,
// status tip and shortcut.
enum class ActionId {
    OpenSession,
    OpenAttention,
    OpenModel,
    SaveSession,
    SaveSessionAs,
    ExportFigure,
    ExportNumbers,
    Quit,
    CopyFigure,
    SharedScale,
    Annotate,
    MarginSums,
    LogScale,
    DkSweep,
    Compare,
    StepByStep,
    EmbeddingEditor,
    HowToRead,
    About,
    AboutQt,
};

// The checkable actions that switch one member of ViewOptions on and off.
struct ViewToggle {
    ActionId id;
    bool ViewOptions::*member;
};
inline constexpr ViewToggle kViewToggles[] = {
    {ActionId::SharedScale, &ViewOptions::sharedScale},
    {ActionId::Annotate, &ViewOptions::annotate},
    {ActionId::MarginSums, &ViewOptions::marginSums},
    {ActionId::LogScale, &ViewOptions::logScale},
};

// The actions are children of `parent`; the window connects them.
class WindowActions {
public:
    explicit WindowActions(QObject* parent);

    [[nodiscard]] QAction* action(ActionId id) const { return actions_.at(id); }
    // One checkable action per colour scale (data: the ColormapName) and per language
    // (data: its code).
    [[nodiscard]] QActionGroup* colormaps() const { return colormaps_; }
    [[nodiscard]] QActionGroup* languages() const { return languages_; }

    // Checks the toggles and the colour scale `view` has, without a signal.
    void showView(const ViewOptions& view);
    // Texts in the interface language; `language` is checked.
    void retranslate(const QString& language);

private:
    std::map<ActionId, QAction*> actions_;
    QActionGroup* colormaps_;
    QActionGroup* languages_;
};

} // namespace attn::ui
