// Under the switches of a language model's window: the heads knocked out, how many, what
// their outputs become (0, or their mean over the text's positions) and a button that
// restores them all. Heads are knocked out on the model view it is attached to (ModelGrid's
// context menu and K), which draws them crossed out.
#pragma once

#include "models/languagemodel.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;

namespace attn::ui {
class ModelGrid;
}

namespace attn::ui {

class KnockOutBar : public QWidget {
    Q_OBJECT

public:
    explicit KnockOutBar(QWidget* parent = nullptr);

    // The grid whose requests knock heads out, and which shows them.
    void attach(ModelGrid* grid);

    [[nodiscard]] const std::vector<HeadIndex>& heads() const { return heads_; }
    [[nodiscard]] KnockOutMode mode() const;
    // Both at once, without changed() (a window given its switches).
    void set(std::vector<HeadIndex> heads, KnockOutMode mode);

signals:
    // The heads or the mode changed: the model runs again.
    void changed();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    // Head (layer, head) out or back; head −1: every head of the layer.
    void request(int layer, int head, bool out);
    void show();

    QLabel* label_;
    QComboBox* mode_;
    QPushButton* restore_;
    ModelGrid* grid_ = nullptr;
    std::vector<HeadIndex> heads_; // sorted, each once
};

} // namespace attn::ui
