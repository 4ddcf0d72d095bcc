// The window of one attention file: the model view (every head of a sequence as a
// thumbnail, layers as rows), the head patterns beside it, sequence and layer selectors,
// and the head view for the head one opens. A top-level window of its own, one a file.
#pragma once

#include "attentionstack.h"
#include "colormap.h"
#include "headpatterns.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <thread>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace attn::ui {

class FileHeadDialog;
class HeadPatternsModel;
class ModelGrid;

class ModelWindow : public QWidget {
    Q_OBJECT

public:
    explicit ModelWindow(std::shared_ptr<const AttentionStack> stack, QWidget* parent = nullptr);
    ~ModelWindow() override;

    [[nodiscard]] const AttentionStack& stack() const { return *stack_; }
    [[nodiscard]] int sequence() const { return sequence_; }
    void setSequence(int sequence);
    // The chosen head (layer, head): outlined in the grid, selected in the table.
    [[nodiscard]] int layer() const;
    [[nodiscard]] int head() const;
    void setCurrentHead(int layer, int head);
    // Opens head (layer, head) of the shown sequence in the head view.
    void openHead(int layer, int head);
    // Orders the patterns table by likeness to the chosen head.
    void showHeadsLikeCurrent();

    [[nodiscard]] ModelGrid* grid() const { return grid_; }
    [[nodiscard]] QTableView* patternsTable() const { return table_; }
    [[nodiscard]] HeadPatternsModel* patternsModel() const { return patterns_; }
    // The head view, once a head was opened; else null.
    [[nodiscard]] FileHeadDialog* headDialog() const { return headDialog_; }
    [[nodiscard]] QString hoverText() const;
    // The head patterns of a large stack are computed on a thread of their own, after the
    // grid shows; meanwhile the table is empty and this is true.
    [[nodiscard]] bool patternsPending() const { return patternsPending_; }

    // Writes the chosen layer's numbers (by the suffix: .json, .csv, .npy) or the chosen
    // head's figure (.png, .svg, .pdf) to `path`; an empty string, else the reason.
    [[nodiscard]] QString exportTo(const QString& path) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void showSequence();
    void computePatterns();
    void showPatterns(std::vector<HeadPatterns> patterns);
    // Cancels the patterns' thread, if any, and waits for it.
    void stopPatterns();
    void exportNumbers();
    void exportFigure();
    void selectTableRow(int layer, int head);
    void updateLayerCombo();
    void retranslateUi();

    std::shared_ptr<const AttentionStack> stack_;
    int sequence_ = 0;
    ModelGrid* grid_;
    HeadPatternsModel* patterns_;
    QTableView* table_;
    QComboBox* sequenceCombo_;
    QComboBox* layerCombo_;
    QComboBox* colormapCombo_;
    QLabel* sequenceLabel_;
    QLabel* layerLabel_;
    QLabel* colormapLabel_;
    QLabel* fileLabel_;
    QLabel* hover_;
    QLabel* patternsTitle_;
    QPushButton* likeButton_;
    QPushButton* openButton_;
    QPushButton* numbersButton_;
    QPushButton* figureButton_;
    FileHeadDialog* headDialog_ = nullptr;
    std::atomic<bool> cancelPatterns_{false};
    std::thread patternsThread_;
    bool patternsPending_ = false;
};

} // namespace attn::ui
