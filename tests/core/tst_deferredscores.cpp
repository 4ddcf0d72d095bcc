// S's masked cells that stage 5 leaves for later: an object of their own beside the
// immutable result (DeferredScores), made once for every result that shares S.
#include "engine/engine.h"
#include "enginerequests.h"

#include <QtTest>

#include <cstring>
#include <thread>
#include <vector>

using attn::AttentionEngine;
using attn::Request;
using attn::Stage;
using attn::test::longCausalRequest;
using attn::test::sameBits;
using attn::test::scoresAtOnce;

class TestDeferredScores : public QObject {
    Q_OBJECT

private slots:
    void madeOnceForEveryHolder_data();
    void madeOnceForEveryHolder();
    void engineMakesThemForItsHolders();
    void noDeferredPartWithoutScores();
    void lettingGoOfPendingScores();
};

void TestDeferredScores::madeOnceForEveryHolder_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<int>("callers");
    QTest::newRow("T = 300, one caller") << 300 << 1;
    QTest::newRow("T = 517, two callers at once") << 517 << 2;
}

// Any holder of the heatmaps' result may make the masked scores; callers at once make them
// once, and every copy of the result then has the bits of a compute that made all of S.
void TestDeferredScores::madeOnceForEveryHolder()
{
    QFETCH(int, length);
    QFETCH(int, callers);
    const Request r = longCausalRequest(length);
    AttentionEngine engine;
    const attn::Result heatmaps = engine.compute(r, nullptr, Stage::Normalize);
    const attn::Result copy = heatmaps;
    QVERIFY(heatmaps.scoresPending());
    QVERIFY(heatmaps.deferredScores->holds(heatmaps.scores.get()));

    std::vector<std::thread> threads;
    for (int c = 0; c < callers; ++c)
        threads.emplace_back([&copy] { copy.deferredScores->complete(); });
    for (std::thread& thread : threads)
        thread.join();

    QVERIFY(!copy.scoresPending());
    QVERIFY(!heatmaps.scoresPending());
    QVERIFY(!engine.result().scoresPending());
    QVERIFY2(!heatmaps.deferredScores->holds(heatmaps.scores.get()),
             "once made, the deferred part lets go of S");
    const attn::Result atOnce = scoresAtOnce(r);
    QVERIFY(sameBits(heatmaps.scores->items(), atOnce.scores->items()));
    heatmaps.deferredScores->complete(); // a later call changes nothing
    QVERIFY(sameBits(heatmaps.scores->items(), atOnce.scores->items()));

    // The statistics need no second pass over them and read the same scores.
    const attn::Result full = engine.compute(r);
    QCOMPARE(full.scores.get(), heatmaps.scores.get());
    QVERIFY(!full.deferredScores);
    QCOMPARE(full.stats->stdScores, atOnce.stats->stdScores);
}

// The engine's statistics make them for the window's earlier copy too, in S's memory.
void TestDeferredScores::engineMakesThemForItsHolders()
{
    const Request r = longCausalRequest(300);
    AttentionEngine engine;
    const attn::Result heatmaps = engine.compute(r, nullptr, Stage::Normalize);
    QVERIFY(heatmaps.scoresPending());
    const attn::Result full = engine.compute(r);
    QVERIFY(!full.scoresPending());
    QVERIFY(!full.deferredScores);
    QVERIFY(!heatmaps.scoresPending());
    QCOMPARE(full.scores.get(), heatmaps.scores.get());
    QVERIFY(sameBits(heatmaps.scores->items(), scoresAtOnce(r).scores->items()));
}

// A result without S (the window's statistics, a compute stopped before stage 5) has no
// deferred part; neither has one whose S was made whole.
void TestDeferredScores::noDeferredPartWithoutScores()
{
    const Request r = longCausalRequest(300);
    AttentionEngine engine;
    const attn::Result heatmaps = engine.compute(r, nullptr, Stage::Normalize);
    QVERIFY(heatmaps.deferredScores);
    QVERIFY(!attn::withoutHeadTensors(heatmaps).deferredScores);
    Request unmasked = r;
    unmasked.config.mask = attn::MaskKind::None;
    AttentionEngine other;
    QVERIFY(!other.compute(unmasked, nullptr, Stage::Normalize).deferredScores);
    QVERIFY(!other.compute(r, nullptr, Stage::Split).deferredScores);
}

// The window lets go of heatmaps whose masked scores wait (before a large compute): their
// deferred part, which holds S until it has made it, goes with them. A compute that makes S
// anew then writes it into the same memory and does not count the old S against the limit.
void TestDeferredScores::lettingGoOfPendingScores()
{
    const Request r = longCausalRequest(300);
    Request reseeded = r;
    reseeded.config.seed += 1; // from stage 2 on: S and P anew
    AttentionEngine engine;
    attn::Result shown = engine.compute(r, nullptr, Stage::Normalize);
    QVERIFY(shown.scoresPending());
    const attn::HeadStack* oldScores = shown.scores.get();
    const int B = shown.batch(), T = shown.length(), C = shown.dModel(), H = shown.heads();
    const double s = attn::bytesOf(shown.scores->items());
    const double p = attn::bytesOf(shown.weights->items());
    // Beside the new outputs the previous result keeps x, Q, K, V, their heads and the mask.
    const double rest = attn::heldBytes(shown, Stage::Embed) - s - p;
    shown = attn::Result{}; // the window let go

    engine.setMemoryLimit(attn::estimatedBytes(B, T, C, H) + rest + s / 2);
    const attn::Result next = engine.compute(reseeded, nullptr, Stage::Normalize);
    QCOMPARE(next.scores.get(), oldScores);
    QVERIFY(next.scoresPending());
    QVERIFY(
        sameBits(engine.compute(reseeded).scores->items(), scoresAtOnce(reseeded).scores->items()));
}

QTEST_GUILESS_MAIN(TestDeferredScores)
#include "tst_deferredscores.moc"
