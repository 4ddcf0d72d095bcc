#include "mainwindow.h"

#include "attentionfileopener.h"
#include "comparedialog.h"
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "exportdialog.h"
#include "formulabar.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "helpdialog.h"
#include "labels.h"
#include "language.h"
#include "pipelinedialog.h"
#include "presetpanel.h"
#include "presets.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "sweepdialog.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScrollArea>
#include <QStatusBar>
#include <QToolBar>
#include <QVBoxLayout>

#include <utility>

namespace attn::ui {
namespace {

// The one action table: text, status tip and shortcut of every action.
struct ActionSpec {
    ActionId id;
    const char* text;
    const char* statusTip;
    QKeySequence::StandardKey standardKey;
    const char* shortcut; // used when there is no standard key
    bool checkable;
};

constexpr ActionSpec kActions[] = {
    {ActionId::OpenSession, QT_TRANSLATE_NOOP("MainWindow", "&Open Session…"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Open a saved .attnscope session: its text, switches and view"),
     QKeySequence::Open, "Ctrl+O", false},
    {ActionId::OpenAttention, QT_TRANSLATE_NOOP("MainWindow", "Open &Attention…"),
     QT_TRANSLATE_NOOP("MainWindow", "Open the attention weights of a real model from a .npz, "
                                     ".npy or .safetensors file, in a model view of its own"),
     QKeySequence::UnknownKey, "Ctrl+Shift+O", false},
    {ActionId::SaveSession, QT_TRANSLATE_NOOP("MainWindow", "&Save Session"),
     QT_TRANSLATE_NOOP("MainWindow", "Save the text, every switch and the view to a session file"),
     QKeySequence::Save, "Ctrl+S", false},
    {ActionId::SaveSessionAs, QT_TRANSLATE_NOOP("MainWindow", "Save Session &As…"),
     QT_TRANSLATE_NOOP("MainWindow", "Save the session under a new name"), QKeySequence::SaveAs,
     "Ctrl+Shift+S", false},
    {ActionId::ExportFigure, QT_TRANSLATE_NOOP("MainWindow", "Export &Figure…"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Save the heatmaps as a PNG, SVG or PDF figure for slides and handouts"),
     QKeySequence::UnknownKey, "Ctrl+Shift+E", false},
    {ActionId::ExportNumbers, QT_TRANSLATE_NOOP("MainWindow", "Export &Numbers…"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Save every weight as CSV for a spreadsheet, NPY for NumPy, or JSON"),
     QKeySequence::UnknownKey, "", false},
    {ActionId::CopyFigure, QT_TRANSLATE_NOOP("MainWindow", "&Copy Figure"),
     QT_TRANSLATE_NOOP("MainWindow", "Copy the heatmaps of all heads as an image, to paste "
                                     "into slides"),
     QKeySequence::Copy, "Ctrl+C", false},
    {ActionId::Quit, QT_TRANSLATE_NOOP("MainWindow", "&Quit"),
     QT_TRANSLATE_NOOP("MainWindow", "Close AttnScope; the configuration is kept for next time"),
     QKeySequence::Quit, "Ctrl+Q", false},
    {ActionId::SharedScale, QT_TRANSLATE_NOOP("MainWindow", "&One Colour Scale for All Heads"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "On: every head uses the same colour range, so heads compare directly. "
                       "Off: each head uses its own range"),
     QKeySequence::UnknownKey, "Ctrl+K", true},
    {ActionId::Annotate, QT_TRANSLATE_NOOP("MainWindow", "Show &Values in Cells"),
     QT_TRANSLATE_NOOP("MainWindow", "Print each weight inside its cell when the cell is large "
                                     "enough"),
     QKeySequence::UnknownKey, "Ctrl+E", true},
    {ActionId::MarginSums, QT_TRANSLATE_NOOP("MainWindow", "Row and Column &Sums"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Show each row's and each column's sum beside the heatmap, in red where it "
                       "is not 1: with the softmax over the keys every row sums to 1"),
     QKeySequence::UnknownKey, "Ctrl+Shift+M", true},
    {ActionId::LogScale, QT_TRANSLATE_NOOP("MainWindow", "Lo&garithmic Colour Scale"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Colour by the weights' logarithm, a few decades below the largest: in "
                       "long sentences and under a causal mask most weights are small, and a "
                       "linear scale shows them all in its darkest colour"),
     QKeySequence::UnknownKey, "Ctrl+Shift+L", true},
    {ActionId::DkSweep, QT_TRANSLATE_NOOP("MainWindow", "d_k &Sweep…"),
     QT_TRANSLATE_NOOP("MainWindow", "Exercise 1: the same sentence at d_k = 16 … 1024, with and "
                                     "without √d_k scaling"),
     QKeySequence::UnknownKey, "Ctrl+Shift+D", false},
    {ActionId::Compare, QT_TRANSLATE_NOOP("MainWindow", "&Compare…"),
     QT_TRANSLATE_NOOP("MainWindow", "The textbook formula and your switches side by side, with "
                                     "their difference B − A"),
     QKeySequence::UnknownKey, "Ctrl+Shift+C", false},
    {ActionId::StepByStep, QT_TRANSLATE_NOOP("MainWindow", "&Step by Step…"),
     QT_TRANSLATE_NOOP("MainWindow", "The whole pipeline of one head, matrix by matrix, and the "
                                     "arithmetic of any weight"),
     QKeySequence::UnknownKey, "Ctrl+Shift+P", false},
    {ActionId::EmbeddingEditor, QT_TRANSLATE_NOOP("MainWindow", "&Embedding Editor…"),
     QT_TRANSLATE_NOOP("MainWindow", "Exercise 3: type a token's vector, copy another token's, "
                                     "or copy it with a little noise"),
     QKeySequence::UnknownKey, "Ctrl+Shift+V", false},
    {ActionId::HowToRead, QT_TRANSLATE_NOOP("MainWindow", "&How to Read These Heatmaps"),
     QT_TRANSLATE_NOOP("MainWindow", "What rows, columns, colours and warnings mean"),
     QKeySequence::HelpContents, "F1", false},
    {ActionId::About, QT_TRANSLATE_NOOP("MainWindow", "&About AttnScope"),
     QT_TRANSLATE_NOOP("MainWindow", "Version and purpose of AttnScope"), QKeySequence::UnknownKey,
     "", false},
    {ActionId::AboutQt, QT_TRANSLATE_NOOP("MainWindow", "About &Qt"),
     QT_TRANSLATE_NOOP("MainWindow", "The Qt version AttnScope runs on"), QKeySequence::UnknownKey,
     "", false},
};

QString trMain(const char* text)
{
    return QCoreApplication::translate("MainWindow", text);
}

// White space only, as the window judges it; the engine refuses such a text too.
bool isBlank(const std::string& text)
{
    return QString::fromStdString(text).trimmed().isEmpty();
}

} // namespace

MainWindow::MainWindow(Language* language, QSettings* settings, QWidget* parent)
    : QMainWindow(parent), language_(language), settings_(settings),
      controller_(new ComputeController(this)), controls_(new ControlPanel),
      formula_(new FormulaBar), grid_(new HeatmapGrid), statistics_(new StatisticsPanel)
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

    sessions_ = new SessionFiles(
        this, settings,
        [this] {
            return Session{controls_->request(), view_};
        },
        [this](const Session& session) {
            controls_->setRequest(session.request);
            setViewOptions(session.view);
            // The shown result may have fewer sequences than the session's: its sequence is
            // chosen when the session's own result comes.
            sessionSequence_ = session.view.sequence;
            submit();
        });
    connect(sessions_, &SessionFiles::pathChanged, this, &QWidget::setWindowFilePath);
    // The last configuration is saved whenever the autosave is, so a crash loses neither.
    connect(sessions_, &SessionFiles::autosaved, this, &MainWindow::writeSettings);
    setAcceptDrops(true);

    createActions();
    createMenus();
    createToolBar();
    createDocks();
    createStatusBar();
    readSettings();

    connect(controls_, &ControlPanel::requestChanged, this, &MainWindow::submit);
    connect(controller_, &ComputeController::weightsReady, this,
            [this](const Result& partial) { grid_->setResult(partial, view_); });
    connect(controller_, &ComputeController::resultReady, this, [this](const Result& result) {
        letGoOf_.reset();
        if (!std::exchange(restoring_, false))
            refusal_.reset();
        showResult(result);
        if (refusal_) // the result let go of came back; the refusal of newer input stays
            showFailure(refusalText(*refusal_));
    });
    connect(controller_, &ComputeController::failed, this,
            [this](const InputError& refusal, const Request&) {
                refusal_ = refusal;
                showFailure(refusalText(refusal));
                // The window let go of what it showed for this request (the newest: the
                // controller reports no other): the engine still has that result (a
                // refusal changes nothing there), so it comes back at once, greyed under
                // the refusal's reason as any shown result is, with its exports and
                // statistics. Once: should that compute fail too, the pictures stay with
                // the message.
                if (letGoOf_ && !std::exchange(restoring_, true))
                    controller_->submit(*letGoOf_);
            });
    connect(controller_, &ComputeController::busyChanged, busyLabel_, &QLabel::setVisible);
    connect(grid_, &HeatmapGrid::hovered, this, [this](const QString& text) {
        text.isEmpty() ? statusBar()->clearMessage() : statusBar()->showMessage(text);
    });
    connect(grid_, &HeatmapGrid::headActivated, this, &MainWindow::openHead);

    retranslateUi();
    submit(); // the window opens with its sentence already computed
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    for (const ActionSpec& spec : kActions) {
        auto* action = new QAction(this);
        action->setCheckable(spec.checkable);
        if (spec.standardKey != QKeySequence::UnknownKey &&
            !QKeySequence::keyBindings(spec.standardKey).isEmpty())
            action->setShortcuts(spec.standardKey);
        else if (*spec.shortcut)
            action->setShortcut(QKeySequence(QString::fromLatin1(spec.shortcut)));
        actions_[spec.id] = action;
    }
    connect(action(ActionId::OpenSession), &QAction::triggered, sessions_,
            &SessionFiles::openInteractively);
    connect(action(ActionId::OpenAttention), &QAction::triggered, this,
            [this] { openAttentionFilesInteractively(this); });
    connect(action(ActionId::SaveSession), &QAction::triggered, sessions_, &SessionFiles::save);
    connect(action(ActionId::SaveSessionAs), &QAction::triggered, sessions_, &SessionFiles::saveAs);
    connect(action(ActionId::ExportFigure), &QAction::triggered, this, &MainWindow::exportFigure);
    connect(action(ActionId::ExportNumbers), &QAction::triggered, this, &MainWindow::exportNumbers);
    connect(action(ActionId::CopyFigure), &QAction::triggered, this, &MainWindow::copyFigure);
    connect(action(ActionId::Quit), &QAction::triggered, this, &QWidget::close);
    connect(action(ActionId::SharedScale), &QAction::toggled, this, [this](bool on) {
        ViewOptions view = view_;
        view.sharedScale = on;
        setViewOptions(view);
    });
    connect(action(ActionId::Annotate), &QAction::toggled, this, [this](bool on) {
        ViewOptions view = view_;
        view.annotate = on;
        setViewOptions(view);
    });
    connect(action(ActionId::MarginSums), &QAction::toggled, this, [this](bool on) {
        ViewOptions view = view_;
        view.marginSums = on;
        setViewOptions(view);
    });
    connect(action(ActionId::LogScale), &QAction::toggled, this, [this](bool on) {
        ViewOptions view = view_;
        view.logScale = on;
        setViewOptions(view);
    });
    connect(action(ActionId::DkSweep), &QAction::triggered, this, &MainWindow::showSweep);
    connect(action(ActionId::Compare), &QAction::triggered, this, &MainWindow::showCompare);
    connect(action(ActionId::StepByStep), &QAction::triggered, this, &MainWindow::showStepByStep);
    connect(action(ActionId::EmbeddingEditor), &QAction::triggered, this,
            &MainWindow::showEmbeddingEditor);
    connect(action(ActionId::HowToRead), &QAction::triggered, this, [this] {
        if (!helpDialog_)
            helpDialog_ = new HelpDialog(this);
        helpDialog_->show();
        helpDialog_->raise();
    });
    connect(action(ActionId::About), &QAction::triggered, this, &MainWindow::about);
    connect(action(ActionId::AboutQt), &QAction::triggered, qApp, &QApplication::aboutQt);

    colormapGroup_ = new QActionGroup(this);
    for (ColormapName name : Colormap::names()) {
        auto* action = colormapGroup_->addAction(QString());
        action->setCheckable(true);
        action->setData(int(name));
        connect(action, &QAction::triggered, this, [this, name] {
            ViewOptions view = view_;
            view.colormap = name;
            setViewOptions(view);
        });
    }

    languageGroup_ = new QActionGroup(this);
    for (const QString& code : Language::available()) {
        auto* action = languageGroup_->addAction(Language::nativeName(code));
        action->setCheckable(true);
        action->setData(code);
        connect(action, &QAction::triggered, this, [this, code] { setLanguage(code); });
    }
}

void MainWindow::createMenus()
{
    fileMenu_ = menuBar()->addMenu(QString());
    fileMenu_->addAction(action(ActionId::OpenSession));
    fileMenu_->addAction(action(ActionId::OpenAttention));
    recentMenu_ = fileMenu_->addMenu(QString());
    sessions_->attachRecentMenu(recentMenu_);
    fileMenu_->addAction(action(ActionId::SaveSession));
    fileMenu_->addAction(action(ActionId::SaveSessionAs));
    fileMenu_->addSeparator();
    fileMenu_->addAction(action(ActionId::ExportFigure));
    fileMenu_->addAction(action(ActionId::ExportNumbers));
    fileMenu_->addSeparator();
    fileMenu_->addAction(action(ActionId::Quit));

    editMenu_ = menuBar()->addMenu(QString());
    editMenu_->addAction(action(ActionId::CopyFigure));

    viewMenu_ = menuBar()->addMenu(QString());
    colormapMenu_ = viewMenu_->addMenu(QString());
    colormapMenu_->addActions(colormapGroup_->actions());
    viewMenu_->addAction(action(ActionId::SharedScale));
    viewMenu_->addAction(action(ActionId::Annotate));
    viewMenu_->addAction(action(ActionId::MarginSums));
    viewMenu_->addAction(action(ActionId::LogScale));
    viewMenu_->addSeparator();
    languageMenu_ = viewMenu_->addMenu(QString());
    languageMenu_->addActions(languageGroup_->actions());

    presetMenu_ = createPresetMenu(this, [this](const QString& name) { applyPreset(name); });
    menuBar()->addMenu(presetMenu_);

    labMenu_ = menuBar()->addMenu(QString());
    labMenu_->addAction(action(ActionId::StepByStep));
    labMenu_->addAction(action(ActionId::Compare));
    labMenu_->addAction(action(ActionId::DkSweep));
    labMenu_->addAction(action(ActionId::EmbeddingEditor));

    helpMenu_ = menuBar()->addMenu(QString());
    helpMenu_->addAction(action(ActionId::HowToRead));
    helpMenu_->addSeparator();
    helpMenu_->addAction(action(ActionId::About));
    helpMenu_->addAction(action(ActionId::AboutQt));
}

void MainWindow::createToolBar()
{
    viewToolBar_ = addToolBar(QString());
    viewToolBar_->setObjectName("viewToolBar");
    sequenceLabel_ = new QLabel;
    sequenceCombo_ = new QComboBox;
    sequenceCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(sequenceCombo_, &QComboBox::activated, this, [this](int index) {
        ViewOptions view = view_;
        view.sequence = index;
        setViewOptions(view);
    });
    colormapCombo_ = new QComboBox;
    for (ColormapName name : Colormap::names())
        colormapCombo_->addItem(QString(), int(name));
    connect(colormapCombo_, &QComboBox::activated, this, [this](int index) {
        ViewOptions view = view_;
        view.colormap = ColormapName(colormapCombo_->itemData(index).toInt());
        setViewOptions(view);
    });
    viewToolBar_->addWidget(sequenceLabel_);
    viewToolBar_->addWidget(sequenceCombo_);
    viewToolBar_->addSeparator();
    viewToolBar_->addWidget(colormapCombo_);
    viewToolBar_->addAction(action(ActionId::SharedScale));
    viewToolBar_->addAction(action(ActionId::Annotate));
    viewToolBar_->addAction(action(ActionId::MarginSums));
    viewToolBar_->addAction(action(ActionId::LogScale));
}

void MainWindow::createDocks()
{
    auto* controlsScroll = new QScrollArea;
    controlsScroll->setWidget(controls_);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlsScroll->setMinimumWidth(controls_->sizeHint().width() + 20);
    controlsDock_ = new QDockWidget(this);
    controlsDock_->setObjectName("controlsDock");
    controlsDock_->setWidget(controlsScroll);
    controlsDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, controlsDock_);

    statisticsDock_ = new QDockWidget(this);
    statisticsDock_->setObjectName("statisticsDock");
    statisticsDock_->setWidget(statistics_);
    statisticsDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::BottomDockWidgetArea, statisticsDock_);

    presets_ = new PresetPanel;
    connect(presets_, &PresetPanel::reloadRequested, this, &MainWindow::applyPreset);
    presetsDock_ = new QDockWidget(this);
    presetsDock_->setObjectName("presetsDock");
    presetsDock_->setWidget(presets_);
    presetsDock_->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                              QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, presetsDock_);
    presetsDock_->hide(); // shown when a preset is chosen
}

void MainWindow::createStatusBar()
{
    shapeLabel_ = new QLabel;
    busyLabel_ = new QLabel;
    busyLabel_->setVisible(false);
    statusBar()->addPermanentWidget(busyLabel_);
    statusBar()->addPermanentWidget(shapeLabel_);
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
    settings_.setRequest(controls_->request());
    settings_.setView(view_);
    settings_.setWindow(saveGeometry(), saveState());
    if (language_)
        settings_.setLanguage(language_->current());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    writeSettings();
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
    embeddingEditor_->show();
    embeddingEditor_->raise();
    embeddingEditor_->activateWindow();
}

// The editor offers the distinct tokens of the shown result's texts, <pad> aside.
void MainWindow::updateEmbeddingEditor()
{
    if (!embeddingEditor_ || !result_.tokens)
        return;
    std::vector<std::string> tokens;
    for (const TokenBatch* batch : {result_.tokens.get(), result_.keyTokens.get()})
        for (std::size_t b = 0; b < batch->tokens.size(); ++b)
            for (int t = 0; t < batch->lengths[b]; ++t) {
                const std::string& token = batch->tokens[b][std::size_t(t)];
                if (std::find(tokens.begin(), tokens.end(), token) == tokens.end())
                    tokens.push_back(token);
            }
    Request request = result_.request;
    request.embeddingOverrides = controls_->request().embeddingOverrides;
    embeddingEditor_->setRequest(request, tokens);
}

void MainWindow::showStepByStep()
{
    if (!pipelineDialog_)
        pipelineDialog_ = new PipelineDialog(this);
    pipelineDialog_->setColourScale(view_.colormap, view_.logScale);
    if (result_.hasWeights())
        pipelineDialog_->setResult(result_, view_.sequence, pipelineDialog_->head());
    pipelineDialog_->show();
    pipelineDialog_->raise();
    pipelineDialog_->activateWindow();
}

void MainWindow::showCompare()
{
    if (!compareDialog_)
        compareDialog_ = new CompareDialog(this);
    compareDialog_->setColourScale(view_.colormap, view_.logScale);
    compareDialog_->setBase(controls_->request());
    compareDialog_->show();
    compareDialog_->raise();
    compareDialog_->activateWindow();
}

void MainWindow::showSweep()
{
    if (!sweepDialog_)
        sweepDialog_ = new SweepDialog(this);
    sweepDialog_->setBaseRequest(controls_->request());
    sweepDialog_->show();
    sweepDialog_->raise();
    sweepDialog_->activateWindow();
}

void MainWindow::applyPreset(const QString& name)
{
    const Preset* preset = findPreset(name.toStdString());
    if (!preset)
        return;
    controls_->setRequest(preset->request);
    presets_->showPreset(name);
    presetsDock_->show();
    presetsDock_->raise();
    submit();
}

void MainWindow::offerRecovery()
{
    // The date as the interface's language writes it, not the system's.
    sessions_->offerRecovery(QLocale(language_ ? language_->current() : QStringLiteral("en")));
}

namespace {

// The session file a drag carries, or an empty string.
QString droppedSession(const QMimeData* mime)
{
    if (!mime->hasUrls() || mime->urls().size() != 1 || !mime->urls().first().isLocalFile())
        return {};
    const QString path = mime->urls().first().toLocalFile();
    return path.endsWith(QStringLiteral(".attnscope"), Qt::CaseInsensitive) ? path : QString();
}

} // namespace

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!droppedSession(event->mimeData()).isEmpty() ||
        !droppedAttentionFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    if (dropAttentionFiles(this, event->mimeData()))
        return event->acceptProposedAction();
    const QString path = droppedSession(event->mimeData());
    if (path.isEmpty())
        return;
    event->acceptProposedAction();
    QString error;
    if (!sessions_->open(path, &error))
        QMessageBox::warning(this, tr("Cannot Open Session"), error);
}

void MainWindow::setViewOptions(const ViewOptions& view)
{
    view_ = view;
    if (result_.valid())
        view_.sequence = std::clamp(view_.sequence, 0, result_.batch() - 1);
    {
        const QSignalBlocker a(action(ActionId::SharedScale));
        const QSignalBlocker b(action(ActionId::Annotate));
        const QSignalBlocker c(action(ActionId::MarginSums));
        const QSignalBlocker d(action(ActionId::LogScale));
        action(ActionId::SharedScale)->setChecked(view_.sharedScale);
        action(ActionId::Annotate)->setChecked(view_.annotate);
        action(ActionId::MarginSums)->setChecked(view_.marginSums);
        action(ActionId::LogScale)->setChecked(view_.logScale);
    }
    for (QAction* a : colormapGroup_->actions())
        a->setChecked(ColormapName(a->data().toInt()) == view_.colormap);
    colormapCombo_->setCurrentIndex(colormapCombo_->findData(int(view_.colormap)));
    sequenceCombo_->setCurrentIndex(view_.sequence);
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
    restoring_ = false;
    if (!isBlank(request.text))
        letGoOfShownTensors(); // before the worker starts: it looks whether anybody holds them
    // A blank text goes to the worker as well: it supersedes a compute still running,
    // whose result would otherwise replace the refusal when it arrives.
    controller_->submit(request);
    presets_->setCurrentRequest(request);
    if (isBlank(request.text))
        return;
    if (sweepDialog_ && sweepDialog_->isVisible())
        sweepDialog_->setBaseRequest(request);
    if (compareDialog_ && compareDialog_->isVisible())
        compareDialog_->setSharedInput(request);
}

void MainWindow::letGoOfShownTensors()
{
    // What the grid shows: result_, or the heatmaps of a newer request whose statistics
    // are still computing.
    const Result& shown = grid_->result();
    if (!shown.hasWeights())
        return; // nothing shown yet, or let go of already
    const double bytes =
        bytesOf(shown.weights->items()) + (shown.scores ? bytesOf(shown.scores->items()) : 0.0);
    if (bytes < letGoBytes_)
        return;
    letGoOf_ = shown.request;
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
    updateSequenceChoice();
    formula_->setConfig(result.config(), [&] {
        for (int length : result.keyTokens->lengths) // the padding mask hides keys
            if (length < result.keyLength())
                return true;
        return false;
    }());
    grid_->setResult(result, view_); // current again
    statistics_->setResult(result, view_.sequence);
    statistics_->setStale({});
    if (result.isCross())
        shapeLabel_->setText(tr("B = %1 · T_q = %2 · T_k = %3 · d_model = %4 · H = %5 · d_k = %6",
                                "cross-attention: T_q query tokens, T_k key tokens")
                                 .arg(result.batch())
                                 .arg(result.length())
                                 .arg(result.keyLength())
                                 .arg(result.dModel())
                                 .arg(result.heads())
                                 .arg(result.dK()));
    else
        shapeLabel_->setText(tr("B = %1 · T = %2 · d_model = %3 · H = %4 · d_k = %5")
                                 .arg(result.batch())
                                 .arg(result.length())
                                 .arg(result.dModel())
                                 .arg(result.heads())
                                 .arg(result.dK()));
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
    statusBar()->showMessage(tr("Cannot compute: %1").arg(message));
}

void MainWindow::updateSequenceChoice()
{
    sequenceCombo_->clear();
    for (int b = 0; b < result_.batch(); ++b) {
        QStringList words;
        const auto& tokens = result_.tokens->tokens[std::size_t(b)];
        for (int t = 0; t < std::min(result_.tokens->lengths[std::size_t(b)], 4); ++t)
            words << QString::fromStdString(tokens[std::size_t(t)]);
        sequenceCombo_->addItem(
            tr("%1: %2…", "sequence number: first words").arg(b).arg(words.join(u' ')));
    }
    sequenceCombo_->setCurrentIndex(view_.sequence);
    sequenceCombo_->setEnabled(result_.batch() > 1);
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
        connect(headDialog_, &HeadDialog::hovered, this, [this](const QString& text) {
            text.isEmpty() ? statusBar()->clearMessage() : statusBar()->showMessage(text);
        });
    }
    openHead_ = std::min(head, shownHeads - 1);
    const int index = grid_->tileOf(head < 0 ? -1 : openHead_);
    headDialog_->setHeatmap(grid_->view(index)->data(), grid_->view(index)->heatmapStyle());
    headDialog_->view()->setStale(grid_->staleReason());
    headDialog_->show();
    headDialog_->raise();
}

void MainWindow::about()
{
    QMessageBox::about(
        this, tr("About AttnScope"),
        tr("<h3>AttnScope %1</h3>"
           "<p>See softmax(QKᵀ/√d_k + M)·V for your own sentence, head by head, and change "
           "the formula to watch what each part does.</p>"
           "<p>With the embedding “torch.randn(B, T, C)” the numbers equal PyTorch's "
           "torch.manual_seed(seed); torch.randn(…); nn.Linear(…) bit for bit.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::exportFigure()
{
    if (!result_.valid()) {
        statusBar()->showMessage(tr("Nothing to export yet: the heatmaps are computing."));
        return;
    }
    ExportDialog dialog(result_, view_, openHead_, this);
    dialog.exec();
}

void MainWindow::exportNumbers()
{
    if (!result_.valid()) {
        statusBar()->showMessage(tr("Nothing to export yet: the heatmaps are computing."));
        return;
    }
    exportNumbersInteractively(this, result_);
}

void MainWindow::copyFigure()
{
    if (!result_.valid()) { // at the start, or while a large switch computes
        statusBar()->showMessage(tr("Nothing to export yet: the heatmaps are computing."));
        return;
    }
    copyFigureToClipboard(result_, view_);
    statusBar()->showMessage(tr("Figure copied."), 3000);
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
    for (const ActionSpec& spec : kActions) {
        action(spec.id)->setText(trMain(spec.text));
        action(spec.id)->setStatusTip(trMain(spec.statusTip));
        action(spec.id)->setToolTip(trMain(spec.statusTip));
    }
    fileMenu_->setTitle(tr("&File"));
    editMenu_->setTitle(tr("&Edit"));
    viewMenu_->setTitle(tr("&View"));
    colormapMenu_->setTitle(tr("&Colormap"));
    languageMenu_->setTitle(tr("&Language"));
    helpMenu_->setTitle(tr("&Help"));
    recentMenu_->setTitle(tr("Open &Recent"));
    viewToolBar_->setWindowTitle(tr("View"));
    controlsDock_->setWindowTitle(tr("Sentence and Formula"));
    statisticsDock_->setWindowTitle(tr("Statistics and Warnings"));
    presetsDock_->setWindowTitle(tr("Preset"));
    labMenu_->setTitle(tr("&Lab"));
    sequenceLabel_->setText(tr("Sequence:") + u' ');
    sequenceCombo_->setToolTip(tr("Which line of the batch the heatmaps show"));
    colormapCombo_->setToolTip(tr("Colour scale of the heatmaps"));
    for (QAction* a : colormapGroup_->actions())
        a->setText(Colormap::displayName(ColormapName(a->data().toInt())));
    for (int k = 0; k < colormapCombo_->count(); ++k)
        colormapCombo_->setItemText(
            k, Colormap::displayName(ColormapName(colormapCombo_->itemData(k).toInt())));
    for (QAction* a : languageGroup_->actions())
        a->setChecked(language_ && a->data().toString() == language_->current());
    busyLabel_->setText(tr("computing…"));
    if (result_.valid())
        showResult(result_); // numbers stay; their words change
    if (refusal_)            // and a refusal of newer input stays in place of the chips, reworded
        showFailure(refusalText(*refusal_));
}

} // namespace attn::ui
