#include "attentionfileopener.h"

#include "attention/attentionfile.h"
#include "engine/options.h"
#include "modelwindow.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QUrl>

#include <array>
#include <new>

namespace attn::ui {
namespace {

// Where the last attention file was opened from: the next dialog starts there.
QString& lastDirectory()
{
    static QString directory = QDir::homePath();
    return directory;
}

void showOpenError(QWidget* parent, const QString& reason)
{
    auto* box =
        new QMessageBox(QMessageBox::Warning,
                        QCoreApplication::translate("AttentionFile", "Cannot Open Attention File"),
                        reason, QMessageBox::Ok, parent);
    box->setObjectName("attentionFileError");
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

bool isAttentionFileName(const QString& path)
{
    static const std::array suffixes{QStringLiteral("npz"), QStringLiteral("npy"),
                                     QStringLiteral("safetensors")};
    const QString suffix = QFileInfo(path).suffix();
    return std::ranges::any_of(
        suffixes, [&](const QString& s) { return suffix.compare(s, Qt::CaseInsensitive) == 0; });
}

QString attentionFileFilter()
{
    return QCoreApplication::translate("AttentionFile",
                                       "Attention files (*.npz *.npy *.safetensors)") +
           QStringLiteral(";;") + QCoreApplication::translate("AttentionFile", "All files (*)");
}

ModelWindow* openAttentionFile(QWidget* parent, const QString& path)
{
    std::shared_ptr<const AttentionStack> stack;
    try {
        stack = attn::openAttentionFile(QDir::toNativeSeparators(path).toStdString());
    } catch (const InputError& error) {
        showOpenError(parent, QString::fromStdString(error.what()));
        return nullptr;
    } catch (const std::bad_alloc&) {
        showOpenError(parent, QCoreApplication::translate("AttentionFile",
                                                          "%1: not enough memory to open it.")
                                  .arg(QDir::toNativeSeparators(path)));
        return nullptr;
    }
    auto* window = new ModelWindow(std::move(stack), parent);
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

void openAttentionFilesInteractively(QWidget* parent)
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        parent, QCoreApplication::translate("AttentionFile", "Open Attention"), lastDirectory(),
        attentionFileFilter());
    if (!paths.isEmpty())
        lastDirectory() = QFileInfo(paths.first()).absolutePath();
    for (const QString& path : paths)
        openAttentionFile(parent, path);
}

QStringList droppedAttentionFiles(const QMimeData* mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls())
        return paths;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && isAttentionFileName(url.toLocalFile()))
            paths << url.toLocalFile();
    return paths;
}

bool dropAttentionFiles(QWidget* parent, const QMimeData* mime)
{
    const QStringList paths = droppedAttentionFiles(mime);
    for (const QString& path : paths)
        openAttentionFile(parent, path);
    return !paths.isEmpty();
}

} // namespace attn::ui
