// Compare A/B of a language model window: the textbook model (A) beside the switched one
// (B) on the window's text. For a chosen layer and head (or the layer's mean head): A's
// heatmap, B's and B − A, A and B on one colour scale, the values of both and their
// difference on hover; below, both runs' top 10 next tokens (a masked language model's
// fill-ins for its first [MASK]) side by side, where each stands in the other, and in one
// sentence whether the top prediction changes. Export… writes the figure
// `attnscope compare --model` writes (modelcomparison.h).
//
// B is the window's run, handed over by follow() whenever the window shows one. A, the
// textbook run of the same text, is computed here on a worker thread that runs only the
// newest job (LatestWorker), and kept while the text's tokens stay the same: flipping a
// switch recomputes only B (the window's run). The same job ranks both predictions over
// the whole vocabulary, so that the GUI thread makes no logits; another layer or head
// only slices the runs.
#pragma once

#include "comparefigure.h"
#include "latestworker.h"
#include "modelfigure.h"
#include "models/languagemodel.h"
#include "models/predictioncomparison.h"

#include <QDialog>
#include <QStringList>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace attn::ui {

class HeatmapView;

class ModelCompareDialog : public QDialog {
    Q_OBJECT

public:
    explicit ModelCompareDialog(QWidget* parent = nullptr);
    ~ModelCompareDialog() override;

    // B is `switched`, the run of `text`. On the dialog's worker, A is computed for `text`
    // unless the last A has B's tokens, and both predictions are ranked in each other's
    // distribution (logits over the vocabulary); both are shown when that is done. The
    // dialog opens on the first layer the switches change (the one layer they act in, else
    // layer 0), and moves there when that layer changes.
    void follow(std::shared_ptr<const ModelRun> switched, const QString& text);

    // Which head both sides show: `selection` (Head or Mean) of layer `layer`.
    void setSelection(int layer, const FileSelection& selection);
    [[nodiscard]] int layer() const;
    [[nodiscard]] FileSelection selection() const;

    // A and B are shown, of the same tokens, with their predictions compared.
    [[nodiscard]] bool ready() const;
    // A or the comparison of the predictions is being computed (tests).
    [[nodiscard]] bool computing() const { return computing_; }
    [[nodiscard]] const ModelRun* textbookRun() const { return textbook_.get(); }
    [[nodiscard]] const ModelRun* switchedRun() const { return switched_.get(); }

    [[nodiscard]] HeatmapView* viewA() const { return viewA_; }
    [[nodiscard]] HeatmapView* viewB() const { return viewB_; }
    [[nodiscard]] HeatmapView* viewDifference() const { return viewDifference_; }
    [[nodiscard]] const Comparison& comparison() const { return comparison_; }
    [[nodiscard]] QTreeWidget* predictionsA() const { return predictionsA_; }
    [[nodiscard]] QTreeWidget* predictionsB() const { return predictionsB_; }
    // The sentence under the predictions: whether the top prediction changes.
    [[nodiscard]] QString summaryText() const;
    // What a hover on cell (row, column) of any of the three says.
    [[nodiscard]] QString cellText(int row, int column) const;

    // Writes the figure to `path` (its extension gives PNG, SVG or PDF); an empty string on
    // success, else a translated reason.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // A and B are shown anew (a new run, another head, or A computed).
    void compared();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct CompareJob {
        std::shared_ptr<const ModelRun> switched; // B
        std::shared_ptr<const ModelRun> textbook; // the last A, used again if of B's tokens
        std::string text;
        std::uint64_t number = 0;
    };

    // On the worker thread.
    std::function<void()> compute(const CompareJob& job, const std::atomic<bool>& cancel);
    void showComparison(std::shared_ptr<const ModelRun> textbook,
                        std::shared_ptr<const ModelRun> switched,
                        std::shared_ptr<const PredictionComparison> predictions);
    void fillHeads();
    void refresh();
    void fillPredictions();
    void chooseFileAndExport();
    void retranslate();

    QLabel* layerLabel_;
    QSpinBox* layer_;
    QLabel* headLabel_;
    QComboBox* head_;
    QLabel* status_;
    HeatmapView* viewA_;
    HeatmapView* viewB_;
    HeatmapView* viewDifference_;
    QLabel* hover_;
    QLabel* difference_;
    QLabel* titleA_;
    QLabel* titleB_;
    QTreeWidget* predictionsA_;
    QTreeWidget* predictionsB_;
    QLabel* summary_;
    QPushButton* exportButton_;
    QPushButton* closeButton_;

    std::shared_ptr<const ModelRun> switched_;
    std::shared_ptr<const ModelRun> textbook_;
    // The predictions of textbook_ and predicted_ compared; predicted_ is switched_ once
    // the newest job is done.
    std::shared_ptr<const PredictionComparison> predictions_;
    std::shared_ptr<const ModelRun> predicted_;
    Comparison comparison_;
    bool computing_ = false;
    bool filling_ = false;
    int firstSwitched_ = -1;      // the first layer B's switches change, when last followed
    std::uint64_t newestJob_ = 0; // GUI thread only
    // Last: destroyed first, it cancels the running job and joins its thread.
    LatestWorker<CompareJob> worker_;
};

} // namespace attn::ui
