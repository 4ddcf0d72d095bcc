// The d_k sweep of exercise 1 in a window of its own: the window's sentence and switches
// at d_k = 16 … 1024 (H = 1, d_model = d_k), with and without the 1/√d_k scaling, drawn
// by SweepChart and computed in the background; Export… writes the figure (PNG, SVG,
// PDF) or the numbers (JSON).
#pragma once

#include "engine/engine.h"
#include "sweepchart.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace attn::ui {

class SweepRunner;
struct SweepRun;

class SweepDialog : public QDialog {
    Q_OBJECT

public:
    explicit SweepDialog(QWidget* parent);

    // The sentence and switches every point starts from (heads, d_model and the scaling are
    // the sweep's). While the dialog is shown, a new base is computed at once.
    void setBaseRequest(const attn::Request& request);
    [[nodiscard]] const Request& baseRequest() const { return base_; }

    // The d_k range: powers of two from 1 to kMaxSweepDk (others are ignored).
    void setRange(int from, int to);
    [[nodiscard]] int from() const;
    [[nodiscard]] int to() const;

    // Starts the sweep of the base over the range; a running one is cancelled.
    void compute();
    [[nodiscard]] bool busy() const;

    [[nodiscard]] SweepChart* chart() const { return chart_; }

    // Writes the figure (.png, .svg, .pdf) or the numbers (.json) to `path`, atomically.
    // Returns an empty string on success, else a translated one-line reason.
    [[nodiscard]] QString exportTo(const QString& path) const;

signals:
    // The newest sweep's points are on the charts (or it failed).
    void sweepFinished();

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void chooseFileAndExport();
    void showRun(const SweepRun& run);
    void showFailure(const QString& message);
    void showProgress(int done, int total);
    void updateEnabled();
    void retranslateUi();

    Request base_;
    std::optional<Request> submitted_; // the base of the newest compute()
    Request computedBase_;             // the base of the points shown
    bool computed_ = false;

    SweepRunner* runner_;
    SweepChart* chart_;
    QLabel* fromLabel_;
    QComboBox* fromCombo_;
    QLabel* toLabel_;
    QComboBox* toCombo_;
    QPushButton* computeButton_;
    QProgressBar* progress_;
    QPushButton* exportButton_;
    QPushButton* closeButton_;
    QLabel* lessonLabel_;
    QLabel* captionLabel_;
    QLabel* statusLabel_;
};

} // namespace attn::ui
