// Opening language models in the window: File → Open Model…, model folders dropped on the
// main window. openModel() maps the weights and the first run makes every layer's
// attention: both on a worker thread (LatestWorker), so the window stays responsive, and
// a newer request replaces an older one still going. Each model opens in a
// LanguageModelWindow of its own; a folder that cannot be used gets a message box naming
// the file and the fault, and nothing else changes.
#pragma once

#include "latestworker.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>

class QMimeData;
class QWidget;

namespace attn::ui {

class LanguageModelWindow;

// Whether `path` is a folder holding a config.json (a model's folder, whatever its kind).
[[nodiscard]] bool isModelFolder(const QString& path);
// The local model folders among dropped `mime` data.
[[nodiscard]] QStringList droppedModelFolders(const QMimeData* mime);

class ModelOpener : public QObject {
    Q_OBJECT

public:
    // Windows and messages are children of `parent`.
    explicit ModelOpener(QWidget* parent);
    ~ModelOpener() override;

    // Opens the model in `folder` on the worker.
    void open(const QString& folder);
    // Asks for a folder (OpenModelDialog) and opens it.
    void openInteractively();
    // Opens the dropped model folders; false (nothing done) when the data holds none, so a
    // drop handler can go on.
    bool openDropped(const QMimeData* mime);

    // Nothing is being opened (tests).
    [[nodiscard]] bool idle() const { return opening_ == 0; }

signals:
    void opened(attn::ui::LanguageModelWindow* window);
    // The folder could not be opened; `message` names the file and the fault.
    void failed(const QString& message);

private:
    struct OpenJob {
        QString folder;
        std::uint64_t number = 0;
    };
    std::function<void()> compute(const OpenJob& job, const std::atomic<bool>& cancel);
    void showError(const QString& message);

    QWidget* parent_;
    int opening_ = 0; // requests not answered yet, GUI thread only
    std::uint64_t newestJob_ = 0;
    // Last: destroyed first, it cancels the running job and joins its thread.
    LatestWorker<OpenJob> worker_;
};

} // namespace attn::ui
