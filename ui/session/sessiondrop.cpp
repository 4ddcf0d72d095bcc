#include "sessiondrop.h"

#include "attentionfileopener.h"
#include "modelopener.h"
#include "sessionfiles.h"

#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMessageBox>
#include <QMimeData>
#include <QWidget>

namespace attn::ui {
namespace {

// The session file a drag carries, or an empty string.
QString droppedSession(const QMimeData* mime)
{
    if (!mime->hasUrls() || mime->urls().size() != 1 || !mime->urls().first().isLocalFile())
        return {};
    const QString path = mime->urls().first().toLocalFile();
    return path.endsWith(QStringLiteral(".attnscope"), Qt::CaseInsensitive) ? path : QString();
}

} // namespace

SessionDrop::SessionDrop(QWidget* target, SessionFiles* sessions, ModelOpener* models)
    : QObject(target), target_(target), sessions_(sessions), models_(models)
{
    target->setAcceptDrops(true);
    target->installEventFilter(this);
}

bool SessionDrop::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != target_ || (event->type() != QEvent::DragEnter && event->type() != QEvent::Drop))
        return false;
    auto* drop = static_cast<QDropEvent*>(event); // QDragEnterEvent is one too
    // Attention files (.npz, .npy, .safetensors) open in a model window each, and model
    // folders (each holding a config.json) and GGUF files in a language model window each: a drop
    // of both kinds opens every one.
    const bool files = !droppedAttentionFiles(drop->mimeData()).isEmpty();
    const bool models = models_ && !droppedModels(drop->mimeData()).isEmpty();
    if (files || models) {
        drop->acceptProposedAction();
        if (event->type() == QEvent::Drop) {
            dropAttentionFiles(target_, drop->mimeData());
            if (models)
                models_->openDropped(drop->mimeData());
        }
        return true;
    }
    const QString path = droppedSession(drop->mimeData());
    if (path.isEmpty())
        return false;
    drop->acceptProposedAction();
    if (event->type() == QEvent::Drop) {
        QString error;
        if (!sessions_->open(path, &error))
            QMessageBox::warning(target_, tr("Cannot Open Session"), error);
    }
    return true;
}

} // namespace attn::ui
