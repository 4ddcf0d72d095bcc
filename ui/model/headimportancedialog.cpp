#include "headimportancedialog.h"

#include "colormap.h"
#include "engine/engine.h" // Cancelled
#include "experimentfiles.h"
#include "languagemodelwindow.h"
#include "modelcomparison.h" // quotedToken, percentText
#include "predictionworker.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attn::ui {

namespace {

// Where a run's predictions are read: the last position, or a masked model's first [MASK]
// (none: −1).
int predictedPosition(const ModelRun& run)
{
    if (run.model->info().causal)
        return int(run.ids.size()) - 1;
    const std::vector<int> masks = run.maskedPositions();
    return masks.empty() ? -1 : masks.front();
}

} // namespace

HeadImportanceDialog::HeadImportanceDialog(LanguageModelWindow* window)
    : QDialog(window), window_(window), intro_(new QLabel), targetLabel_(new QLabel),
      target_(new QComboBox), scan_(new QPushButton), cancel_(new QPushButton),
      export_(new QPushButton), progress_(new QProgressBar), table_(new QTableWidget),
      status_(new QLabel),
      worker_([this](Job& job, const std::atomic<bool>& cancel) { return work(job, cancel); })
{
    setObjectName("headImportanceDialog");
    target_->setObjectName("importanceTarget");
    scan_->setObjectName("importanceScan");
    cancel_->setObjectName("importanceCancel");
    export_->setObjectName("importanceExport");
    export_->setEnabled(false);
    table_->setObjectName("importanceTable");
    status_->setObjectName("importanceStatus");
    intro_->setWordWrap(true);
    status_->setWordWrap(true);
    targetLabel_->setBuddy(target_);
    // One of the top 10, or a token of one's own typed in.
    target_->setEditable(true);
    target_->setInsertPolicy(QComboBox::NoInsert);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    cancel_->setEnabled(false);
    auto* row = new QHBoxLayout;
    row->addWidget(targetLabel_);
    row->addWidget(target_, 1);
    row->addWidget(scan_);
    row->addWidget(cancel_);
    row->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addLayout(row);
    layout->addWidget(progress_);
    layout->addWidget(table_, 1);
    layout->addWidget(status_);
    connect(scan_, &QPushButton::clicked, this, &HeadImportanceDialog::scan);
    connect(cancel_, &QPushButton::clicked, this, &HeadImportanceDialog::cancel);
    connect(export_, &QPushButton::clicked, this, &HeadImportanceDialog::chooseAndExport);
    connect(window_->predictionWorker(), &PredictionWorker::ready, this,
            [this](int position, const std::vector<Prediction>& predictions) {
                if (position == predictedPosition(window_->shownRun()))
                    setTargets(predictions);
            });
    retranslateUi();
    follow();
    resize(820, 560);
}

HeadImportanceDialog::~HeadImportanceDialog() = default;

void HeadImportanceDialog::follow()
{
    const ModelRun& run = window_->shownRun();
    const int position = predictedPosition(run);
    // The run's top 10 there, as the window's worker made them with the run (no logits on
    // the GUI thread); until they come (the window's first run), none: ready() brings them.
    const std::vector<Prediction>* made =
        position >= 0 ? window_->predictionWorker()->made(position) : nullptr;
    setTargets(made ? *made : std::vector<Prediction>{});
    if (position < 0)
        status_->setText(tr("The text has no [MASK]: there is no prediction to read."));
    else if (shown_ && scanned_ &&
             !(scanned_->ids == run.ids && scanned_->switches == run.switches))
        status_->setText(tr("The window has run another text or other switches since this scan: "
                            "Scan again to follow it."));
}

void HeadImportanceDialog::setTargets(const std::vector<Prediction>& predictions)
{
    const int chosen = target_->currentData().isValid() ? target_->currentData().toInt() : -1;
    // A token typed in (none of the list) stays typed.
    const QString typed = target_->currentText();
    const bool ownToken = !typed.isEmpty() && target_->findText(typed) < 0;
    target_->clear();
    for (const Prediction& p : predictions)
        target_->addItem(tr("%1 (%2 now)").arg(quotedToken(p.label), percentText(p.probability)),
                         p.id);
    // The token chosen before stays chosen while it is among the new top 10.
    target_->setCurrentIndex(std::max(0, target_->findData(chosen)));
    if (ownToken)
        target_->setEditText(typed);
    scan_->setEnabled(target_->count() > 0 && !scanning_);
}

std::optional<int> HeadImportanceDialog::chosenTarget(QString* problem) const
{
    const QString text = target_->currentText();
    const int index = target_->findText(text);
    if (index >= 0)
        return target_->itemData(index).toInt();
    // A token of the user's own: its text as the lists show it (“␣mat”) or typed (" mat").
    QString token = text;
    if (token.startsWith(QChar(0x201C)) && token.endsWith(QChar(0x201D)) && token.size() >= 2)
        token = token.mid(1, token.size() - 2);
    token.replace(QChar(0x2423), QLatin1Char(' '));
    const LanguageModel& model = window_->model();
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    try {
        model.tokenize(token.toStdString(), ids, labels);
    } catch (const std::exception&) {
        ids.clear();
    }
    // The tokenizer's template (Llama's <s>, BERT's [CLS] [SEP]) is not the token named.
    const std::vector<int>& template_ = model.templateIds();
    std::erase_if(ids, [&](int id) {
        return std::find(template_.begin(), template_.end(), id) != template_.end();
    });
    if (ids.size() == 1)
        return ids.front();
    *problem = ids.empty() ? tr("Name a token: “%1” is none.").arg(text)
                           : tr("“%1” is %2 tokens to this model: name one token (a leading space "
                                "is part of a word's token).")
                                 .arg(token)
                                 .arg(ids.size());
    return std::nullopt;
}

void HeadImportanceDialog::scan()
{
    QString problem;
    const std::optional<int> target = chosenTarget(&problem);
    if (!target) {
        status_->setText(problem);
        return;
    }
    scanning_ = true;
    cancelled_ = false;
    scan_->setEnabled(false);
    cancel_->setEnabled(true);
    progress_->setRange(0, window_->model().info().layers * window_->model().info().heads);
    progress_->setValue(0);
    status_->setText(tr("Knocking out each head alone…"));
    worker_.submit({std::make_shared<const ModelRun>(window_->shownRun()), *target, ++newest_});
}

void HeadImportanceDialog::cancel()
{
    if (!scanning_)
        return;
    cancelled_ = true;
    scanning_ = false;
    ++newest_;
    worker_.submit({nullptr, 0, newest_}); // raises the running scan's cancel flag
    scan_->setEnabled(target_->count() > 0);
    cancel_->setEnabled(false);
    status_->setText(tr("Cancelled."));
}

QString HeadImportanceDialog::statusText() const
{
    return status_->text();
}

// On the worker thread.
std::function<void()> HeadImportanceDialog::work(Job& job, const std::atomic<bool>& cancel)
{
    if (!job.run)
        return {};
    const std::uint64_t number = job.number;
    const auto progress = [this, number](int done, int) {
        QMetaObject::invokeMethod(
            this,
            [this, number, done] {
                if (number == newest_)
                    progress_->setValue(done);
            },
            Qt::QueuedConnection);
    };
    try {
        auto result = std::make_shared<const HeadImportance>(headImportance(
            *job.run->model, job.run->ids, job.run->switches, job.target, progress, &cancel));
        auto run = job.run;
        return [this, number, run, result] {
            QMetaObject::invokeMethod(
                this,
                [this, number, run, result] {
                    if (number == newest_)
                        display(run, result);
                },
                Qt::QueuedConnection);
        };
    } catch (const Cancelled&) {
        return {};
    } catch (const std::exception& error) {
        const QString message = QString::fromStdString(error.what());
        return [this, number, message] {
            QMetaObject::invokeMethod(
                this,
                [this, number, message] {
                    if (number != newest_)
                        return;
                    scanning_ = false;
                    cancel_->setEnabled(false);
                    scan_->setEnabled(true);
                    status_->setText(message);
                },
                Qt::QueuedConnection);
        };
    }
}

void HeadImportanceDialog::display(std::shared_ptr<const ModelRun> run,
                                   std::shared_ptr<const HeadImportance> scan)
{
    scanned_ = std::move(run);
    shown_ = std::move(scan);
    scanning_ = false;
    cancel_->setEnabled(false);
    scan_->setEnabled(true);
    export_->setEnabled(true);
    const HeadImportance& s = *shown_;
    const int L = int(s.change.size()), H = L > 0 ? int(s.change.front().size()) : 0;
    double largest = 0;
    HeadIndex most{0, 0};
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            const double c = s.change[std::size_t(l)][std::size_t(h)];
            if (std::isfinite(c) && std::abs(c) > largest) {
                largest = std::abs(c);
                most = {l, h};
            }
        }
    const QString target = quotedToken(scanned_->model->tokenLabel(s.target));
    fillTable(*table_, headImportanceTable(*scanned_, s));
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            const double c = s.change[std::size_t(l)][std::size_t(h)];
            table_->item(l, h)->setToolTip(
                tr("Head %1.%2 knocked out: log p(%3) changes by %4 (p ×%5)")
                    .arg(l)
                    .arg(h)
                    .arg(target, QLocale().toString(c, 'f', 4),
                         QLocale().toString(std::exp(c), 'g', 3)));
        }
    status_->setText(
        largest > 0
            ? tr("Head %1.%2 matters most for %3 at position %4: knocked out alone, it changes "
                 "log p by %5. Red: the token loses without the head; blue: it gains.")
                  .arg(most.layer)
                  .arg(most.head)
                  .arg(target)
                  .arg(s.position)
                  .arg(QLocale().toString(s.change[std::size_t(most.layer)][std::size_t(most.head)],
                                          'f', 3))
            : tr("No head changes the probability of %1.").arg(target));
    emit finished();
}

std::optional<QByteArray> HeadImportanceDialog::exportBytes(FigureFormat format,
                                                            QString* error) const
{
    if (!shown_) {
        *error = tr("Scan first: there is no result to export yet.");
        return std::nullopt;
    }
    return headImportanceFile(format, *scanned_, *shown_, error);
}

QString HeadImportanceDialog::exportTo(const QString& path) const
{
    return exportExperimentTo(
        path, [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void HeadImportanceDialog::chooseAndExport()
{
    exportExperimentInteractively(
        this, tr("Export Which Heads Matter"),
        QString::fromStdString(window_->model().info().name) + QStringLiteral("-head-importance"),
        [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void HeadImportanceDialog::retranslateUi()
{
    export_->setText(tr("&Export…"));
    export_->setToolTip(tr("The table as PNG, SVG or PDF, or the changes as CSV or JSON"));
    setWindowTitle(tr("Which Heads Matter"));
    intro_->setText(tr("Each head knocked out alone (as the window's knock-out mode says: its "
                       "output set to 0 or to its mean), everything else as the window runs "
                       "it: how the log-probability of the target token changes where the model "
                       "predicts. Each run starts at the head's own layer from the intact run's "
                       "residual stream."));
    targetLabel_->setText(tr("&Target:"));
    target_->setToolTip(tr("One of the top 10 where the model predicts, or type a token of your "
                           "own (“␣mat”, or \" mat\" with GPT-2's leading space)."));
    scan_->setText(tr("&Scan"));
    cancel_->setText(tr("&Cancel"));
    if (shown_)
        display(scanned_, shown_);
}

void HeadImportanceDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

HeadImportanceButton::HeadImportanceButton(LanguageModelWindow* window)
    : DialogButton(
          window, "headImportance", [window] { return new HeadImportanceDialog(window); },
          [](QDialog& dialog) { static_cast<HeadImportanceDialog&>(dialog).follow(); })
{
    retranslate();
}

void HeadImportanceButton::retranslate()
{
    setText(tr("Which &Heads Matter…"));
    setToolTip(tr("Knock out each head alone and see which ones the prediction needs"));
}

} // namespace attn::ui
