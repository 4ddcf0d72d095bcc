// The docks around the heatmaps: the controls on the left, the statistics below, and a
// preset's lesson on the right, hidden until a preset is chosen.
#pragma once

class QDockWidget;
class QMainWindow;
class QWidget;

namespace attn::ui {

class ControlPanel;
class PresetPanel;
class StatisticsPanel;

struct WindowDocks {
    // Adds the three docks to `window`. Object names: controlsDock, statisticsDock,
    // presetsDock.
    WindowDocks(QMainWindow* window, ControlPanel* controls, StatisticsPanel* statistics,
                PresetPanel* presets);
    // Titles in the interface language.
    void retranslate();

    QDockWidget* controls;
    QDockWidget* statistics;
    QDockWidget* presets;
};

// Shows `widget` (a dialog, a dock), raises it over its siblings and, when `activate`,
// gives its window the keyboard.
void bringForward(QWidget* widget, bool activate = true);

} // namespace attn::ui
