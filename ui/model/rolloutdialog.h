// Rollout… in a language model's window: attention rollout (Abnar & Zuidema 2020; core/
// attention/headscores: each layer's mean head plus the identity, rows normalised, and
// their product from the first layer to the last) of the window's run, as a T × T heatmap
// with the tokens on both axes, and the row the mouse points at as a bar per input token:
// how much of each token flows into that position at the top. A click pins the row (and a
// click on the pinned row lets it follow the mouse again). It follows the window's runs on
// a worker of its own, the newest run winning. Most telling for BERT, whose rows look
// both ways.
#pragma once

#include "dialogbutton.h"

#include "experimentexport.h"
#include "latestworker.h"
#include "models/languagemodel.h"

#include <QDialog>
#include <QPushButton>

#include <cstdint>
#include <memory>

class QLabel;

namespace attn::ui {

class LanguageModelWindow;
class RolloutBars;
class ScoreHeatmap;

class RolloutDialog : public QDialog {
    Q_OBJECT

public:
    explicit RolloutDialog(QWidget* parent = nullptr);
    ~RolloutDialog() override;

    // Rolls out the attention of `run`.
    void follow(std::shared_ptr<const ModelRun> run);
    // The row the bars show (the mouse's, the pinned one, or at first the last position).
    void showRow(int row);
    // Pins `row` (−1: the bars follow the mouse again).
    void pinRow(int row);

    [[nodiscard]] ScoreHeatmap* heatmap() const { return heatmap_; }
    [[nodiscard]] RolloutBars* bars() const { return bars_; }
    // The rollout shown (empty while the first is computed) and its run.
    [[nodiscard]] const Matrix& rollout() const { return rollout_; }
    [[nodiscard]] const ModelRun* run() const { return run_.get(); }
    [[nodiscard]] int row() const { return row_; }
    [[nodiscard]] int pinnedRow() const { return pinned_; }
    [[nodiscard]] bool computing() const { return computing_; }

    // The figure (PNG, SVG, PDF: the heatmap and the row shown) or the numbers (CSV: a row
    // a (query, key); JSON: the command line's "rollout").
    [[nodiscard]] std::optional<QByteArray> exportBytes(FigureFormat format, QString* error) const;
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // A new rollout is shown.
    void shown();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Job {
        std::shared_ptr<const ModelRun> run;
        std::uint64_t number = 0;
    };
    std::function<void()> compute(Job& job, const std::atomic<bool>& cancel);
    void display(std::shared_ptr<const ModelRun> run, Matrix rollout);
    [[nodiscard]] QStringList tokens() const;
    void chooseAndExport();
    void retranslateUi();

    QLabel* intro_;
    ScoreHeatmap* heatmap_;
    RolloutBars* bars_;
    QLabel* status_;
    QPushButton* export_;
    std::shared_ptr<const ModelRun> run_;
    Matrix rollout_;
    int row_ = -1;
    int pinned_ = -1;
    bool computing_ = false;
    std::uint64_t newest_ = 0;
    LatestWorker<Job> worker_; // last: joined first
};

// The window's Rollout… button: opens (or raises) the dialog and keeps it following the
// window's runs.
class RolloutButton : public DialogButton {
    Q_OBJECT

public:
    explicit RolloutButton(LanguageModelWindow* window);
    // The dialog, once opened (nullptr before).
    [[nodiscard]] RolloutDialog* dialog() const
    {
        return static_cast<RolloutDialog*>(openedDialog());
    }

protected:
    void retranslate() override;
};

} // namespace attn::ui
