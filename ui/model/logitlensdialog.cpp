#include "logitlensdialog.h"

#include "colormap.h"
#include "engine/engine.h" // Cancelled
#include "experimentfiles.h"
#include "languagemodelwindow.h"
#include "modelcomparison.h" // quotedToken, percentText

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace attn::ui {

namespace {

// A token as the cell and the tooltip show it: as every list says it (“␣mat”).
QString quoted(const Prediction& p)
{
    return quotedToken(p.label);
}

} // namespace

LogitLensDialog::LogitLensDialog(QWidget* parent)
    : QDialog(parent), intro_(new QLabel), status_(new QLabel), table_(new QTableWidget),
      export_(new QPushButton),
      worker_([this](Job& job, const std::atomic<bool>& cancel) { return read(job, cancel); })
{
    setObjectName("logitLensDialog");
    table_->setObjectName("logitLensTable");
    status_->setObjectName("logitLensStatus");
    export_->setObjectName("logitLensExport");
    export_->setEnabled(false);
    intro_->setWordWrap(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(table_, 1);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(status_, 1);
    bottom->addWidget(export_);
    layout->addLayout(bottom);
    connect(export_, &QPushButton::clicked, this, &LogitLensDialog::chooseAndExport);
    retranslateUi();
    resize(900, 520);
}

LogitLensDialog::~LogitLensDialog() = default;

void LogitLensDialog::follow(std::shared_ptr<const ModelRun> run)
{
    reading_ = true;
    status_->setText(tr("Reading every block…"));
    worker_.submit({std::move(run), ++newest_});
}

// On the worker thread: one forward with the residuals kept, then each block's reading.
std::function<void()> LogitLensDialog::read(Job& job, const std::atomic<bool>& cancel)
{
    try {
        auto lens = std::make_shared<LogitLens>(
            logitLens(*job.run->model, job.run->ids, job.run->switches, 5, &cancel));
        const std::uint64_t number = job.number;
        auto run = job.run;
        return [this, number, run, lens] {
            QMetaObject::invokeMethod(
                this,
                [this, number, run, lens] {
                    if (number == newest_)
                        display(run, std::move(*lens));
                },
                Qt::QueuedConnection);
        };
    } catch (const Cancelled&) {
        return {};
    } catch (const std::exception& error) { // the window has run these ids: not expected
        const QString message = QString::fromStdString(error.what());
        return [this, message] {
            QMetaObject::invokeMethod(
                this, [this, message] { status_->setText(message); }, Qt::QueuedConnection);
        };
    }
}

void LogitLensDialog::display(std::shared_ptr<const ModelRun> run, LogitLens lens)
{
    run_ = std::move(run);
    lens_ = std::move(lens);
    reading_ = false;
    export_->setEnabled(true);
    const int L = int(lens_.size()), T = lens_.empty() ? 0 : int(lens_.front().size());
    fillTable(*table_, logitLensTable(*run_, lens_));
    for (int l = 0; l < L; ++l)
        for (int t = 0; t < T; ++t) {
            const std::vector<Prediction>& top = lens_[std::size_t(l)][std::size_t(t)];
            if (top.empty())
                continue;
            QStringList lines{tr("After block %1, position %2 (“%3”):")
                                  .arg(l)
                                  .arg(t)
                                  .arg(QString::fromStdString(run_->labels[std::size_t(t)].label))};
            for (const Prediction& candidate : top)
                lines << quoted(candidate) + QStringLiteral("  ") +
                             percentText(candidate.probability);
            table_->item(l, t)->setToolTip(lines.join(QLatin1Char('\n')));
        }
    status_->setText(tr("The last row is the model's own prediction; the colour is the top "
                        "token's probability (dark 0, yellow 1)."));
    emit shown();
}

std::optional<QByteArray> LogitLensDialog::exportBytes(FigureFormat format, QString* error) const
{
    if (!run_) {
        *error = tr("The logit lens is not read yet.");
        return std::nullopt;
    }
    return logitLensFile(format, *run_, lens_, error);
}

QString LogitLensDialog::exportTo(const QString& path) const
{
    return exportExperimentTo(
        path, [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void LogitLensDialog::chooseAndExport()
{
    const QString stem =
        run_ ? QString::fromStdString(run_->model->info().name) + QStringLiteral("-logit-lens")
             : QStringLiteral("logit-lens");
    exportExperimentInteractively(
        this, tr("Export Logit Lens"), stem,
        [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void LogitLensDialog::retranslateUi()
{
    export_->setText(tr("&Export…"));
    export_->setToolTip(tr("The table as PNG, SVG or PDF, or every block's top 5 as CSV or JSON"));
    setWindowTitle(tr("Logit Lens"));
    intro_->setText(tr("The residual stream after each block, put through the model's final "
                       "norm and output head, read as a prediction: where along the layers the "
                       "answer forms. Flip a switch or knock a head out and watch it form later, "
                       "or never."));
    if (run_)
        display(run_, lens_); // the rows' names and the tooltips in the new language
}

void LogitLensDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

LogitLensButton::LogitLensButton(LanguageModelWindow* window)
    : DialogButton(
          window, "logitLens", [window] { return new LogitLensDialog(window); },
          [window](QDialog& dialog) {
              static_cast<LogitLensDialog&>(dialog).follow(
                  std::make_shared<const ModelRun>(window->shownRun()));
          })
{
    retranslate();
}

void LogitLensButton::retranslate()
{
    setText(tr("&Logit Lens…"));
    setToolTip(tr("Every block's residual stream read as a prediction"));
}

} // namespace attn::ui
