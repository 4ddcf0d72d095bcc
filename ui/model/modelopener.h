// Opening language models in the window: File → Open Model…, model folders and GGUF files
// dropped on the main window. openModel() maps the weights and the first run makes every layer's
// attention: both on a worker thread, so the window stays responsive while it says what
// it opens (openingText(), shown by OpeningIndicator). Folders asked for while one opens
// wait their turn: a drop of several opens every one. Each model opens in a
// LanguageModelWindow of its own; a folder that cannot be used gets a message box naming
// the file and the fault, and nothing else changes.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

#include <atomic>
#include <functional>

class QMimeData;
class QWidget;

namespace attn::ui {

class LanguageModelWindow;

// Whether `path` is a folder holding a config.json (a model's folder, whatever its kind).
[[nodiscard]] bool isModelFolder(const QString& path);
// Whether `path` is a GGUF file: named *.gguf, or beginning with the magic "GGUF" whatever
// its name (Ollama's blobs are sha256-… without an extension).
[[nodiscard]] bool isGgufFile(const QString& path);
// A model folder or a GGUF file: what openModel opens.
[[nodiscard]] bool isModelPath(const QString& path);
// The local model folders and GGUF files among dropped `mime` data.
[[nodiscard]] QStringList droppedModels(const QMimeData* mime);

class ModelOpener : public QObject {
    Q_OBJECT

public:
    // Windows and messages are children of `parent`.
    explicit ModelOpener(QWidget* parent);
    ~ModelOpener() override;

    // Opens the model in `folder` (a model folder or a GGUF file) on the worker, after those
    // asked for before.
    void open(const QString& folder);
    // Asks for a folder (OpenModelDialog) and opens it.
    void openInteractively();
    // Opens the dropped model folders and GGUF files; false (nothing done) when the data holds
    // none, so a drop handler can go on.
    bool openDropped(const QMimeData* mime);

    // Nothing is being opened.
    [[nodiscard]] bool idle() const { return waiting_.isEmpty(); }
    // The models being opened, in turn: the first opens now, the others wait.
    [[nodiscard]] QStringList opening() const;

signals:
    void opened(attn::ui::LanguageModelWindow* window);
    // The folder could not be opened; `message` names the file and the fault.
    void failed(const QString& message);
    // opening() changed: a folder was asked for, opened or refused.
    void openingChanged();

private:
    // On the worker thread; what it returns is called on the GUI thread.
    std::function<void()> compute(const QString& folder);
    void finish(const std::function<void()>& show);
    void showError(const QString& message);

    QWidget* parent_;
    QStringList waiting_; // folders asked for and not answered yet, GUI thread only
    std::atomic<bool> cancel_{false};
    // One thread, so folders open one after the other. Last: destroyed first, it waits
    // for the running job, which the cancel flag stops between layers.
    QThreadPool pool_;
};

} // namespace attn::ui
