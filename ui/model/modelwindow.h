// The window of one attention file: the model view (every head of a sequence as a
// thumbnail, layers as rows), the head patterns beside it, sequence and layer selectors,
// and the head view for the head one opens. A top-level window of its own, one a file.
//
// A large stack's thumbnails and head patterns are computed on a worker thread that runs
// only the newest sequence's job (LatestWorker): the window opens at once, says what it
// waits for, and a newer sequence cancels the older one's job.
#pragma once

#include "attention/attentionstack.h"
#include "attention/headpatterns.h"
#include "colormap.h"
#include "latestworker.h"

#include <QPoint>
#include <QWidget>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSplitter;
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
    // Shows `stack` instead (a model run again under other switches or on another text):
    // the chosen head, the sequence and an open head view stay where they are when the
    // new stack has them.
    void setStack(std::shared_ptr<const AttentionStack> stack);
    // A part of another window (a language model's): no title line of its own.
    void setEmbedded();
    // A model's grouped-query attention: `kvHeads` K/V heads (0: one a query head). The
    // tiles' tooltips, the hover line and the head view say which one a head reads.
    void setKvHeads(int kvHeads);
    // Gives the grid the room to show all its tiles, as large as the height lets them grow,
    // the table the rest (at least 360 pixels).
    void fitGrid();
    [[nodiscard]] int sequence() const { return sequence_; }
    void setSequence(int sequence);
    // The chosen head (layer, head): outlined in the grid, selected in the table.
    [[nodiscard]] int layer() const;
    [[nodiscard]] int head() const;
    void setCurrentHead(int layer, int head);
    // Opens head (layer, head) of the shown sequence in the head view.
    void openHead(int layer, int head);
    // Opens the mean of layer `layer`'s heads in the head view, as a head.
    void openMean(int layer);
    // Orders the patterns table by likeness to the chosen head.
    void showHeadsLikeCurrent();

    [[nodiscard]] ModelGrid* grid() const { return grid_; }
    [[nodiscard]] QTableView* patternsTable() const { return table_; }
    [[nodiscard]] HeadPatternsModel* patternsModel() const { return patterns_; }
    // The head view, once a head was opened; else null.
    [[nodiscard]] FileHeadDialog* headDialog() const { return headDialog_; }
    [[nodiscard]] QString hoverText() const;
    // The query row the mouse points at in a tile of the grid or in the head view; −1 when
    // none.
    [[nodiscard]] int hoveredQuery() const { return hoveredQuery_; }
    // The thumbnails of a large stack are computed on the worker; meanwhile the grid says
    // so and this is true.
    [[nodiscard]] bool thumbnailsPending() const;
    // The head patterns of a large stack are computed on the worker, after the thumbnails;
    // meanwhile the table is empty and this is true.
    [[nodiscard]] bool patternsPending() const { return patternsPending_; }

    // Writes the chosen layer's numbers (by the suffix: .json, .csv, .npy) or the chosen
    // head's figure (.png, .svg, .pdf) to `path`; an empty string, else the reason.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // hoveredQuery() changed.
    void queryHovered(int query);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The head view, made on first use, its hover followed as the grid's.
    void makeHeadDialog();
    // What the worker computes for one sequence: its thumbnails, then its patterns, each
    // when asked for. The job holds the stack itself: the window may close while it runs.
    struct SequenceJob {
        std::shared_ptr<const AttentionStack> stack;
        int sequence = 0;
        bool thumbnails = false;
        bool patterns = false;
        std::uint64_t number = 0;
    };

    void showSequence();
    // On the worker thread.
    std::function<void()> run(const SequenceJob& job, const std::atomic<bool>& cancel);
    void showThumbnails(std::vector<Thumbnail> thumbnails);
    // Names the tile the mouse or the keys are on, (−1, −1) for none, under the grid.
    void showHover(int layer, int head);
    void showPatterns(std::vector<HeadPatterns> patterns);
    void exportNumbers();
    void exportFigure();
    void selectTableRow(int layer, int head);
    void updateLayerCombo();
    void fillCombos();
    void setHoveredQuery(int query);
    // The room the grid's scroll area gives it, with both scroll bars' room kept free so
    // that a bar coming or going does not change it.
    [[nodiscard]] QSize gridRoom() const;
    // The width the head patterns table needs to show every column without scrolling.
    [[nodiscard]] int tableWidth() const;
    void retranslateUi();

    std::shared_ptr<const AttentionStack> stack_;
    int sequence_ = 0;
    ModelGrid* grid_;
    QScrollArea* scroll_ = nullptr;
    QSplitter* splitter_ = nullptr;
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
    QPushButton* meanButton_;
    QPushButton* numbersButton_;
    QPushButton* figureButton_;
    FileHeadDialog* headDialog_ = nullptr;
    QPoint hovered_{-1, -1}; // the tile showHover() names
    int hoveredQuery_ = -1;
    int kvHeads_ = 0;
    bool patternsPending_ = false;
    std::uint64_t newestJob_ = 0; // GUI thread only
    // Last: destroyed first, it cancels the running job and joins its thread before
    // anything the job reports to goes.
    LatestWorker<SequenceJob> worker_;
};

} // namespace attn::ui
