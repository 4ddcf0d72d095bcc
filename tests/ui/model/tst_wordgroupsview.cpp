// The language model window's "Group into words" (按词合并): off at first; on, the model
// view and the head view show attention by word (runwords.h) with the words as labels,
// for the run shown and each new one; pointing at a word's row predicts after its last
// token; off again, the tokens come back; captions and suggested file names say "by word"
// in the interface's language; closing the head view under the mouse lets the predictions
// rest at the end of the text again. On a tiny random GPT-2 whose Chinese characters are
// byte pieces.
#include "fileheaddialog.h"
#include "heatmapview.h"
#include "language.h"
#include "languagemodelwindow.h"
#include "modelfigure.h"
#include "modelgrid.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "models/runwords.h"
#include "modelwindow.h"
#include "predictionpanel.h"
#include "tinygpt2.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

const QString kChinese = QStringLiteral("我喜欢这个产品");

std::vector<std::string> labelsOf(const std::vector<WordGroup>& words)
{
    std::vector<std::string> labels;
    for (const WordGroup& word : words)
        labels.push_back(word.label);
    return labels;
}

} // namespace

class TestWordGroupsView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void offAtFirst();
    void groupedHeatmapsAndLabels();
    void aNewRunStaysGrouped();
    void hoverPredictsAfterTheWord();
    void byWordIsSaidInTheInterfaceLanguage();
    void closingTheHeadViewEndsItsHover();
    void exportFigureOpensAfterTheHeadViewCloses();

private:
    void waitForRun();

    QTemporaryDir dir_;
    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestWordGroupsView::initTestCase()
{
    const QString folder = test::writeTinyGpt2(dir_.filePath("tiny-random-gpt2"));
    model_ = openModel(folder.toStdString());
}

void TestWordGroupsView::init()
{
    window_ = std::make_unique<LanguageModelWindow>(model_, model_->run(kChinese.toStdString(), {}),
                                                    kChinese);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestWordGroupsView::cleanup()
{
    window_.reset();
}

void TestWordGroupsView::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
    QVERIFY(!window_->running());
}

void TestWordGroupsView::offAtFirst()
{
    QCheckBox* check = window_->findChild<QCheckBox*>(QStringLiteral("groupWords"));
    QVERIFY(check);
    QCOMPARE(check, window_->groupWordsCheck());
    QVERIFY(!check->isChecked());
    QVERIFY(window_->shownWords().empty());
    const ModelRun& run = window_->shownRun();
    QCOMPARE(window_->modelView()->stack().shape().queries, int(run.ids.size()));
}

// On: every head W × W as wordAttention makes it of the run's own head, the words as the
// labels, in the grid and in the head view; off: the tokens again.
void TestWordGroupsView::groupedHeatmapsAndLabels()
{
    const ModelRun& run = window_->shownRun();
    const int tokens = int(run.ids.size());
    QCOMPARE(tokens, 21); // seven characters, three byte tokens each
    window_->groupWordsCheck()->setChecked(true);
    const std::vector<WordGroup>& words = window_->shownWords();
    QCOMPARE(labelsOf(words), (std::vector<std::string>{"我", "喜欢", "这个", "产品"}));
    // the prediction panel names the last word, not the last byte piece (⋯)
    QTRY_VERIFY2(window_->predictionPanel()->title().contains(QStringLiteral("产品")),
                 qPrintable(window_->predictionPanel()->title()));
    const AttentionStack& shown = window_->modelView()->stack();
    QCOMPARE(shown.shape(), (StackShape{2, 1, 2, 4, 4}));
    QCOMPARE(shown.queryTokens(), labelsOf(words));
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 2; ++h) {
            const Matrix expected = wordAttention(run.attention->head(l, 0, h), words);
            QVERIFY(shown.head(l, 0, h).isApprox(expected, 1e-6f));
            for (int i = 0; i < 4; ++i)
                QVERIFY(std::abs(shown.head(l, 0, h).row(i).sum() - 1.0f) < 1e-5f);
        }
    window_->modelView()->openHead(1, 0);
    FileHeadDialog* head = window_->modelView()->headDialog();
    QVERIFY(head);
    QCOMPARE(head->view()->cells(), QSize(4, 4));
    QCOMPARE(head->view()->data().queryLabels,
             (QStringList{QStringLiteral("我"), QStringLiteral("喜欢"), QStringLiteral("这个"),
                          QStringLiteral("产品")}));

    window_->groupWordsCheck()->setChecked(false);
    QVERIFY(window_->shownWords().empty());
    QCOMPARE(window_->modelView()->stack().shape().queries, tokens);
    QCOMPARE(window_->modelView()->stack().head(1, 0, 1), run.attention->head(1, 0, 1));
}

void TestWordGroupsView::aNewRunStaysGrouped()
{
    window_->groupWordsCheck()->setChecked(true);
    window_->setText(QStringLiteral("这个产品"));
    waitForRun();
    QCOMPARE(labelsOf(window_->shownWords()), (std::vector<std::string>{"这个", "产品"}));
    QCOMPARE(window_->modelView()->stack().shape().queries, 2);
    ModelSwitches switches;
    switches.formula.scale = ScaleMode::None;
    window_->setSwitches(switches);
    waitForRun();
    QCOMPARE(window_->shownRun().switches, switches);
    const Matrix expected =
        wordAttention(window_->shownRun().attention->head(0, 0, 1), window_->shownWords());
    QVERIFY(window_->modelView()->stack().head(0, 0, 1).isApprox(expected, 1e-6f));
}

// Pointing at word 1's row (喜欢, tokens 3 … 8) predicts after its last token, 8, and the
// panel names the word.
void TestWordGroupsView::hoverPredictsAfterTheWord()
{
    window_->groupWordsCheck()->setChecked(true);
    PredictionPanel* panel = window_->predictionPanel();
    ModelGrid* grid = window_->modelView()->grid();
    window_->modelView()->fitGrid();
    const QRect tile = grid->tileRect(1, 1);
    const int words = int(window_->shownWords().size());
    QCOMPARE(words, 4);
    const int y = tile.top() + int(1.5 * tile.height() / words);
    QTest::mouseMove(grid, QPoint(tile.center().x(), y));
    QTRY_COMPARE(window_->modelView()->hoveredQuery(), 1);
    QTRY_COMPARE(panel->position(), 8);
    QCOMPARE(panel->predictions(), window_->shownRun().predictions(8));
    // named after the word, not after its last byte piece (⋯)
    QVERIFY2(panel->title().contains(QStringLiteral("喜欢")), qPrintable(panel->title()));
}

void TestWordGroupsView::byWordIsSaidInTheInterfaceLanguage()
{
    window_->groupWordsCheck()->setChecked(true);
    const AttentionStack& shown = window_->modelView()->stack();
    QVERIFY(shown.wordGrouped());
    QCOMPARE(shown.source(), window_->shownRun().attention->source()); // no English added
    FileFigureOptions options;
    Language language;
    QVERIFY(language.apply("en"));
    QVERIFY2(stackName(shown).endsWith(" (by word)"), qPrintable(stackName(shown)));
    QVERIFY2(stackFileStem(shown).endsWith("-by-word"), qPrintable(stackFileStem(shown)));
    QVERIFY(fileFigureCaption(shown, options).contains("(by word)"));
    QVERIFY(language.apply("zh_CN"));
    for (const QString& said :
         {stackName(shown), stackFileStem(shown), fileFigureCaption(shown, options),
          window_->modelView()->windowTitle()}) {
        QVERIFY2(said.contains(QStringLiteral("按词")) && !said.contains("word"), qPrintable(said));
    }
    QVERIFY(!stackFileStem(shown).contains(u' '));
    QVERIFY(language.apply("en"));
    // By token, nothing is added.
    window_->groupWordsCheck()->setChecked(false);
    QCOMPARE(stackName(window_->modelView()->stack()),
             QFileInfo(QString::fromStdString(window_->shownRun().attention->source())).fileName());
}

void TestWordGroupsView::closingTheHeadViewEndsItsHover()
{
    window_->modelView()->openHead(0, 1);
    FileHeadDialog* head = window_->modelView()->headDialog();
    QVERIFY(head && head->isVisible());
    // A file's or a run's heads hold weights only: the hint promises no logit or score.
    const QString hint = head->findChild<QLabel*>("headHover")->text();
    QVERIFY2(hint.contains("weight") && !hint.contains("logit") && !hint.contains("score"),
             qPrintable(hint));
    emit head->view()->cellHovered(5, 2); // the mouse over row 5
    QCOMPARE(window_->modelView()->hoveredQuery(), 5);
    QTRY_VERIFY(!window_->predictionPanel()->atLast());
    head->close(); // under the mouse: no "left" comes
    QCOMPARE(window_->modelView()->hoveredQuery(), -1);
    QTRY_VERIFY(window_->predictionPanel()->atLast());
}

// Export Figure right after a head view closed: its save dialog comes up in front and
// active (a dialog mapped out of sight would leave every button dead), each time.
void TestWordGroupsView::exportFigureOpensAfterTheHeadViewCloses()
{
    auto* button = window_->modelView()->findChild<QPushButton*>(QStringLiteral("exportFigure"));
    QVERIFY(button);
    for (int attempt = 0; attempt < 2; ++attempt) {
        window_->modelView()->openHead(1, 1);
        FileHeadDialog* head = window_->modelView()->headDialog();
        QVERIFY(QTest::qWaitForWindowActive(head));
        head->close();
        bool shown = false;
        bool active = false;
        QTimer::singleShot(0, this, [&] {
            auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            shown = dialog->isVisible();
            active = QTest::qWaitForWindowActive(dialog);
            dialog->reject();
        });
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY2(shown, "no save dialog came up");
        QVERIFY2(active, "the save dialog is not the active window");
    }
}

QTEST_MAIN(TestWordGroupsView)
#include "tst_wordgroupsview.moc"
