// The main window's layout as a person sees it: the heatmaps keep most of the window and
// their place whatever the heads, the switches and the warnings, the statistics dock keeps
// the height its user gave it, and heatmaps of a refused input say that they are old.
#include "computecontroller.h"
#include "controlpanel.h"
#include "formulabar.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "language.h"
#include "mainwindow.h"
#include "statisticspanel.h"
#include "tokenchips.h"

#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace attn::ui;

namespace {

template <typename W> W* child(QWidget* root, const char* name)
{
    W* widget = root->findChild<W*>(QString::fromLatin1(name));
    if (!widget)
        qFatal("no child widget %s", name);
    return widget;
}

// The layouts' posted requests done: what a person sees once the window has settled.
void settle()
{
    for (int k = 0; k < 3; ++k) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    }
}

// The scroll area the heatmaps are in.
QScrollArea* heatmapArea(MainWindow* w)
{
    for (QWidget* p = w->heatmapGrid()->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(p))
            return area;
    qFatal("the heatmaps are in no scroll area");
}

QRect geometryInWindow(QWidget* widget, MainWindow* w)
{
    return {widget->mapTo(w, QPoint(0, 0)), widget->size()};
}

// Every pixel grey (red = green = blue): how a stale tile looks, whatever the colormap.
bool isGrey(const QImage& image)
{
    const QImage rgb = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < rgb.height(); ++y)
        for (int x = 0; x < rgb.width(); ++x) {
            const QRgb p = rgb.pixel(x, y);
            if (qRed(p) != qGreen(p) || qGreen(p) != qBlue(p))
                return false;
        }
    return true;
}

// Sends the mouse to `at` in `view` (sent, not posted: the status bar answers at once).
void hover(QWidget* view, QPointF at)
{
    QMouseEvent move(QEvent::MouseMove, at, view->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(view, &move);
}

} // namespace

class TestWindowLayout : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void heatmapsKeepMostOfTheWindow_data();
    void heatmapsKeepMostOfTheWindow();
    void theUsersSplitterStands_data();
    void theUsersSplitterStands();
    void switchesKeepTheHeatmapsInPlace_data();
    void switchesKeepTheHeatmapsInPlace();
    void oneHeadIsOneTile();
    void refusedTextGreysTheHeatmapsWithTheReason();
    void refusalAfterLettingGoGreysTheResultBroughtBack();

private:
    [[nodiscard]] MainWindow* open();
    // Submits `request` as the controls would and waits for its result.
    void compute(MainWindow* w, const attn::Request& request);

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Language> language_;
    std::unique_ptr<MainWindow> window_;
};

void TestWindowLayout::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    language_ = std::make_unique<Language>();
    QVERIFY(language_->apply("en"));
}

void TestWindowLayout::cleanup()
{
    window_.reset();
    language_.reset();
    settings_.reset();
    dir_.reset();
}

MainWindow* TestWindowLayout::open()
{
    window_ = std::make_unique<MainWindow>(language_.get(), settings_.get());
    window_->show();
    return window_.get();
}

void TestWindowLayout::compute(MainWindow* w, const attn::Request& request)
{
    w->controller()->submit(request);
    QTRY_VERIFY(w->lastResult().valid() && w->lastResult().request == request &&
                !w->controller()->busy());
    settle();
}

// The teacher: at d_model 64 with 64 heads the statistics table took three
// quarters of the window and left the heatmaps 150 px. The table scrolls now, in a panel
// of the same height for any number of heads.
void TestWindowLayout::heatmapsKeepMostOfTheWindow_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::newRow("1 head") << 64 << 1;
    QTest::newRow("4 heads") << 64 << 4;
    QTest::newRow("64 heads at d_model 64") << 64 << 64;
    QTest::newRow("64 heads at d_model 512") << 512 << 64;
}

void TestWindowLayout::heatmapsKeepMostOfTheWindow()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    attn::Request request = w->controlPanel()->request();
    request.config.dModel = dModel;
    request.config.heads = heads;
    compute(w, request);

    const int area = heatmapArea(w)->height();
    QVERIFY2(
        area >= w->height() / 2,
        qPrintable(QStringLiteral("the heatmaps have %1 px of %2").arg(area).arg(w->height())));
    QTableWidget* table = w->statisticsPanel()->table();
    QCOMPARE(table->rowCount(), heads);
    if (heads >= 16) // more rows than the panel has room for
        QVERIFY2(table->verticalScrollBar()->maximum() > 0, "the table does not scroll");
}

// Once the user drags the statistics dock's splitter, that height stays across results of
// any size and comes back with the window.
void TestWindowLayout::theUsersSplitterStands_data()
{
    QTest::addColumn<int>("chosen"); // the dock's height, in px
    QTest::newRow("dragged down to 190 px") << 190;
    QTest::newRow("dragged up to 420 px") << 420;
}

void TestWindowLayout::theUsersSplitterStands()
{
    QFETCH(int, chosen);
    {
        MainWindow* w = open();
        QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
        settle();
        auto* dock = child<QDockWidget>(w, "statisticsDock");
        w->resizeDocks({dock}, {chosen}, Qt::Vertical); // as a drag of its splitter does
        settle();
        const int height = dock->height();
        QVERIFY2(std::abs(height - chosen) <= 2, qPrintable(QString::number(height)));

        attn::Request request = w->controlPanel()->request();
        request.config.heads = 64; // a long table
        compute(w, request);
        QCOMPARE(dock->height(), height);
        request.config.heads = 1;
        request.config.scale = attn::ScaleMode::None; // a short table, with warnings
        request.config.temperature = 0.05f;
        compute(w, request);
        QCOMPARE(dock->height(), height);
        request.config.heads = 16;
        compute(w, request);
        QCOMPARE(dock->height(), height);
        w->close(); // saves the window's state
        window_.reset();
        settings_->sync();
        chosen = height;
    }
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    settle();
    QCOMPARE(child<QDockWidget>(w, "statisticsDock")->height(), chosen);
}

// Switches change the formula bar's lines and the warnings' count; the heatmap area above
// the statistics and under the formula stays where it is, as large as it was.
void TestWindowLayout::switchesKeepTheHeatmapsInPlace_data()
{
    QTest::addColumn<QStringList>("controls");
    QTest::addColumn<QVariantList>("values");

    QTest::newRow("scale=none") << QStringList{"scaleCombo"}
                                << QVariantList{int(attn::ScaleMode::None)};
    QTest::newRow("scale=d_model")
        << QStringList{"scaleCombo"} << QVariantList{int(attn::ScaleMode::SqrtDModel)};
    QTest::newRow("axis=queries") << QStringList{"axisCombo"}
                                  << QVariantList{int(attn::SoftmaxAxis::Queries)};
    QTest::newRow("mask=causal") << QStringList{"causalCheck"} << QVariantList{true};
    QTest::newRow("mask=causal, mask-stage=after-softmax")
        << QStringList{"causalCheck", "maskStageCombo"}
        << QVariantList{true, int(attn::MaskStage::AfterSoftmax)};
    QTest::newRow("head-split=view")
        << QStringList{"headSplitCombo"} << QVariantList{int(attn::HeadSplit::View)};
    QTest::newRow("no scaling, queries axis, causal mask after the softmax, view split")
        << QStringList{"scaleCombo", "axisCombo", "causalCheck", "maskStageCombo", "headSplitCombo"}
        << QVariantList{int(attn::ScaleMode::None), int(attn::SoftmaxAxis::Queries), true,
                        int(attn::MaskStage::AfterSoftmax), int(attn::HeadSplit::View)};
}

void TestWindowLayout::switchesKeepTheHeatmapsInPlace()
{
    QFETCH(QStringList, controls);
    QFETCH(QVariantList, values);
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    settle();
    QScrollArea* area = heatmapArea(w);
    const QRect before = geometryInWindow(area, w);

    const std::shared_ptr<const attn::HeadStack> textbook = w->lastResult().weights;
    const QString formulaBefore = w->formulaBar()->formulaHtml();
    for (qsizetype k = 0; k < controls.size(); ++k) {
        QWidget* widget = w->findChild<QWidget*>(controls[k]);
        QVERIFY2(widget, qPrintable(controls[k]));
        if (auto* check = qobject_cast<QCheckBox*>(widget))
            check->setChecked(values[k].toBool());
        else
            qobject_cast<QComboBox*>(widget)->setCurrentIndex(
                qobject_cast<QComboBox*>(widget)->findData(values[k]));
    }
    QTRY_VERIFY(w->lastResult().valid() && w->lastResult().weights != textbook &&
                !w->controller()->busy());
    settle();
    QVERIFY(w->lastResult().request == w->controlPanel()->request());
    QCOMPARE(geometryInWindow(area, w), before);
    QVERIFY(w->formulaBar()->formulaHtml() != formulaBefore); // it did say something else
}

// With one head, "Head 0" and "Mean of the heads" would be the same picture: one tile, and
// a click on it opens that head.
void TestWindowLayout::oneHeadIsOneTile()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    attn::Request request = w->controlPanel()->request();
    request.config.heads = 1;
    compute(w, request);
    HeatmapGrid* grid = w->heatmapGrid();
    QCOMPARE(grid->count(), 1);
    QCOMPARE(grid->view(0)->data().title, QStringLiteral("Head 0"));
    QVERIFY(grid->view(0)->data().scores.size() > 0); // a head's, with its scores
    emit grid->headActivated(-1); // the mean, as a shortcut or an older grid could ask
    auto* dialog = w->findChild<HeadDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Head 0"));

    request.config.heads = 2;
    compute(w, request);
    QCOMPARE(grid->count(), 3);
    QCOMPARE(grid->view(2)->data().title, QStringLiteral("Mean of the heads"));
}

// An empty text is refused; the heatmaps and figures it has none of stay, but greyed, with
// the reason over them in the interface language, and give no values to the mouse, until
// the next result.
void TestWindowLayout::refusedTextGreysTheHeatmapsWithTheReason()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    settle();
    HeatmapGrid* grid = w->heatmapGrid();
    HeatmapView* tile = grid->view(0);
    QTRY_VERIFY(tile->heatmapLayout().cellSize() > 0);
    const QPointF cell = tile->heatmapLayout().cellRect(1, 0).center();
    QVERIFY(!isGrey(tile->grab().toImage()));

    child<QPlainTextEdit>(w, "sentenceEdit")->clear();
    auto* chips = child<TokenChips>(w, "tokenChips");
    QTRY_VERIFY(!chips->error().isEmpty());
    QTRY_VERIFY(!w->controller()->busy());
    settle();
    const QString reason = chips->error();
    QCOMPARE(reason, QStringLiteral("The text is empty: type a sentence, one line per sequence."));

    auto* note = grid->findChild<QWidget*>("staleNote");
    QVERIFY2(note && note->isVisible(), "no reason over the heatmaps");
    QCOMPARE(note->accessibleDescription(), reason);
    const QRect sight(heatmapArea(w)->viewport()->mapTo(w, QPoint(0, 0)),
                      heatmapArea(w)->viewport()->size());
    QVERIFY(sight.contains(geometryInWindow(note, w)));
    for (int k = 0; k < grid->count(); ++k)
        QVERIFY2(isGrey(grid->view(k)->grab().toImage()), qPrintable(QString::number(k)));
    auto* stale = w->statisticsPanel()->findChild<QLabel*>("staleLabel");
    QVERIFY2(stale && stale->isVisible(), "the statistics do not say they are old");
    QVERIFY2(stale->text().contains(reason), qPrintable(stale->text()));
    QVERIFY(!w->statisticsPanel()->table()->isEnabled());

    // No value of the old heatmaps as if it were the new text's.
    hover(tile, cell);
    QVERIFY2(!w->statusBar()->currentMessage().contains(QStringLiteral("weight")),
             qPrintable(w->statusBar()->currentMessage()));

    w->setLanguage("zh_CN");
    QCOMPARE(chips->error(), QStringLiteral("文本为空：请输入一句话，每行一个序列。"));
    QCOMPARE(note->accessibleDescription(), chips->error());
    QVERIFY(stale->text().contains(chips->error()));
    w->setLanguage("en");
    QCOMPARE(note->accessibleDescription(), reason);

    child<QPlainTextEdit>(w, "sentenceEdit")->setPlainText(QStringLiteral("the cat sat down"));
    QTRY_VERIFY(w->lastResult().valid() && w->lastResult().length() == 4 &&
                !w->controller()->busy());
    settle();
    QVERIFY(!note->isVisible());
    QVERIFY(!stale->isVisible());
    QVERIFY(w->statisticsPanel()->table()->isEnabled());
    QVERIFY(!isGrey(tile->grab().toImage()));
    hover(tile, tile->heatmapLayout().cellRect(1, 0).center());
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("query cat (row 1)")),
             qPrintable(w->statusBar()->currentMessage()));
}

// A refusal after the window let go of a large result brings that result back from the
// engine (MainWindow's let-go protocol): it shows again, greyed, with the refusal over it.
void TestWindowLayout::refusalAfterLettingGoGreysTheResultBroughtBack()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid() && !w->controller()->busy());
    w->setLetGoBytes(0);
    const attn::Request shown = w->lastResult().request;
    auto* attention = child<QComboBox>(w, "attentionCombo");
    attention->setCurrentIndex(attention->findData(int(attn::AttentionKind::Cross)));
    QVERIFY(w->heatmapGrid()->hasLetGo());
    auto* chips = child<TokenChips>(w, "tokenChips");
    QTRY_VERIFY(!chips->error().isEmpty() && w->lastResult().valid() && !w->controller()->busy());
    settle();
    QVERIFY(w->lastResult().request == shown);
    HeatmapView* tile = w->heatmapGrid()->view(0);
    QVERIFY(!w->heatmapGrid()->hasLetGo());
    auto* note = w->heatmapGrid()->findChild<QWidget*>("staleNote");
    QVERIFY(note && note->isVisible());
    QCOMPARE(note->accessibleDescription(), chips->error());
    QVERIFY(isGrey(tile->grab().toImage()));
    hover(tile, tile->heatmapLayout().cellRect(1, 0).center());
    QVERIFY(!w->statusBar()->currentMessage().contains(QStringLiteral("weight")));

    attention->setCurrentIndex(attention->findData(int(attn::AttentionKind::Self)));
    QTRY_VERIFY(chips->error().isEmpty() && !w->controller()->busy());
    settle();
    QVERIFY(!note->isVisible());
    QVERIFY(!isGrey(tile->grab().toImage()));
}

QTEST_MAIN(TestWindowLayout)
#include "tst_windowlayout.moc"
