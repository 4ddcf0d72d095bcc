// The main window driven as a person would: type, flip switches, hover, change language.
// Its view switches are in tst_viewactions, its files and settings in tst_windowfiles.
#include "comparedialog.h"
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "engine/embedding.h"
#include "figure.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "lab/presets.h"
#include "labels.h"
#include "language.h"
#include "mainwindow.h"
#include "pipelinedialog.h"
#include "pipelinestrip.h"
#include "presetpanel.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "tokenchips.h"
#include "windowtest.h"

#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolBar>

using namespace attn::ui;
using namespace attn::test;

class TestMainWindow : public WindowTest {
    Q_OBJECT

private slots:
    void opensWithTheExampleComputed();
    void typingUpdatesChipsAndHeatmaps();
    void theGridTakesTheWorkersOverview();
    void crossAttentionThroughTheWindow();
    void embeddingEditorChangesTheHeatmapsAtOnce();
    void refusalsSpeakTheInterfaceLanguage();
    void eachSwitchReachesTheEngine_data();
    void eachSwitchReachesTheEngine();
    void headsOfferedAreDivisors();
    void hoverNamesTokensInTheStatusBar();
    void keyboardReachesTheHeatmaps();
    void largeSwitchLetsGoOfWhatItShows();
    void busyUntilTheNewestOutcomeIsOut();
    void languageSwitchRetranslates();
    void presetFromTheMenu();
    void presetPanelSaysWhenItIsLeft_data();
    void presetPanelSaysWhenItIsLeft();
    void chineseGlyphsAreAvailable();
    void emojiGlyphsAreAvailable();
};

void TestMainWindow::opensWithTheExampleComputed()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const attn::Result& r = w->lastResult();
    QCOMPARE(QString::fromStdString(r.request.text), exampleSentence("en"));
    QCOMPARE(w->heatmapGrid()->count(), r.heads() + 1); // every head and the mean
    QCOMPARE(w->heatmapGrid()->view(0)->data().rows(), r.length());
    QCOMPARE(w->heatmapGrid()->view(0)->data().queryLabels.first(), QStringLiteral("The"));
}

void TestMainWindow::typingUpdatesChipsAndHeatmaps()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* edit = child<QPlainTextEdit>(w, "sentenceEdit");
    // QTest::keyClicks types ASCII only; an input method delivers Chinese as text.
    edit->selectAll();
    edit->insertPlainText(QStringLiteral("我喜欢这个产品的设计"));
    QTRY_COMPARE(w->lastResult().length(), 6);
    QCOMPARE(w->heatmapGrid()->view(0)->data().keyLabels,
             QStringList({"我", "喜欢", "这个", "产品", "的", "设计"}));

    // A second line makes a batch of two: the shorter one is padded.
    edit->insertPlainText(QStringLiteral("\n它很好"));
    QTRY_COMPARE(w->lastResult().batch(), 2);
    QCOMPARE(w->lastResult().tokens->lengths, std::vector<int>({6, 2}));
}

// The heads' mean and maxima come with the result from the compute thread, one per
// sequence; the grid's mean tile shows that very matrix (not one made again on the GUI
// thread), its colour scale the heads' maxima, also for the second sequence.
void TestMainWindow::theGridTakesTheWorkersOverview()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* edit = child<QPlainTextEdit>(w, "sentenceEdit");
    edit->selectAll();
    edit->insertPlainText(QStringLiteral("the cat sat on the mat\nit was tired"));
    QTRY_COMPARE(w->lastResult().batch(), 2);
    const attn::Result r = w->lastResult();
    QVERIFY(r.overviews);
    QCOMPARE(int(r.overviews->size()), 2);
    for (int b = 0; b < 2; ++b) {
        const attn::HeadsOverview expected = attn::overviewOfHeads(*r.weights, b);
        QVERIFY((*r.overviews)[std::size_t(b)].mean == expected.mean);
        QCOMPARE((*r.overviews)[std::size_t(b)].maxima, expected.maxima);
    }
    HeatmapGrid* grid = w->heatmapGrid();
    const int meanTile = grid->count() - 1;
    QVERIFY(grid->view(meanTile)->data().weights.sharesWith((*r.overviews)[0].mean));
    ViewOptions view = w->viewOptions();
    view.sequence = 1;
    w->setViewOptions(view);
    QVERIFY(grid->view(meanTile)->data().weights.sharesWith((*r.overviews)[1].mean));
    const std::vector<float>& maxima = (*r.overviews)[1].maxima;
    QCOMPARE(grid->view(0)->heatmapStyle().vmax,
             double(*std::max_element(maxima.begin(), maxima.end())));
}

void TestMainWindow::crossAttentionThroughTheWindow()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* attention = child<QComboBox>(w, "attentionCombo");
    auto* crossEdit = child<QPlainTextEdit>(w, "crossEdit");
    auto* causal = child<QCheckBox>(w, "causalCheck");
    auto* note = child<QLabel>(w, "crossNote");
    QVERIFY(!crossEdit->isVisible()); // self-attention: one text
    auto* tokenizer = child<QComboBox>(w, "tokenizerCombo");
    tokenizer->setCurrentIndex(tokenizer->findData(int(attn::TokenizerMode::Spaces)));
    child<QPlainTextEdit>(w, "sentenceEdit")->setPlainText(QStringLiteral("我 爱 机器学习"));
    causal->setChecked(true);
    QTRY_COMPARE(w->lastResult().config().mask, attn::MaskKind::Causal);

    // Cross-attention: the second editor shows, the causal mask goes off and is disabled,
    // and a note says why.
    attention->setCurrentIndex(attention->findData(int(attn::AttentionKind::Cross)));
    QVERIFY(crossEdit->isVisible());
    QVERIFY(note->isVisible() && note->text().contains(QStringLiteral("causal")));
    QVERIFY(!causal->isEnabled() && !causal->isChecked());
    crossEdit->setPlainText(QStringLiteral("I love machine learning"));
    QTRY_VERIFY(w->lastResult().isCross() && w->lastResult().keyLength() == 4);
    const attn::Result& r = w->lastResult();
    QVERIFY(r.isCross());
    QCOMPARE(r.config().mask, attn::MaskKind::None);
    QCOMPARE(r.length(), 3);
    const HeatmapData& data = w->heatmapGrid()->view(0)->data();
    QCOMPARE(data.weights.rows(), 3);
    QCOMPARE(data.weights.cols(), 4);
    QCOMPARE(data.queryLabels, QStringList({"我", "爱", "机器学习"}));
    QCOMPARE(data.keyLabels, QStringList({"I", "love", "machine", "learning"}));
    auto* crossChips = child<TokenChips>(w, "crossChips");
    QCOMPARE(crossChips->tokens().length(), 4);
    QVERIFY(crossChips->countText().contains(QStringLiteral("T_k = 4")));

    // A second text of the wrong line count is refused with a message; the heatmaps stay.
    child<QPlainTextEdit>(w, "sentenceEdit")->setPlainText(QStringLiteral("a b\nc d\ne f"));
    crossEdit->setPlainText(QStringLiteral("x\ny"));
    auto* chips = child<TokenChips>(w, "tokenChips");
    QTRY_VERIFY(chips->error().contains(QStringLiteral("2 lines")));
    QCOMPARE(w->lastResult().keyLength(), 4);

    // Back to self-attention: the causal mask comes back as it was, the second text stays.
    attention->setCurrentIndex(attention->findData(int(attn::AttentionKind::Self)));
    QVERIFY(causal->isEnabled() && causal->isChecked());
    QTRY_VERIFY(!w->lastResult().isCross() && w->lastResult().batch() == 3);
    QCOMPARE(w->lastResult().config().mask, attn::MaskKind::Causal);
    QCOMPARE(w->controlPanel()->request().crossText, std::string("x\ny"));
}

void TestMainWindow::embeddingEditorChangesTheHeatmapsAtOnce()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* tokenizer = child<QComboBox>(w, "tokenizerCombo");
    tokenizer->setCurrentIndex(tokenizer->findData(int(attn::TokenizerMode::Spaces)));
    chooseData(child<QComboBox>(w, "positionalCombo"),
               int(attn::Positional::None)); // x is the vector itself
    child<QPlainTextEdit>(w, "sentenceEdit")->setPlainText(QStringLiteral("the cat sat"));
    QTRY_VERIFY(w->lastResult().valid() && w->lastResult().length() == 3 &&
                w->lastResult().config().positional == attn::Positional::None);

    w->action(ActionId::EmbeddingEditor)->trigger();
    auto* editor = w->findChild<EmbeddingEditor*>();
    QVERIFY(editor && editor->isVisible());
    auto* tokens = child<QComboBox>(editor, "tokenCombo");
    QCOMPARE(tokens->count(), 3);
    editor->selectToken(QStringLiteral("cat"));
    auto x = [w](int t) { return Eigen::VectorXf((*w->lastResult().x)[0].row(t).transpose()); };

    // 1. A typed value reaches x at once (no debounce): x[cat][2] = -1.5.
    auto* table = child<QTableWidget>(editor, "vectorTable");
    QCOMPARE(table->rowCount(), 64);
    table->item(2, 0)->setText(QStringLiteral("-1.5"));
    QTRY_COMPARE(x(1)(2), -1.5f);
    QCOMPARE(w->controlPanel()->request().embeddingOverrides.at("cat")[2], -1.5f);
    // Not a number: refused with a note, the value stays.
    table->item(2, 0)->setText(QStringLiteral("abc"));
    QVERIFY(child<QLabel>(editor, "editorNote")->text().contains(QStringLiteral("not a number")));
    QCOMPARE(w->controlPanel()->request().embeddingOverrides.at("cat")[2], -1.5f);

    // 2. Copied from "sat": equal vectors, so equal keys, so every query gives the two
    // columns the same weight: the same up to float32's last bits, as in torch, since
    // OpenBLAS's AVX-512 kernels sum a product's last rows in another order than its
    // first (an edge kernel), so equal rows of x need not project to equal bits.
    editor->copyFrom(QStringLiteral("sat"));
    QTRY_VERIFY(x(1) == x(2));
    const attn::Matrix& p = w->lastResult().weights->at(0, 0);
    QVERIFY2(p.col(1).isApprox(p.col(2), 1e-5f),
             qPrintable(QString::number((p.col(1) - p.col(2)).cwiseAbs().maxCoeff())));

    // 3. Copied with noise σ = 0.1: close to "sat", not equal.
    editor->copyWithNoise(QStringLiteral("sat"), 0.1, 7);
    QTRY_VERIFY(x(1) != x(2));
    const float distance = (x(1) - x(2)).cwiseAbs().maxCoeff();
    QVERIFY2(distance > 0 && distance < 0.6f, qPrintable(QString::number(distance)));

    // 4. Reset: the table's vector again, and nothing edited is left.
    editor->resetToken();
    QTRY_VERIFY(w->controlPanel()->request().embeddingOverrides.empty());
    const attn::Vector table42 = attn::tokenVector(42, "cat", 64);
    QTRY_VERIFY(x(1) == table42);
}

void TestMainWindow::refusalsSpeakTheInterfaceLanguage()
{
    // Every kind of the core's refusals has a template in both languages, filled with
    // its numbers; the window shows it in the chosen one.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("QString::arg")));
    QCOMPARE(fillArguments(QStringLiteral("%1 and %2, %3"), {"a%2", "b"}),
             QStringLiteral("a%2 and b, %3"));
    const attn::Refusal kinds[] = {
        attn::Refusal::TextTooLong,  attn::Refusal::InvalidUtf8,    attn::Refusal::LineTooLong,
        attn::Refusal::TooManyLines, attn::Refusal::EmptyText,      attn::Refusal::CrossTextMissing,
        attn::Refusal::CrossLines,   attn::Refusal::DModelRange,    attn::Refusal::HeadsRange,
        attn::Refusal::HeadsDivide,  attn::Refusal::TemperatureNaN, attn::Refusal::TemperatureRange,
        attn::Refusal::CausalCross,  attn::Refusal::Memory,         attn::Refusal::MemoryBeside,
        attn::Refusal::OutOfMemory};
    QStringList english;
    for (const attn::Refusal kind : kinds)
        english << refusalText(attn::InputError("x", kind, {"7", "8", "9"}));
    QVERIFY(language_->apply("zh_CN"));
    for (std::size_t k = 0; k < std::size(kinds); ++k) {
        const QString chinese = refusalText(attn::InputError("x", kinds[k], {"7", "8", "9"}));
        QVERIFY2(chinese != english[qsizetype(k)] && chinese != QStringLiteral("x"),
                 qPrintable(english[qsizetype(k)]));
        QVERIFY2(!chinese.contains(u'%'), qPrintable(chinese)); // every argument filled
    }

    // Through the window: heads that do not divide d_model, refused by the core, in Chinese.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    attn::Request request = w->controlPanel()->request();
    request.config.dModel = 16;
    request.config.heads = 3;
    w->controller()->submit(request);
    auto* chips = child<TokenChips>(w, "tokenChips");
    QTRY_COMPARE(chips->error(), QStringLiteral("头数（3）必须能整除 d_model（16）。"));
    w->setLanguage("en");
    QCOMPARE(chips->error(), QStringLiteral("The number of heads (3) must divide d_model (16)."));
}

void TestMainWindow::eachSwitchReachesTheEngine_data()
{
    QTest::addColumn<QString>("control");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("expected"); // the switch as the CLI spells it

    QTest::newRow("scale=none") << "scaleCombo" << QVariant(int(attn::ScaleMode::None))
                                << "scale=none";
    QTest::newRow("axis=queries") << "axisCombo" << QVariant(int(attn::SoftmaxAxis::Queries))
                                  << "axis=queries";
    QTest::newRow("mask=causal") << "causalCheck" << QVariant(true) << "mask=causal";
    QTest::newRow("mask-fill=-1e9")
        << "maskFillCombo" << QVariant(int(attn::MaskFill::NegBillion)) << "mask-fill=-1e9";
    QTest::newRow("mask-stage=after-softmax")
        << "maskStageCombo" << QVariant(int(attn::MaskStage::AfterSoftmax))
        << "mask-stage=after-softmax";
    QTest::newRow("head-split=view")
        << "headSplitCombo" << QVariant(int(attn::HeadSplit::View)) << "head-split=view";
    QTest::newRow("embedding=torch")
        << "embeddingCombo" << QVariant(int(attn::EmbeddingMode::Torch)) << "embedding=torch";
    QTest::newRow("positional=none")
        << "positionalCombo" << QVariant(int(attn::Positional::None)) << "positional=none";
    QTest::newRow("positional=rope")
        << "positionalCombo" << QVariant(int(attn::Positional::Rope)) << "positional=rope";
    QTest::newRow("tokenizer=chars")
        << "tokenizerCombo" << QVariant(int(attn::TokenizerMode::Chars)) << "tokenizer=chars";
}

void TestMainWindow::eachSwitchReachesTheEngine()
{
    QFETCH(QString, control);
    QFETCH(QVariant, value);
    QFETCH(QString, expected);

    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    // The mask switches show their effect only with a mask present.
    if (control.startsWith("mask"))
        child<QCheckBox>(w, "causalCheck")->setChecked(true);
    QTRY_VERIFY(w->lastResult().valid());
    const attn::Result before = w->lastResult();

    QWidget* widget = w->findChild<QWidget*>(control);
    QVERIFY(widget);
    if (auto* check = qobject_cast<QCheckBox*>(widget))
        check->setChecked(value.toBool());
    else
        chooseData(qobject_cast<QComboBox*>(widget), value);

    const QStringList parts = expected.split('=');
    const QString option = parts[0], spelling = parts[1];
    auto current = [&] {
        const attn::Config& c = w->lastResult().config();
        if (option == "scale")
            return QString::fromLatin1(attn::spellingOf(c.scale));
        if (option == "axis")
            return QString::fromLatin1(attn::spellingOf(c.axis));
        if (option == "mask")
            return QString::fromLatin1(attn::spellingOf(c.mask));
        if (option == "mask-fill")
            return QString::fromLatin1(attn::spellingOf(c.maskFill));
        if (option == "mask-stage")
            return QString::fromLatin1(attn::spellingOf(c.maskStage));
        if (option == "head-split")
            return QString::fromLatin1(attn::spellingOf(c.headSplit));
        if (option == "embedding")
            return QString::fromLatin1(attn::spellingOf(c.embedding));
        if (option == "positional")
            return QString::fromLatin1(attn::spellingOf(c.positional));
        return QString::fromLatin1(attn::spellingOf(c.tokenizer));
    };
    QTRY_COMPARE(current(), spelling);

    // The numbers shown changed with it (the fill alone changes nothing visible in a
    // softmax over keys, where exp(-1e9) and exp(-inf) are both 0).
    // A tokenizer switch can change T, and Eigen compares matrices of one shape only.
    const attn::Matrix& weightsBefore = before.weights->at(0, 0);
    const attn::Matrix& weightsAfter = w->lastResult().weights->at(0, 0);
    const bool changed =
        weightsAfter.rows() != weightsBefore.rows() || weightsAfter != weightsBefore;
    if (option != "mask-fill")
        QVERIFY2(changed, "the weights did not change");
    QVERIFY(w->statisticsPanel()->isVisible());
}

void TestMainWindow::headsOfferedAreDivisors()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    child<QSpinBox>(w, "dModelSpin")->setValue(12);
    auto* heads = child<QComboBox>(w, "headsCombo");
    QList<int> offered;
    for (int k = 0; k < heads->count(); ++k)
        offered << heads->itemData(k).toInt();
    QCOMPARE(offered, QList<int>({1, 2, 3, 4, 6, 12}));
    QTRY_COMPARE(w->lastResult().dModel(), 12);
    QCOMPARE(12 % w->lastResult().heads(), 0);
}

void TestMainWindow::hoverNamesTokensInTheStatusBar()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    HeatmapView* view = w->heatmapGrid()->view(0);
    QTRY_VERIFY(view->heatmapLayout().cellSize() > 0);
    const QPoint centre = view->heatmapLayout().cellRect(1, 0).center().toPoint();
    QTest::mouseMove(view, centre);
    QTRY_VERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("query cat (row 1)")));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("key The (column 0)")));
    const float weight = w->lastResult().weights->at(0, 0)(1, 0);
    QVERIFY(w->statusBar()->currentMessage().contains(QString::number(weight, 'f', 2)));
    // In Chinese "第 1 行" would read as the first row: the rows and columns are named as
    // the indices they are (from 0, as PyTorch counts), as in English.
    QVERIFY(language_->apply("zh_CN"));
    const QString chinese = hoverText(view->data(), 1, 0);
    QVERIFY2(chinese.contains(QStringLiteral("行索引 1")) &&
                 chinese.contains(QStringLiteral("列索引 0")) && !chinese.contains(u'第'),
             qPrintable(chinese));
    QVERIFY(language_->apply("en"));
}

// Without a mouse: Tab reaches the heatmaps, the arrow keys move over a head's cells with
// the values in the status bar, as a hover gives them, and Enter opens the head.
void TestMainWindow::keyboardReachesTheHeatmaps()
{
    MainWindow* w = open();
    QVERIFY(QTest::qWaitForWindowActive(w));
    QTRY_VERIFY(w->lastResult().valid());
    HeatmapView* first = w->heatmapGrid()->view(0);
    QTRY_VERIFY(first->heatmapLayout().cellSize() > 0);
    for (int k = 0; k < 200 && !qobject_cast<HeatmapView*>(QApplication::focusWidget()); ++k) {
        QWidget* focus = QApplication::focusWidget();
        QTest::keyClick(focus ? focus : w, Qt::Key_Tab);
    }
    auto* view = qobject_cast<HeatmapView*>(QApplication::focusWidget());
    QVERIFY2(view, "Tab never reached a heatmap");
    QCOMPARE(view, first); // the heads in their order, head 0 first
    QCOMPARE(view->currentCell(), QPoint(0, 0));
    QTest::keyClick(view, Qt::Key_Down);
    QTRY_VERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("query cat (row 1)")));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("key The (column 0)")));
    QTest::keyClick(view, Qt::Key_Return);
    QTRY_VERIFY(w->findChild<HeadDialog*>() && w->findChild<HeadDialog*>()->isVisible());
}

// Above setLetGoBytes() (here every result), a compute starts with the window letting go of
// the shown P and S everywhere: the tiles and the head dialog keep their pictures, say
// nothing on hover, exports wait; the engine then writes the new P into the old one's memory
// (or frees the old one first), never a second P beside it. A refusal of the new input
// brings the previous result back, hover and all, with the refusal in place of the chips.
void TestMainWindow::largeSwitchLetsGoOfWhatItShows()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    w->setLetGoBytes(0);
    HeatmapGrid* grid = w->heatmapGrid();
    HeatmapView* tile = grid->view(0);
    QTRY_VERIFY(tile->heatmapLayout().cellSize() > 0);
    QTest::mouseClick(tile, Qt::LeftButton, {}, tile->rect().center());
    auto* head = w->findChild<HeadDialog*>();
    QVERIFY(head && head->isVisible());
    QVERIFY(head->view()->data().weights.size() > 0);

    head->setCellSize(50); // a zoom of one's own, which the switch keeps

    const std::weak_ptr<const attn::HeadStack> shown = w->lastResult().weights;
    const QImage picture = tile->grab().toImage();
    const QPoint cell = tile->heatmapLayout().cellRect(1, 0).center().toPoint();
    const QSize zoomedSize = head->view()->size();
    const int T = w->lastResult().length();
    chooseData(child<QComboBox>(w, "scaleCombo"), int(attn::ScaleMode::None));

    // At once, before the result: nothing holds the shown tensors, the pictures stay.
    QVERIFY(grid->hasLetGo() && tile->hasLetGo() && head->view()->hasLetGo());
    QCOMPARE(tile->data().weights.size(), 0);
    QCOMPARE(head->view()->data().weights.size(), 0);
    QVERIFY(!w->lastResult().valid()); // the exports say the heatmaps are computing
    QVERIFY(tile->grab().toImage() == picture);
    // (Sent, not posted: QTest::mouseMove would run the event loop, and the result come.)
    auto hover = [tile](QPointF at) {
        QMouseEvent move(QEvent::MouseMove, at, tile->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QCoreApplication::sendEvent(tile, &move);
    };
    hover(cell);
    QVERIFY2(w->statusBar()->currentMessage().isEmpty(),
             qPrintable(w->statusBar()->currentMessage()));
    w->action(ActionId::CopyFigure)->trigger();
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("computing")));
    // A zoom meanwhile scales the kept picture with the view; the shape is still known.
    QCOMPARE(head->view()->cells(), QSize(T, T));
    head->zoomIn();
    QCOMPARE(head->view()->size(), (QSizeF(zoomedSize) * 1.25).toSize());

    QTRY_COMPARE(w->lastResult().config().scale, attn::ScaleMode::None);
    QVERIFY(!grid->hasLetGo() && !tile->hasLetGo() && !head->view()->hasLetGo());
    // The new heatmap keeps that zoom, at its exact size (it used to open fitted again:
    // the view that had let go seemed to have no cells, so every switch was a new shape).
    QCOMPARE(head->cellSize(), 62.5);
    const QSize exact = head->view()->size();
    head->setCellSize(62.5);
    QCOMPARE(head->view()->size(), exact);
    QVERIFY(shown.expired() || w->lastResult().weights == shown.lock());
    QVERIFY(head->view()->data().weights.sharesWith(w->lastResult().weights->at(0, 0)));
    QTRY_VERIFY(!w->controller()->busy());
    hover(tile->heatmapLayout().cellRect(1, 0).center());
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("query cat (row 1)")),
             qPrintable(w->statusBar()->currentMessage()));
    QTRY_VERIFY(!w->controller()->busy());

    // Cross-attention without a second text is refused: the result let go of comes back.
    auto* attention = child<QComboBox>(w, "attentionCombo");
    attention->setCurrentIndex(attention->findData(int(attn::AttentionKind::Cross)));
    QVERIFY(grid->hasLetGo());
    auto* chips = child<TokenChips>(w, "tokenChips");
    QTRY_VERIFY(!chips->error().isEmpty());
    QTRY_VERIFY(w->lastResult().valid());
    QVERIFY(!grid->hasLetGo());
    QCOMPARE(w->lastResult().config().scale, attn::ScaleMode::None);
    QVERIFY(!w->lastResult().isCross());
    QVERIFY(!chips->error().isEmpty());
    QVERIFY(tile->data().weights.sharesWith(w->lastResult().weights->at(0, 0)));
}

// The compute controller is idle only once the newest request's outcome is out: also when
// the handler of an older outcome submits another (the window asking for a result back after
// a refusal) that the worker finishes at once. It used to say idle after the older one's
// report, with the newer result still waiting in the event queue.
void TestMainWindow::busyUntilTheNewestOutcomeIsOut()
{
    ComputeController controller;
    attn::Request good;
    good.text = "the cat sat";
    good.config.dModel = 16;
    good.config.heads = 2;
    attn::Request blank = good;
    blank.text = " ";
    QStringList events;
    connect(&controller, &ComputeController::failed, this, [&] {
        events << "failed";
        controller.submit(good);
        controller.waitForIdle(); // its outcome is posted before this report ends
    });
    std::uint64_t shownSeed = 0;
    connect(&controller, &ComputeController::resultReady, this, [&](const attn::Result& result) {
        events << "result";
        shownSeed = result.request.config.seed;
    });
    connect(&controller, &ComputeController::busyChanged, this,
            [&](bool busy) { events << (busy ? "busy" : "idle"); });
    controller.submit(blank);
    QTRY_VERIFY(events.contains("idle"));
    QCOMPARE(events, QStringList({"busy", "failed", "result", "idle"}));

    // An outcome posted before a newer request went out is not reported at all.
    events.clear();
    attn::Request other = good;
    other.config.seed = 7;
    controller.submit(good);
    controller.waitForIdle(); // good's outcome waits in the queue…
    controller.submit(other); // …when other supersedes it
    QTRY_VERIFY(events.contains("idle"));
    QCOMPARE(events, QStringList({"busy", "result", "idle"}));
    QCOMPARE(shownSeed, std::uint64_t(7));

    // Nor when the newer request asks for the same as the one whose outcome waits: good,
    // other, good again report one result, the last one's.
    events.clear();
    controller.submit(good);
    controller.waitForIdle(); // the first good's outcome waits in the queue
    controller.submit(other);
    controller.submit(good);
    QTRY_VERIFY(events.contains("idle"));
    QCOMPARE(events, QStringList({"busy", "result", "idle"}));
    QCOMPARE(shownSeed, good.config.seed);
}

void TestMainWindow::languageSwitchRetranslates()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const QString englishFile = w->menuBar()->actions().first()->text();
    w->setLanguage("zh_CN");
    QCOMPARE(language_->current(), QStringLiteral("zh_CN"));
    const QString chineseFile = w->menuBar()->actions().first()->text();
    QVERIFY2(chineseFile != englishFile, qPrintable(chineseFile));
    QVERIFY(chineseFile.contains(QStringLiteral("文件")));
    w->setLanguage("en");
    QCOMPARE(w->menuBar()->actions().first()->text(), englishFile);
}

void TestMainWindow::presetFromTheMenu()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* action = w->findChild<QAction*>("preset-article");
    QVERIFY2(action, "the Presets menu has no article");
    action->trigger();
    QTRY_COMPARE(w->lastResult().dModel(), 16);
    QCOMPARE(w->lastResult().config().embedding, attn::EmbeddingMode::Torch);
    // The tutorial's printout: std 1.1888 before scaling, 0.2972 after.
    QCOMPARE(QString::number(w->lastResult().stats->stdScores, 'f', 4), QStringLiteral("1.1888"));
    QCOMPARE(QString::number(w->lastResult().stats->stdLogits, 'f', 4), QStringLiteral("0.2972"));
    QVERIFY(!w->presetPanel()->explanation().isEmpty());
}

void TestMainWindow::presetPanelSaysWhenItIsLeft_data()
{
    QTest::addColumn<QString>("preset");
    for (const QString& name : PresetPanel::presetNames())
        QTest::newRow(qPrintable(name)) << name;
}

void TestMainWindow::presetPanelSaysWhenItIsLeft()
{
    QFETCH(QString, preset);
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    w->findChild<QAction*>("preset-" + preset)->trigger();
    const attn::Request& expected = attn::findPreset(preset.toStdString())->request;
    QTRY_VERIFY(w->lastResult().request == expected);
    PresetPanel* panel = w->presetPanel();
    auto* note = child<QLabel>(panel, "presetLeft");
    QVERIFY2(!panel->hasLeft() && !note->isVisibleTo(panel),
             "the preset's own request counts as left");

    // A switch of the user's: the lesson no longer describes the heatmaps.
    auto* heads = child<QComboBox>(w, "headsCombo");
    heads->setCurrentIndex(heads->currentIndex() == 0 ? 1 : 0);
    QVERIFY(panel->hasLeft());
    QVERIFY(note->isVisibleTo(panel));
    QVERIFY2(note->text().contains("no longer"), qPrintable(note->text()));
    QCOMPARE(panel->presetName(), preset);

    // Its link loads the preset again, and the lesson is current again.
    emit note->linkActivated("reload");
    QCOMPARE(w->controlPanel()->request(), expected);
    QVERIFY(!panel->hasLeft());
    QVERIFY(!note->isVisibleTo(panel));
    QTRY_VERIFY(w->lastResult().request == expected);
}

void TestMainWindow::chineseGlyphsAreAvailable()
{
    // The README's install step brings a CJK font; without one, Chinese tokens would be
    // drawn as empty boxes.
    const QStringList families = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    QVERIFY2(!families.isEmpty(), "no font for Simplified Chinese: install fonts-noto-cjk");
    bool found = false;
    for (const QString& family : families)
        if (QFontMetrics(QFont(family)).inFontUcs4(U'猫') &&
            QFontMetrics(QFont(family)).inFontUcs4(U'它'))
            found = true;
    QVERIFY2(found, "no installed font has the glyphs 猫 and 它");
}

void TestMainWindow::emojiGlyphsAreAvailable()
{
    // GPT-2's and Qwen's vocabularies hold emoji; the install step brings a font for them,
    // else their tokens would be drawn as empty boxes.
    bool found = false;
    for (const QString& family : QFontDatabase::families())
        if (QFontMetrics(QFont(family)).inFontUcs4(U'\U0001F600') &&
            QFontMetrics(QFont(family)).inFontUcs4(U'\U0001F431'))
            found = true;
    QVERIFY2(found, "no installed font has the emoji 😀 and 🐱: install fonts-noto-color-emoji");
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
