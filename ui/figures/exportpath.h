// Where an export goes: the save dialog every export of the window opens, and the folder
// it remembers.
#pragma once

#include "figureformat.h"

#include <QString>

#include <functional>
#include <span>

class QWidget;

namespace attn::ui {

// Where the last export of this run went (the Pictures folder at first): every export
// dialog starts there.
[[nodiscard]] QString& lastExportDirectory();

// A save dialog offering `formats` (the first is the default) and suggesting
// `suggestedName` in lastExportDirectory(); a name typed without a suffix takes the
// chosen filter's. Empty when cancelled; otherwise the folder is remembered.
[[nodiscard]] QString chooseExportPath(QWidget* parent, const QString& title,
                                       const QString& suggestedName,
                                       std::span<const FigureFormat> formats);

// A dialog's Export… button: chooseExportPath(), then `write` to the path chosen; the
// reason `write` returns, if not empty, is shown in a warning titled `title`.
void chooseAndExport(QWidget* parent, const QString& title, const QString& suggestedName,
                     std::span<const FigureFormat> formats,
                     const std::function<QString(const QString& path)>& write);

} // namespace attn::ui
