// Session files in the window: open, save, recent files, and the autosave that brings
// work back after a crash.
#pragma once

#include "session.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>

class QLocale;
class QMenu;
class QMessageBox;
class QSettings;
class QWidget;

namespace attn::ui {

class SessionFiles : public QObject {
    Q_OBJECT

public:
    static constexpr int kMaxRecent = 8;
    static constexpr int kAutosaveDelayMs = 1500;

    // `current` reads the window's session, `apply` shows one. Recent files and the
    // autosave live beside `settings` (null: the application's settings and data folder).
    SessionFiles(QWidget* window, QSettings* settings, std::function<Session()> current,
                 std::function<void(const Session&)> apply);

    // Dialogs, with a message box on failure; the window's state is untouched then.
    void openInteractively();
    bool save();
    bool saveAs();

    // Without dialogs: for recent files, drag and drop, and tests. Return false and
    // set `error` on failure, changing nothing.
    bool open(const QString& path, QString* error = nullptr);
    bool saveTo(const QString& path, QString* error = nullptr);

    [[nodiscard]] QString currentPath() const { return path_; }
    [[nodiscard]] QStringList recentFiles() const;
    // Fills `menu` with the recent files (rebuilt whenever they change).
    void attachRecentMenu(QMenu* menu);

    // The window's session changed: write the autosave shortly (not while the question
    // of a recovery waits for its answer: the autosave then still holds the lost work).
    void markChanged();
    // A clean exit: the autosave is no longer needed.
    void closeCleanly();
    [[nodiscard]] QString autosavePath() const { return autosavePath_; }

    // True from the start when the last run left its autosave behind (it did not close
    // normally), until offerRecovery's question is answered.
    [[nodiscard]] bool recoveryPending() const { return recoveryPending_; }
    // Asks, window-modal and without blocking, whether to restore the autosave, its time
    // written as `locale` writes dates, and emits recoveryAnswered. Yes shows the saved
    // session; Discard removes the file (the window keeps what it shows: the work last left
    // on purpose). `followUp`, if not empty, is a sentence added to the question (what opens
    // once it is answered). Does nothing when no recovery is pending.
    void offerRecovery(const QLocale& locale, const QString& followUp = {});
    // The open question, or null.
    [[nodiscard]] QMessageBox* recoveryQuestion() const { return question_; }

signals:
    void pathChanged(const QString& path);
    // The session was written to a file the user chose (Save, Save As): work left on purpose.
    void saved();
    // The autosave was written: whatever else should survive a crash is saved now too.
    void autosaved();
    // The recovery question was answered; `restored` when the saved session is shown.
    void recoveryAnswered(bool restored);

private:
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void writeAutosave();
    void answerRecovery(bool restore);
    [[nodiscard]] QSettings& settings() const;

    QWidget* window_;
    QSettings* settings_;
    std::unique_ptr<QSettings> ownSettings_; // when no settings were given
    std::function<Session()> current_;
    std::function<void(const Session&)> apply_;
    QString path_;
    QString autosavePath_;
    QTimer autosaveTimer_;
    QMenu* recentMenu_ = nullptr;
    bool recoveryPending_ = false;
    bool changedWhilePending_ = false; // the window's work changed while the question waited
    QMessageBox* question_ = nullptr;
};

} // namespace attn::ui
