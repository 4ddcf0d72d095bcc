// What the control panel's groups share: compact form layouts, labels with buddies, and
// each control's help (core/lab/controlhelp) as its tooltip and status tip.
#pragma once

#include "lab/controlhelp.h"

#include <QString>

#include <initializer_list>

class QFormLayout;
class QLabel;
class QWidget;

namespace attn::ui {

// `control`'s help in the interface language.
[[nodiscard]] QString helpText(ControlHelp control);
// The same words as tooltip (wrapped, so rich text) and as status tip (one line).
void setHelp(std::initializer_list<QWidget*> widgets, const QString& text);
// A label for `buddy`, in `buddy`'s parent.
[[nodiscard]] QLabel* createLabel(QWidget* buddy);
// A form that fits a dock about 320 px wide beside the heatmaps.
[[nodiscard]] QFormLayout* createFormLayout(QWidget* parent);

} // namespace attn::ui
