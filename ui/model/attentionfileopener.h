// Opening attention files in the window: File → Open Attention…, files dropped on the
// main window. Each file opens in a ModelWindow of its own; a file that cannot be opened
// gets a message box naming it and the fault, and nothing else changes.
#pragma once

#include <QString>
#include <QStringList>

class QMimeData;
class QWidget;

namespace attn::ui {

class ModelWindow;

// Whether `path` names an attention file by its suffix (.npz, .npy, .safetensors).
[[nodiscard]] bool isAttentionFileName(const QString& path);
// The file dialog's filter, translated: "Attention files (*.npz *.npy *.safetensors)".
[[nodiscard]] QString attentionFileFilter();

// Opens `path` in a new ModelWindow (a child window of `parent`) and shows it. A file that
// cannot be read shows a warning (object name "attentionFileError", window-modal, not
// blocking) with core's reason, which names the file and the fault, and returns null.
ModelWindow* openAttentionFile(QWidget* parent, const QString& path);
// Asks for files (several may be chosen) and opens each.
void openAttentionFilesInteractively(QWidget* parent);

// The local attention files among dropped `mime` data.
[[nodiscard]] QStringList droppedAttentionFiles(const QMimeData* mime);
// Opens them; false (nothing done) when the data holds none, so a drop handler can go on.
bool dropAttentionFiles(QWidget* parent, const QMimeData* mime);

} // namespace attn::ui
