// The menu bar, built from the window's actions: File, Edit, View, Presets, Lab, Help.
#pragma once

#include <QCoreApplication>

class QMainWindow;
class QMenu;

namespace attn::ui {

class SessionFiles;
class WindowActions;

class WindowMenus {
    Q_DECLARE_TR_FUNCTIONS(attn::ui::WindowMenus)

public:
    // Adds the menus to `window`'s menu bar; Open Recent is `sessions`', and `presets` is
    // the Presets menu.
    WindowMenus(QMainWindow* window, const WindowActions& actions, SessionFiles* sessions,
                QMenu* presets);

    // Titles in the interface language.
    void retranslate();

private:
    QMenu* file_;
    QMenu* recent_;
    QMenu* edit_;
    QMenu* view_;
    QMenu* colormap_;
    QMenu* language_;
    QMenu* lab_;
    QMenu* help_;
};

} // namespace attn::ui
