// The logit lens in a language model's window (Logit Lens…): the residual stream after each
// block read as the model's prediction (core/models/logitlens), a grid of blocks (rows) ×
// positions (columns), each cell the top token there, coloured by its probability
// (viridis, 0 to 1), hover for the top 5. The last row is the model's own prediction.
// It follows the window's runs (a switch, a knock-out, a new text) on a worker of its own,
// the newest run winning.
#pragma once

#include "dialogbutton.h"

#include "experimentexport.h"
#include "latestworker.h"
#include "models/logitlens.h"

#include <QDialog>
#include <QPushButton>

#include <cstdint>
#include <memory>

class QLabel;
class QTableWidget;

namespace attn::ui {

class LanguageModelWindow;

class LogitLensDialog : public QDialog {
    Q_OBJECT

public:
    explicit LogitLensDialog(QWidget* parent = nullptr);
    ~LogitLensDialog() override;

    // Reads every block of `run` (its model, ids and switches).
    void follow(std::shared_ptr<const ModelRun> run);

    [[nodiscard]] QTableWidget* table() const { return table_; }
    // The lens shown (empty while the first is read).
    [[nodiscard]] const LogitLens& lens() const { return lens_; }
    // A lens is being read (tests).
    [[nodiscard]] bool reading() const { return reading_; }

    // The figure (PNG, SVG, PDF: the table as shown) or the numbers (CSV: a row per block,
    // position and rank; JSON: the command line's "logit_lens") of the lens shown.
    [[nodiscard]] std::optional<QByteArray> exportBytes(FigureFormat format, QString* error) const;
    // Writes them to `path` (its suffix the format): "" or the reason it failed.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // A new lens is shown.
    void shown();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Job {
        std::shared_ptr<const ModelRun> run;
        std::uint64_t number = 0;
    };
    std::function<void()> read(Job& job, const std::atomic<bool>& cancel);
    void display(std::shared_ptr<const ModelRun> run, LogitLens lens);
    void chooseAndExport();
    void retranslateUi();

    QLabel* intro_;
    QLabel* status_;
    QTableWidget* table_;
    QPushButton* export_;
    std::shared_ptr<const ModelRun> run_; // the run whose lens is shown
    LogitLens lens_;
    bool reading_ = false;
    std::uint64_t newest_ = 0;
    LatestWorker<Job> worker_; // last: joined first
};

// The window's Logit Lens… button: opens (or raises) the dialog and keeps it following the
// window's runs.
class LogitLensButton : public DialogButton {
    Q_OBJECT

public:
    explicit LogitLensButton(LanguageModelWindow* window);
    // The dialog, once opened (nullptr before).
    [[nodiscard]] LogitLensDialog* dialog() const
    {
        return static_cast<LogitLensDialog*>(openedDialog());
    }

protected:
    void retranslate() override;
};

} // namespace attn::ui
