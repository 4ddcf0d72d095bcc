#include "headrolesdialog.h"

#include "engine/engine.h" // Cancelled
#include "engine/options.h"
#include "experimentfiles.h"
#include "languagemodelwindow.h"
#include "modelgrid.h"
#include "models/inductiontest.h"
#include "modelwindow.h"
#include "reportnewest.h"
#include "scoreheatmap.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace attn::ui {
namespace {

// "5.1": layer 5, head 1, as the command line and Which Heads Matter name a head.
QString headName(int layer, int head)
{
    return QStringLiteral("%1.%2").arg(layer).arg(head);
}

QString number(double value)
{
    return QLocale().toString(value, 'f', 2);
}

} // namespace

HeadRolesDialog::HeadRolesDialog(LanguageModelWindow* window)
    : QDialog(window), window_(window), intro_(new QLabel), copyLabel_(new QLabel),
      copy_(new QSpinBox), seedLabel_(new QLabel), seed_(new QSpinBox), runButton_(new QPushButton),
      cancel_(new QPushButton), export_(new QPushButton), progress_(new QProgressBar),
      previous_(new ScoreHeatmap), duplicate_(new ScoreHeatmap), induction_(new ScoreHeatmap),
      summary_(new QLabel), status_(new QLabel),
      worker_([this](Job& job, const std::atomic<bool>& cancel) { return work(job, cancel); })
{
    setObjectName("headRolesDialog");
    copy_->setObjectName("rolesCopy");
    seed_->setObjectName("rolesSeed");
    runButton_->setObjectName("rolesRun");
    cancel_->setObjectName("rolesCancel");
    export_->setObjectName("rolesExport");
    summary_->setObjectName("rolesSummary");
    status_->setObjectName("rolesStatus");
    intro_->setWordWrap(true);
    summary_->setWordWrap(true);
    status_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    copyLabel_->setBuddy(copy_);
    seedLabel_->setBuddy(seed_);

    // 2N tokens, and the template's first and last where it has them, within the positions.
    const LanguageModel& model = window_->model();
    const int extra = int(std::min<std::size_t>(model.templateIds().size(), 2));
    copy_->setRange(2, std::max(2, (model.info().maxPositions - extra) / 2));
    copy_->setValue(std::min(kFirstCopy, copy_->maximum()));
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(int(Config{}.seed)); // the command line's --seed at first
    cancel_->setEnabled(false);
    export_->setEnabled(false);
    progress_->setRange(0, 0); // busy: one forward pass, no steps to count
    progress_->hide();
    for (ScoreHeatmap* view : {previous_, duplicate_, induction_})
        view->setHeatmapStyle(headRoleStyle());
    previous_->setObjectName("previousTokenScores");
    duplicate_->setObjectName("duplicateTokenScores");
    induction_->setObjectName("inductionScores");

    auto* row = new QHBoxLayout;
    row->addWidget(copyLabel_);
    row->addWidget(copy_);
    row->addWidget(seedLabel_);
    row->addWidget(seed_);
    row->addWidget(runButton_);
    row->addWidget(cancel_);
    row->addStretch(1);
    row->addWidget(export_);
    auto* maps = new QHBoxLayout;
    for (ScoreHeatmap* view : {previous_, duplicate_, induction_})
        maps->addWidget(view, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addLayout(row);
    layout->addWidget(progress_);
    layout->addLayout(maps, 1);
    layout->addWidget(summary_);
    layout->addWidget(status_);
    connect(runButton_, &QPushButton::clicked, this, &HeadRolesDialog::run);
    connect(cancel_, &QPushButton::clicked, this, &HeadRolesDialog::cancel);
    connect(export_, &QPushButton::clicked, this, &HeadRolesDialog::chooseAndExport);
    retranslateUi();
    resize(1100, 560);
}

HeadRolesDialog::~HeadRolesDialog() = default;

ScoreHeatmap* HeadRolesDialog::heatmap(DetectorRole role) const
{
    return role == DetectorRole::PreviousToken    ? previous_
           : role == DetectorRole::DuplicateToken ? duplicate_
                                                  : induction_;
}

void HeadRolesDialog::run()
{
    const auto model = window_->shownRun().model;
    std::vector<int> ids;
    try {
        ids = inductionIds(*model, copy_->value(), std::uint32_t(seed_->value()));
    } catch (const InputError& error) { // the spin box's bounds keep N within the model's
        status_->setText(QString::fromStdString(error.what()));
        return;
    }
    running_ = true;
    pendingSeed_ = seed_->value();
    runButton_->setEnabled(false);
    cancel_->setEnabled(true);
    progress_->show();
    status_->setText(tr("Running the model on %1 random tokens, twice…").arg(copy_->value()));
    worker_.submit({model, std::move(ids), window_->shownRun().switches, ++newest_});
}

void HeadRolesDialog::cancel()
{
    if (!running_)
        return;
    running_ = false;
    worker_.submit({nullptr, {}, {}, ++newest_}); // raises the running test's cancel flag
    runButton_->setEnabled(true);
    cancel_->setEnabled(false);
    progress_->hide();
    status_->setText(tr("Cancelled."));
}

// On the worker thread: the test's forward pass, then the scores.
std::function<void()> HeadRolesDialog::work(Job& job, const std::atomic<bool>& cancel)
{
    if (!job.model)
        return {};
    const std::uint64_t number = job.number;
    const auto post = [this, number](auto show) {
        return reportIfNewest(this, newest_, number, std::move(show));
    };
    try {
        auto run =
            std::make_shared<const ModelRun>(job.model->runIds(job.ids, job.switches, &cancel));
        const std::pair<int, int> text = textPositions(*job.model, run->ids);
        auto scores = std::make_shared<const HeadScores>(
            headScores(*run->attention, 0, run->ids, text.first, text.second));
        return post([this, run, scores] { display(run, scores); });
    } catch (const Cancelled&) {
        return {};
    } catch (const std::exception& error) {
        const QString message = QString::fromStdString(error.what());
        return post([this, message] { showError(message); });
    }
}

void HeadRolesDialog::showError(const QString& message)
{
    running_ = false;
    runButton_->setEnabled(true);
    cancel_->setEnabled(false);
    progress_->hide();
    status_->setText(message);
}

void HeadRolesDialog::display(std::shared_ptr<const ModelRun> run,
                              std::shared_ptr<const HeadScores> scores)
{
    run_ = std::move(run);
    scores_ = std::move(scores);
    shownCopy_ = scores_->copy;
    shownSeed_ = pendingSeed_;
    running_ = false;
    runButton_->setEnabled(true);
    cancel_->setEnabled(false);
    export_->setEnabled(true);
    progress_->hide();
    const std::array<HeatmapData, 3> data = headRoleData(*scores_);
    for (std::size_t k = 0; k < kDetectorRoles.size(); ++k) {
        const DetectorRole role = kDetectorRoles[k];
        ScoreHeatmap* view = heatmap(role);
        view->setData(data[k]);
        const QString title = data[k].title;
        view->setDescribe([title, role, scores = scores_](int l, int h) {
            const double value = scoresOf(*scores, role)[std::size_t(l)][std::size_t(h)];
            return tr("Head %1 · %2 score %3")
                .arg(headName(l, h), title, QLocale().toString(value, 'f', 3));
        });
    }
    summary_->setText(summary());
    status_->setText(tr("%1 random tokens (seed %2), then the same again; scored on the second "
                        "copy. The model view marks each head whose strongest score is at least "
                        "%3: P previous-token, D duplicate-token, I induction.")
                         .arg(shownCopy_)
                         .arg(shownSeed_)
                         .arg(number(kMarkThreshold)));
    // Scores of switches the window has left since Run (or a language change after that):
    // no marks, and the status says so.
    if (window_->shownRun().switches == run_->switches)
        markTiles();
    else
        follow();
    emit finished();
}

void HeadRolesDialog::markTiles()
{
    std::vector<ModelGrid::RoleMark> marks;
    const int L = int(scores_->previousToken.size());
    const int H = L > 0 ? int(scores_->previousToken.front().size()) : 0;
    for (int l = 0; l < L; ++l)
        for (int h = 0; h < H; ++h) {
            double score = 0;
            const DetectorRole role = detectorRole(*scores_, l, h, kMarkThreshold, &score);
            if (role == DetectorRole::None)
                continue;
            const QString value = QLocale().toString(score, 'f', 2);
            if (role == DetectorRole::PreviousToken)
                marks.push_back({{l, h},
                                 tr("P", "previous-token head"),
                                 tr("previous-token head (%1)").arg(value)});
            else if (role == DetectorRole::DuplicateToken)
                marks.push_back({{l, h},
                                 tr("D", "duplicate-token head"),
                                 tr("duplicate-token head (%1)").arg(value)});
            else
                marks.push_back(
                    {{l, h}, tr("I", "induction head"), tr("induction head (%1)").arg(value)});
        }
    window_->modelView()->grid()->setRoleMarks(std::move(marks));
}

QString HeadRolesDialog::summary() const
{
    // The strongest two heads of each role, strongest role first in the reader's mind:
    // induction, then what it builds on.
    QStringList sentences;
    for (const DetectorRole role :
         {DetectorRole::Induction, DetectorRole::PreviousToken, DetectorRole::DuplicateToken}) {
        const std::vector<RankedHead> top = topHeads(scoresOf(*scores_, role), 2);
        if (top.empty())
            continue;
        int said = 0;
        for (const RankedHead& head : top) {
            if (!(head.score >= kMarkThreshold))
                break;
            const QString name = headName(head.layer, head.head);
            if (role == DetectorRole::Induction)
                sentences << tr("Head %1 copies what followed the earlier occurrence "
                                "(induction %2).")
                                 .arg(name, number(head.score));
            else if (role == DetectorRole::PreviousToken)
                sentences << tr("Head %1 looks at the token just before (previous-token %2).")
                                 .arg(name, number(head.score));
            else
                sentences << tr("Head %1 looks back at the same token's earlier occurrence "
                                "(duplicate-token %2).")
                                 .arg(name, number(head.score));
            ++said;
        }
        if (said == 0) {
            const RankedHead& best = top.front();
            const QString name = headName(best.layer, best.head);
            const QString value = number(best.score);
            sentences << (role == DetectorRole::Induction
                              ? tr("No induction head: the highest induction score is head "
                                   "%1's, %2.")
                          : role == DetectorRole::PreviousToken
                              ? tr("No previous-token head: the highest score is head "
                                   "%1's, %2.")
                              : tr("No duplicate-token head: the highest score is head "
                                   "%1's, %2."))
                             .arg(name, value);
        }
    }
    return sentences.join(QLatin1Char(' '));
}

void HeadRolesDialog::follow()
{
    if (!run_ || window_->shownRun().switches == run_->switches)
        return;
    window_->modelView()->grid()->setRoleMarks({});
    status_->setText(tr("The window's switches have changed since this test, so its marks are "
                        "gone: Run again to score the heads under the new ones."));
}

QString HeadRolesDialog::summaryText() const
{
    return summary_->text();
}

QString HeadRolesDialog::statusText() const
{
    return status_->text();
}

std::optional<QByteArray> HeadRolesDialog::exportBytes(FigureFormat format, QString* error) const
{
    if (!scores_) {
        *error = tr("Run the test first: there are no scores to export yet.");
        return std::nullopt;
    }
    return headRolesFile(format, *run_, *scores_, std::uint32_t(shownSeed_), error);
}

QString HeadRolesDialog::exportTo(const QString& path) const
{
    return exportExperimentTo(
        path, [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void HeadRolesDialog::chooseAndExport()
{
    exportExperimentInteractively(
        this, tr("Export Head Roles"),
        QString::fromStdString(window_->model().info().name) + QStringLiteral("-head-roles"),
        [this](FigureFormat format, QString* error) { return exportBytes(format, error); });
}

void HeadRolesDialog::retranslateUi()
{
    setWindowTitle(tr("Head Roles"));
    const bool causal = window_->model().info().causal;
    intro_->setText(
        tr("N random tokens, then the same N again, run under the window's switches and "
           "knock-outs. On the second copy a <b>previous-token</b> head looks at the token just "
           "before, a <b>duplicate-token</b> head at the same token's earlier occurrence, and "
           "an <b>induction</b> head at the token that followed it — the copy it predicts "
           "(Olsson et al. 2022; scored as TransformerLens's head detector scores them).") +
        (causal ? QString()
                : u' ' + tr("This model reads both ways: its heads can also look ahead, which "
                            "these scores do not count, and induction is what a model "
                            "predicting the next token learns; compare it with GPT-2's.")));
    copyLabel_->setText(tr("&Tokens a copy (N):"));
    seedLabel_->setText(tr("&Seed:"));
    runButton_->setText(tr("&Run"));
    cancel_->setText(tr("&Cancel"));
    export_->setText(tr("&Export…"));
    export_->setToolTip(tr("The three heatmaps as PNG, SVG or PDF, or the scores as CSV or JSON"));
    if (scores_)
        display(run_, scores_);
}

void HeadRolesDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

HeadRolesButton::HeadRolesButton(LanguageModelWindow* window)
    : DialogButton(
          window, "headRoles", [window] { return new HeadRolesDialog(window); },
          [](QDialog& dialog) { static_cast<HeadRolesDialog&>(dialog).follow(); }, Follow::Always)
{
    retranslate();
}

void HeadRolesButton::retranslate()
{
    setText(tr("Find &Induction Heads…"));
    setToolTip(tr("Run a random text repeated twice and find the previous-token, "
                  "duplicate-token and induction heads"));
}

} // namespace attn::ui
