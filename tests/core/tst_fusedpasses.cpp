// The engine's fused passes give the staged pipeline's numbers: a switch's softmax over the
// keys makes the mean over heads in the same pass, the scores a causal mask hides wait for
// the statistics, and a switch makes exactly the scores it reads.
#include "engine/engine.h"
#include "engine/statistics.h"
#include "enginerequests.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using attn::AttentionEngine;
using attn::Request;
using attn::Stage;
using attn::test::baseRequest;
using attn::test::longCausalRequest;
using attn::test::sameBits;
using attn::test::scoresAtOnce;

Q_DECLARE_METATYPE(attn::SoftmaxAxis)
Q_DECLARE_METATYPE(attn::MaskKind)
Q_DECLARE_METATYPE(attn::MaskStage)

namespace {

// Every cell of S against q·k summed in double from the result's own heads.
bool scoresAreProducts(const attn::Result& result)
{
    for (int b = 0; b < result.batch(); ++b)
        for (int h = 0; h < result.heads(); ++h) {
            const attn::Matrix& s = result.scores->at(b, h);
            const attn::Matrix& q = result.split->q.at(b, h);
            const attn::Matrix& k = result.split->k.at(b, h);
            for (Eigen::Index i = 0; i < s.rows(); ++i)
                for (Eigen::Index j = 0; j < s.cols(); ++j) {
                    double dot = 0, size = 0;
                    for (Eigen::Index c = 0; c < q.cols(); ++c) {
                        dot += double(q(i, c)) * double(k(j, c));
                        size += std::abs(double(q(i, c)) * double(k(j, c)));
                    }
                    if (!(std::abs(double(s(i, j)) - dot) <= 1e-5 * (size + 1)))
                        return false;
                }
        }
    return true;
}

} // namespace

class TestFusedPasses : public QObject {
    Q_OBJECT

private slots:
    void switchMakesTheHeadsOverview_data();
    void switchMakesTheHeadsOverview();
    void causalScoresWaitForTheStatistics_data();
    void causalScoresWaitForTheStatistics();
    void switchMakesTheScoresItReads_data();
    void switchMakesTheScoresItReads();
};

void TestFusedPasses::switchMakesTheHeadsOverview_data()
{
    QTest::addColumn<attn::MaskKind>("mask");
    QTest::addColumn<attn::MaskStage>("stage");
    QTest::newRow("padding only") << attn::MaskKind::None << attn::MaskStage::BeforeSoftmax;
    QTest::newRow("causal") << attn::MaskKind::Causal << attn::MaskStage::BeforeSoftmax;
    QTest::newRow("causal, after the softmax")
        << attn::MaskKind::Causal << attn::MaskStage::AfterSoftmax;
}

// The window's engine makes the heads' overview in a switch's softmax over the keys: the
// same bits as overviewOfHeads over the same weights, and the same weights as an engine
// that does not make it. A compute whose softmax does not make it leaves none, never a
// stale one.
void TestFusedPasses::switchMakesTheHeadsOverview()
{
    QFETCH(attn::MaskKind, mask);
    QFETCH(attn::MaskStage, stage);
    // Two lines of 300 and 250 tokens: the pass's bands of about 1 MB of P are then 218
    // rows of every head, two bands a sequence, the second one short.
    Request r = baseRequest();
    r.text.clear();
    for (const int tokens : {300, 250}) {
        for (int t = 0; t < tokens; ++t)
            r.text += "w" + std::to_string(t % 37) + " ";
        r.text += "\n";
    }
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.mask = mask;
    r.config.maskStage = stage;
    AttentionEngine engine, plain;
    engine.setMakesOverviews(true);
    const attn::Result first = engine.compute(r);
    QVERIFY2(!first.overviews, "S and P made in one pass leave the overview to the window");
    // There the window's worker adds it, the same bits; a cancel stops it.
    attn::Result added = first;
    std::atomic<bool> stop{true};
    QVERIFY_THROWS_EXCEPTION(attn::Cancelled, attn::addOverviews(added, &stop));
    QVERIFY(!added.overviews);
    attn::addOverviews(added);
    QVERIFY(added.overviews);
    QVERIFY(
        sameBits({(*added.overviews)[1].mean}, {attn::overviewOfHeads(*first.weights, 1).mean}));

    Request switched = r;
    switched.config.scale = attn::ScaleMode::None;
    const attn::Result result = engine.compute(switched, nullptr, Stage::Normalize);
    (void)plain.compute(r);
    const attn::Result reference = plain.compute(switched, nullptr, Stage::Normalize);
    QVERIFY(!reference.overviews);
    QVERIFY(sameBits(result.weights->items(), reference.weights->items()));
    QVERIFY(result.overviews);
    const auto* made = result.overviews.get();
    attn::Result kept = result;
    attn::addOverviews(kept); // the softmax's are kept, not made again
    QCOMPARE(kept.overviews.get(), made);
    QCOMPARE(int(result.overviews->size()), result.batch());
    // The next switch holds them beside the weights until it ends.
    const double B = result.batch(), T = result.length(), H = result.heads();
    QCOMPARE(attn::heldBytes(result, Stage::Normalize), (B * H * T * T + B * T * T) * 4.0);
    for (int b = 0; b < result.batch(); ++b) {
        const attn::HeadsOverview expected = attn::overviewOfHeads(*result.weights, b);
        const attn::HeadsOverview& made = (*result.overviews)[std::size_t(b)];
        QVERIFY(sameBits({made.mean}, {expected.mean}));
        QCOMPARE(made.maxima, expected.maxima);
    }

    // The rest of the compute keeps them with the weights; a softmax over the queries
    // replaces both and makes none.
    const attn::Result whole = engine.compute(switched);
    QCOMPARE(whole.overviews.get(), result.overviews.get());
    Request queries = switched;
    queries.config.axis = attn::SoftmaxAxis::Queries;
    QVERIFY(!engine.compute(queries).overviews);

    // A switch while a result is shown makes the overview anew and leaves the shown one
    // alone; once nobody holds an overview, a later switch writes its own into it (at
    // long T a mean of 37 MB would otherwise be new memory on every switch).
    AttentionEngine recycling;
    recycling.setMakesOverviews(true);
    (void)recycling.compute(r);
    attn::Result shown = recycling.compute(switched, nullptr, Stage::Normalize);
    const attn::Matrix shownMean = (*shown.overviews)[1].mean;
    const std::vector<float> shownMaxima = (*shown.overviews)[1].maxima;
    attn::Result next = recycling.compute(r, nullptr, Stage::Normalize);
    QVERIFY(next.overviews.get() != shown.overviews.get());
    QVERIFY(sameBits({(*shown.overviews)[1].mean}, {shownMean}));
    QCOMPARE((*shown.overviews)[1].maxima, shownMaxima);
    const std::weak_ptr<const std::vector<attn::HeadsOverview>> released = shown.overviews;
    shown = next; // the window shows the newer result; nobody holds the first overview
    QVERIFY2(!released.expired(), "the engine keeps an overview nobody holds");
    Request warmer = r;
    warmer.config.temperature = 2.0f;
    next = recycling.compute(warmer, nullptr, Stage::Normalize);
    QCOMPARE(next.overviews, released.lock());
    for (int b = 0; b < next.batch(); ++b) {
        const attn::HeadsOverview expected = attn::overviewOfHeads(*next.weights, b);
        const attn::HeadsOverview& made = (*next.overviews)[std::size_t(b)];
        QVERIFY(sameBits({made.mean}, {expected.mean}));
        QCOMPARE(made.maxima, expected.maxima);
    }
}

void TestFusedPasses::causalScoresWaitForTheStatistics_data()
{
    QTest::addColumn<int>("length");
    QTest::newRow("T = 300: two blocks of rows") << 300;
    QTest::newRow("T = 517: four blocks, uneven") << 517;
}

// Under a causal mask before a softmax over the keys, the heatmaps come before the scores
// the mask hides: those are made with the statistics, the same bits as a compute that
// makes every score at once.
void TestFusedPasses::causalScoresWaitForTheStatistics()
{
    QFETCH(int, length);
    const Request r = longCausalRequest(length);
    const attn::Result atOnce = scoresAtOnce(r);
    QVERIFY(!atOnce.scoresPending());
    QVERIFY(scoresAreProducts(atOnce));

    AttentionEngine engine;
    const attn::Result heatmaps = engine.compute(r, nullptr, Stage::Normalize);
    QVERIFY(heatmaps.scoresPending());
    QVERIFY(sameBits(heatmaps.weights->items(), atOnce.weights->items()));
    // Every score the softmax read is there already.
    for (int b = 0; b < heatmaps.batch(); ++b)
        for (int h = 0; h < heatmaps.heads(); ++h)
            for (int i = 0; i < length; ++i)
                QVERIFY(std::memcmp(heatmaps.scores->at(b, h).row(i).data(),
                                    atOnce.scores->at(b, h).row(i).data(),
                                    sizeof(float) * std::size_t(i + 1)) == 0);
    // The logits of the masked cells are the fill, without their scores.
    QCOMPARE(heatmaps.logit(0, 1, 0, length - 1), -std::numeric_limits<float>::infinity());

    const attn::Result output = engine.compute(r, nullptr, Stage::Aggregate);
    QVERIFY2(output.scoresPending(), "the output does not need the masked scores");
    QVERIFY(sameBits(output.aggregation->output, atOnce.aggregation->output));

    const attn::Result full = engine.compute(r);
    QVERIFY(!full.scoresPending());
    QVERIFY(!engine.result().scoresPending());
    QCOMPARE(full.scores.get(), heatmaps.scores.get()); // made in place
    QVERIFY(sameBits(full.scores->items(), atOnce.scores->items()));
    QVERIFY(scoresAreProducts(full));
    QCOMPARE(full.stats->heads.size(), atOnce.stats->heads.size());
    for (std::size_t i = 0; i < full.stats->heads.size(); ++i) {
        QCOMPARE(full.stats->heads[i].stdScores, atOnce.stats->heads[i].stdScores);
        QCOMPARE(full.stats->heads[i].stdLogits, atOnce.stats->heads[i].stdLogits);
    }
    QCOMPARE(full.stats->stdScores, atOnce.stats->stdScores);

    // A result without S has nothing pending.
    QVERIFY(!attn::withoutHeadTensors(heatmaps).scoresPending());
}

void TestFusedPasses::switchMakesTheScoresItReads_data()
{
    QTest::addColumn<attn::MaskKind>("mask");
    QTest::addColumn<attn::MaskStage>("maskStage");
    QTest::addColumn<attn::SoftmaxAxis>("axis");
    QTest::addColumn<bool>("scaled");
    QTest::addColumn<bool>("pending");
    using attn::MaskKind;
    using attn::MaskStage;
    using attn::SoftmaxAxis;
    QTest::newRow("scaling off: still masked")
        << MaskKind::Causal << MaskStage::BeforeSoftmax << SoftmaxAxis::Keys << false << true;
    QTest::newRow("no mask") << MaskKind::None << MaskStage::BeforeSoftmax << SoftmaxAxis::Keys
                             << true << false;
    QTest::newRow("mask after the softmax")
        << MaskKind::Causal << MaskStage::AfterSoftmax << SoftmaxAxis::Keys << true << false;
    QTest::newRow("over the queries")
        << MaskKind::Causal << MaskStage::BeforeSoftmax << SoftmaxAxis::Queries << true << false;
}

// A switch from heatmaps whose masked scores wait: one that reads them makes them first,
// in place, and gives what a compute of every score at once gives.
void TestFusedPasses::switchMakesTheScoresItReads()
{
    QFETCH(attn::MaskKind, mask);
    QFETCH(attn::MaskStage, maskStage);
    QFETCH(attn::SoftmaxAxis, axis);
    QFETCH(bool, scaled);
    QFETCH(bool, pending);
    const Request r = longCausalRequest(300);
    Request switched = r;
    switched.config.mask = mask;
    switched.config.maskStage = maskStage;
    switched.config.axis = axis;
    if (!scaled)
        switched.config.scale = attn::ScaleMode::None;

    AttentionEngine engine;
    const attn::Result heatmaps = engine.compute(r, nullptr, Stage::Normalize);
    QVERIFY(heatmaps.scoresPending());
    const attn::Result after = engine.compute(switched, nullptr, Stage::Normalize);
    QCOMPARE(engine.runs(Stage::Scores), 1);
    QCOMPARE(after.scores.get(), heatmaps.scores.get());
    QCOMPARE(after.scoresPending(), pending);
    QCOMPARE(engine.result().scoresPending(), pending);
    const attn::Result atOnce = scoresAtOnce(switched);
    QVERIFY(sameBits(after.weights->items(), atOnce.weights->items()));
    if (!pending)
        QVERIFY(sameBits(after.scores->items(), atOnce.scores->items()));

    // A compute that stops before the softmax hands out every score.
    Request unscaled = r;
    unscaled.config.scale = attn::ScaleMode::None;
    AttentionEngine second;
    (void)second.compute(r, nullptr, Stage::Normalize);
    const attn::Result masks = second.compute(unscaled, nullptr, Stage::ScaleMask);
    QVERIFY(!masks.scoresPending());
    QVERIFY(sameBits(masks.scores->items(), atOnce.scores->items()));
}

QTEST_GUILESS_MAIN(TestFusedPasses)
#include "tst_fusedpasses.moc"
