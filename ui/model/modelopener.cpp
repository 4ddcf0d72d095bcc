#include "modelopener.h"

#include "engine/engine.h"
#include "languagemodelwindow.h"
#include "models/families.h"
#include "models/gguf/ggufmodel.h"
#include "models/languagemodel.h"
#include "openmodeldialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
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

bool isGgufFile(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isFile())
        return false;
    // A ".gguf" that is not one goes to the opener too, which says what it is not.
    return info.suffix().compare(QLatin1String("gguf"), Qt::CaseInsensitive) == 0 ||
           attn::isGgufFile(path.toStdString());
}

bool isModelPath(const QString& path)
{
    return isModelFolder(path) || isGgufFile(path);
}

QStringList droppedModels(const QMimeData* mime)
{
    QStringList models;
    if (!mime || !mime->hasUrls())
        return models;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && isModelPath(url.toLocalFile()))
            models << url.toLocalFile();
    return models;
}

ModelOpener::ModelOpener(QWidget* parent) : QObject(parent), parent_(parent)
{
    pool_.setMaxThreadCount(1);
    pool_.setExpiryTimeout(-1); // one thread for the opener's life
}

ModelOpener::~ModelOpener()
{
    cancel_ = true;
    pool_.clear();
    pool_.waitForDone();
}

void ModelOpener::open(const QString& folder)
{
    waiting_ << folder;
    emit openingChanged();
    pool_.start([this, folder] {
        const std::function<void()> show = compute(folder);
        QMetaObject::invokeMethod(
            this, [this, show] { finish(show); }, Qt::QueuedConnection);
    });
}

QStringList ModelOpener::opening() const
{
    QStringList names;
    for (const QString& folder : waiting_)
        names << QString::fromStdString(modelName(QDir::toNativeSeparators(folder).toStdString()));
    return names;
}

void ModelOpener::finish(const std::function<void()>& show)
{
    waiting_.removeFirst(); // the folders are answered in the order they were asked for
    if (show)
        show();
    emit openingChanged();
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
    const QStringList folders = droppedModels(mime);
    for (const QString& folder : folders)
        open(folder);
    return !folders.isEmpty();
}

// On the worker thread: the model is opened and run once there; the window is made on
// the GUI thread by what this returns. Every folder asked for is answered, in turn.
std::function<void()> ModelOpener::compute(const QString& folder)
{
    if (cancel_)
        return {};
    try {
        std::shared_ptr<const LanguageModel> model =
            openModel(QDir::toNativeSeparators(folder).toStdString());
        // The model's own first text (a [MASK] for BERT) under its own textbook formula.
        const QString text = QString::fromUtf8(LanguageModelWindow::firstText(model->info()));
        auto run = std::make_shared<ModelRun>(model->run(
            text.toStdString(), LanguageModelWindow::firstSwitches(model->info()), &cancel_));
        return [this, model, run, text] {
            auto* window = new LanguageModelWindow(model, std::move(*run), text, parent_);
            window->show();
            window->raise();
            window->activateWindow();
            emit opened(window);
        };
    } catch (const Cancelled&) {
        return {};
    } catch (const std::bad_alloc&) {
        const QString message =
            QCoreApplication::translate("Model", "%1: not enough memory to open the model.")
                .arg(QDir::toNativeSeparators(folder));
        return [this, message] { showError(message); };
    } catch (const std::exception& error) { // ModelError names the file and the fault
        const QString message = QString::fromStdString(error.what());
        return [this, message] { showError(message); };
    }
}

void ModelOpener::showError(const QString& message)
{
    auto* box = new QMessageBox(QMessageBox::Warning,
                                QCoreApplication::translate("Model", "Cannot Open Model"), message,
                                QMessageBox::Ok, parent_);
    box->setObjectName("modelError");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit failed(message);
}

} // namespace attn::ui
