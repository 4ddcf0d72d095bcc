// "Compare": two configurations of the same text and seed side by side — A, the textbook
// formula, and B, the switches the learner changed — and their difference B − A in
// diverging colours. Each side has its own engine on its own worker thread, so dragging τ
// recomputes only that side; Export… writes the three heatmaps as PNG, SVG or PDF.
#pragma once

#include "comparefigure.h"
#include "engine/engine.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QPushButton;

namespace attn::ui {

class ComputeController;
class HeatmapView;
class SwitchesForm;

class CompareDialog : public QDialog {
    Q_OBJECT

public:
    enum class Side { A, B };

    explicit CompareDialog(QWidget* parent);

    // Takes the text, seed, sizes and embedding of `current` (the main window's request)
    // for both sides, sets A to the textbook switches (keeping the mask kind) and B to the
    // switches of `current`, and computes both.
    void setBase(const attn::Request& current);
    // Takes the text, seed, sizes and embedding of `current` but keeps both sides'
    // switches, e.g. when the main window's sentence changes while the dialog is open.
    void setSharedInput(const attn::Request& current);

    // What each side computes: the shared input with its switches.
    [[nodiscard]] Request request(Side side) const;
    // Sets one side's switches (the shared input stays) and computes it.
    void setSwitches(Side side, const Config& switches);

    // Copies A's switches to B / exchanges the two sides (the buttons).
    void copyAToB();
    void swapAB();

    // The head shown (−1: the mean of the heads) and the sequence of the batch (chosen
    // as soon as the text's sequences are known).
    [[nodiscard]] int head() const;
    void setHead(int head);
    [[nodiscard]] int sequence() const;
    void setSequence(int sequence);

    // The newest result of each side (its weights at least), and what is shown from them.
    [[nodiscard]] const Result& result(Side side) const;
    [[nodiscard]] const Comparison& comparison() const { return comparison_; }
    // True when both sides' results are those of request(A) and request(B) and shown.
    [[nodiscard]] bool upToDate() const;
    // True when upToDate() and both results are complete, which the export needs.
    [[nodiscard]] bool complete() const;
    // True while either side computes.
    [[nodiscard]] bool busy() const;

    // The colours of A and B (and of the export): the main window's colormap and colour
    // scale, so that a comparison looks like the heatmaps it was opened from. B − A keeps
    // its diverging colours.
    void setColourScale(ColormapName colormap, bool logScale);

    [[nodiscard]] HeatmapView* view(int index) const; // 0 A, 1 B, 2 B − A
    [[nodiscard]] QString captionText() const;

    // Writes the comparison to `path` (.png, .svg or .pdf), atomically. Returns an empty
    // string on success, else a translated one-line reason.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // The heatmaps show a new comparison.
    void comparisonChanged();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // A side's place in the arrays below: 0 for A, 1 for B.
    [[nodiscard]] static int sideIndex(Side side) { return side == Side::A ? 0 : 1; }

    // The two sides (comparesides.cpp).
    // After the shared input changed: the heads, the shared line and both sides' notes
    // again, and both sides computed.
    void showInputAndSubmit();
    void submit(Side side);
    void receive(Side side, const Result& result);
    void showFailure(Side side, const QString& message);
    void showNotes();
    void showSharedInput();

    // The choosers and the three heatmaps (compareheatmaps.cpp).
    void showComparison();
    void applyStyles();
    // The style of view `index` (0 A, 1 B, 2 B − A) without the hover.
    [[nodiscard]] HeatmapStyle style(int index) const;
    // Gives the three views one cell size, the largest all fit; whether it changed.
    bool alignCells();
    void rebuildHeads();
    void rebuildSequences(int batch);
    void hoverCell(int row, int column);

    // The dialog (comparedialog.cpp).
    void showBusy();
    void updateEnabled();
    void chooseFileAndExport();
    void retranslateUi();
    [[nodiscard]] ComparisonOptions exportOptions() const;

    Request base_;
    Result results_[2];
    QString failures_[2];
    Comparison comparison_;
    bool shown_ = false; // comparison_ is of results_
    int hoverRow_ = -1;  // the cell under the mouse in any of the three views, or −1
    int hoverColumn_ = -1;
    int wantedSequence_ = 0; // kept while the batch is not known yet
    ColormapName colormap_ = ColormapName::Viridis;
    bool logScale_ = false;
    double cellSize_ = 0; // the three views' common cell (alignCells)

    ComputeController* controllers_[2];
    SwitchesForm* forms_[2];
    QLabel* sharedLabel_;
    QPushButton* copyButton_;
    QPushButton* swapButton_;
    QLabel* headLabel_;
    QComboBox* headCombo_;
    QLabel* sequenceLabel_;
    QComboBox* sequenceCombo_;
    QLabel* busyLabel_;
    HeatmapView* views_[3];
    QLabel* captionLabel_;
    QLabel* hoverLabel_;
    QLabel* statusLabel_;
    QPushButton* exportButton_;
};

} // namespace attn::ui
