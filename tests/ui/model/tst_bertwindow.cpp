// The window of a BERT model (the tiny random checkpoint of tests/reference/bert): the
// prediction panel shows the masked-LM head's fill-ins of each [MASK] (a tab each) instead
// of next tokens, the hint to type [MASK] when there is none, that position's distribution
// at a query row pointed at; the causal switch (not the textbook here) changes them, and
// Compare A/B sets both formulas' fill-ins for the [MASK] side by side; a BERT folder opens
// on its own first text, unmasked; a BERT GGUF file, without the head, shows attention only.
#include "languagemodelwindow.h"
#include "modelcomparebutton.h"
#include "modelcomparedialog.h"
#include "modelgrid.h"
#include "modelopener.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "modelwindow.h"
#include "predictionpanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabBar>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

const QString kFolder = QStringLiteral(ATTN_REFERENCE_DIR "/bert/bert-f32");
const QString kTwoMasks = QStringLiteral("巴黎是[MASK]国的[MASK]都。");

ModelSwitches causal()
{
    ModelSwitches switches;
    switches.formula = ModelSwitches::textbookFormula(true);
    return switches;
}

} // namespace

class TestBertWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fillInsOfTheMask();
    void aTabForEachMask();
    void noMaskShowsTheHint();
    void theCausalSwitchChangesTheFillIns();
    void hoverShowsThatPositionsDistribution();
    void compareSetsTheFillInsSideBySide();
    void aLongTextIsCutToWhatTheModelReads();
    void aBertFolderOpensUnmasked();
    void aGgufFileWithoutTheHeadShowsAttentionOnly();

private:
    void waitForRun();
    void type(const QString& text);

    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestBertWindow::initTestCase()
{
    model_ = openModel(kFolder.toStdString());
    QVERIFY(!model_->info().causal);
}

void TestBertWindow::init()
{
    const char* text = LanguageModelWindow::firstText(model_->info());
    window_ = std::make_unique<LanguageModelWindow>(
        model_, model_->run(text, LanguageModelWindow::firstSwitches(model_->info())),
        QString::fromUtf8(text));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestBertWindow::cleanup()
{
    window_.reset();
}

void TestBertWindow::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
    QVERIFY(!window_->running());
}

void TestBertWindow::type(const QString& text)
{
    window_->setText(text);
    waitForRun();
    QVERIFY2(window_->refusal().isEmpty(), qPrintable(window_->refusal()));
}

// The first text's one [MASK] (position 4, after [CLS] 巴 黎 是): its top 10, the title
// saying so; the window runs BERT's own formula, without a mask.
void TestBertWindow::fillInsOfTheMask()
{
    PredictionPanel* panel = window_->predictionPanel();
    QCOMPARE(window_->text(), QString::fromUtf8(LanguageModelWindow::kFirstMaskedText));
    QVERIFY(panel->maskedLanguageModel());
    QCOMPARE(panel->masks(), std::vector<int>{4});
    QTRY_COMPARE(panel->position(), 4);
    QCOMPARE(panel->predictions(), window_->shownRun().predictions(4));
    QCOMPARE(panel->predictions().size(), std::size_t(10));
    QVERIFY2(panel->title().contains("[MASK] at position 4"), qPrintable(panel->title()));
    QVERIFY(!panel->title().contains("Next token"));
    QCOMPARE(window_->switches().formula.mask, MaskKind::None);
    QVERIFY2(window_->departuresText().contains("textbook formula"),
             qPrintable(window_->departuresText()));
}

void TestBertWindow::aTabForEachMask()
{
    type(kTwoMasks);
    PredictionPanel* panel = window_->predictionPanel();
    const ModelRun& run = window_->shownRun();
    QCOMPARE(panel->masks(), (std::vector<int>{4, 7}));
    QCOMPARE(panel->maskTabs()->count(), 2);
    QVERIFY(panel->maskTabs()->isVisible());
    QCOMPARE(panel->maskTabs()->tabText(1), QStringLiteral("[MASK] at 7"));
    QTRY_COMPARE(panel->position(), 4);
    QCOMPARE(panel->predictions(), run.predictions(4));
    panel->chooseMask(1);
    QTRY_COMPARE(panel->position(), 7);
    QCOMPARE(panel->predictions(), run.predictions(7));
    QVERIFY(panel->predictions() != run.predictions(4));
    // A new run keeps the [MASK] chosen.
    window_->setSwitches(causal());
    waitForRun();
    QCOMPARE(panel->chosenMask(), 7);
    QTRY_COMPARE(panel->position(), 7);
    QCOMPARE(panel->predictions(), window_->shownRun().predictions(7));
}

void TestBertWindow::noMaskShowsTheHint()
{
    type(QStringLiteral("巴黎是法国的首都。"));
    PredictionPanel* panel = window_->predictionPanel();
    QVERIFY(panel->masks().empty());
    QVERIFY(!panel->maskTabs()->isVisible());
    QTRY_VERIFY(panel->predictions().empty());
    QCOMPARE(panel->position(), -1);
    QCOMPARE(panel->title(), PredictionPanel::noMaskHint());
    QCOMPARE(panel->title(), QStringLiteral("Type [MASK] in the sentence to see what BERT would "
                                            "fill in"));
    // Typing one brings the fill-ins back.
    type(QString::fromUtf8(LanguageModelWindow::kFirstMaskedText));
    QTRY_COMPARE(panel->position(), 4);
    QCOMPARE(panel->predictions(), window_->shownRun().predictions(4));
}

void TestBertWindow::theCausalSwitchChangesTheFillIns()
{
    PredictionPanel* panel = window_->predictionPanel();
    QTRY_COMPARE(panel->position(), 4);
    const std::vector<Prediction> textbook = panel->predictions();
    window_->setSwitches(causal());
    waitForRun();
    const ModelRun expected =
        model_->run(LanguageModelWindow::kFirstMaskedText, window_->switches());
    QTRY_COMPARE(panel->predictions(), expected.predictions(4));
    QVERIFY(panel->predictions() != textbook);
    QVERIFY2(window_->departuresText().contains("causal mask"),
             qPrintable(window_->departuresText()));
    // The first row now sees only itself: the causal mask is inside every layer.
    const int T = int(expected.ids.size());
    for (int l = 0; l < 2; ++l)
        QCOMPARE(window_->shownRun().attention->head(l, 0, 0).row(0).tail(T - 1).sum(), 0.0f);
}

void TestBertWindow::hoverShowsThatPositionsDistribution()
{
    PredictionPanel* panel = window_->predictionPanel();
    const ModelRun& run = window_->shownRun();
    const int tokens = int(run.ids.size());
    QTRY_COMPARE(panel->position(), 4);
    ModelGrid* grid = window_->modelView()->grid();
    const QRect tile = grid->tileRect(1, 1);
    const int row = 2;
    QTest::mouseMove(
        grid, QPoint(tile.center().x(), tile.top() + int((row + 0.5) * tile.height() / tokens)));
    QTRY_COMPARE(window_->modelView()->hoveredQuery(), row);
    QTRY_COMPARE(panel->position(), row);
    QCOMPARE(panel->predictions(), run.predictions(row));
    QVERIFY(!panel->atLast());
    QVERIFY2(panel->title().contains("position 2, the query row pointed at"),
             qPrintable(panel->title()));
    QTest::mouseMove(grid, QPoint(1, 1)); // off the tiles: back to the [MASK]
    QTRY_COMPARE(panel->position(), 4);
    QVERIFY(panel->atLast());
}

// Compare A/B answers the [MASK] (position 4) on both sides, not the last position ([SEP]):
// A's list is the unmasked textbook BERT's fill-ins, B's the causal one's, and the headings
// say what they are.
void TestBertWindow::compareSetsTheFillInsSideBySide()
{
    window_->setSwitches(causal());
    waitForRun();
    auto* button = window_->findChild<ModelCompareButton*>("compareAB");
    QVERIFY(button && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    ModelCompareDialog* dialog = button->dialog();
    QVERIFY(dialog);
    QTRY_VERIFY_WITH_TIMEOUT(dialog->ready(), 20000);
    const ModelRun textbook = model_->run(LanguageModelWindow::kFirstMaskedText,
                                          LanguageModelWindow::firstSwitches(model_->info()));
    const std::vector<Prediction> a = textbook.predictions(4);
    const std::vector<Prediction> b = window_->shownRun().predictions(4);
    QVERIFY(a != b);
    QCOMPARE(dialog->predictionsA()->topLevelItemCount(), 10);
    for (int i = 0; i < 10; ++i) {
        QVERIFY(dialog->predictionsA()->topLevelItem(i)->text(1).contains(
            QString::fromStdString(a[std::size_t(i)].label)));
        QVERIFY(dialog->predictionsB()->topLevelItem(i)->text(1).contains(
            QString::fromStdString(b[std::size_t(i)].label)));
    }
    QStringList headings;
    for (const QLabel* label : dialog->findChildren<QLabel*>())
        if (label->text().contains("fill-ins for [MASK] at position 4"))
            headings << label->text();
    QCOMPARE(headings.size(), 2); // A's and B's
    QVERIFY(!headings.join(u' ').contains("next tokens"));
}

// 90 characters, one token each, are more than the 64 positions: "Cut to 64 Tokens" keeps
// the first 62 ([CLS] and [SEP] are the other two), though BERT's tokens do not spell the
// text's bytes (an English word lowercased, "##" pieces).
void TestBertWindow::aLongTextIsCutToWhatTheModelReads()
{
    const QString text = QStringLiteral("巴黎是法国的首都。").repeated(10);
    const std::vector<int> before = window_->shownRun().ids;
    window_->setText(text);
    waitForRun();
    QVERIFY2(window_->refusal().contains("at most 64"), qPrintable(window_->refusal()));
    QCOMPARE(window_->shownRun().ids, before);
    auto* cut = window_->findChild<QPushButton*>("cutText");
    QVERIFY(cut && cut->isVisible());
    QCOMPARE(cut->text(), QStringLiteral("Cut to 64 Tokens"));
    cut->click();
    waitForRun();
    QVERIFY2(window_->refusal().isEmpty(), qPrintable(window_->refusal()));
    QCOMPARE(window_->text(), text.left(62));
    QCOMPARE(window_->shownRun().ids.size(), std::size_t(64));

    // Uppercase Latin words, which BERT lowercases and cuts into pieces.
    const QString words = QStringLiteral("Paris ").repeated(70);
    window_->setText(words);
    waitForRun();
    QVERIFY(cut->isVisible());
    cut->click();
    waitForRun();
    QVERIFY2(window_->refusal().isEmpty(), qPrintable(window_->refusal()));
    QVERIFY(words.startsWith(window_->text()));
    const std::size_t kept = window_->shownRun().ids.size();
    QVERIFY(kept <= 64);
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    model_->tokenize(words.left(window_->text().size() + 1).toStdString(), ids, labels);
    QVERIFY2(ids.size() > 64, "one character more would not fit");
}

void TestBertWindow::aBertFolderOpensUnmasked()
{
    QWidget parent;
    ModelOpener opener(&parent);
    QSignalSpy opened(&opener, &ModelOpener::opened);
    opener.open(kFolder);
    QVERIFY(opened.wait(20000));
    auto* window = opened.first().first().value<LanguageModelWindow*>();
    QVERIFY(window);
    QCOMPARE(window->text(), QString::fromUtf8(LanguageModelWindow::kFirstMaskedText));
    QCOMPARE(window->shownRun().switches.formula.mask, MaskKind::None);
    const ModelRun expected = model_->run(LanguageModelWindow::kFirstMaskedText,
                                          LanguageModelWindow::firstSwitches(model_->info()));
    QCOMPARE(window->shownRun().hidden, expected.hidden);
    QTRY_COMPARE(window->predictionPanel()->position(), 4);
}

// A BERT GGUF file (llama.cpp's converter drops the masked-LM head): its attention shows,
// and the panel says there is nothing to fill in, wherever the pointer is.
void TestBertWindow::aGgufFileWithoutTheHeadShowsAttentionOnly()
{
    window_.reset(); // init()'s window would take the pointer
    const auto model = openModel(ATTN_REFERENCE_DIR "/gguf/bert-f32.gguf");
    QVERIFY(!model->info().predicts);
    const char* text = LanguageModelWindow::firstText(model->info());
    LanguageModelWindow window(model,
                               model->run(text, LanguageModelWindow::firstSwitches(model->info())),
                               QString::fromUtf8(text));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    PredictionPanel* panel = window.predictionPanel();
    QCOMPARE(panel->title(), PredictionPanel::noHeadMessage());
    QVERIFY(panel->predictions().empty());
    QVERIFY(!panel->maskTabs()->isVisible());
    QCOMPARE(window.shownRun().attention->shape().layers, 2);
    ModelGrid* grid = window.modelView()->grid();
    const QRect tile = grid->tileRect(1, 1);
    const int tokens = int(window.shownRun().ids.size()), row = 2;
    QTest::mouseMove(
        grid, QPoint(tile.center().x(), tile.top() + int((row + 0.5) * tile.height() / tokens)));
    QTRY_COMPARE(window.modelView()->hoveredQuery(), row);
    QCOMPARE(panel->title(), PredictionPanel::noHeadMessage());
    QVERIFY(panel->predictions().empty());
}

QTEST_MAIN(TestBertWindow)
#include "tst_bertwindow.moc"
