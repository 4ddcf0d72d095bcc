// Where an export goes: the save dialog every export of the window opens, the folder it
// remembers, and the word that the file was saved.
#pragma once

#include "figureformat.h"

#include <QString>

#include <functional>
#include <span>

class QStatusBar;
class QWidget;

namespace attn::ui {

// Where every export dialog starts: the folder the last export went to, kept across runs
// (the settings' export/folder); before the first export, or when that folder is gone, the
// user's Pictures folder where it exists, else the home folder. Never the folder the
// application was started from.
[[nodiscard]] QString lastExportDirectory();
// Remembers `folder` as where the next export dialog starts.
void rememberExportDirectory(const QString& folder);

// The save dialog every export opens (QFileDialog::getSaveFileName's, as one object):
// titled `title`, starting at `start`, offering `filters` (`selectedFilter` in and out).
// It is raised and made active once shown: a window manager may map a new dialog under
// its window when another window had the focus a moment before (a head view just
// closed), and a modal dialog out of sight leaves every button dead. Empty when cancelled.
[[nodiscard]] QString askSavePath(QWidget* parent, const QString& title, const QString& start,
                                  const QString& filters, QString* selectedFilter = nullptr);

// A save dialog offering `formats` (the first is the default) and suggesting
// `suggestedName` in lastExportDirectory(); a name typed without a suffix takes the
// chosen filter's. Empty when cancelled; otherwise the folder is remembered.
[[nodiscard]] QString chooseExportPath(QWidget* parent, const QString& title,
                                       const QString& suggestedName,
                                       std::span<const FigureFormat> formats);

// A dialog's Export… button: chooseExportPath(), then `write` to the path chosen; the
// reason `write` returns, if not empty, is shown in a warning titled `title`, else the
// file is announced as saved (announceSaved).
void chooseAndExport(QWidget* parent, const QString& title, const QString& suggestedName,
                     std::span<const FigureFormat> formats,
                     const std::function<QString(const QString& path)>& write);

// How long "Saved …" stays.
inline constexpr int kSavedNoticeMs = 20'000;

// Says "Saved FILE · Open Folder" for kSavedNoticeMs at the bottom of the window `from`
// belongs to: in a main window's status bar, else in a status line added to the bottom of
// that window (its layout a box layout). Open Folder shows the folder in the desktop's file
// manager; the file's full path is the tooltip. Returns the status bar used (null when
// the window has no box layout to add one to).
QStatusBar* announceSaved(QWidget* from, const QString& path);

} // namespace attn::ui
