// A session file dropped on a widget (the main window) opens as File → Open Session…
// does; a file that cannot be read says why in a message box.
#pragma once

#include <QObject>

class QWidget;

namespace attn::ui {

class SessionFiles;

class SessionDrop : public QObject {
    Q_OBJECT

public:
    // Accepts drops on `target` and opens them through `sessions`.
    SessionDrop(QWidget* target, SessionFiles* sessions);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* target_;
    SessionFiles* sessions_;
};

} // namespace attn::ui
