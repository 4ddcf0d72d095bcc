// The language model window on the tiny Qwen3 checkpoint of tests/reference/llama
// (2 layers, 4 query heads reading 2 K/V heads, rotary positions): the RoPE switch runs the
// model again without rotation, in every layer or in one, and is disabled for GPT-2; the
// caption, the grid's tooltips, the hover line and the head view say which K/V head a query
// head shares; the head patterns name what each head does most (an attention sink is the
// first thing learners see in these models).
#include "fileheaddialog.h"
#include "headpatternsmodel.h"
#include "languagemodelwindow.h"
#include "modelgrid.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "modelwindow.h"
#include "tinygpt2.h"

#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QTemporaryDir>

#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

const char* const kText = "The cat sat on the";

// The largest difference between the weights of two runs' layer `layer` (all: −1).
double largestDifference(const ModelRun& a, const ModelRun& b, int layer = -1)
{
    const StackShape& s = a.attention->shape();
    double largest = 0;
    for (int l = 0; l < s.layers; ++l)
        for (int h = 0; h < s.heads; ++h)
            if (layer < 0 || l == layer)
                largest = std::max(largest,
                                   double((a.attention->head(l, 0, h) - b.attention->head(l, 0, h))
                                              .cwiseAbs()
                                              .maxCoeff()));
    return largest;
}

} // namespace

class TestLlamaWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theRopeCheckRunsWithoutRotation_data();
    void theRopeCheckRunsWithoutRotation();
    void setSwitchesShowsTheRopeSwitch();
    void theRopeCheckIsDisabledForGpt2();
    void kvSharing_data();
    void kvSharing();
    void theWindowSaysWhichKvHeadAHeadShares();
    void theHeadPatternsNameWhatEachHeadDoes_data();
    void theHeadPatternsNameWhatEachHeadDoes();
    void theHeadPatternsFitTheirSide();
    void todaysSwitchesActInsideTheModel();

private:
    void waitForRun();

    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestLlamaWindow::initTestCase()
{
    model_ = openModel(ATTN_REFERENCE_DIR "/llama/qwen3-bf16");
    QVERIFY(model_->info().rotary);
    QCOMPARE(model_->info().heads, 4);
    QCOMPARE(model_->info().kvHeads, 2);
}

void TestLlamaWindow::init()
{
    window_ = std::make_unique<LanguageModelWindow>(model_, model_->run(kText, {}),
                                                    QString::fromUtf8(kText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestLlamaWindow::cleanup()
{
    window_.reset();
}

void TestLlamaWindow::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
    QVERIFY(!window_->running());
}

void TestLlamaWindow::theRopeCheckRunsWithoutRotation_data()
{
    QTest::addColumn<int>("onlyLayer");
    QTest::addColumn<QString>("where");
    QTest::newRow("every layer") << -1 << "in every layer";
    QTest::newRow("only layer 1") << 1 << "in layer 1 only";
}

// The user's path: the check is on and enabled for a rotary model; clicking it off runs
// the model again as runIds with rope = false, and the departures line names it.
void TestLlamaWindow::theRopeCheckRunsWithoutRotation()
{
    QFETCH(int, onlyLayer);
    QFETCH(QString, where);
    QCheckBox* rope = window_->ropeCheck();
    QVERIFY(rope->isEnabled());
    QVERIFY(rope->isChecked());
    QVERIFY(rope->isVisible());
    QVERIFY(!window_->departuresText().contains("RoPE"));
    const ModelRun textbook = model_->run(kText, {});
    window_->scopeCombo()->setCurrentIndex(window_->scopeCombo()->findData(onlyLayer));
    waitForRun();
    rope->click();
    waitForRun();
    const ModelRun shown = window_->shownRun();
    QCOMPARE(shown.switches.rope, false);
    QCOMPARE(shown.switches.onlyLayer, onlyLayer);
    ModelSwitches unrotated;
    unrotated.rope = false;
    unrotated.onlyLayer = onlyLayer;
    const ModelRun expected = model_->runIds(shown.ids, unrotated);
    QCOMPARE(largestDifference(shown, expected), 0.0);
    QVERIFY2(largestDifference(shown, textbook, 1) > 1e-3, "layer 1 is not rotated any more");
    // Only layer 1: layer 0 keeps its rotation.
    if (onlyLayer == 1)
        QCOMPARE(largestDifference(shown, textbook, 0), 0.0);
    QVERIFY2(window_->departuresText().contains("no rotary positions (RoPE)"),
             qPrintable(window_->departuresText()));
    QVERIFY(window_->departuresText().contains(where));
    // Compare A/B… sets the textbook model beside it.
    auto* compare = window_->findChild<QPushButton*>("compareAB");
    QVERIFY(compare);
    QVERIFY(compare->isEnabled());
    // On again: the textbook run.
    rope->click();
    waitForRun();
    QCOMPARE(largestDifference(window_->shownRun(), model_->runIds(shown.ids,
                                                                   [&] {
                                                                       ModelSwitches rotated;
                                                                       rotated.onlyLayer =
                                                                           onlyLayer;
                                                                       return rotated;
                                                                   }())),
             0.0);
    QVERIFY(!window_->departuresText().contains("RoPE"));
    QVERIFY(!compare->isEnabled());
}

void TestLlamaWindow::setSwitchesShowsTheRopeSwitch()
{
    ModelSwitches switches;
    switches.rope = false;
    window_->setSwitches(switches);
    waitForRun();
    QVERIFY(!window_->ropeCheck()->isChecked());
    QCOMPARE(window_->switches(), switches);
    QCOMPARE(window_->shownRun().switches.rope, false);
}

// GPT-2 adds learned positions to the embeddings: nothing to switch off, and the switch
// shows unticked, saying so.
void TestLlamaWindow::theRopeCheckIsDisabledForGpt2()
{
    QTemporaryDir dir;
    const QString folder = test::writeTinyGpt2(dir.filePath("tiny-random-gpt2"));
    const std::shared_ptr<const LanguageModel> gpt2 = openModel(folder.toStdString());
    QVERIFY(!gpt2->info().rotary);
    LanguageModelWindow window(gpt2, gpt2->run(kText, {}), QString::fromUtf8(kText));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(!window.ropeCheck()->isEnabled());
    QVERIFY(!window.ropeCheck()->isChecked());
    QVERIFY2(window.ropeCheck()->text().contains("learned positions"),
             qPrintable(window.ropeCheck()->text()));
    QVERIFY(window.switches().rope); // runs as trained
    QVERIFY(!window.departuresText().contains("RoPE"));
    QVERIFY(window.ropeCheck()->isVisible());
    QVERIFY(!window.captionText().contains("K/V"));
    QVERIFY(window.captionText().contains("2 heads"));
    // Its name and how to knock it out: no K/V head shared.
    QCOMPARE(window.modelView()->grid()->tileToolTip(1, 1),
             ModelGrid::tileName(1, 1) + " · K or right-click knocks it out");
}

void TestLlamaWindow::kvSharing_data()
{
    QTest::addColumn<int>("head");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<QString>("text");
    QTest::newRow("Qwen2.5-0.5B: 14 heads, 2 K/V heads, head 5")
        << 5 << 14 << 2 << "head 5 · shares K/V head 0 with heads 0–6";
    QTest::newRow("16 heads, 4 K/V heads, head 5")
        << 5 << 16 << 4 << "head 5 · shares K/V head 1 with heads 4–7";
    QTest::newRow("the last head")
        << 15 << 16 << 4 << "head 15 · shares K/V head 3 with heads 12–15";
    QTest::newRow("multi-query: one K/V head")
        << 2 << 4 << 1 << "head 2 · shares K/V head 0 with heads 0–3";
    QTest::newRow("every head its own (GPT-2)") << 5 << 12 << 12 << "";
    QTest::newRow("no K/V heads given") << 5 << 12 << 0 << "";
}

void TestLlamaWindow::kvSharing()
{
    QFETCH(int, head);
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(QString, text);
    QCOMPARE(ModelGrid::kvSharing(head, heads, kvHeads), text);
}

void TestLlamaWindow::theWindowSaysWhichKvHeadAHeadShares()
{
    QVERIFY2(window_->captionText().contains("4 query heads, 2 K/V heads"),
             qPrintable(window_->captionText()));
    ModelWindow* view = window_->modelView();
    QCOMPARE(view->grid()->tileToolTip(1, 3),
             "Layer 1, head 3 · shares K/V head 1 with heads 2–3 · K or right-click knocks it out");
    // The hover line, as the mouse moves over tile (0, 1).
    QTest::mouseMove(view->grid(), view->grid()->tileRect(0, 1).center());
    QVERIFY2(view->hoverText().contains("shares K/V head 0 with heads 0–1"),
             qPrintable(view->hoverText()));
    view->openHead(1, 2);
    QVERIFY(view->headDialog());
    QVERIFY2(
        view->headDialog()->summaryText().startsWith("head 2 · shares K/V head 1 with heads 2–3"),
        qPrintable(view->headDialog()->summaryText()));
}

void TestLlamaWindow::theHeadPatternsNameWhatEachHeadDoes_data()
{
    QTest::addColumn<double>("previous");
    QTest::addColumn<double>("self");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("entropy");
    QTest::addColumn<QString>("name");
    // entropyMax is 2 bits throughout: broad from 1.6 bits (80 %).
    QTest::newRow("0.9 on the first token")
        << 0.05 << 0.05 << 0.9 << 0.5 << "attention sink (first token)";
    QTest::newRow("just over half on the first")
        << 0.2 << 0.1 << 0.5001 << 1.0 << "attention sink (first token)";
    QTest::newRow("exactly half: not named by it")
        << 0.2 << 0.1 << 0.5 << 1.0 << "no clear pattern";
    QTest::newRow("previous token") << 0.7 << 0.1 << 0.1 << 1.0 << "previous token";
    QTest::newRow("self") << 0.1 << 0.6 << 0.1 << 1.0 << "self";
    QTest::newRow("two over half: the larger")
        << 0.55 << 0.0 << 0.6 << 1.0 << "attention sink (first token)";
    QTest::newRow("broad (random weights)") << 0.2 << 0.2 << 0.2 << 1.7 << "broad";
    QTest::newRow("focused elsewhere") << 0.2 << 0.1 << 0.1 << 0.9 << "no clear pattern";
}

// Every head is named after what it does most, in the table's Pattern column, with the
// thresholds in its tooltip, and the heads of one role sort together.
void TestLlamaWindow::theHeadPatternsNameWhatEachHeadDoes()
{
    QFETCH(double, previous);
    QFETCH(double, self);
    QFETCH(double, first);
    QFETCH(double, entropy);
    QFETCH(QString, name);
    HeadPatterns patterns;
    patterns.previous = previous;
    patterns.self = self;
    patterns.first = first;
    patterns.entropy = entropy;
    patterns.entropyMax = 2.0;
    patterns.queries = 4;
    HeadPatterns other = patterns; // a previous-token head
    other.previous = 0.9;
    other.self = other.first = 0.05;
    HeadPatternsModel model;
    model.setPatterns({other, patterns}, 2, 5);
    QCOMPARE(model.headerData(HeadPatternsModel::Named, Qt::Horizontal, Qt::DisplayRole).toString(),
             "Pattern");
    QCOMPARE(model.index(1, HeadPatternsModel::Named).data().toString(), name);
    QCOMPARE(model.index(0, HeadPatternsModel::Named).data().toString(), "previous token");
    // The whole name on hover (the column may be too narrow for it), and how it was decided.
    const QString tip = model.index(1, HeadPatternsModel::Named).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(name) && tip.contains("0.5") && tip.contains("80%"), qPrintable(tip));
    const QString header =
        model.headerData(HeadPatternsModel::Named, Qt::Horizontal, Qt::ToolTipRole).toString();
    QVERIFY2(header.contains("0.5") && header.contains("80%"), qPrintable(header));
    model.sort(HeadPatternsModel::Named, Qt::AscendingOrder); // previous token first
    QCOMPARE(model.headAt(0), 0);
    model.sort(HeadPatternsModel::Named, Qt::DescendingOrder);
    QCOMPARE(model.headAt(0), name == "previous token" ? 0 : 1);
}

// In the language model window the table of head patterns fits beside the heads: the
// numbers as wide as they are, the Pattern column taking what is left (its names cut, whole
// on hover), no horizontal scrolling to reach it.
void TestLlamaWindow::theHeadPatternsFitTheirSide()
{
    QTableView* table = window_->modelView()->patternsTable();
    QVERIFY(table->isVisible());
    QCOMPARE(table->horizontalHeader()->sectionResizeMode(HeadPatternsModel::Named),
             QHeaderView::Stretch);
    QTRY_COMPARE(table->horizontalScrollBar()->maximum(), 0);
    const int named = table->horizontalHeader()->sectionViewportPosition(HeadPatternsModel::Named);
    QVERIFY(named >= 0 && named < table->viewport()->width());
}

// Today's switches in a model's window: the cap, the window and the sink only (the K/V
// heads, QK-norm, positions and ALiBi are the weights'); Mistral starts with its own window,
// which is no departure, and switching it off is one.
void TestLlamaWindow::todaysSwitchesActInsideTheModel()
{
    auto* todays = window_->findChild<QGroupBox*>(QStringLiteral("todaysGroup"));
    QVERIFY(todays);
    QVERIFY(todays->isVisible());
    QVERIFY(!window_->findChild<QComboBox*>(QStringLiteral("kvHeadsCombo"))->isVisible());
    QVERIFY(!window_->findChild<QCheckBox*>(QStringLiteral("alibiCheck"))->isVisible());
    auto* sink = window_->findChild<QCheckBox*>(QStringLiteral("sinkCheck"));
    QVERIFY(sink->isVisible());
    sink->click();
    waitForRun();
    ModelSwitches sunk;
    sunk.formula.sink = 0.0f;
    QCOMPARE(window_->shownRun().switches.formula.sink, std::optional<float>(0.0f));
    QCOMPARE(largestDifference(window_->shownRun(), model_->runIds(window_->shownRun().ids, sunk)),
             0.0);
    QVERIFY(window_->departuresText().contains("sink"));

    const auto mistral = openModel(ATTN_REFERENCE_DIR "/llama/mistral-f32");
    LanguageModelWindow own(mistral, mistral->run(kText, ModelSwitches{}),
                            QString::fromUtf8(kText));
    own.show();
    QVERIFY(QTest::qWaitForWindowExposed(&own));
    QCOMPARE(own.switches().formula.window, 4);
    QVERIFY(!own.departuresText().contains("window"));
    auto* window = own.findChild<QCheckBox*>(QStringLiteral("windowCheck"));
    QVERIFY(window->isChecked());
    window->click();
    QCOMPARE(own.switches().formula.window, 0);
    QVERIFY(own.departuresText().contains("no sliding window"));
}

QTEST_MAIN(TestLlamaWindow)
#include "tst_llamawindow.moc"
