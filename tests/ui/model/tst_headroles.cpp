// Find Induction Heads… and Rollout… in a language model's window, on a tiny random GPT-2
// written at test time (and the reference BERT): the test runs on the dialog's worker under
// the window's switches and knock-outs, its three heatmaps hold core's head scores on the
// same ids, the model view's tiles are marked with their roles until the switches change,
// Cancel keeps the last scores; the rollout heatmap and its bars hold core's rollout of the
// window's run, the row follows the mouse and a click pins it, and a new run updates it.
#include "attention/headscores.h"
#include "headrolesdialog.h"
#include "languagemodelwindow.h"
#include "modelgrid.h"
#include "models/families.h"
#include "models/inductiontest.h"
#include "modelwindow.h"
#include "rolloutbars.h"
#include "rolloutdialog.h"
#include "scoreheatmap.h"
#include "tinygpt2.h"

#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

// The largest difference between a heatmap's cells and an L × H grid, and where.
QString gridDifference(const HeatmapData& data, const std::vector<std::vector<double>>& grid,
                       double* largest)
{
    *largest = data.rows() == int(grid.size()) ? 0 : 1;
    QString where;
    for (int l = 0; l < std::min(data.rows(), int(grid.size())); ++l)
        for (int h = 0; h < data.columns(); ++h) {
            const double d =
                std::abs(double(data.weights(l, h)) - grid[std::size_t(l)][std::size_t(h)]);
            if (d > *largest) {
                *largest = d;
                where = QStringLiteral("head %1.%2").arg(l).arg(h);
            }
        }
    return QStringLiteral("largest difference %1 at %2").arg(*largest).arg(where);
}

} // namespace

class TestHeadRoles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theTestScoresEveryHead_data();
    void theTestScoresEveryHead();
    void marksGoWhenTheSwitchesChange();
    void cancelKeepsTheLastScores();
    void bertRunsTheTestToo();
    void rolloutFollowsTheWindow();
    void rolloutRowFollowsTheMouseAndAClickPinsIt();

private:
    HeadRolesDialog* openRoles();
    void waitForRun();

    QTemporaryDir dir_;
    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestHeadRoles::initTestCase()
{
    test::TinyGpt2 spec;
    spec.layers = 3;
    spec.positions = 32;
    model_ = openModel(test::writeTinyGpt2(dir_.filePath("tiny"), spec).toStdString());
}

void TestHeadRoles::init()
{
    window_ = std::make_unique<LanguageModelWindow>(
        model_, model_->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestHeadRoles::cleanup()
{
    window_.reset();
}

void TestHeadRoles::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
    QVERIFY(!window_->running());
}

HeadRolesDialog* TestHeadRoles::openRoles()
{
    auto* button = window_->findChild<HeadRolesButton*>(QStringLiteral("headRoles"));
    if (!button)
        return nullptr;
    button->click();
    return button->dialog();
}

void TestHeadRoles::theTestScoresEveryHead_data()
{
    QTest::addColumn<int>("copy");
    QTest::addColumn<int>("seed");
    QTest::addColumn<bool>("knockOut");
    QTest::newRow("N 5, seed 3") << 5 << 3 << false;
    QTest::newRow("N 16 (the most 32 positions hold), seed 42") << 16 << 42 << false;
    QTest::newRow("head 1.0 knocked out in the window") << 8 << 1 << true;
}

// Run: the three heatmaps are core's scores of the model run on inductionIds under the
// window's switches; each tile is marked with its strongest role at or above 0.4.
void TestHeadRoles::theTestScoresEveryHead()
{
    QFETCH(int, copy);
    QFETCH(int, seed);
    QFETCH(bool, knockOut);
    if (knockOut) {
        ModelSwitches switches = window_->switches();
        switches.knockedOut = {{1, 0}};
        window_->setSwitches(switches);
        waitForRun();
    }
    HeadRolesDialog* dialog = openRoles();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->copySpin()->maximum(), 16); // 2N ≤ 32 positions, no BOS in GPT-2
    QCOMPARE(dialog->copySpin()->value(), 16);   // 20 at most
    QVERIFY(dialog->findChild<QPushButton*>(QStringLiteral("rolesExport"))->isEnabled() == false);
    dialog->copySpin()->setValue(copy);
    dialog->seedSpin()->setValue(seed);
    QSignalSpy finished(dialog, &HeadRolesDialog::finished);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("rolesRun")), Qt::LeftButton);
    QVERIFY(dialog->running());
    QVERIFY(finished.wait(20000));

    const ModelSwitches switches = window_->shownRun().switches;
    QCOMPARE(int(switches.knockedOut.size()), knockOut ? 1 : 0);
    const std::vector<int> ids = inductionIds(*model_, copy, std::uint32_t(seed));
    const ModelRun run = model_->runIds(ids, switches);
    const HeadScores expected = headScores(*run.attention, 0, run.ids, 0, int(ids.size()));
    QCOMPARE(dialog->testRun()->ids, ids);
    QCOMPARE(dialog->scores()->copy, copy);
    const std::array roles{DetectorRole::PreviousToken, DetectorRole::DuplicateToken,
                           DetectorRole::Induction};
    const std::array grids{&expected.previousToken, &expected.duplicateToken, &expected.induction};
    for (std::size_t k = 0; k < roles.size(); ++k) {
        double largest = 0;
        const QString where =
            gridDifference(dialog->heatmap(roles[k])->data(), *grids[k], &largest);
        QVERIFY2(largest < 1e-6, qPrintable(where));
    }
    if (knockOut) // a knocked-out head attends as before but its output is 0: scores stay
        QVERIFY(dialog->testRun()->switches.knockedOut == switches.knockedOut);
    QVERIFY(
        dialog->heatmap(DetectorRole::Induction)->cellText(1, 1).contains(QStringLiteral("1.1")));

    // The marks: each head's strongest role at or above the threshold.
    ModelGrid* grid = window_->modelView()->grid();
    int marked = 0;
    for (int l = 0; l < model_->info().layers; ++l)
        for (int h = 0; h < model_->info().heads; ++h) {
            double score = 0;
            const DetectorRole role =
                detectorRole(expected, l, h, HeadRolesDialog::kMarkThreshold, &score);
            const ModelGrid::RoleMark* mark = grid->roleMark(l, h);
            QCOMPARE(mark != nullptr, role != DetectorRole::None);
            if (!mark)
                continue;
            ++marked;
            const QString letter = role == DetectorRole::PreviousToken    ? QStringLiteral("P")
                                   : role == DetectorRole::DuplicateToken ? QStringLiteral("D")
                                                                          : QStringLiteral("I");
            QCOMPARE(mark->letter, letter);
            QVERIFY(grid->tileToolTip(l, h).contains(QLocale().toString(score, 'f', 2)));
        }
    QCOMPARE(int(grid->roleMarks().size()), marked);
    // The sentence names the strongest induction head, or says there is none.
    const RankedHead top = topHeads(expected.induction, 1).front();
    QVERIFY2(dialog->summaryText().contains(QStringLiteral("%1.%2").arg(top.layer).arg(top.head)),
             qPrintable(dialog->summaryText()));
    QVERIFY(dialog->findChild<QPushButton*>(QStringLiteral("rolesExport"))->isEnabled());
}

// A switch or a knock-out in the window: the marks go and the dialog says to run again; a
// new text alone keeps them (the test draws its own tokens).
void TestHeadRoles::marksGoWhenTheSwitchesChange()
{
    HeadRolesDialog* dialog = openRoles();
    dialog->copySpin()->setValue(6);
    QSignalSpy finished(dialog, &HeadRolesDialog::finished);
    dialog->run();
    QVERIFY(finished.wait(20000));
    // Whatever the random heads scored, a mark to clear.
    window_->modelView()->grid()->setRoleMarks(
        {{{0, 0}, QStringLiteral("P"), QStringLiteral("x")}});
    window_->setText(QStringLiteral("Another text"));
    waitForRun();
    QCOMPARE(int(window_->modelView()->grid()->roleMarks().size()), 1);

    ModelSwitches switches = window_->switches();
    switches.knockedOut = {{0, 1}};
    window_->setSwitches(switches);
    waitForRun();
    QVERIFY(window_->modelView()->grid()->roleMarks().empty());
    QVERIFY(dialog->statusText().contains(QStringLiteral("Run again")));
}

void TestHeadRoles::cancelKeepsTheLastScores()
{
    HeadRolesDialog* dialog = openRoles();
    dialog->copySpin()->setValue(4);
    QSignalSpy finished(dialog, &HeadRolesDialog::finished);
    dialog->run();
    QVERIFY(finished.wait(20000));
    const std::vector<std::vector<double>> kept = dialog->scores()->induction;
    dialog->copySpin()->setValue(10);
    dialog->run();
    dialog->cancel();
    QVERIFY(!dialog->running());
    QCOMPARE(dialog->statusText(), QStringLiteral("Cancelled."));
    QTest::qWait(300);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(dialog->scores()->induction, kept);
}

// BERT runs the test too: [CLS], the copies, [SEP]; the scores are over the copies only,
// and the intro says that this model reads both ways.
void TestHeadRoles::bertRunsTheTestToo()
{
    const auto bert = openModel(ATTN_REFERENCE_DIR "/bert/bert-f32");
    LanguageModelWindow window(bert, bert->run(LanguageModelWindow::kFirstMaskedText, {}),
                               QString::fromUtf8(LanguageModelWindow::kFirstMaskedText));
    window.show();
    auto* button = window.findChild<HeadRolesButton*>(QStringLiteral("headRoles"));
    button->click();
    HeadRolesDialog* dialog = button->dialog();
    QCOMPARE(dialog->copySpin()->maximum(), (bert->info().maxPositions - 2) / 2);
    dialog->copySpin()->setValue(5);
    QSignalSpy finished(dialog, &HeadRolesDialog::finished);
    dialog->run();
    QVERIFY(finished.wait(20000));
    const std::vector<int> ids = inductionIds(*bert, 5, std::uint32_t(dialog->seedSpin()->value()));
    const ModelRun run = bert->runIds(ids, window.shownRun().switches);
    const HeadScores expected = headScores(*run.attention, 0, run.ids, 1, 11);
    double largest = 0;
    const QString where = gridDifference(dialog->heatmap(DetectorRole::Induction)->data(),
                                         expected.induction, &largest);
    QVERIFY2(largest < 1e-6, qPrintable(where));
    QVERIFY(dialog->findChild<QLabel*>()->text().contains(QStringLiteral("both ways")));
}

// The rollout heatmap and its bars are core's rollout of the window's run; a new run
// (another text) rolls out again.
void TestHeadRoles::rolloutFollowsTheWindow()
{
    auto* button = window_->findChild<RolloutButton*>(QStringLiteral("rollout"));
    QVERIFY(button);
    button->click();
    RolloutDialog* dialog = button->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QTRY_VERIFY(!dialog->computing());
    const auto check = [&] {
        const Matrix expected = attentionRollout(*window_->shownRun().attention, 0);
        const HeatmapData& data = dialog->heatmap()->data();
        QCOMPARE(data.rows(), int(expected.rows()));
        QCOMPARE(data.queryLabels.size(), expected.rows());
        QCOMPARE(data.keyLabels.front(),
                 QString::fromStdString(window_->shownRun().labels.front().label));
        const float largest = (data.weights.get() - expected).cwiseAbs().maxCoeff();
        QVERIFY2(largest < 1e-6f, qPrintable(QString::number(largest)));
        const int row = dialog->row();
        QCOMPARE(row, int(expected.rows()) - 1); // the last position at first
        const std::vector<double>& bars = dialog->bars()->values();
        QCOMPARE(int(bars.size()), int(expected.cols()));
        for (int j = 0; j < int(expected.cols()); ++j)
            QCOMPARE(bars[std::size_t(j)], double(expected(row, j)));
    };
    check();
    const int before = int(dialog->rollout().rows());
    QSignalSpy shown(dialog, &RolloutDialog::shown);
    window_->setText(QStringLiteral("The cat"));
    waitForRun();
    QVERIFY(shown.count() > 0 || shown.wait(20000));
    QVERIFY(int(dialog->rollout().rows()) != before);
    check();
}

void TestHeadRoles::rolloutRowFollowsTheMouseAndAClickPinsIt()
{
    auto* button = window_->findChild<RolloutButton*>(QStringLiteral("rollout"));
    button->click();
    RolloutDialog* dialog = button->dialog();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTRY_VERIFY(!dialog->computing());
    ScoreHeatmap* heatmap = dialog->heatmap();
    const auto centre = [heatmap](int row) {
        return heatmap->heatmapLayout().cellRect(row, 0).center().toPoint();
    };
    // The mouse moves over the view as the window system says it does (a second top-level
    // window offscreen does not get QTest's synthesized moves).
    const auto moveTo = [heatmap](QPoint pos) {
        QMouseEvent move(QEvent::MouseMove, pos, heatmap->mapToGlobal(pos), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(heatmap, &move);
    };
    moveTo(centre(1));
    QTRY_COMPARE(dialog->row(), 1);
    QCOMPARE(dialog->bars()->values().front(), double(dialog->rollout()(1, 0)));
    QVERIFY(heatmap->cellText(1, 0).contains(QLocale().toString(dialog->rollout()(1, 0), 'f', 3)));
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, centre(1));
    QCOMPARE(dialog->pinnedRow(), 1);
    moveTo(centre(3));
    QTRY_COMPARE(heatmap->currentCell().x(), 3);
    QCOMPARE(dialog->row(), 1); // pinned
    QVERIFY(dialog->bars()->title().contains(QStringLiteral("pinned")));
    moveTo(centre(1));
    QTRY_COMPARE(heatmap->currentCell().x(), 1);
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, centre(1));
    QCOMPARE(dialog->pinnedRow(), -1);
    moveTo(centre(2));
    QTRY_COMPARE(dialog->row(), 2);
}

QTEST_MAIN(TestHeadRoles)
#include "tst_headroles.moc"
