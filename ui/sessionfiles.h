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

class QMenu;
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

    // The window's session changed: write the autosave shortly.
    void markChanged();
    // A clean exit: the autosave is no longer needed.
    void closeCleanly();
    [[nodiscard]] QString autosavePath() const { return autosavePath_; }
    // After an abnormal exit an autosave is left behind: offer to restore it. Returns
    // true when it was restored.
    bool offerRecovery();

signals:
    void pathChanged(const QString& path);

private:
    void addRecent(const QString& path);
    void rebuildRecentMenu();
    void writeAutosave();
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
};

} // namespace attn::ui
