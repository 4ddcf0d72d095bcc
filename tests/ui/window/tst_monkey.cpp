// The main window under stress: thousands of random actions from a fixed seed — typed
// and pasted text of every kind, every switch, both languages, view options, exports,
// saved, opened and damaged session files — each followed by the checks every state of
// the window must pass once the worker has settled.
//
// ATTN_MONKEY_SEED replays a run (the seed is printed first), ATTN_MONKEY_ACTIONS sets
// how many actions run (default 2000) and ATTN_MONKEY_SECONDS the wall clock after
// which the run stops early (default 60). An action that would compute more than the
// budget allows is skipped, so a run takes about a minute on two cores, sanitizers too.
//
// The actions are in monkeyactions.cpp, the oracle (budget, expected outcome, weight
// checks) in monkeyoracle.h, the random text in textmaker.h, the counting paint device in
// monkeypainting.h.
//
// Legend: B sequences, T tokens each, C = d_model, H heads.
#include "tst_monkey.h"
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "figurefile.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"
#include "labels.h"
#include "language.h"
#include "mainwindow.h"
#include "monkeyoracle.h"
#include "monkeypainting.h"
#include "session.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "tokenchips.h"

#include <QtTest>

#include <QAction>
#include <QBuffer>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPaintEngine>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>

#include <array>
#include <climits>
#include <cmath>
#include <deque>
#include <functional>
#include <optional>
#include <random>

using namespace attn;
using namespace attn::ui;
using namespace attn::test;
using namespace Qt::StringLiterals;

namespace {

constexpr std::uint32_t kDefaultSeed = 20240611;
constexpr int kDefaultActions = 2000;
constexpr int kDefaultSeconds = 60;
constexpr int kHistory = 25; // actions printed when a check fails

int environmentInt(const char* name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok && value > 0 ? value : fallback;
}

// The offscreen platform and the font fallback for rare scripts talk a lot while the
// monkey works; none of it is a failure, and it would bury the action log.
QtMessageHandler qtTestHandler = nullptr;

void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg && (message.startsWith(u"This plugin does not support") ||
                                 message.contains(u"OpenType support missing")))
        return;
    qtTestHandler(type, context, message);
}

// Runs the event loop until done() or the timeout; false on the timeout. Unlike
// QTest::qWaitFor it wakes on every event, not every 10 ms, so a quick action costs
// little more than its work.
bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    QTimer tick; // wakes the wait below even when no event comes
    tick.start(20);
    for (;;) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (done())
            return true;
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
}

} // namespace

void TestMonkey::initTestCase()
{
    qtTestHandler = qInstallMessageHandler(quietHandler);
}

void TestMonkey::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    language_ = std::make_unique<Language>();
    QVERIFY(language_->apply("en"));
}

void TestMonkey::cleanup()
{
    window_.reset();
    language_.reset();
    settings_.reset();
    dir_.reset();
}

MainWindow* TestMonkey::open()
{
    window_ = std::make_unique<MainWindow>(language_.get(), settings_.get());
    window_->show();
    return window_.get();
}

void TestMonkey::emptyTextSupersedesARunningCompute()
{
    // Emptying the text while a long compute runs: the empty text's message must stay,
    // not be replaced by the stale result when it arrives.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* edit = child<QPlainTextEdit>(w, "sentenceEdit");
    auto* chips = child<TokenChips>(w, "tokenChips");
    edit->setPlainText(TextMaker(rng_).longText(1500));
    emit w->controlPanel()->requestChanged(); // the debounce, at once
    QVERIFY(w->controller()->busy());
    edit->setPlainText(QString());
    emit w->controlPanel()->requestChanged();
    QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->busy(), kBudget.settleMs);
    QTest::qWait(50);
    QVERIFY2(!chips->error().isEmpty(), "the empty text's message was replaced");
    QCOMPARE(w->lastResult().request.text, std::string(exampleSentence("en").toStdString()));
}

void TestMonkey::aRefusalOutlivesALanguageSwitch()
{
    // Switching the language showed the last result again, chips and all, over the
    // refusal of the newer text; the refusal stays now, reworded in the new language.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* edit = child<QPlainTextEdit>(w, "sentenceEdit");
    auto* chips = child<TokenChips>(w, "tokenChips");
    const QString limit = QStringLiteral("more than the limit of 4096 per sequence");
    edit->setPlainText(TextMaker(rng_).longText(kMaxTokens + 1));
    emit w->controlPanel()->requestChanged();
    QTRY_VERIFY_WITH_TIMEOUT(chips->error().contains(limit), kBudget.settleMs);
    const QString english = chips->error();
    w->setLanguage("zh_CN");
    QVERIFY2(chips->error() != english && chips->error().contains(QStringLiteral("4096")),
             qPrintable(chips->error()));
    w->setLanguage("en");
    QCOMPARE(chips->error(), english);

    edit->setPlainText(QStringLiteral(" \t "));
    emit w->controlPanel()->requestChanged();
    QTRY_VERIFY(!chips->error().isEmpty() && !chips->error().contains(limit));
    QCOMPARE(chips->error(),
             QStringLiteral("The text is empty: type a sentence, one line per sequence."));
    w->setLanguage("zh_CN");
    QVERIFY(chips->error() !=
            QStringLiteral("The text is empty: type a sentence, one line per sequence."));
}

void TestMonkey::theMeanTileOfNewerHeatmapsOpens()
{
    // A new request's heatmaps show before its statistics, so the grid can hold fewer
    // heads than the last complete result. A click on its mean tile then opened the tile
    // at the old head count, past the grid's end.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    QCOMPARE(w->lastResult().heads(), 4);
    Request request = w->controlPanel()->request();
    request.config.heads = 2;
    AttentionEngine engine;
    const Result partial = engine.compute(request, nullptr, Stage::Normalize);
    w->heatmapGrid()->setResult(partial, w->viewOptions()); // as weightsReady does
    QCOMPARE(w->heatmapGrid()->count(), 3);
    emit w->heatmapGrid()->headActivated(-1); // the mean tile, clicked
    auto* dialog = w->findChild<HeadDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->windowTitle(), w->heatmapGrid()->view(2)->data().title);
}

void TestMonkey::aZoomedHeatmapPaintsOnlyWhatShows()
{
    // The monkey's first hang: a head dialog open while a long text came in repainted
    // all T² cells, one text per cell, for a window that shows a few hundred (seconds
    // per repaint at T = 1000, minutes at 3000). The cells and values outside the clip
    // are not drawn now.
    constexpr int T = 600;
    constexpr double cell = 32;
    HeatmapData data;
    data.weights = Matrix::Constant(T, T, 1.0f / T);
    for (int t = 0; t < T; ++t)
        data.queryLabels << QStringLiteral("w%1").arg(t);
    data.keyLabels = data.queryLabels;
    HeatmapStyle style;
    style.annotate = true;
    const HeatmapLayout layout = HeatmapLayout::forCellSize(data, style, cell);
    CountingDevice device;
    {
        QPainter painter(&device);
        painter.setClipRect(QRect(0, 0, 800, 600)); // what a head dialog shows
        paintHeatmap(painter, layout, data, style);
    }
    const qint64 shown = qint64(800 / cell + 2) * qint64(600 / cell + 2);
    const qint64 labels = 2 * T + 50; // every label, titles and the colorbar's
    QVERIFY2(device.engine().texts <= shown + labels,
             qPrintable(QStringLiteral("%1 texts drawn").arg(device.engine().texts)));
    QVERIFY2(device.engine().rects <= shown + labels,
             qPrintable(QStringLiteral("%1 rectangles drawn").arg(device.engine().rects)));
    QVERIFY(device.engine().texts > 0);
}

void TestMonkey::note(const QString& what)
{
    history_.push_back(QStringLiteral("#%1 %2").arg(action_).arg(what.left(160)));
    if (history_.size() > kHistory)
        history_.pop_front();
}

QString TestMonkey::history() const
{
    QStringList lines;
    for (const QString& line : history_)
        lines << QStringLiteral("  ") + line;
    return lines.join(u'\n');
}

void TestMonkey::submitNow()
{
    // What the debounce timer does kControlPanel::kDebounceMs after the last keystroke;
    // now and then the test waits for the real one instead.
    if (chance(12)) {
        QTest::qWait(ControlPanel::kDebounceMs + 30);
        return;
    }
    emit window_->controlPanel()->requestChanged();
}

// Waits until the window shows the outcome of the controls' request: its result, or
// its error in place of the token chips.
bool TestMonkey::settle(QString* problem)
{
    MainWindow* w = window_.get();
    auto* chips = child<TokenChips>(w, "tokenChips");
    const Request request = w->controlPanel()->request();
    const Outcome expected = expectedOutcome(request);
    const bool settled = waitUntil(
        [&] {
            if (w->controller()->busy())
                return false;
            return expected.tokens ? w->lastResult().request == request
                                   : chips->error() == expected.error;
        },
        kBudget.settleMs);
    if (!settled)
        *problem = QStringLiteral("did not settle within %1 s (busy %2, error \"%3\")")
                       .arg(kBudget.settleMs / 1000)
                       .arg(w->controller()->busy())
                       .arg(chips->error());
    return settled;
}

QString TestMonkey::invariantProblems()
{
    MainWindow* w = window_.get();
    if (!w->isVisible())
        return QStringLiteral("the window is gone");
    if (!modals_.isEmpty())
        return QStringLiteral("a modal dialog appeared: ") + modals_.join(u"; ");
    if (!problems_.isEmpty())
        return problems_.join(u"; ");
    auto* chips = child<TokenChips>(w, "tokenChips");
    const Request request = w->controlPanel()->request();
    const Outcome expected = expectedOutcome(request);
    if (!expected.tokens) {
        if (chips->error() != expected.error)
            return QStringLiteral("the error shown is \"%1\", not \"%2\"")
                .arg(chips->error(), expected.error);
        if (chips->error().contains(u'\n'))
            return QStringLiteral("the error is not one line: ") + chips->error();
        // A large result let go of before the refused compute came back with its numbers.
        if (w->heatmapGrid()->hasLetGo())
            return QStringLiteral("the heatmaps stay without their numbers after a refusal");
        return {};
    }

    const Result& r = w->lastResult();
    if (!r.valid())
        return QStringLiteral("no valid result for a valid request");
    if (r.request != request)
        return QStringLiteral("the result is not the controls' request");
    if (*r.tokens != *expected.tokens)
        return QStringLiteral("the result's tokens (B=%1, T=%2) are not the tokenizer's (B=%3, "
                              "T=%4)")
            .arg(r.batch())
            .arg(r.length())
            .arg(expected.tokens->batch())
            .arg(expected.tokens->length());
    if (*r.keyTokens != *expected.keys)
        return QStringLiteral("the result's keys (T_k=%1) are not the second text's (T_k=%2)")
            .arg(r.keyLength())
            .arg(expected.keys->length());
    if (r.isCross() && r.config().mask != MaskKind::None)
        return QStringLiteral("a causal mask in cross-attention");
    if (!chips->error().isEmpty())
        return QStringLiteral("an error is shown beside a valid result: ") + chips->error();
    if (chips->tokens() != *r.tokens)
        return QStringLiteral("the chips do not show the result's tokens");
    // Every head, and their mean when there are several.
    if (w->heatmapGrid()->count() != r.heads() + (r.heads() > 1 ? 1 : 0))
        return QStringLiteral("%1 heatmaps for %2 heads")
            .arg(w->heatmapGrid()->count())
            .arg(r.heads());
    for (int k = 0; k < w->heatmapGrid()->count(); ++k) {
        const HeatmapData& data = w->heatmapGrid()->view(k)->data();
        if (data.rows() != r.length() || data.columns() != r.keyLength() ||
            data.keyLabels.size() != r.keyLength())
            return QStringLiteral("heatmap %1 is %2×%3 with %4 key labels, T_q×T_k = %5×%6")
                .arg(k)
                .arg(data.rows())
                .arg(data.columns())
                .arg(data.keyLabels.size())
                .arg(r.length())
                .arg(r.keyLength());
        // Every tile on the view's colour scale: from 0, or on the logarithmic one from its
        // floor below the same maximum.
        const HeatmapStyle& style = w->heatmapGrid()->view(k)->heatmapStyle();
        const bool log = w->viewOptions().logScale;
        if (style.logScale != log ||
            (log ? !(style.vmin > 0 && style.vmin < style.vmax) : style.vmin != 0))
            return QStringLiteral("heatmap %1's colour scale is %2 from %3 to %4, the view's %5")
                .arg(k)
                .arg(style.logScale ? u"logarithmic"_s : u"linear"_s)
                .arg(style.vmin)
                .arg(style.vmax)
                .arg(log ? u"logarithmic"_s : u"linear"_s);
    }
    if (child<QCheckBox>(w, "causalCheck")->isEnabled() == r.isCross())
        return QStringLiteral("the causal switch is %1 in %2-attention")
            .arg(r.isCross() ? u"enabled"_s : u"disabled"_s, r.isCross() ? u"cross"_s : u"self"_s);
    if (w->statisticsPanel()->table()->rowCount() != r.heads())
        return QStringLiteral("the statistics list %1 rows for %2 heads")
            .arg(w->statisticsPanel()->table()->rowCount())
            .arg(r.heads());
    if (const int s = w->viewOptions().sequence; s < 0 || s >= r.batch())
        return QStringLiteral("the view shows sequence %1 of %2").arg(s).arg(r.batch());
    if (r.weights.get() != checkedWeights_) { // the weights are shared until they change
        checkedWeights_ = r.weights.get();
        if (const QString problem = weightProblems(r); !problem.isEmpty())
            return problem;
    }
    return {};
}

void TestMonkey::randomActions()
{
    const auto seed = std::uint32_t(environmentInt("ATTN_MONKEY_SEED", kDefaultSeed));
    const int actions = environmentInt("ATTN_MONKEY_ACTIONS", kDefaultActions);
    const int seconds = environmentInt("ATTN_MONKEY_SECONDS", kDefaultSeconds);
    qInfo("monkey: seed %u, %d actions, at most %d s, %s budget (replay with "
          "ATTN_MONKEY_SEED=%u)",
          seed, actions, seconds, kFastBuild ? "optimised" : "debug/sanitizer", seed);
    rng_.seed(seed);
    text_ = std::make_unique<TextMaker>(rng_);

    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    // A modal dialog would block the run: close it and count it as a failure.
    QTimer modalWatch;
    connect(&modalWatch, &QTimer::timeout, this, [this] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            modals_ << modal->windowTitle();
            modal->close();
        }
    });
    modalWatch.start(200);

    static const ActionKind kinds[] = {
        {"type", 24, &TestMonkey::typeText},
        {"keys", 6, &TestMonkey::pressKeys},
        {"tokenizer", 5, &TestMonkey::chooseTokenizer},
        {"d_model", 7, &TestMonkey::chooseDModel},
        {"heads", 6, &TestMonkey::chooseHeads},
        {"seed", 3, &TestMonkey::typeSeed},
        {"switch", 14, &TestMonkey::flipSwitch},
        {"cross", 5, &TestMonkey::crossAttention},
        {"embedding", 4, &TestMonkey::editEmbedding},
        {"temperature", 5, &TestMonkey::moveTemperature},
        {"language", 3, &TestMonkey::switchLanguage},
        {"view", 8, &TestMonkey::changeView},
        {"export", 6, &TestMonkey::exportFile},
        {"save", 3, &TestMonkey::saveSession},
        {"open", 3, &TestMonkey::openSession},
        {"damaged", 3, &TestMonkey::openDamagedSession},
        {"poke", 4, &TestMonkey::poke},
    };
    std::vector<int> weights;
    for (const ActionKind& kind : kinds)
        weights.push_back(kind.weight);
    std::discrete_distribution<int> pickKind(weights.begin(), weights.end());
    std::map<QString, int> counts;
    std::map<QString, qint64> milliseconds; // with the settling that followed

    QElapsedTimer clock;
    clock.start();
    int burst = 0; // actions left to run without settling in between
    for (action_ = 1; action_ <= actions; ++action_) {
        if (clock.elapsed() > qint64(seconds) * 1000) {
            qInfo("monkey: stopped after %d s of wall clock", seconds);
            break;
        }
        const ActionKind& kind = kinds[pickKind(rng_)];
        ++counts[QString::fromLatin1(kind.name)];
        QElapsedTimer actionClock;
        actionClock.start();
        (this->*kind.run)();
        if (burst == 0 && chance(5))
            burst = 2 + below(5); // several changes while the worker computes
        if (burst > 0 && --burst > 0)
            continue;
        QString problem;
        if (settle(&problem))
            problem = invariantProblems();
        milliseconds[QString::fromLatin1(kind.name)] += actionClock.elapsed();
        if (!problem.isEmpty()) {
            qWarning("monkey: the last actions before the failure (seed %u):\n%s", seed,
                     qPrintable(history()));
            QFAIL(qPrintable(QStringLiteral("after action #%1 (%2): %3")
                                 .arg(action_)
                                 .arg(QLatin1StringView(kind.name), problem)));
        }
    }
    const int ran = action_ - 1;
    QStringList summary;
    for (const auto& [name, count] : counts)
        summary << QStringLiteral("%1 %2 (%3 ms)").arg(name).arg(count).arg(milliseconds[name]);
    qInfo("monkey: %d actions in %.1f s, %d skipped as over the budget: %s", ran,
          clock.elapsed() / 1000.0, skipped_, qPrintable(summary.join(QStringLiteral(", "))));
    QVERIFY(ran > 0);

    // The window closes cleanly after all of it, its autosave removed.
    const QString autosave = w->sessionFiles()->autosavePath();
    QVERIFY(w->close());
    QVERIFY(!QFileInfo::exists(autosave));
}

QTEST_MAIN(TestMonkey)
