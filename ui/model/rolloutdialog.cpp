#include "rolloutdialog.h"

#include "attention/headscores.h"
#include "engine/engine.h" // Cancelled
#include "experimentfiles.h"
#include "languagemodelwindow.h"
#include "rolloutbars.h"
#include "scoreheatmap.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QVBoxLayout>

namespace attn::ui {

RolloutDialog::RolloutDialog(QWidget* parent)
    : QDialog(parent), intro_(new QLabel), heatmap_(new ScoreHeatmap), bars_(new RolloutBars),
      status_(new QLabel), export_(new QPushButton),
      worker_([this](Job& job, const std::atomic<bool>& cancel) { return compute(job, cancel); })
{
    setObjectName("rolloutDialog");
    heatmap_->setObjectName("rolloutHeatmap");
    status_->setObjectName("rolloutStatus");
    export_->setObjectName("rolloutExport");
    intro_->setWordWrap(true);
    status_->setWordWrap(true);
    export_->setEnabled(false);
    HeatmapStyle style; // viridis from 0 to 1, as the heatmaps of weights
    heatmap_->setHeatmapStyle(style);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(heatmap_);
    splitter->addWidget(bars_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(status_, 1);
    bottom->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottom);
    connect(heatmap_, &HeatmapView::cellHovered, this, [this](int row, int) {
        if (pinned_ < 0 && row >= 0)
            showRow(row);
    });
    connect(heatmap_, &HeatmapView::activated, this, [this] {
        const int row = heatmap_->currentCell().x();
        pinRow(row == pinned_ ? -1 : row);
    });
    connect(export_, &QPushButton::clicked, this, &RolloutDialog::chooseAndExport);
    retranslateUi();
    resize(820, 860);
}

RolloutDialog::~RolloutDialog() = default;

void RolloutDialog::follow(std::shared_ptr<const ModelRun> run)
{
    computing_ = true;
    worker_.submit({std::move(run), ++newest_});
}

// On the worker thread: L products of T × T matrices.
std::function<void()> RolloutDialog::compute(Job& job, const std::atomic<bool>&)
{
    try {
        auto rollout = std::make_shared<Matrix>(attentionRollout(*job.run->attention, 0));
        const std::uint64_t number = job.number;
        auto run = job.run;
        return [this, number, run, rollout] {
            QMetaObject::invokeMethod(
                this,
                [this, number, run, rollout] {
                    if (number == newest_)
                        display(run, std::move(*rollout));
                },
                Qt::QueuedConnection);
        };
    } catch (const std::exception& error) { // a run of the window's: not expected
        const QString message = QString::fromStdString(error.what());
        return [this, message] {
            QMetaObject::invokeMethod(
                this, [this, message] { status_->setText(message); }, Qt::QueuedConnection);
        };
    }
}

QStringList RolloutDialog::tokens() const
{
    QStringList labels;
    if (run_)
        for (const TokenLabel& label : run_->labels)
            labels << QString::fromStdString(label.label);
    return labels;
}

void RolloutDialog::display(std::shared_ptr<const ModelRun> run, Matrix rollout)
{
    run_ = std::move(run);
    rollout_ = std::move(rollout);
    computing_ = false;
    export_->setEnabled(true);
    heatmap_->setData(rolloutData(*run_, rollout_));
    heatmap_->setDescribe([this](int i, int j) {
        const QStringList labels = tokens();
        return tr("“%1” (%2) at the top holds %3 of “%4” (%5)")
            .arg(labels.value(i))
            .arg(i)
            .arg(QLocale().toString(rollout_(i, j), 'f', 3), labels.value(j))
            .arg(j);
    });
    const int T = int(rollout_.rows());
    if (pinned_ >= T)
        pinned_ = -1;
    showRow(pinned_ >= 0 ? pinned_ : T - 1);
    emit shown();
}

void RolloutDialog::showRow(int row)
{
    const int T = int(rollout_.rows());
    if (row < 0 || row >= T)
        return;
    row_ = row;
    std::vector<double> values(std::size_t(rollout_.cols()));
    for (Eigen::Index j = 0; j < rollout_.cols(); ++j)
        values[std::size_t(j)] = double(rollout_(row, j));
    const QStringList labels = tokens();
    bars_->setRow(std::move(values), labels,
                  (pinned_ == row ? tr("Row %1, “%2” (pinned: click it again to follow the "
                                       "mouse): how much of each token flows into it")
                                  : tr("Row %1, “%2”: how much of each token flows into it "
                                       "(click a row to pin it)"))
                      .arg(row)
                      .arg(labels.value(row)));
    HeatmapStyle style = heatmap_->heatmapStyle();
    style.highlightRow = row;
    heatmap_->setHeatmapStyle(style);
}

void RolloutDialog::pinRow(int row)
{
    pinned_ = row >= 0 && row < rollout_.rows() ? row : -1;
    showRow(pinned_ >= 0 ? pinned_ : row_);
}

std::optional<QByteArray> RolloutDialog::exportBytes(FigureFormat format, QString* error) const
{
    if (!run_ || rollout_.size() == 0) {
        *error = tr("The rollout is not computed yet.");
        return std::nullopt;
    }
    return rolloutFile(format, *run_, rollout_, row_, error);
}

QString RolloutDialog::exportTo(const QString& path) const
{
    return exportExperimentTo(
        path, [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void RolloutDialog::chooseAndExport()
{
    const QString stem =
        run_ ? QString::fromStdString(run_->model->info().name) + QStringLiteral("-rollout")
             : QStringLiteral("rollout");
    exportExperimentInteractively(
        this, tr("Export Rollout"), stem,
        [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void RolloutDialog::retranslateUi()
{
    setWindowTitle(tr("Attention Rollout"));
    intro_->setText(tr("Attention rollout (Abnar & Zuidema 2020): each layer's heads averaged, "
                       "the residual connection added as the identity and each row normalised, "
                       "then multiplied from the first layer to the last. Row i says how much "
                       "of each input token flows into position i at the top. Point at a row "
                       "for its bars; click to pin it."));
    export_->setText(tr("&Export…"));
    export_->setToolTip(tr("The heatmap and the row as PNG, SVG or PDF, or the rollout as CSV "
                           "or JSON"));
    status_->setText(tr("The window's run, as it runs now: its switches and knock-outs apply."));
    if (run_)
        display(run_, rollout_);
}

void RolloutDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

RolloutButton::RolloutButton(LanguageModelWindow* window)
    : DialogButton(
          window, "rollout", [window] { return new RolloutDialog(window); },
          [window](QDialog& dialog) {
              static_cast<RolloutDialog&>(dialog).follow(
                  std::make_shared<const ModelRun>(window->shownRun()));
          })
{
    retranslate();
}

void RolloutButton::retranslate()
{
    setText(tr("R&ollout…"));
    setToolTip(tr("How much of each input token flows into each position at the top "
                  "(attention rollout)"));
}

} // namespace attn::ui
