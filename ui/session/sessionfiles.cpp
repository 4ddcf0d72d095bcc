#include "sessionfiles.h"

#include <QAbstractButton>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QWidget>

#include <utility>

namespace attn::ui {
namespace {

constexpr const char* kRecentKey = "session/recent";

QString fileFilter()
{
    return SessionFiles::tr("AttnScope sessions (*.attnscope)");
}

} // namespace

SessionFiles::SessionFiles(QWidget* window, QSettings* settings, std::function<Session()> current,
                           std::function<void(const Session&)> apply)
    : QObject(window), window_(window), settings_(settings), current_(std::move(current)),
      apply_(std::move(apply))
{
    // The autosave sits beside the settings file, so a test's settings get their own.
    const QString folder = settings_
                               ? QFileInfo(settings_->fileName()).absolutePath()
                               : QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(folder);
    if (!settings_)
        ownSettings_ = std::make_unique<QSettings>();
    autosavePath_ = QDir(folder).filePath(QStringLiteral("autosave.attnscope"));
    autosaveTimer_.setSingleShot(true);
    autosaveTimer_.setInterval(kAutosaveDelayMs);
    connect(&autosaveTimer_, &QTimer::timeout, this, &SessionFiles::writeAutosave);
    // An autosave found at the start is the work of a run that did not close normally:
    // nothing may overwrite it before the user has been asked about it.
    recoveryPending_ = QFileInfo::exists(autosavePath_);
}

QSettings& SessionFiles::settings() const
{
    return settings_ ? *settings_ : *ownSettings_;
}

void SessionFiles::openInteractively()
{
    const QString start = path_.isEmpty() ? QDir::homePath() : QFileInfo(path_).absolutePath();
    const QString path =
        QFileDialog::getOpenFileName(window_, tr("Open Session"), start, fileFilter());
    if (path.isEmpty())
        return;
    QString error;
    if (!open(path, &error))
        QMessageBox::warning(window_, tr("Cannot Open Session"), error);
}

bool SessionFiles::open(const QString& path, QString* error)
{
    const std::optional<Session> session = loadSession(path, error);
    if (!session)
        return false; // loadSession named the problem; nothing was changed
    apply_(*session);
    path_ = path;
    addRecent(path);
    emit pathChanged(path_);
    return true;
}

bool SessionFiles::save()
{
    if (path_.isEmpty())
        return saveAs();
    QString error;
    if (saveTo(path_, &error))
        return true;
    QMessageBox::warning(window_, tr("Cannot Save Session"), error);
    return false;
}

bool SessionFiles::saveAs()
{
    const QString start =
        path_.isEmpty() ? QDir::home().filePath(tr("attention") + QStringLiteral(".attnscope"))
                        : path_;
    QFileDialog dialog(window_, tr("Save Session"), start, fileFilter());
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(QStringLiteral("attnscope"));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return false;
    QString error;
    if (saveTo(dialog.selectedFiles().constFirst(), &error))
        return true;
    QMessageBox::warning(window_, tr("Cannot Save Session"), error);
    return false;
}

bool SessionFiles::saveTo(const QString& path, QString* error)
{
    if (!saveSession(path, current_(), error))
        return false;
    path_ = path;
    addRecent(path);
    emit pathChanged(path_);
    emit saved();
    return true;
}

QStringList SessionFiles::recentFiles() const
{
    return settings().value(kRecentKey).toStringList();
}

void SessionFiles::addRecent(const QString& path)
{
    QStringList recent = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings().setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void SessionFiles::attachRecentMenu(QMenu* menu)
{
    recentMenu_ = menu;
    rebuildRecentMenu();
}

void SessionFiles::rebuildRecentMenu()
{
    if (!recentMenu_)
        return;
    recentMenu_->clear();
    const QStringList recent = recentFiles();
    for (int k = 0; k < recent.size(); ++k) {
        const QString path = recent[k];
        QAction* action = recentMenu_->addAction(
            QStringLiteral("&%1 %2").arg(k + 1).arg(QFileInfo(path).fileName()));
        action->setStatusTip(path);
        connect(action, &QAction::triggered, this, [this, path] {
            QString error;
            if (open(path, &error))
                return;
            QMessageBox::warning(window_, tr("Cannot Open Session"), error);
            if (!QFileInfo::exists(path)) { // gone: drop it from the list
                QStringList list = recentFiles();
                list.removeAll(path);
                settings().setValue(kRecentKey, list);
                rebuildRecentMenu();
            }
        });
    }
    if (recent.isEmpty())
        recentMenu_->addAction(tr("No recent sessions"))->setEnabled(false);
    recentMenu_->setEnabled(true);
}

void SessionFiles::markChanged()
{
    if (recoveryPending_) {
        changedWhilePending_ = true;
        return;
    }
    autosaveTimer_.start();
}

void SessionFiles::writeAutosave()
{
    if (recoveryPending_)
        return;
    // Best effort: a full disk must not interrupt the user; the next change tries again.
    if (saveSession(autosavePath_, current_(), nullptr))
        emit autosaved();
}

void SessionFiles::closeCleanly()
{
    autosaveTimer_.stop();
    if (question_) // closed before answering: the saved work stays for the next start
        return;
    QFile::remove(autosavePath_);
}

void SessionFiles::offerRecovery(const QLocale& locale, const QString& followUp)
{
    if (!recoveryPending_ || question_)
        return;
    if (!QFileInfo::exists(autosavePath_)) { // removed meanwhile: nothing to restore
        answerRecovery(false);
        return;
    }
    const QDateTime when = QFileInfo(autosavePath_).lastModified();
    QString text = tr("AttnScope did not close normally. Restore the sentence and switches you "
                      "had in the main window on %1? Discard keeps what you last saved or left "
                      "open.")
                       .arg(locale.toString(when, QLocale::ShortFormat));
    if (!followUp.isEmpty())
        text += QLatin1Char('\n') + followUp;
    question_ = new QMessageBox(QMessageBox::Question, tr("Restore Your Work?"), text,
                                QMessageBox::Yes | QMessageBox::Discard, window_);
    question_->setObjectName(QStringLiteral("restoreQuestion"));
    // The buttons named as the question names them, in the interface's language.
    question_->button(QMessageBox::Yes)->setText(tr("&Restore"));
    question_->button(QMessageBox::Discard)->setText(tr("&Discard"));
    question_->setDefaultButton(QMessageBox::Yes);
    question_->setAttribute(Qt::WA_DeleteOnClose);
    connect(question_, &QMessageBox::finished, this, [this](int) {
        const bool restore = question_->clickedButton() == question_->button(QMessageBox::Yes);
        question_ = nullptr; // deleted on close
        answerRecovery(restore);
    });
    question_->open();
}

void SessionFiles::answerRecovery(bool restore)
{
    recoveryPending_ = false;
    if (restore) {
        QString error;
        if (const std::optional<Session> session = loadSession(autosavePath_, &error)) {
            apply_(*session);
            emit recoveryAnswered(true);
            return;
        }
        // A damaged autosave is kept beside, not lost: the message says where.
        const QString kept = autosavePath_ + QStringLiteral(".damaged");
        QFile::remove(kept);
        QFile::rename(autosavePath_, kept);
        QMessageBox::warning(
            window_, tr("Cannot Restore"),
            tr("%1 It was kept as %2.").arg(error, QDir::toNativeSeparators(kept)));
    }
    QFile::remove(autosavePath_);
    // What the window did meanwhile is the work now: save it as any change is saved.
    if (std::exchange(changedWhilePending_, false))
        markChanged();
    emit recoveryAnswered(false);
}

} // namespace attn::ui
