// Find Induction Heads… in a language model's window: the induction test (core/models/
// inductiontest: N random ordinary tokens after the model's first template token, then the
// same N again) run under the window's switches and knock-outs on a worker (Cancel stops
// it), and every head scored as TransformerLens's head detector scores it (core/attention/
// headscores): three L × H heatmaps, previous-token, duplicate-token and induction, a cell's
// tooltip saying its score; a sentence naming the strongest heads; and each head's tile in
// the model view marked with its role (P, D, I) where its strongest score reaches
// kMarkThreshold. The marks go when the window's switches change (the text does not
// matter: the test draws its own tokens).
//
// BERT runs it too: its scores are defined the same way ([CLS] before the copies, [SEP]
// after), but its attention looks both ways, so the intro says that induction is what a
// model predicting the next token learns and BERT's scores are for comparison.
#pragma once

#include "dialogbutton.h"

#include "attention/headscores.h"
#include "experimentexport.h"
#include "latestworker.h"
#include "models/languagemodel.h"

#include <QDialog>
#include <QPushButton>

#include <cstdint>
#include <memory>

class QLabel;
class QProgressBar;
class QSpinBox;

namespace attn::ui {

class LanguageModelWindow;
class ScoreHeatmap;

class HeadRolesDialog : public QDialog {
    Q_OBJECT

public:
    // A head's role is marked where its strongest score is at least this.
    static constexpr double kMarkThreshold = 0.4;
    // N at first (bounded by the model's positions).
    static constexpr int kFirstCopy = 20;

    explicit HeadRolesDialog(LanguageModelWindow* window);
    ~HeadRolesDialog() override;

    // Runs the test with the spin boxes' N and seed under the window's switches.
    void run();
    void cancel();
    // The window showed another run: under other switches the marks go and the scores
    // shown are said to be of the switches before.
    void follow();

    [[nodiscard]] QSpinBox* copySpin() const { return copy_; }
    [[nodiscard]] QSpinBox* seedSpin() const { return seed_; }
    // previous-token, duplicate-token, induction
    [[nodiscard]] ScoreHeatmap* heatmap(DetectorRole role) const;
    [[nodiscard]] bool running() const { return running_; }
    // The scores shown and the test's run (null before the first).
    [[nodiscard]] const HeadScores* scores() const { return scores_.get(); }
    [[nodiscard]] const ModelRun* testRun() const { return run_.get(); }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QString statusText() const;

    // The figure (PNG, SVG, PDF: the three heatmaps) or the numbers (CSV: a row a head;
    // JSON: the command line's "head_scores") of the scores shown.
    [[nodiscard]] std::optional<QByteArray> exportBytes(FigureFormat format, QString* error) const;
    // Writes them to `path` (its suffix the format): "" or the reason it failed.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // New scores are shown.
    void finished();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Job {
        std::shared_ptr<const LanguageModel> model; // null: stop the running test
        std::vector<int> ids;
        ModelSwitches switches;
        std::uint64_t number = 0;
    };
    std::function<void()> work(Job& job, const std::atomic<bool>& cancel);
    void display(std::shared_ptr<const ModelRun> run, std::shared_ptr<const HeadScores> scores);
    void showError(const QString& message);
    void markTiles();
    [[nodiscard]] QString summary() const;
    void chooseAndExport();
    void retranslateUi();

    LanguageModelWindow* window_;
    QLabel* intro_;
    QLabel* copyLabel_;
    QSpinBox* copy_;
    QLabel* seedLabel_;
    QSpinBox* seed_;
    QPushButton* runButton_;
    QPushButton* cancel_;
    QPushButton* export_;
    QProgressBar* progress_;
    ScoreHeatmap* previous_;
    ScoreHeatmap* duplicate_;
    ScoreHeatmap* induction_;
    QLabel* summary_;
    QLabel* status_;
    std::shared_ptr<const ModelRun> run_;
    std::shared_ptr<const HeadScores> scores_;
    int shownCopy_ = 0;
    int shownSeed_ = 0;
    int pendingSeed_ = 0; // the newest run's
    bool running_ = false;
    std::uint64_t newest_ = 0;
    LatestWorker<Job> worker_; // last: joined first
};

// The window's Find Induction Heads… button: opens (or raises) the dialog and tells it
// when the window shows another run.
class HeadRolesButton : public DialogButton {
    Q_OBJECT

public:
    explicit HeadRolesButton(LanguageModelWindow* window);
    // The dialog, once opened (nullptr before).
    [[nodiscard]] HeadRolesDialog* dialog() const
    {
        return static_cast<HeadRolesDialog*>(openedDialog());
    }

protected:
    void retranslate() override;
};

} // namespace attn::ui
