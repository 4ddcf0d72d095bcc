// The window of a language model run natively, on a tiny random GPT-2 written at test
// time: every switch of the formula runs the model again and changes its heatmaps and
// predictions, "only layer N" leaves the other layers textbook, the prediction panel
// follows the query row the mouse points at, typing runs after the debounce, and a text
// the model refuses is said while the last run stays.
#include "fileheaddialog.h"
#include "headimportancedialog.h"
#include "heatmapview.h"
#include "knockoutbar.h"
#include "languagemodelwindow.h"
#include "logitlensdialog.h"
#include "logitsthreadmodel.h"
#include "modelcomparison.h"
#include "modelgrid.h"
#include "models/families.h"
#include "models/headimportance.h"
#include "models/languagemodel.h"
#include "modelwindow.h"
#include "predictionpanel.h"
#include "shownpath.h"
#include "switchesform.h"
#include "tinygpt2.h"
#include "tokenchips.h"

#include <QDir>
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>
#include <cmath>
#include <functional>
#include <memory>

using namespace attn;
using namespace attn::ui;
using attn::test::LogitsThreadModel;

Q_DECLARE_METATYPE(std::function<void(attn::Config&)>)

namespace {

using Change = std::function<void(Config&)>;

// The largest difference between two runs' weights of layer `layer` (all layers: −1).
double largestDifference(const ModelRun& a, const ModelRun& b, int layer = -1)
{
    const StackShape& s = a.attention->shape();
    double largest = 0;
    for (int l = 0; l < s.layers; ++l) {
        if (layer >= 0 && l != layer)
            continue;
        for (int h = 0; h < s.heads; ++h) {
            const Matrix x = a.attention->head(l, 0, h);
            const Matrix y = b.attention->head(l, 0, h);
            largest = std::max(largest, double((x - y).cwiseAbs().maxCoeff()));
        }
    }
    return largest;
}

double largestProbabilityDifference(const std::vector<Prediction>& a,
                                    const std::vector<Prediction>& b)
{
    double largest = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        largest = std::max({largest, double(std::abs(a[i].probability - b[i].probability)),
                            a[i].id == b[i].id ? 0.0 : 1.0});
    return largest;
}

} // namespace

class TestLanguageModelWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void shownFolder_data();
    void shownFolder();
    void aSwitchChangesTheHeatmapsAndPredictions_data();
    void aSwitchChangesTheHeatmapsAndPredictions();
    void theFormsControlsRunTheModel();
    void onlyLayerLeavesTheOtherLayersTextbook();
    void knockingHeadsOutOnTheGrid();
    void theLogitLensFollowsTheWindow();
    void whichHeadsMatter();
    void hoverMovesThePredictionPanel();
    void hoverMakesNoLogitsOnTheGuiThread();
    void typingRunsAfterTheDebounce();
    void aRefusedTextKeepsTheLastRun_data();
    void aRefusedTextKeepsTheLastRun();
    void theNewestRequestWins();

private:
    // Waits until the window shows a run (or a refusal) after a change.
    void waitForRun();

    QTemporaryDir dir_;
    QString folder_;
    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<ModelRun> textbook_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestLanguageModelWindow::shownFolder_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("shown");
    const QString home = QDir::homePath();
    QTest::newRow("under home") << home + "/models/gpt2"
                                << "~/models/gpt2";
    QTest::newRow("the HF cache") << home + "/.cache/huggingface/hub/models--gpt2/snapshots/abc"
                                  << "~/.cache/huggingface/hub/models--gpt2/snapshots/abc";
    QTest::newRow("elsewhere") << "/srv/models/gpt2"
                               << "/srv/models/gpt2";
    QTest::newRow("a name that only starts like home")
        << home + "-other/gpt2" << home + "-other/gpt2";
    QTest::newRow("home itself") << home << "~";
}

// The caption (and Open Model…'s list) writes a path under home as ~/…, as a terminal and
// the README do.
void TestLanguageModelWindow::shownFolder()
{
    QFETCH(QString, folder);
    QFETCH(QString, shown);
    QCOMPARE(shownPath(folder), shown);
}

void TestLanguageModelWindow::initTestCase()
{
    folder_ = test::writeTinyGpt2(dir_.filePath("tiny-random-gpt2"));
    model_ = openModel(folder_.toStdString());
    textbook_ = std::make_unique<ModelRun>(model_->run(LanguageModelWindow::kFirstText, {}));
}

void TestLanguageModelWindow::init()
{
    window_ = std::make_unique<LanguageModelWindow>(
        model_, model_->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestLanguageModelWindow::cleanup()
{
    window_.reset();
}

void TestLanguageModelWindow::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
    QVERIFY(!window_->running());
}

void TestLanguageModelWindow::aSwitchChangesTheHeatmapsAndPredictions_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<bool>("changes");
    QTest::addColumn<QString>("departure");
    QTest::newRow("no √d_k scaling")
        << Change([](Config& c) { c.scale = ScaleMode::None; }) << true << "no scaling";
    QTest::newRow("√d_model") << Change([](Config& c) { c.scale = ScaleMode::SqrtDModel; }) << true
                              << "√d_model";
    QTest::newRow("τ = 0.5") << Change([](Config& c) { c.temperature = 0.5f; }) << true
                             << "temperature";
    QTest::newRow("softmax over the queries")
        << Change([](Config& c) { c.axis = SoftmaxAxis::Queries; }) << true << "queries";
    QTest::newRow("softmax over the batch")
        << Change([](Config& c) { c.axis = SoftmaxAxis::Batch; }) << true << "batch";
    QTest::newRow("no causal mask")
        << Change([](Config& c) { c.mask = MaskKind::None; }) << true << "no causal mask";
    QTest::newRow("mask after the softmax")
        << Change([](Config& c) { c.maskStage = MaskStage::AfterSoftmax; }) << true << "after";
    QTest::newRow("heads split with view")
        << Change([](Config& c) { c.headSplit = HeadSplit::View; }) << true << "view";
    // exp(−1e9 − max) is 0 in float as exp(−∞) is: before the softmax the fill is moot.
    QTest::newRow("−1e9 fill before the softmax changes nothing")
        << Change([](Config& c) { c.maskFill = MaskFill::NegBillion; }) << false << "";
}

void TestLanguageModelWindow::aSwitchChangesTheHeatmapsAndPredictions()
{
    QFETCH(Change, change);
    QFETCH(bool, changes);
    QFETCH(QString, departure);
    const Thumbnail before = window_->modelView()->grid()->thumbnail(1, 0);
    ModelSwitches switches;
    change(switches.formula);
    window_->setSwitches(switches);
    waitForRun();
    const ModelRun& run = window_->shownRun();
    QCOMPARE(run.switches, switches);
    const double weights = largestDifference(run, *textbook_);
    const int last = int(run.ids.size()) - 1;
    const double predictions = largestProbabilityDifference(
        window_->predictionPanel()->predictions(), textbook_->predictions(last));
    const std::vector<Prediction>& shown = window_->predictionPanel()->predictions();
    const std::vector<Prediction> expected = run.predictions(last);
    QCOMPARE(shown.size(), expected.size());
    for (std::size_t i = 0; i < shown.size(); ++i)
        QCOMPARE(shown[i].id, expected[i].id);
    // A masked row with every score −∞ in a softmax over a batch of one is 0/0: the NaN
    // spreads to every later position and layer, and the panel says why it shows no bars.
    const bool notANumber = std::isnan(expected.front().probability);
    QCOMPARE(notANumber, departure == "batch");
    QCOMPARE(window_->predictionPanel()->title().contains("NaN"), notANumber);
    const std::vector<float>& thumbnail = window_->modelView()->grid()->thumbnail(1, 0).values;
    double tile = 0;
    for (std::size_t i = 0; i < thumbnail.size(); ++i)
        tile = std::max(tile, double(std::abs(thumbnail[i] - before.values[i])));
    if (changes) {
        QVERIFY2(weights > 1e-3, qPrintable(QString("largest weight change %1").arg(weights)));
        QVERIFY2(notANumber || predictions > 1e-4,
                 qPrintable(QString("largest probability change %1").arg(predictions)));
        QVERIFY2(tile > 1e-3, qPrintable(QString("largest change in layer 1, head 0's "
                                                 "thumbnail %1")
                                             .arg(tile)));
        QVERIFY2(window_->departuresText().contains(departure),
                 qPrintable(window_->departuresText()));
        QVERIFY(window_->departuresText().contains("in every layer"));
    } else {
        QVERIFY2(weights < 1e-6, qPrintable(QString("largest weight change %1").arg(weights)));
        QVERIFY2(predictions < 1e-6,
                 qPrintable(QString("largest probability change %1").arg(predictions)));
    }
}

// The user's path: the form's controls and the scope combo each run the model.
void TestLanguageModelWindow::theFormsControlsRunTheModel()
{
    QVERIFY(window_->departuresText().contains("textbook formula"));
    auto* causal = window_->switchesForm()->findChild<QCheckBox*>("causalCheck");
    QVERIFY(causal->isChecked()); // GPT-2 is a decoder
    QVERIFY(!window_->switchesForm()->findChild<QCheckBox*>("paddingCheck")->isVisible());
    causal->click();
    waitForRun();
    QCOMPARE(window_->shownRun().switches.formula.mask, MaskKind::None);
    QVERIFY(window_->departuresText().contains("no causal mask"));

    auto* scale = window_->switchesForm()->findChild<QComboBox*>("scaleCombo");
    scale->setCurrentIndex(scale->findData(int(ScaleMode::None)));
    waitForRun();
    QCOMPARE(window_->shownRun().switches.formula.scale, ScaleMode::None);

    window_->scopeCombo()->setCurrentIndex(window_->scopeCombo()->findData(1));
    waitForRun();
    QCOMPARE(window_->shownRun().switches.onlyLayer, 1);
    QVERIFY(window_->departuresText().contains("in layer 1 only"));
}

void TestLanguageModelWindow::onlyLayerLeavesTheOtherLayersTextbook()
{
    ModelSwitches switches;
    switches.formula.scale = ScaleMode::None;
    switches.onlyLayer = 1;
    window_->setSwitches(switches);
    waitForRun();
    const ModelRun& run = window_->shownRun();
    QCOMPARE(run.switches.onlyLayer, 1);
    QCOMPARE(largestDifference(run, *textbook_, 0), 0.0);
    QVERIFY(largestDifference(run, *textbook_, 1) > 1e-3);
    QCOMPARE(window_->scopeCombo()->currentData().toInt(), 1);

    // Layer 0 alone: layer 0 changes, and through it layer 1.
    switches.onlyLayer = 0;
    window_->setSwitches(switches);
    waitForRun();
    QVERIFY(largestDifference(window_->shownRun(), *textbook_, 0) > 1e-3);
    QVERIFY(largestDifference(window_->shownRun(), *textbook_, 1) > 1e-3);
}

// The grid's menu and K knock heads out (a layer's label: all its heads); the model runs
// again with them out, the tiles are crossed out, the line of departures and the bar say
// so, the mode turns them to their mean, and Restore All brings the textbook run back.
void TestLanguageModelWindow::knockingHeadsOutOnTheGrid()
{
    ModelGrid* grid = window_->modelView()->grid();
    KnockOutBar* bar = window_->knockOutBar();
    auto* restore = bar->findChild<QPushButton*>(QStringLiteral("restoreHeads"));
    auto* mode = bar->findChild<QComboBox*>(QStringLiteral("knockOutMode"));
    QVERIFY(restore && mode);
    QVERIFY(!restore->isEnabled());

    // 1. Head 0.1 by its tile's menu.
    std::unique_ptr<QMenu> menu(grid->knockOutMenu(grid->tileRect(0, 1).center()));
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), qsizetype(1));
    QVERIFY(menu->actions().front()->text().contains(QStringLiteral("Knock Out Head 0.1")));
    menu->actions().front()->trigger();
    waitForRun();
    const ModelRun& run = window_->shownRun();
    QCOMPARE(run.switches.knockedOut, (std::vector<HeadIndex>{{0, 1}}));
    QVERIFY(grid->knockedOut(0, 1));
    QCOMPARE(largestDifference(run, *textbook_, 0), 0.0);  // P of layer 0 is as before
    QVERIFY(largestDifference(run, *textbook_, 1) > 1e-4); // what layer 1 reads is not
    QVERIFY2(window_->departuresText().contains(
                 QStringLiteral("heads 0.1 knocked out (their outputs set to 0)")),
             qPrintable(window_->departuresText()));
    QVERIFY(restore->isEnabled());
    // The tile is crossed out: its centre has the alert colour, not the heatmap's.
    const QImage shot = grid->grab(grid->tileRect(0, 1)).toImage();
    const QColor centre = shot.pixelColor(shot.width() / 2, shot.height() / 2);
    QVERIFY2(centre.red() > 150 && centre.green() < 120, qPrintable(centre.name()));

    // 2. K on the current tile restores it; the layer label's menu takes the whole layer.
    grid->setCurrent(0, 1);
    QTest::keyClick(grid, Qt::Key_K);
    waitForRun();
    QVERIFY(window_->shownRun().switches.knockedOut.empty());
    const QRect label(0, grid->tileRect(1, 0).top(), grid->tileRect(1, 0).left() - 4,
                      grid->tileRect(1, 0).height());
    menu.reset(grid->knockOutMenu(label.center()));
    QVERIFY(menu);
    menu->actions().front()->trigger();
    waitForRun();
    QCOMPARE(int(window_->shownRun().switches.knockedOut.size()), grid->heads());
    QVERIFY(window_->departuresText().contains(QStringLiteral("heads 1.* knocked out")));

    // 3. Mean ablation: another run; Restore All: the textbook run again.
    const ModelRun zeroed = window_->shownRun();
    mode->setCurrentIndex(mode->findData(int(KnockOutMode::Mean)));
    waitForRun();
    QCOMPARE(window_->shownRun().switches.knockOut, KnockOutMode::Mean);
    QVERIFY(largestProbabilityDifference(window_->shownRun().predictions(0, 5),
                                         zeroed.predictions(0, 5)) > 0 ||
            largestProbabilityDifference(window_->shownRun().predictions(3, 5),
                                         zeroed.predictions(3, 5)) > 0);
    restore->click();
    waitForRun();
    QVERIFY(window_->shownRun().switches.knockedOut.empty());
    QVERIFY(!grid->knockedOut(1, 0));
    QCOMPARE(largestDifference(window_->shownRun(), *textbook_), 0.0);
    QCOMPARE(window_->departuresText(),
             QStringLiteral("The model's textbook formula, as it was trained."));
}

// Logit Lens… opens a grid of blocks × positions: each cell the top token after that block,
// its tooltip the top 5; the last row's last cell is the prediction panel's top token; a
// knock-out in the window reads the blocks again.
void TestLanguageModelWindow::theLogitLensFollowsTheWindow()
{
    auto* button = window_->findChild<LogitLensButton*>(QStringLiteral("logitLens"));
    QVERIFY(button);
    button->click();
    LogitLensDialog* dialog = button->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QTRY_VERIFY(!dialog->reading());
    QTableWidget* table = dialog->table();
    const ModelRun& run = window_->shownRun();
    const int L = model_->info().layers, T = int(run.ids.size());
    QCOMPARE(table->rowCount(), L);
    QCOMPARE(table->columnCount(), T);
    const Prediction top = run.predictions(T - 1, 1).front();
    QCOMPARE(table->item(L - 1, T - 1)->text(), quotedToken(top.label));
    QCOMPARE(dialog->lens()[std::size_t(L - 1)][std::size_t(T - 1)].front().id, top.id);
    QCOMPARE(table->item(0, 0)->toolTip().count(QLatin1Char('\n')), 5); // a title, 5 tokens
    QCOMPARE(table->horizontalHeaderItem(0)->text(), QString::fromStdString(run.labels[0].label));

    // Layer 0 knocked out: the first block reads otherwise.
    const LogitLens before = dialog->lens();
    window_->modelView()->grid()->setCurrent(0, 0);
    ModelSwitches switches = window_->switches();
    for (int h = 0; h < model_->info().heads; ++h)
        switches.knockedOut.push_back({0, h});
    window_->setSwitches(switches);
    waitForRun();
    QCOMPARE(int(window_->shownRun().switches.knockedOut.size()), model_->info().heads);
    QTRY_VERIFY(!dialog->reading());
    QVERIFY(dialog->lens()[0][std::size_t(T - 1)].front().probability !=
            before[0][std::size_t(T - 1)].front().probability);
    dialog->close();
}

// Which Heads Matter…: the targets are the run's top 10 where it predicts; Scan gives the
// core scan's numbers in an L × H table with progress to the end; another target scans for
// it; Cancel stops a scan and keeps the last result; a new run marks the result stale.
void TestLanguageModelWindow::whichHeadsMatter()
{
    auto* button = window_->findChild<HeadImportanceButton*>(QStringLiteral("headImportance"));
    QVERIFY(button);
    button->click();
    HeadImportanceDialog* dialog = button->dialog();
    QVERIFY(dialog && dialog->isVisible());
    const ModelRun& run = window_->shownRun();
    const int T = int(run.ids.size()), L = model_->info().layers, H = model_->info().heads;
    QCOMPARE(dialog->targetCombo()->count(), 10);
    QCOMPARE(dialog->targetCombo()->currentData().toInt(), run.predictions(T - 1, 1).front().id);

    QSignalSpy finished(dialog, &HeadImportanceDialog::finished);
    dialog->scan();
    QVERIFY(dialog->scanning());
    QVERIFY(finished.wait(20000));
    const HeadImportance expected = headImportance(*model_, run.ids, run.switches);
    QVERIFY(dialog->result());
    QCOMPARE(dialog->result()->change, expected.change);
    QCOMPARE(dialog->table()->rowCount(), L);
    QCOMPARE(dialog->table()->columnCount(), H);
    auto* progress = dialog->findChild<QProgressBar*>();
    QCOMPARE(progress->value(), L * H);
    QVERIFY(dialog->statusText().contains(QStringLiteral("matters most")));

    // The third most probable token as the target.
    dialog->targetCombo()->setCurrentIndex(2);
    const int third = dialog->targetCombo()->currentData().toInt();
    dialog->scan();
    QVERIFY(finished.wait(20000));
    QCOMPARE(dialog->result()->target, third);
    QCOMPARE(dialog->result()->change,
             headImportance(*model_, run.ids, run.switches, third).change);

    // Cancel: the result stays the last scan's.
    const std::vector<std::vector<double>> kept = dialog->result()->change;
    dialog->targetCombo()->setCurrentIndex(0);
    dialog->scan();
    dialog->cancel();
    QVERIFY(!dialog->scanning());
    QCOMPARE(dialog->statusText(), QStringLiteral("Cancelled."));
    QTest::qWait(300);
    QCOMPARE(dialog->result()->change, kept);

    // A token of one's own, typed: one token of the vocabulary (quoted as the lists show it).
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    model_->tokenize("q", ids, labels);
    QCOMPARE(ids.size(), std::size_t(1));
    dialog->targetCombo()->setEditText(QStringLiteral("“q”"));
    dialog->scan();
    QVERIFY(finished.wait(20000));
    QCOMPARE(dialog->result()->target, ids.front());
    QCOMPARE(dialog->result()->change,
             headImportance(*model_, run.ids, run.switches, ids.front()).change);
    // Several tokens: a message, no scan.
    dialog->targetCombo()->setEditText(QStringLiteral("qzxw"));
    dialog->scan();
    QVERIFY(!dialog->scanning());
    QVERIFY(dialog->statusText().contains(QStringLiteral("name one token")));
    QCOMPARE(dialog->result()->target, ids.front());

    // A switch in the window: the scan shown is of the run before.
    ModelSwitches switches = window_->switches();
    switches.formula.scale = ScaleMode::None;
    window_->setSwitches(switches);
    waitForRun();
    QVERIFY(dialog->statusText().contains(QStringLiteral("Scan again")));
    dialog->close();
}

// Pointing at a query row, in a tile of the grid or in the head view, shows what the
// model predicts after that token; leaving shows the last position again.
void TestLanguageModelWindow::hoverMovesThePredictionPanel()
{
    PredictionPanel* panel = window_->predictionPanel();
    const ModelRun& run = window_->shownRun();
    const int tokens = int(run.ids.size());
    QVERIFY(tokens >= 4);
    QTRY_COMPARE(panel->position(), tokens - 1);
    QVERIFY(panel->atLast());

    ModelGrid* grid = window_->modelView()->grid();
    const QRect tile = grid->tileRect(1, 1);
    QVERIFY(grid->visibleRegion().contains(tile));
    for (const int row : {0, 2}) {
        const int y = tile.top() + int((row + 0.5) * tile.height() / tokens);
        QTest::mouseMove(grid, QPoint(tile.center().x(), y));
        QTRY_COMPARE(window_->modelView()->hoveredQuery(), row);
        QTRY_COMPARE(panel->position(), row); // from the prediction worker
        QCOMPARE(grid->tileRect(1, 1), tile); // hovering does not resize the tiles
        QVERIFY(!panel->atLast());
        QCOMPARE(panel->predictions(), run.predictions(row));
        QVERIFY2(panel->title().contains(QString("position %1").arg(row)),
                 qPrintable(panel->title()));
    }
    QTest::mouseMove(grid, QPoint(1, 1)); // off the tiles
    QTRY_COMPARE(panel->position(), tokens - 1);
    QVERIFY(panel->atLast());

    window_->modelView()->openHead(0, 1);
    FileHeadDialog* head = window_->modelView()->headDialog();
    QVERIFY(head);
    emit head->view()->cellHovered(1, 0);
    QTRY_COMPARE(panel->position(), 1);
    QCOMPARE(panel->predictions(), run.predictions(1));
    emit head->view()->cellHovered(-1, -1);
    QTRY_COMPARE(panel->position(), tokens - 1);
}

// Pointing at rows, and a switch flipped while pointing at one, show that row's
// predictions (those ModelRun::predictions gives), none of them made on the GUI thread.
void TestLanguageModelWindow::hoverMakesNoLogitsOnTheGuiThread()
{
    window_.reset();
    auto model = std::make_shared<LogitsThreadModel>(model_);
    window_ = std::make_unique<LanguageModelWindow>(
        model, model->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    PredictionPanel* panel = window_->predictionPanel();
    const int tokens = int(textbook_->ids.size());
    QTRY_COMPARE(panel->position(), tokens - 1);
    QCOMPARE(panel->predictions(), textbook_->predictions(tokens - 1)); // made by the inner model

    ModelGrid* grid = window_->modelView()->grid();
    const QRect tile = grid->tileRect(0, 1);
    const auto pointAt = [&](int row) {
        QTest::mouseMove(grid, QPoint(tile.center().x(),
                                      tile.top() + int((row + 0.5) * tile.height() / tokens)));
    };
    for (const int row : {0, 3, 1, 3}) { // 3 again: kept from the first time
        pointAt(row);
        QTRY_COMPARE(panel->position(), row);
        QCOMPARE(panel->predictions(), textbook_->predictions(row));
    }
    ModelSwitches switches;
    switches.formula.scale = ScaleMode::None;
    window_->setSwitches(switches);
    waitForRun();
    const ModelRun expected = model_->run(LanguageModelWindow::kFirstText, switches);
    QTRY_COMPARE(panel->predictions(), expected.predictions(3));
    QCOMPARE(panel->position(), 3);
    QCOMPARE(model->onGuiThread.load(), 0);
}

void TestLanguageModelWindow::typingRunsAfterTheDebounce()
{
    const std::size_t before = window_->shownRun().ids.size();
    window_->setText("The cat");
    QVERIFY(window_->running());
    waitForRun();
    const ModelRun& run = window_->shownRun();
    QVERIFY(run.ids.size() < before);
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    model_->tokenize("The cat", ids, labels);
    QCOMPARE(run.ids, ids);
    QCOMPARE(window_->tokenChips()->tokens().length(), int(ids.size()));
    QCOMPARE(window_->modelView()->stack().shape().queries, int(ids.size()));
    QCOMPARE(window_->predictionPanel()->position(), int(ids.size()) - 1);
}

void TestLanguageModelWindow::aRefusedTextKeepsTheLastRun_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("said");
    QTest::addColumn<bool>("cut");
    QTest::newRow("an empty text") << ""
                                   << "empty" << false;
    QTest::newRow("longer than n_positions")
        << QString("a b c d e f g h i j k l m n o p q r s t u v w x y z").repeated(2)
        << "at most 24" << true;
}

void TestLanguageModelWindow::aRefusedTextKeepsTheLastRun()
{
    QFETCH(QString, text);
    QFETCH(QString, said);
    QFETCH(bool, cut);
    const std::vector<int> before = window_->shownRun().ids;
    window_->setText(text);
    waitForRun();
    QVERIFY2(window_->refusal().contains(said), qPrintable(window_->refusal()));
    QCOMPARE(window_->shownRun().ids, before);
    QCOMPARE(window_->modelView()->stack().shape().queries, int(before.size()));
    auto* cutButton = window_->findChild<QPushButton*>("cutText");
    QCOMPARE(cutButton->isVisible(), cut);
    if (!cut)
        return;
    cutButton->click();
    waitForRun();
    QVERIFY(window_->refusal().isEmpty());
    QCOMPARE(int(window_->shownRun().ids.size()), 24);
    QVERIFY(text.startsWith(window_->text()));
}

// Switches changed faster than the model runs: the last one's run is what is shown.
void TestLanguageModelWindow::theNewestRequestWins()
{
    ModelSwitches last;
    for (const float temperature : {0.5f, 2.0f, 0.25f, 3.0f}) {
        last.formula.temperature = temperature;
        window_->setSwitches(last);
    }
    waitForRun();
    QTRY_COMPARE(window_->shownRun().switches, last);
    QCOMPARE(window_->switches(), last);
}

QTEST_MAIN(TestLanguageModelWindow)
#include "tst_languagemodelwindow.moc"
