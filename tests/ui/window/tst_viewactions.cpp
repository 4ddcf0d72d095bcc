// The window's view switches (margin sums, log scale) as actions in the toolbar and the
// View menu, reaching every heatmap, and the lab dialogs taking the views' colours.
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

using namespace attn;
using namespace attn::ui;
using namespace attn::test;

namespace {

// Empty when `action` is a view switch as the window offers them: checkable, unchecked at
// first, with a status tip, in the view toolbar and in the View menu; else what is wrong.
QString viewSwitchProblem(MainWindow* w, QAction* action)
{
    if (!action->isCheckable() || action->isChecked())
        return QStringLiteral("not an unchecked switch");
    if (action->statusTip().isEmpty())
        return QStringLiteral("no status tip");
    if (!w->findChild<QToolBar*>("viewToolBar")->actions().contains(action))
        return QStringLiteral("not in the view toolbar");
    for (QAction* menu : w->menuBar()->actions())
        if (menu->menu() && menu->menu()->actions().contains(action))
            return menu->text().remove(u'&') == QStringLiteral("View")
                       ? QString()
                       : QStringLiteral("in the menu ") + menu->text();
    return QStringLiteral("in no menu");
}

} // namespace

class TestViewActions : public WindowTest {
    Q_OBJECT

private slots:
    void marginSumsActionTogglesTheViews();
    void logScaleActionRecoloursEveryView();
    void labDialogsFollowTheViewsColours();
};

void TestViewActions::marginSumsActionTogglesTheViews()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    QAction* sums = w->action(ActionId::MarginSums);
    const QString problem = viewSwitchProblem(w, sums);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const auto shown = [w] {
        QList<bool> styles;
        for (int k = 0; k < w->heatmapGrid()->count(); ++k)
            styles << w->heatmapGrid()->view(k)->heatmapStyle().marginSums;
        return styles;
    };
    const QList<bool> none(w->heatmapGrid()->count(), false);
    const QList<bool> all(w->heatmapGrid()->count(), true);
    QCOMPARE(shown(), none);

    sums->trigger();
    QVERIFY(w->viewOptions().marginSums);
    QCOMPARE(shown(), all);
    HeatmapView* mean = w->heatmapGrid()->view(w->heatmapGrid()->count() - 1);
    QCOMPARE(int(mean->heatmapLayout().rowSums().size()), w->lastResult().length());
    QVERIFY(!mean->heatmapLayout().columnSumArea().isEmpty());

    // A change of the view options checks and unchecks the action with it.
    ViewOptions view = w->viewOptions();
    view.marginSums = false;
    w->setViewOptions(view);
    QVERIFY(!sums->isChecked());
    QCOMPARE(shown(), none);
    QVERIFY(mean->heatmapLayout().columnSumArea().isNull());
    view.marginSums = true;
    w->setViewOptions(view);
    QVERIFY(sums->isChecked());
    QCOMPARE(shown(), all);
}

// The logarithmic colour scale, from the View menu or toolbar: every tile, the mean and a
// head opened large colour by the logarithm from logScaleFloor() up to their maximum, and
// the copied figure too.
void TestViewActions::logScaleActionRecoloursEveryView()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    QAction* log = w->action(ActionId::LogScale);
    const QString problem = viewSwitchProblem(w, log);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    HeatmapGrid* grid = w->heatmapGrid();
    const QImage linear = grid->view(0)->grab().toImage();

    log->trigger();
    QVERIFY(w->viewOptions().logScale);
    const int T = w->lastResult().length();
    for (int k = 0; k < grid->count(); ++k) {
        const HeatmapStyle& style = grid->view(k)->heatmapStyle();
        QVERIFY(style.logScale);
        QCOMPARE(style.vmin, logScaleFloor(style.vmax, T));
    }
    QVERIFY(grid->view(0)->grab().toImage() != linear);
    QVERIFY(grid->view(0)->heatmapStyle().vmax > 0.1); // the shared maximum, as before

    HeatmapView* tile = grid->view(1);
    QTest::mouseClick(tile, Qt::LeftButton, {}, tile->rect().center());
    auto* head = w->findChild<HeadDialog*>();
    QVERIFY(head && head->view()->heatmapStyle().logScale);

    // Exports and Copy Figure draw what the window shows.
    const FigureLayout figure = figureLayout(w->lastResult(), figureOptions(w->viewOptions()));
    QVERIFY(figure.tiles.front().style.logScale);
    QCOMPARE(figure.tiles.front().style.vmin, grid->view(0)->heatmapStyle().vmin);

    log->trigger(); // and back
    QVERIFY(!grid->view(0)->heatmapStyle().logScale);
    QCOMPARE(grid->view(0)->heatmapStyle().vmin, 0.0);
}

// The lab's dialogs colour weights as the grid does: Compare's A and B and the step-by-step
// weights' tile take the colormap and colour scale chosen before they opened and every
// change while they are open.
void TestViewActions::labDialogsFollowTheViewsColours()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    ViewOptions view = w->viewOptions();
    view.colormap = ColormapName::Cividis;
    w->setViewOptions(view);
    w->showCompare();
    w->showStepByStep();
    auto* compare = w->findChild<CompareDialog*>();
    auto* steps = w->findChild<PipelineDialog*>();
    QVERIFY(compare && steps);
    QTRY_VERIFY(compare->complete());
    const auto weightsTile = [&] { return steps->strip()->tile(PipelineStage::Weights); };
    QVERIFY(weightsTile());
    for (const int k : {0, 1})
        QCOMPARE(compare->view(k)->heatmapStyle().colormap, ColormapName::Cividis);
    QCOMPARE(weightsTile()->tile().style.colormap, ColormapName::Cividis);

    view.colormap = ColormapName::Inferno;
    view.logScale = true;
    w->setViewOptions(view);
    for (const int k : {0, 1}) {
        QCOMPARE(compare->view(k)->heatmapStyle().colormap, ColormapName::Inferno);
        QVERIFY(compare->view(k)->heatmapStyle().logScale);
    }
    QCOMPARE(compare->view(2)->heatmapStyle().colormap, ColormapName::Diverging);
    QCOMPARE(weightsTile()->tile().style.colormap, ColormapName::Inferno);
    QVERIFY(weightsTile()->tile().style.logScale);

    w->action(ActionId::LogScale)->trigger(); // the toolbar's switch, back to linear
    QVERIFY(!compare->view(0)->heatmapStyle().logScale);
    QVERIFY(!weightsTile()->tile().style.logScale);
}

QTEST_MAIN(TestViewActions)
#include "tst_viewactions.moc"
