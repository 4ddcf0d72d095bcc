// Which Heads Matter… in a language model's window: every head knocked out alone, the change
// in the log-probability of one token where the model predicts (core/models/headimportance:
// the last position, or BERT's first [MASK]), as an L × H grid — red where the token loses,
// blue where it gains, the cell's tooltip saying by how much. The target is one of the run's
// top 10 there (the top 1 at first). A scan runs on a worker with a progress bar and Cancel;
// it scans the run the window showed when Scan was pressed, and says when the window has
// moved on since.
#pragma once

#include "dialogbutton.h"

#include "experimentexport.h"
#include "latestworker.h"
#include "models/headimportance.h"

#include <QDialog>
#include <QPushButton>

#include <cstdint>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QTableWidget;

namespace attn::ui {

class LanguageModelWindow;

class HeadImportanceDialog : public QDialog {
    Q_OBJECT

public:
    explicit HeadImportanceDialog(LanguageModelWindow* window);
    ~HeadImportanceDialog() override;

    // The window showed another run: the targets are its; a scan shown is marked stale.
    void follow();
    // Scans the window's run for the chosen target.
    void scan();
    // Stops a scan.
    void cancel();

    [[nodiscard]] QComboBox* targetCombo() const { return target_; }
    [[nodiscard]] QTableWidget* table() const { return table_; }
    // The scan shown (none before the first).
    [[nodiscard]] const HeadImportance* result() const { return shown_.get(); }
    [[nodiscard]] bool scanning() const { return scanning_; }
    [[nodiscard]] QString statusText() const;

    // The figure (PNG, SVG, PDF: the table as shown) or the numbers (CSV: a row a head;
    // JSON: the command line's "head_importance") of the scan shown.
    [[nodiscard]] std::optional<QByteArray> exportBytes(FigureFormat format, QString* error) const;
    // Writes them to `path` (its suffix the format): "" or the reason it failed.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    void finished();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Job {
        std::shared_ptr<const ModelRun> run; // null: stop the running scan
        int target = 0;
        std::uint64_t number = 0;
    };
    std::function<void()> work(Job& job, const std::atomic<bool>& cancel);
    void display(std::shared_ptr<const ModelRun> run, std::shared_ptr<const HeadImportance> scan);
    // The target combo's tokens (the chosen one kept while it is among them).
    void setTargets(const std::vector<Prediction>& predictions);
    // The target's id: the chosen one of the top 10, or the token typed (one token of the
    // model's vocabulary); none, with `*problem` saying why, otherwise.
    [[nodiscard]] std::optional<int> chosenTarget(QString* problem) const;
    void chooseAndExport();
    void retranslateUi();

    LanguageModelWindow* window_;
    QLabel* intro_;
    QLabel* targetLabel_;
    QComboBox* target_;
    QPushButton* scan_;
    QPushButton* cancel_;
    QPushButton* export_;
    QProgressBar* progress_;
    QTableWidget* table_;
    QLabel* status_;
    std::shared_ptr<const ModelRun> scanned_; // the run of the scan shown
    std::shared_ptr<const HeadImportance> shown_;
    bool scanning_ = false;
    bool cancelled_ = false;
    std::uint64_t newest_ = 0;
    LatestWorker<Job> worker_; // last: joined first
};

// The window's Which Heads Matter… button: opens (or raises) the dialog and keeps its
// targets those of the window's run.
class HeadImportanceButton : public DialogButton {
    Q_OBJECT

public:
    explicit HeadImportanceButton(LanguageModelWindow* window);
    // The dialog, once opened (nullptr before).
    [[nodiscard]] HeadImportanceDialog* dialog() const
    {
        return static_cast<HeadImportanceDialog*>(openedDialog());
    }

protected:
    void retranslate() override;
};

} // namespace attn::ui
