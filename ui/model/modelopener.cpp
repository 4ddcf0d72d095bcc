#include "modelopener.h"

#include "engine.h"
#include "languagemodel.h"
#include "languagemodelwindow.h"
#include "openmodeldialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>

#include <memory>
#include <new>

namespace attn::ui {

bool isModelFolder(const QString& path)
{
    return QFileInfo(path).isDir() && QFileInfo(QDir(path).filePath("config.json")).isFile();
}

QStringList droppedModelFolders(const QMimeData* mime)
{
    QStringList folders;
    if (!mime || !mime->hasUrls())
        return folders;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && isModelFolder(url.toLocalFile()))
            folders << url.toLocalFile();
    return folders;
}

ModelOpener::ModelOpener(QWidget* parent)
    : QObject(parent), parent_(parent),
      worker_(
          [this](OpenJob& job, const std::atomic<bool>& cancel) { return compute(job, cancel); })
{}

ModelOpener::~ModelOpener() = default;

void ModelOpener::open(const QString& folder)
{
    ++opening_;
    worker_.submit({folder, ++newestJob_});
}

void ModelOpener::openInteractively()
{
    auto* dialog = new OpenModelDialog(parent_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { open(dialog->folder()); });
    dialog->open();
}

bool ModelOpener::openDropped(const QMimeData* mime)
{
    const QStringList folders = droppedModelFolders(mime);
    for (const QString& folder : folders)
        open(folder);
    return !folders.isEmpty();
}

// On the worker thread: the model is opened and run once there; the window is made on
// the GUI thread from what the job posts. A newer request supersedes this one (only the
// newest is reported), so a drop of several folders opens the last.
std::function<void()> ModelOpener::compute(const OpenJob& job, const std::atomic<bool>& cancel)
{
    const auto post = [this](auto show) {
        return [this, show = std::move(show)]() mutable {
            QMetaObject::invokeMethod(this, std::move(show), Qt::QueuedConnection);
        };
    };
    const QString text = QString::fromUtf8(LanguageModelWindow::kFirstText);
    try {
        std::shared_ptr<const LanguageModel> model =
            openModel(QDir::toNativeSeparators(job.folder).toStdString());
        auto run = std::make_shared<ModelRun>(model->run(text.toStdString(), {}, &cancel));
        return post([this, model, run, text] {
            opening_ = 0;
            auto* window = new LanguageModelWindow(model, std::move(*run), text, parent_);
            window->show();
            window->raise();
            window->activateWindow();
            emit opened(window);
        });
    } catch (const Cancelled&) {
        return {};
    } catch (const std::bad_alloc&) {
        const QString message =
            QCoreApplication::translate("Model", "%1: not enough memory to open the model.")
                .arg(QDir::toNativeSeparators(job.folder));
        return post([this, message] { showError(message); });
    } catch (const std::exception& error) { // ModelError names the file and the fault
        const QString message = QString::fromStdString(error.what());
        return post([this, message] { showError(message); });
    }
}

void ModelOpener::showError(const QString& message)
{
    opening_ = 0;
    auto* box = new QMessageBox(QMessageBox::Warning,
                                QCoreApplication::translate("Model", "Cannot Open Model"), message,
                                QMessageBox::Ok, parent_);
    box->setObjectName("modelError");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit failed(message);
}

} // namespace attn::ui
