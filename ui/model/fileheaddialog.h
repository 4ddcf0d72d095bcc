// One head of an attention file, or its layer's mean head, large: the head view (hover,
// zoom, values in cells, row and column sums) with the head's statistics and what they
// reveal, and its export (a figure with title and caption, or its numbers). Imported
// weights are taken as stored, so rows that do not sum to 1 are a finding, not an error.
#pragma once

#include "attention/attentionstack.h"
#include "engine/statistics.h"
#include "headdialog.h"
#include "modelfigure.h"

#include <memory>

#include <QStringList>

class QCheckBox;
class QLabel;
class QPushButton;

namespace attn::ui {

class HeadCompareDialog;

// The head's figures, one line: shape, row sums, entropy, largest weights.
[[nodiscard]] QString fileHeadSummary(const HeadStatistics& stats);
// What the figures reveal, most important first: rows that do not sum to 1, NaN and
// infinite weights, saturated or uniform rows. Empty when nothing stands out.
[[nodiscard]] QStringList fileHeadFindings(const HeadStatistics& stats);

class FileHeadDialog : public HeadDialog {
    Q_OBJECT

public:
    explicit FileHeadDialog(QWidget* parent = nullptr);

    // Shows head (layer, head) of `sequence`, with its statistics and findings.
    void showHead(std::shared_ptr<const AttentionStack> stack, int layer, int sequence, int head,
                  ColormapName colormap);
    // Shows what `selection` names of layer `layer` (a head, or the mean of its heads) as
    // showHead does. The dialog shares `stack`: a model window may replace its own while the
    // dialog is hidden, and a language change or export still reads what is shown.
    void showSelection(std::shared_ptr<const AttentionStack> stack, int layer, int sequence,
                       const FileSelection& selection, ColormapName colormap);
    [[nodiscard]] int layer() const { return layer_; }
    // The head shown; −1 for the mean head.
    [[nodiscard]] int head() const { return head_; }
    [[nodiscard]] const FileSelection& selection() const { return selection_; }
    // Grouped-query attention: `kvHeads` K/V heads (0: one a query head). The summary
    // then says which K/V head the head shown reads (ModelGrid::kvSharing).
    void setKvHeads(int kvHeads);

    // Writes what is shown to `path`, by its suffix: a figure (.png, .svg, .pdf) with the
    // dialog's colours, values in cells and sums, or the numbers (.csv, .npy, .json);
    // an empty string, else the reason.
    [[nodiscard]] QString exportTo(const QString& path) const;
    [[nodiscard]] const HeadStatistics& statistics() const { return stats_; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QStringList findings() const { return fileHeadFindings(stats_); }
    // Compare…: opens (or brings up) the comparison of what is shown with another head of
    // the stack, by default the same head in the next layer.
    void openCompare();
    // The comparison dialog, once Compare… made it; nullptr before.
    [[nodiscard]] HeadCompareDialog* compareDialog() const { return compareDialog_; }

signals:
    // The dialog was hidden (closed): the mouse no longer points at any of its cells.
    void hidden();

protected:
    void changeEvent(QEvent* event) override;
    // Hides the comparison too (the model window may replace the stack while both are
    // hidden), and emits hidden().
    void hideEvent(QHideEvent* event) override;

private:
    void applyStyle();
    void exportInteractively();
    void retranslate();

    QCheckBox* annotate_;
    QCheckBox* sums_;
    QPushButton* export_;
    QPushButton* compare_;
    HeadCompareDialog* compareDialog_ = nullptr;
    QLabel* summary_;
    QLabel* findings_;
    HeatmapStyle style_;
    HeadStatistics stats_;
    std::shared_ptr<const AttentionStack> stack_;
    int sequence_ = 0;
    FileSelection selection_;
    int layer_ = -1;
    int head_ = -1;
    int kvHeads_ = 0;
};

} // namespace attn::ui
