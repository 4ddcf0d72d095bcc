// What the main window's status bar shows while language models open (ModelOpener):
// "Opening gpt2…" beside a busy bar, and how many more folders wait their turn. Hidden
// when nothing opens.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;

namespace attn::ui {

class ModelOpener;

class OpeningIndicator : public QWidget {
    Q_OBJECT

public:
    explicit OpeningIndicator(ModelOpener* opener, QWidget* parent = nullptr);

    // What it says ("Opening gpt2…"); empty when nothing opens.
    [[nodiscard]] QString text() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();

    ModelOpener* opener_;
    QLabel* label_;
    QProgressBar* bar_;
};

} // namespace attn::ui
