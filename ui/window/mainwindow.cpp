#include "mainwindow.h"

#include "attentionfileopener.h"
#include "comparedialog.h"
#include "comparefigure.h"
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "formulabar.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "helpdialog.h"
#include "lab/presets.h"
#include "labels.h"
#include "language.h"
#include "modelopener.h"
#include "openingindicator.h"
#include "pipelinedialog.h"
#include "presetpanel.h"
#include "sessiondrop.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "statusmessage.h"
#include "sweepdialog.h"
#include "viewtoolbar.h"
#include "windowexports.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QScrollArea>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QVBoxLayout>

#include <utility>

namespace attn::ui {
namespace {

// The dialog `dialog` points to, made on first use.
template <class Dialog> Dialog* made(Dialog*& dialog, QWidget* parent)
{
    if (!dialog)
        dialog = new Dialog(parent);
    return dialog;
}

} // namespace

MainWindow::MainWindow(Language* language, QSettings* settings, QWidget* parent)
    : QMainWindow(parent), language_(language), settings_(settings),
      controller_(new ComputeController(this)), controls_(new ControlPanel),
      formula_(new FormulaBar), grid_(new HeatmapGrid), statistics_(new StatisticsPanel),
      presets_(new PresetPanel), sessions_(new SessionFiles(
                                     this, settings,
                                     [this] {
                                         return Session{controls_->request(), view_};
                                     },
                                     [this](const Session& session) { openSession(session); })),
      actions_(this),
      menus_(this, actions_, sessions_,
             createPresetMenu(this, [this](const QString& name) { applyPreset(name); })),
      toolBar_(new ViewToolBar(actions_, this)), docks_(this, controls_, statistics_, presets_),
      shapeLabel_(new QLabel), busyLabel_(new QLabel)
{
    setObjectName("MainWindow");
    auto* scroll = new QScrollArea;
    scroll->setWidget(grid_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* centre = new QWidget;
    auto* layout = new QVBoxLayout(centre);
    layout->addWidget(formula_);
    layout->addWidget(scroll, 1);
    setCentralWidget(centre);
    addToolBar(toolBar_);
    modelOpener_ = new ModelOpener(this);
    new SessionDrop(this, sessions_, modelOpener_);

    addStatusReadout(statusBar(), new OpeningIndicator(modelOpener_));
    addStatusReadout(statusBar(), busyLabel_);
    addStatusReadout(statusBar(), shapeLabel_);
    busyLabel_->setVisible(false);
    connectActions();
    readSettings();

    connect(sessions_, &SessionFiles::pathChanged, this, &QWidget::setWindowFilePath);
    // The view and the window are saved whenever the autosave is, so a crash loses neither;
    // the work only when it is left on purpose.
    connect(sessions_, &SessionFiles::autosaved, this, &MainWindow::writeSettings);
    connect(sessions_, &SessionFiles::saved, this, &MainWindow::writeSettingsWithWork);
    connect(presets_, &PresetPanel::reloadRequested, this, &MainWindow::applyPreset);
    connect(toolBar_, &ViewToolBar::sequenceChosen, this,
            [this](int index) { changeView([&](ViewOptions& v) { v.sequence = index; }); });
    connect(toolBar_, &ViewToolBar::colormapChosen, this,
            [this](ColormapName name) { changeView([&](ViewOptions& v) { v.colormap = name; }); });
    connect(controls_, &ControlPanel::requestChanged, this, &MainWindow::submit);
    connect(controller_, &ComputeController::weightsReady, this,
            [this](const Result& partial) { grid_->setResult(partial, view_); });
    connect(controller_, &ComputeController::resultReady, this, [this](const Result& result) {
        if (!letGo_.resultCame())
            refusal_.reset();
        showResult(result);
        if (refusal_) // the result let go of came back; the refusal of newer input stays
            showFailure(refusalText(*refusal_));
    });
    connect(controller_, &ComputeController::failed, this,
            [this](const InputError& refusal, const Request&) {
                refusal_ = refusal;
                showFailure(refusalText(refusal));
                // A result let go of for this request comes back from the engine at once,
                // greyed under the reason as any shown result is (letgo.h).
                if (const std::optional<Request> again = letGo_.refused())
                    controller_->submit(*again);
            });
    connect(controller_, &ComputeController::busyChanged, busyLabel_, &QLabel::setVisible);
    connect(grid_, &HeatmapGrid::hovered, this, &MainWindow::showHover);
    connect(grid_, &HeatmapGrid::headActivated, this, &MainWindow::openHead);

    retranslateUi();
    submit(); // the window opens with its sentence already computed
}

void MainWindow::connectActions()
{
    const auto on = [this](ActionId id, auto slot) {
        connect(action(id), &QAction::triggered, this, slot);
    };
    on(ActionId::OpenSession, [this] { sessions_->openInteractively(); });
    on(ActionId::OpenAttention, [this] { openAttentionFilesInteractively(this); });
    on(ActionId::OpenModel, [this] { modelOpener_->openInteractively(); });
    on(ActionId::SaveSession, [this] { sessions_->save(); });
    on(ActionId::SaveSessionAs, [this] { sessions_->saveAs(); });
    on(ActionId::ExportFigure, [this] { exportFigure(this, result_, view_, openHead_); });
    on(ActionId::ExportNumbers, [this] { exportNumbers(this, result_); });
    on(ActionId::CopyFigure, [this] { copyFigure(this, result_, view_); });
    on(ActionId::Quit, &QWidget::close);
    on(ActionId::DkSweep, &MainWindow::showSweep);
    on(ActionId::Compare, &MainWindow::showCompare);
    on(ActionId::StepByStep, &MainWindow::showStepByStep);
    on(ActionId::EmbeddingEditor, &MainWindow::showEmbeddingEditor);
    on(ActionId::HowToRead, [this] { bringForward(made(helpDialog_, this), false); });
    on(ActionId::About, [this] { showAbout(this); });
    connect(action(ActionId::AboutQt), &QAction::triggered, qApp, &QApplication::aboutQt);
    for (const ViewToggle& toggle : kViewToggles)
        connect(action(toggle.id), &QAction::toggled, this, [this, toggle](bool checked) {
            changeView([&](ViewOptions& v) { v.*toggle.member = checked; });
        });
    for (QAction* a : actions_.colormaps()->actions())
        connect(a, &QAction::triggered, this, [this, a] {
            changeView([&](ViewOptions& v) { v.colormap = ColormapName(a->data().toInt()); });
        });
    for (QAction* a : actions_.languages()->actions())
        connect(a, &QAction::triggered, this, [this, a] { setLanguage(a->data().toString()); });
}

void MainWindow::readSettings()
{
    const QString code = language_ ? language_->current() : QStringLiteral("en");
    controls_->setRequest(settings_.request(code));
    view_ = settings_.view();
    setViewOptions(view_);
    if (const QByteArray geometry = settings_.geometry(); !geometry.isEmpty())
        restoreGeometry(geometry);
    else
        resize(1440, 920);
    if (const QByteArray state = settings_.windowState(); !state.isEmpty())
        restoreState(state);
}

void MainWindow::writeSettings()
{
    settings_.setView(view_);
    settings_.setWindow(saveGeometry(), saveState());
    if (language_)
        settings_.setLanguage(language_->current());
}

void MainWindow::writeSettingsWithWork()
{
    settings_.setRequest(controls_->request());
    writeSettings();
}

void MainWindow::openSession(const Session& session)
{
    controls_->setRequest(session.request);
    setViewOptions(session.view);
    // The shown result may have fewer sequences than the session's: its sequence is chosen
    // when the session's own result comes.
    sessionSequence_ = session.view.sequence;
    submit();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    writeSettingsWithWork();
    sessions_->closeCleanly();
    event->accept();
}

void MainWindow::showEmbeddingEditor()
{
    if (!embeddingEditor_) {
        embeddingEditor_ = new EmbeddingEditor(this);
        // An edit is a new request at once: no debounce, the vector is complete.
        connect(embeddingEditor_, &EmbeddingEditor::overridesChanged, controls_,
                &ControlPanel::setEmbeddingOverrides);
    }
    updateEmbeddingEditor();
    bringForward(embeddingEditor_);
}

void MainWindow::updateEmbeddingEditor()
{
    if (!embeddingEditor_ || !result_.tokens)
        return;
    Request request = result_.request;
    request.embeddingOverrides = controls_->request().embeddingOverrides;
    embeddingEditor_->setRequest(request, editableTokens(result_));
}

void MainWindow::showStepByStep()
{
    made(pipelineDialog_, this)->setColourScale(view_.colormap, view_.logScale);
    if (result_.hasWeights())
        pipelineDialog_->setResult(result_, view_.sequence, pipelineDialog_->head());
    bringForward(pipelineDialog_);
}

void MainWindow::showCompare()
{
    made(compareDialog_, this)->setColourScale(view_.colormap, view_.logScale);
    compareDialog_->setBase(controls_->request());
    bringForward(compareDialog_);
}

void MainWindow::showSweep()
{
    made(sweepDialog_, this)->setBaseRequest(controls_->request());
    bringForward(sweepDialog_);
}

void MainWindow::applyPreset(const QString& name)
{
    const Preset* preset = findPreset(name.toStdString());
    if (!preset)
        return;
    controls_->setRequest(preset->request);
    presets_->showPreset(name);
    bringForward(docks_.presets, false);
    submit();
}

void MainWindow::offerRecovery(const QString& followUp)
{
    // The date as the interface's language writes it, not the system's.
    sessions_->offerRecovery(QLocale(language_ ? language_->current() : QStringLiteral("en")),
                             followUp);
}

void MainWindow::changeView(const std::function<void(ViewOptions&)>& edit)
{
    ViewOptions view = view_;
    edit(view);
    setViewOptions(view);
}

void MainWindow::setViewOptions(const ViewOptions& view)
{
    view_ = view;
    if (result_.valid())
        view_.sequence = std::clamp(view_.sequence, 0, result_.batch() - 1);
    actions_.showView(view_);
    toolBar_->showView(view_);
    grid_->setViewOptions(view_);
    if (compareDialog_)
        compareDialog_->setColourScale(view_.colormap, view_.logScale);
    if (pipelineDialog_)
        pipelineDialog_->setColourScale(view_.colormap, view_.logScale);
    if (result_.valid())
        statistics_->setResult(result_, view_.sequence);
    if (headDialog_ && headDialog_->isVisible())
        openHead(openHead_); // the large head shows what the grid shows
}

void MainWindow::setLanguage(const QString& code)
{
    if (language_ && language_->apply(code))
        settings_.setLanguage(code);
}

void MainWindow::submit()
{
    const Request request = controls_->request();
    // White space only, as the window judges it (the engine refuses such a text too).
    const bool blank = QString::fromStdString(request.text).trimmed().isEmpty();
    // Before the worker starts: it looks whether anybody holds them.
    if (letGo_.beforeCompute(grid_->result(), blank))
        letGoOfShownTensors();
    // A blank text goes to the worker as well: it supersedes a compute still running,
    // whose result would otherwise replace the refusal when it arrives.
    controller_->submit(request);
    presets_->setCurrentRequest(request);
    if (blank)
        return;
    if (sweepDialog_ && sweepDialog_->isVisible())
        sweepDialog_->setBaseRequest(request);
    if (compareDialog_ && compareDialog_->isVisible())
        compareDialog_->setSharedInput(request);
}

void MainWindow::letGoOfShownTensors()
{
    grid_->letGo();
    if (headDialog_)
        headDialog_->view()->letGo();
    if (pipelineDialog_)
        pipelineDialog_->letGo();
    result_ = Result{}; // exports say the heatmaps are computing, as at the start
}

void MainWindow::showResult(const Result& result)
{
    const int previousBatch = result_.batch();
    result_ = result;
    sessions_->markChanged();
    if (pipelineDialog_ && pipelineDialog_->isVisible())
        pipelineDialog_->setResult(result, pipelineDialog_->sequence(), pipelineDialog_->head());
    controls_->setTokens(*result.tokens, result.keyTokens.get());
    if (sessionSequence_ && result.request == controls_->request())
        view_.sequence = *std::exchange(sessionSequence_, std::nullopt);
    if (result.batch() != previousBatch || view_.sequence >= result.batch())
        view_.sequence = std::clamp(view_.sequence, 0, result.batch() - 1);
    toolBar_->setSequences(result_, view_.sequence);
    formula_->setConfig(result.config(), hasPadding(*result.keyTokens)); // keys hidden by M
    grid_->setResult(result, view_);                                     // current again
    statistics_->setResult(result, view_.sequence);
    statistics_->setStale({});
    shapeLabel_->setText(shapeText(result));
    if (pendingHead_)
        openHead(*std::exchange(pendingHead_, std::nullopt));
    else if (headDialog_ && headDialog_->isVisible())
        openHead(openHead_);
    updateEmbeddingEditor();
}

void MainWindow::showFailure(const QString& message)
{
    controls_->setInputError(message);
    // What shows stays until a result comes, greyed with the reason: not the newest input's.
    grid_->setStale(message);
    statistics_->setStale(message);
    if (headDialog_)
        headDialog_->view()->setStale(message);
    showStatusMessage(this, tr("Cannot compute: %1").arg(message));
}

void MainWindow::showHover(const QString& text)
{
    showStatusMessage(this, text);
}

void MainWindow::openHead(int head)
{
    if (grid_->hasLetGo()) { // a large switch is computing: the head opens with its result
        pendingHead_ = head;
        return;
    }
    // The grid can be a step ahead of result_: a new request's heatmaps show before
    // its statistics, so the heads it holds are what the dialog may show.
    const int shownHeads = grid_->headCount();
    if (shownHeads < 1)
        return;
    if (!headDialog_) {
        headDialog_ = new HeadDialog(this);
        connect(headDialog_, &HeadDialog::hovered, this, &MainWindow::showHover);
    }
    openHead_ = std::min(head, shownHeads - 1);
    const int index = grid_->tileOf(head < 0 ? -1 : openHead_);
    headDialog_->setHeatmap(grid_->view(index)->data(), grid_->view(index)->heatmapStyle());
    headDialog_->view()->setStale(grid_->staleReason());
    bringForward(headDialog_, false);
}

bool MainWindow::event(QEvent* event)
{
    // A menu's or a button's help: cut before the readouts rather than under them.
    if (event->type() == QEvent::StatusTip) {
        showStatusMessage(this, static_cast<QStatusTipEvent*>(event)->tip());
        return true;
    }
    return QMainWindow::event(event);
}

void MainWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QMainWindow::changeEvent(event);
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("AttnScope — attention, visible"));
    actions_.retranslate(language_ ? language_->current() : QString());
    menus_.retranslate();
    toolBar_->retranslate();
    docks_.retranslate();
    busyLabel_->setText(tr("computing…"));
    if (result_.valid())
        showResult(result_); // numbers stay; their words change
    if (refusal_)            // and a refusal of newer input stays in place of the chips, reworded
        showFailure(refusalText(*refusal_));
}

} // namespace attn::ui
