// A session file dropped on a widget (the main window) opens as File → Open Session…
// does; a file that cannot be read says why in a message box. Attention files and model
// folders dropped there open in windows of their own.
#pragma once

#include <QObject>

class QWidget;

namespace attn::ui {

class ModelOpener;
class SessionFiles;

class SessionDrop : public QObject {
    Q_OBJECT

public:
    // Accepts drops on `target` and opens them through `sessions` (model folders through
    // `models`).
    SessionDrop(QWidget* target, SessionFiles* sessions, ModelOpener* models);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* target_;
    SessionFiles* sessions_;
    ModelOpener* models_;
};

} // namespace attn::ui
