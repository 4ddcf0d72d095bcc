// The View toolbar over the heatmaps: which sequence of the batch, the colour scale, and
// the view's toggles.
#pragma once

#include "colormap.h"

#include <QToolBar>

class QComboBox;
class QLabel;

namespace attn {
struct Result;
}

namespace attn::ui {

class WindowActions;
struct ViewOptions;

// Object name: viewToolBar.
class ViewToolBar : public QToolBar {
    Q_OBJECT

public:
    ViewToolBar(const WindowActions& actions, QWidget* parent = nullptr);

    // One entry per sequence of `result`, its first words; `current` chosen.
    void setSequences(const Result& result, int current);
    // The sequence and colour scale of `view`, without a signal.
    void showView(const ViewOptions& view);
    // Texts in the interface language.
    void retranslate();

signals:
    void sequenceChosen(int sequence);
    void colormapChosen(ColormapName name);

private:
    QLabel* sequenceLabel_;
    QComboBox* sequenceCombo_;
    QComboBox* colormapCombo_;
};

} // namespace attn::ui
