// The staged pipeline: a change recomputes only from the first stage it touches.
#include "blas.h"
#include "embedding.h"
#include "engine.h"
#include "parallel.h"
#include "statistics.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using attn::AttentionEngine;
using attn::Request;
using attn::Stage;

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(attn::SoftmaxAxis)
Q_DECLARE_METATYPE(attn::MaskKind)
Q_DECLARE_METATYPE(attn::MaskStage)

namespace {

Request baseRequest()
{
    Request r;
    r.text = "the cat sat on the mat\nit was tired";
    r.config.dModel = 32;
    r.config.heads = 4;
    return r;
}

std::array<int, attn::kStageCount> runCounts(const AttentionEngine& engine)
{
    std::array<int, attn::kStageCount> counts{};
    for (int s = 0; s < attn::kStageCount; ++s)
        counts[static_cast<std::size_t>(s)] = engine.runs(static_cast<Stage>(s));
    return counts;
}

// Bit for bit, NaN included (over the queries axis a <pad> key's column is all masked: NaN).
bool sameBits(const std::vector<attn::Matrix>& a, const std::vector<attn::Matrix>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].rows() != b[i].rows() || a[i].cols() != b[i].cols() ||
            std::memcmp(a[i].data(), b[i].data(), sizeof(float) * std::size_t(a[i].size())) != 0)
            return false;
    return true;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT

private slots:
    void parallelLoopsRunEveryItemOnce();
    void changeRerunsFromItsStage_data();
    void changeRerunsFromItsStage();
    void unchangedRequestRunsNothing();
    void splitInTheProjectionEqualsTheSplitStage_data();
    void splitInTheProjectionEqualsTheSplitStage();
    void sameTokensSpareTheEmbedding();
    void earlierStagesAreShared();
    void invalidRequestKeepsThePreviousResult();
    void cancelKeepsThePreviousResult();
    void shapes_data();
    void shapes();
    void heatmapsFirstThenTheRest();
    void partialResultDropsStaleStages();
    void stagesOneAtATimeMatchOneCompute_data();
    void stagesOneAtATimeMatchOneCompute();
    void refusesWhatWouldNotFit();
    void countsThePreviousResultItReplaces();
    void replacesInPlaceWhatNobodyHolds();
    void switchMakesTheHeadsOverview_data();
    void switchMakesTheHeadsOverview();
    void causalScoresWaitForTheStatistics_data();
    void causalScoresWaitForTheStatistics();
    void switchMakesTheScoresItReads_data();
    void switchMakesTheScoresItReads();
    void positionalEncoding();
    void blasMultipliesWithTheCpusKernels();
};

void TestEngine::changeRerunsFromItsStage_data()
{
    QTest::addColumn<Request>("changed");
    QTest::addColumn<int>("firstStage");

    auto with = [](auto edit) {
        Request r = baseRequest();
        edit(r);
        return r;
    };
    QTest::newRow("text") << with([](Request& r) { r.text = "a dog slept"; })
                          << int(Stage::Tokenize);
    QTest::newRow("tokenizer=chars")
        << with([](Request& r) { r.config.tokenizer = attn::TokenizerMode::Chars; })
        << int(Stage::Tokenize);
    QTest::newRow("seed") << with([](Request& r) { r.config.seed = 7; }) << int(Stage::Embed);
    QTest::newRow("d_model") << with([](Request& r) { r.config.dModel = 64; }) << int(Stage::Embed);
    QTest::newRow("embedding=torch")
        << with([](Request& r) { r.config.embedding = attn::EmbeddingMode::Torch; })
        << int(Stage::Embed);
    QTest::newRow("positional=none")
        << with([](Request& r) { r.config.positional = attn::Positional::None; })
        << int(Stage::Embed);
    QTest::newRow("embedding override")
        << with([](Request& r) { r.embeddingOverrides["cat"] = std::vector<float>(32, 0.5f); })
        << int(Stage::Embed);
    QTest::newRow("heads") << with([](Request& r) { r.config.heads = 2; }) << int(Stage::Split);
    QTest::newRow("head-split=view")
        << with([](Request& r) { r.config.headSplit = attn::HeadSplit::View; })
        << int(Stage::Split);
    QTest::newRow("scale=none") << with([](Request& r) { r.config.scale = attn::ScaleMode::None; })
                                << int(Stage::ScaleMask);
    QTest::newRow("temperature") << with([](Request& r) { r.config.temperature = 0.5f; })
                                 << int(Stage::ScaleMask);
    QTest::newRow("mask=causal") << with([](Request& r) { r.config.mask = attn::MaskKind::Causal; })
                                 << int(Stage::ScaleMask);
    QTest::newRow("mask-fill=-1e9")
        << with([](Request& r) { r.config.maskFill = attn::MaskFill::NegBillion; })
        << int(Stage::ScaleMask);
    QTest::newRow("mask-stage=after-softmax")
        << with([](Request& r) { r.config.maskStage = attn::MaskStage::AfterSoftmax; })
        << int(Stage::ScaleMask);
    QTest::newRow("padding-mask=off")
        << with([](Request& r) { r.config.paddingMask = false; }) << int(Stage::ScaleMask);
    QTest::newRow("axis=queries") << with([](Request& r) {
        r.config.axis = attn::SoftmaxAxis::Queries;
    }) << int(Stage::Normalize);
    QTest::newRow("axis=batch") << with([](Request& r) {
        r.config.axis = attn::SoftmaxAxis::Batch;
    }) << int(Stage::Normalize);
}

void TestEngine::changeRerunsFromItsStage()
{
    QFETCH(Request, changed);
    QFETCH(int, firstStage);

    AttentionEngine engine;
    (void)engine.compute(baseRequest());
    const auto before = runCounts(engine);
    (void)engine.compute(changed);
    const auto after = runCounts(engine);

    for (int s = 0; s < attn::kStageCount; ++s) {
        const int delta = after[std::size_t(s)] - before[std::size_t(s)];
        const int expected = s >= firstStage ? 1 : 0;
        QVERIFY2(delta == expected,
                 qPrintable(QStringLiteral("stage %1 ran %2 time(s), expected %3")
                                .arg(s + 1)
                                .arg(delta)
                                .arg(expected)));
    }
}

void TestEngine::splitInTheProjectionEqualsTheSplitStage_data()
{
    QTest::addColumn<Request>("request");
    QTest::newRow("self, two sequences") << baseRequest();
    Request cross = baseRequest();
    cross.config.attention = attn::AttentionKind::Cross;
    cross.crossText = "a dog slept on the rug all day\nit ran";
    QTest::newRow("cross, two sequences") << cross;
    Request rows = baseRequest(); // blocks of rows on both cores, d_k not a vector's width
    rows.text = std::string(200, 'x');
    rows.config.tokenizer = attn::TokenizerMode::Chars;
    rows.config.dModel = 36;
    rows.config.heads = 3;
    QTest::newRow("long, d_k 12") << rows;
}

// A full compute with view + transpose splits each block of rows into the heads inside the
// projection's loop; a switch back from view alone runs stage 4 by itself. Both give the
// heads torch's .view(B, T, H, d_k).transpose(1, 2) gives: the columns of Q, K and V.
void TestEngine::splitInTheProjectionEqualsTheSplitStage()
{
    QFETCH(Request, request);
    AttentionEngine fused;
    const attn::Result inProjection = fused.compute(request);
    AttentionEngine alone;
    Request view = request;
    view.config.headSplit = attn::HeadSplit::View;
    (void)alone.compute(view);
    const int splitsBefore = alone.runs(Stage::Split);
    const attn::Result byItself = alone.compute(request);
    QCOMPARE(alone.runs(Stage::Split), splitsBefore + 1);
    QCOMPARE(alone.runs(Stage::Project), 1);

    const int H = request.config.heads, dK = request.config.dK();
    for (int b = 0; b < inProjection.batch(); ++b)
        for (int h = 0; h < H; ++h) {
            const auto at = [b, h](const attn::Result& r) {
                return std::array{r.split->q.at(b, h), r.split->k.at(b, h), r.split->v.at(b, h)};
            };
            const auto columns = std::array{
                attn::Matrix(inProjection.projection->q[std::size_t(b)].middleCols(h * dK, dK)),
                attn::Matrix(inProjection.projection->k[std::size_t(b)].middleCols(h * dK, dK)),
                attn::Matrix(inProjection.projection->v[std::size_t(b)].middleCols(h * dK, dK))};
            QVERIFY2(at(inProjection) == columns && at(byItself) == columns,
                     qPrintable(QStringLiteral("sequence %1, head %2").arg(b).arg(h)));
        }
    QVERIFY(inProjection.weights->items() == byItself.weights->items());
}

void TestEngine::unchangedRequestRunsNothing()
{
    AttentionEngine engine;
    (void)engine.compute(baseRequest());
    const auto before = runCounts(engine);
    (void)engine.compute(baseRequest());
    QCOMPARE(runCounts(engine), before);
}

void TestEngine::sameTokensSpareTheEmbedding()
{
    AttentionEngine engine;
    (void)engine.compute(baseRequest());
    const auto before = runCounts(engine);
    Request spaced = baseRequest();
    spaced.text = "the  cat sat on the mat \nit was   tired";
    const attn::Result result = engine.compute(spaced);
    const auto after = runCounts(engine);
    QCOMPARE(after[int(Stage::Tokenize)], before[int(Stage::Tokenize)] + 1);
    for (int s = int(Stage::Embed); s < attn::kStageCount; ++s)
        QCOMPARE(after[std::size_t(s)], before[std::size_t(s)]);
    QCOMPARE(result.request.text, spaced.text);
}

void TestEngine::earlierStagesAreShared()
{
    AttentionEngine engine;
    const attn::Result first = engine.compute(baseRequest());
    Request causal = baseRequest();
    causal.config.mask = attn::MaskKind::Causal;
    const attn::Result second = engine.compute(causal);

    // The projections are the very same objects; the weights are new ones, and the
    // first result still holds its own (a snapshot survives the next compute).
    QCOMPARE(second.projection.get(), first.projection.get());
    QCOMPARE(second.scores.get(), first.scores.get());
    QVERIFY(second.weights.get() != first.weights.get());
    QCOMPARE(first.weights->at(0, 0)(0, 5) > 0.0f, true); // key 5 visible from query 0
    QCOMPARE(second.weights->at(0, 0)(0, 5), 0.0f);       // hidden by the causal mask
}

void TestEngine::invalidRequestKeepsThePreviousResult()
{
    AttentionEngine engine;
    const attn::Result good = engine.compute(baseRequest());
    Request bad = baseRequest();
    bad.config.heads = 5; // does not divide 32
    QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)engine.compute(bad));
    QCOMPARE(engine.result().request, good.request);
    QCOMPARE(engine.result().weights.get(), good.weights.get());

    Request empty = baseRequest();
    empty.text = "  \n\t ";
    QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)engine.compute(empty));
    QCOMPARE(engine.result().request, good.request);
}

void TestEngine::cancelKeepsThePreviousResult()
{
    AttentionEngine engine;
    const attn::Result good = engine.compute(baseRequest());
    Request next = baseRequest();
    next.config.seed = 99;
    std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(attn::Cancelled, (void)engine.compute(next, &cancel));
    QCOMPARE(engine.result().request, good.request);

    cancel = false;
    const attn::Result done = engine.compute(next, &cancel);
    QCOMPARE(done.request.config.seed, std::uint64_t(99));
    QVERIFY(done.weights.get() != good.weights.get());
}

void TestEngine::shapes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("T");

    QTest::newRow("one line") << "a b c" << 16 << 2 << 1 << 3;
    QTest::newRow("two lines padded") << "a b c d\ne f" << 12 << 3 << 2 << 4;
    QTest::newRow("d_model 1") << "a b" << 1 << 1 << 1 << 2;
    QTest::newRow("heads = d_model") << "a b c" << 8 << 8 << 1 << 3;
}

void TestEngine::shapes()
{
    QFETCH(QString, text);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(int, B);
    QFETCH(int, T);

    Request r;
    r.text = text.toStdString();
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = dModel;
    r.config.heads = heads;
    AttentionEngine engine;
    const attn::Result result = engine.compute(r);
    QCOMPARE(result.batch(), B);
    QCOMPARE(result.length(), T);
    QCOMPARE(int(result.x->size()), B);
    QCOMPARE(int(result.x->at(0).cols()), dModel);
    QCOMPARE(result.weights->batch(), B);
    QCOMPARE(result.weights->heads(), heads);
    QCOMPARE(int(result.weights->at(B - 1, heads - 1).rows()), T);
    QCOMPARE(int(result.split->q.at(0, 0).cols()), dModel / heads);
    QCOMPARE(int(result.aggregation->output.size()), B);
    QCOMPARE(int(result.aggregation->output[0].cols()), dModel);
    QCOMPARE(int(result.stats->heads.size()), B * heads);
}

void TestEngine::heatmapsFirstThenTheRest()
{
    AttentionEngine engine;
    const attn::Result partial = engine.compute(baseRequest(), nullptr, Stage::Normalize);
    QVERIFY(partial.weights);
    QVERIFY(!partial.aggregation);
    QVERIFY(!partial.stats);
    QVERIFY(!partial.valid());
    QCOMPARE(engine.runs(Stage::Aggregate), 0);
    QCOMPARE(engine.runs(Stage::Statistics), 0);

    // Completing the same request runs only what was left.
    const auto before = runCounts(engine);
    const attn::Result full = engine.compute(baseRequest());
    const auto after = runCounts(engine);
    QVERIFY(full.valid());
    for (int s = 0; s < attn::kStageCount; ++s)
        QCOMPARE(after[std::size_t(s)] - before[std::size_t(s)],
                 s >= int(Stage::Aggregate) ? 1 : 0);
    QCOMPARE(full.weights.get(), partial.weights.get());

    // And the numbers are the ones a single full compute gives.
    AttentionEngine reference;
    QCOMPARE(*reference.compute(baseRequest()).weights->items().data(),
             *full.weights->items().data());
}

void TestEngine::partialResultDropsStaleStages()
{
    AttentionEngine engine;
    const attn::Result full = engine.compute(baseRequest());
    Request switched = baseRequest();
    switched.config.axis = attn::SoftmaxAxis::Queries;
    const attn::Result partial = engine.compute(switched, nullptr, Stage::Normalize);
    QVERIFY(partial.weights.get() != full.weights.get());
    QVERIFY2(!partial.stats && !partial.aggregation,
             "statistics of the keys axis must not be shown with weights of the queries axis");
    QCOMPARE(partial.scores.get(), full.scores.get());

    // A switch that touches only later stages keeps the heatmaps and drops the rest.
    const attn::Result again = engine.compute(switched);
    QVERIFY(again.valid());
    QCOMPARE(again.weights.get(), partial.weights.get());
}

void TestEngine::stagesOneAtATimeMatchOneCompute_data()
{
    QTest::addColumn<attn::SoftmaxAxis>("axis");
    QTest::newRow("keys (S and P in one pass)") << attn::SoftmaxAxis::Keys;
    QTest::newRow("queries") << attn::SoftmaxAxis::Queries;
}

// A compute may stop after any stage and the next one go on from there: each stage then
// runs once, its output is there, and the end is what one compute gives.
void TestEngine::stagesOneAtATimeMatchOneCompute()
{
    QFETCH(attn::SoftmaxAxis, axis);
    Request r = baseRequest();
    r.config.axis = axis;
    AttentionEngine engine;
    attn::Result result;
    for (int s = 0; s < attn::kStageCount; ++s) {
        result = engine.compute(r, nullptr, Stage(s));
        for (int t = 0; t < attn::kStageCount; ++t)
            QVERIFY2(engine.runs(Stage(t)) == (t <= s ? 1 : 0),
                     qPrintable(QStringLiteral("stage %1 ran %2 times after stopping at %3")
                                    .arg(t + 1)
                                    .arg(engine.runs(Stage(t)))
                                    .arg(s + 1)));
        const std::array<bool, attn::kStageCount> present{
            result.tokens != nullptr,  result.x != nullptr,           result.projection != nullptr,
            result.split != nullptr,   result.scores != nullptr,      result.mask != nullptr,
            result.weights != nullptr, result.aggregation != nullptr, result.stats != nullptr};
        for (int t = 0; t < attn::kStageCount; ++t)
            QVERIFY2(
                present[std::size_t(t)] == (t <= s),
                qPrintable(QStringLiteral("stage %1 after stopping at %2").arg(t + 1).arg(s + 1)));
    }
    AttentionEngine reference;
    const attn::Result whole = reference.compute(r);
    QVERIFY(sameBits(result.scores->items(), whole.scores->items()));
    QVERIFY(sameBits(result.weights->items(), whole.weights->items()));
    QVERIFY(sameBits(result.aggregation->output, whole.aggregation->output));
}

void TestEngine::refusesWhatWouldNotFit()
{
    // 64 lines of 4096 tokens and 64 heads: (B, H, T, T) alone is 64·64·4096²·4 bytes.
    QVERIFY(attn::estimatedBytes(64, 4096, 256, 64) > attn::memoryLimitBytes());
    std::string line;
    for (int t = 0; t < 4096; ++t)
        line += "w ";
    Request huge;
    huge.config.tokenizer = attn::TokenizerMode::Spaces;
    huge.config.dModel = 256;
    huge.config.heads = 64;
    for (int b = 0; b < 64; ++b)
        huge.text += line + "\n";

    AttentionEngine engine;
    const attn::Result good = engine.compute(baseRequest());
    try {
        (void)engine.compute(huge);
        QFAIL("a compute larger than the machine's memory was accepted");
    } catch (const attn::InputError& error) {
        QVERIFY2(QByteArray(error.what()).contains("GiB"), error.what());
    }
    QCOMPARE(engine.result().weights.get(), good.weights.get());
    QCOMPARE(engine.runs(Stage::Embed), 1); // nothing was allocated for it
}

// A compute holds the previous result's outputs it replaces until it ends (the window
// still shows them): a switch that fits alone but not beside them is refused with both
// figures, and the result stays; with room for both it goes through.
void TestEngine::countsThePreviousResultItReplaces()
{
    const Request first = baseRequest();
    Request switched = first;
    switched.config.scale = attn::ScaleMode::None;
    AttentionEngine engine;
    const attn::Result shown = engine.compute(first);
    const int B = shown.batch(), T = shown.length(), C = shown.dModel(), H = shown.heads();

    // A switch of the scaling makes stage 6 and what follows it anew: the mask (B, T, T)
    // of bool (counted, though a switch that keeps it shares it), P (B, H, T, T), and
    // P·V_h (B, H, T, d_k), the merge and the output (B, T, C).
    QCOMPARE(AttentionEngine::firstChangedStage(first, switched), int(Stage::ScaleMask));
    const double mask = double(B) * T * T;
    const double p = double(B) * H * T * T * sizeof(float);
    const double aggregation = 3.0 * B * T * C * sizeof(float);
    const double held = attn::heldBytes(shown, Stage::ScaleMask);
    QCOMPARE(held, mask + p + aggregation);
    QCOMPARE(attn::heldBytes(shown, Stage::Statistics), 0.0);
    QVERIFY(attn::heldBytes(shown, Stage::Embed) > attn::heldBytes(shown, Stage::Scores));

    const double alone = attn::estimatedBytes(B, T, C, H);
    engine.setMemoryLimit(alone + held / 2);
    try {
        (void)engine.compute(switched);
        QFAIL("a switch that does not fit beside the result on screen was accepted");
    } catch (const attn::InputError& error) {
        QCOMPARE(error.refusal(), attn::Refusal::MemoryBeside);
        QCOMPARE(error.arguments().size(), std::size_t(3));
        QVERIFY2(QByteArray(error.what()).contains("previous result"), error.what());
    }
    QCOMPARE(engine.result().weights.get(), shown.weights.get());

    // The same request alone fits: a new engine with that limit computes it.
    AttentionEngine fresh;
    fresh.setMemoryLimit(alone + held / 2);
    QVERIFY(fresh.compute(switched).valid());

    engine.setMemoryLimit(alone + held);
    const attn::Result next = engine.compute(switched);
    QVERIFY(next.valid());
    QCOMPARE(next.scores.get(), shown.scores.get());
}

// Once nobody outside the engine holds a result (the window lets go of a large one before
// a switch), a compute writes its new P into the old one's memory instead of beside it, does
// not count the old one against the memory limit, and gives the same bits as a new engine.
// A compute cancelled after letting go leaves the engine to make P again, correctly.
void TestEngine::replacesInPlaceWhatNobodyHolds()
{
    const Request first = baseRequest();
    Request switched = first;
    switched.config.scale = attn::ScaleMode::None;
    AttentionEngine engine;
    attn::Result shown = engine.compute(first);
    const attn::HeadStack* oldWeights = shown.weights.get();
    const attn::Aggregation* oldAggregation = shown.aggregation.get();
    const int B = shown.batch(), T = shown.length(), C = shown.dModel(), H = shown.heads();
    const double held = attn::heldBytes(shown, Stage::ScaleMask);
    shown = attn::Result{}; // the window let go

    engine.setMemoryLimit(attn::estimatedBytes(B, T, C, H) + held / 2);
    const attn::Result next = engine.compute(switched);
    QCOMPARE(next.weights.get(), oldWeights);
    QCOMPARE(next.aggregation.get(), oldAggregation);
    AttentionEngine fresh;
    const attn::Result expected = fresh.compute(switched);
    QVERIFY(next.weights->items() == expected.weights->items());
    QVERIFY(next.aggregation->output == expected.aggregation->output);
    QCOMPARE(next.stats->stdScores, expected.stats->stdScores);

    // While a result is held, its P stays and the new one goes beside it.
    engine.setMemoryLimit(attn::memoryLimitBytes());
    attn::Result back = engine.compute(first);
    QVERIFY(back.weights.get() != next.weights.get());

    // Cancelled after letting go: the request stays, P is gone, and the next compute of
    // the same request makes P again, the same bits.
    const std::vector<attn::Matrix> backBits = back.weights->items();
    back = attn::Result{};
    const auto before = engine.runs(Stage::Normalize);
    std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(attn::Cancelled, (void)engine.compute(switched, &cancel));
    QCOMPARE(engine.result().request, first);
    QVERIFY(!engine.result().weights);
    const attn::Result again = engine.compute(first);
    QCOMPARE(engine.runs(Stage::Normalize), before + 1);
    QVERIFY(again.weights->items() == backBits);
    QVERIFY(again.valid());

    // Whoever still holds P alone (not S) is counted when a compute makes S and P anew:
    // the engine lets go of its S, P and P·V, but that P stays alive beside the new one.
    AttentionEngine other;
    attn::Result pAlone = other.compute(first);
    const std::shared_ptr<const attn::HeadStack> keptWeights = pAlone.weights;
    attn::Result rest = pAlone;
    rest.scores.reset();
    rest.weights.reset();
    rest.overviews.reset();
    rest.aggregation.reset();
    const double restBytes = attn::heldBytes(rest, Stage::Split);
    const double p =
        attn::heldBytes(pAlone, Stage::Normalize) - attn::heldBytes(pAlone, Stage::Aggregate);
    pAlone = attn::Result{};
    rest = attn::Result{};
    Request viewSplit = first;
    viewSplit.config.headSplit = attn::HeadSplit::View; // from stage 4 on: S and P anew
    other.setMemoryLimit(attn::estimatedBytes(B, T, C, H) + restBytes + p / 2);
    QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)other.compute(viewSplit));
}

void TestEngine::switchMakesTheHeadsOverview_data()
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
void TestEngine::switchMakesTheHeadsOverview()
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

// The worker pool under the engine: every item runs once, whatever the count; a loop
// inside a loop, loops from two threads at once, loops in quick succession (the workers
// still watching) and after a pause (the workers asleep), loops after the workers were
// woken ahead of them (within the time they watch, after it, woken again and again, and
// from another thread meanwhile) all complete; an item's exception reaches the caller
// after the other items stop.
void TestEngine::parallelLoopsRunEveryItemOnce()
{
    auto countOnce = [](int count) {
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
        attn::parallelFor(count, [&](int i) { ++hits[static_cast<std::size_t>(i)]; });
        for (const auto& h : hits)
            if (h != 1)
                return false;
        return true;
    };
    for (const int count : {0, 1, 2, 3, 17, 1000})
        QVERIFY2(countOnce(count), qPrintable(QString::number(count)));
    for (int round = 0; round < 2000; ++round) // back to back: the workers never sleep
        QVERIFY(countOnce(2 + round % 5));
    for (int round = 0; round < 20; ++round) { // each after the workers fell asleep
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        QVERIFY(countOnce(8));
    }

    using std::chrono::microseconds;
    for (int round = 0; round < 200; ++round) { // woken ahead, the loop within the time
        attn::wakeWorkersAhead(microseconds(500));
        QVERIFY(countOnce(1 + round % 9));
    }
    for (int round = 0; round < 10; ++round) { // the loop after the workers gave up
        attn::wakeWorkersAhead(microseconds(100 * round));
        std::this_thread::sleep_for(microseconds(100 * round + 300));
        QVERIFY(countOnce(8));
    }
    for (int round = 0; round < 200; ++round) { // woken again while they watch
        attn::wakeWorkersAhead(microseconds(50));
        attn::wakeWorkersAhead(microseconds(2000));
        if (round % 3 == 0)
            QVERIFY(countOnce(5));
    }
    std::atomic<bool> waking{true};
    std::thread waker([&] {
        while (waking)
            attn::wakeWorkersAhead(microseconds(200));
    });
    bool allOnce = true;
    for (int round = 0; round < 500; ++round)
        allOnce = countOnce(3 + round % 4) && allOnce;
    waking = false;
    waker.join();
    QVERIFY(allOnce);

    std::atomic<int> inner{0};
    attn::parallelFor(4, [&](int) { attn::parallelFor(5, [&](int) { ++inner; }); });
    QCOMPARE(inner.load(), 20);

    std::atomic<int> fromTwo{0};
    auto many = [&] {
        for (int round = 0; round < 300; ++round)
            attn::parallelFor(6, [&](int) { ++fromTwo; });
    };
    std::thread other(many);
    many();
    other.join();
    QCOMPARE(fromTwo.load(), 2 * 300 * 6);

    bool thrown = false;
    try {
        attn::parallelFor(100, [](int i) {
            if (i == 37)
                throw std::runtime_error("item 37");
        });
    } catch (const std::runtime_error& e) {
        thrown = QByteArray(e.what()) == "item 37";
    }
    QVERIFY(thrown);
    QVERIFY(countOnce(50)); // and the pool serves on
}

namespace {

// A sentence of `length` tokens on a line, and a second, shorter line: padded keys.
Request longCausalRequest(int length)
{
    Request r;
    for (int t = 0; t < length; ++t)
        r.text += "w" + std::to_string(t % 97) + (t + 1 < length ? " " : "\n");
    for (int t = 0; t < length * 2 / 3; ++t)
        r.text += "v" + std::to_string(t % 89) + " ";
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = 64;
    r.config.heads = 2;
    r.config.mask = attn::MaskKind::Causal;
    return r;
}

// S and P as a compute makes them that multiplies every score at once: stopped after S,
// then on to the rest (the softmax then reads the stored S).
attn::Result scoresAtOnce(const Request& r)
{
    auto engine = std::make_shared<AttentionEngine>();
    (void)engine->compute(r, nullptr, Stage::Scores);
    return engine->compute(r);
}

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

void TestEngine::causalScoresWaitForTheStatistics_data()
{
    QTest::addColumn<int>("length");
    QTest::newRow("T = 300: two blocks of rows") << 300;
    QTest::newRow("T = 517: four blocks, uneven") << 517;
}

// Under a causal mask before a softmax over the keys, the heatmaps come before the scores
// the mask hides: those are made with the statistics, the same bits as a compute that
// makes every score at once.
void TestEngine::causalScoresWaitForTheStatistics()
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

void TestEngine::switchMakesTheScoresItReads_data()
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
void TestEngine::switchMakesTheScoresItReads()
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

void TestEngine::positionalEncoding()
{
    using attn::Matrix;
    using attn::sharedSinusoidalEncoding;
    using attn::sinusoidalEncoding;
    // PE(pos, 2i) = sin(pos / 10000^(2i/C)), PE(pos, 2i+1) = cos(pos / 10000^(2i/C)), made
    // in double and rounded to float.
    const Matrix pe = sinusoidalEncoding(50, 24);
    QCOMPARE(pe.rows(), 50);
    QCOMPARE(pe.cols(), 24);
    for (const auto& [pos, c] : {std::pair{0, 0}, {0, 1}, {1, 0}, {7, 5}, {49, 22}, {49, 23}}) {
        const double angle = pos / std::pow(10000.0, 2.0 * (c / 2) / 24.0);
        QCOMPARE(pe(pos, c), float(c % 2 == 0 ? std::sin(angle) : std::cos(angle)));
    }
    // The kept encoding: its first T rows are the encoding, bit for bit, whether a longer
    // one, a shorter one or one of another C came before.
    for (const auto& [T, C] : {std::pair{40, 16}, {7, 16}, {40, 24}, {64, 16}, {3, 24}, {64, 16}}) {
        const std::shared_ptr<const Matrix> kept = sharedSinusoidalEncoding(T, C);
        QVERIFY(kept->rows() >= T);
        QCOMPARE(kept->cols(), C);
        const Matrix direct = sinusoidalEncoding(T, C);
        const Matrix first = kept->topRows(T);
        QVERIFY2(std::memcmp(first.data(), direct.data(), direct.size() * sizeof(float)) == 0,
                 qPrintable(QString("T=%1 C=%2").arg(T).arg(C)));
    }
    // X with the encoding is X without it plus the encoding, in float.
    Request with = baseRequest(), without = baseRequest();
    without.config.positional = attn::Positional::None;
    AttentionEngine a, b;
    const Matrix xWith = (*a.compute(with, nullptr, Stage::Embed).x)[0];
    const Matrix xWithout = (*b.compute(without, nullptr, Stage::Embed).x)[0];
    const Matrix expected = xWithout + sinusoidalEncoding(int(xWith.rows()), int(xWith.cols()));
    QVERIFY(std::memcmp(xWith.data(), expected.data(), expected.size() * sizeof(float)) == 0);
}

QTEST_GUILESS_MAIN(TestEngine)
// OpenBLAS 0.3.21 takes a CPU model newer than it knows (an Emerald Rapids Xeon) for a
// Prescott and multiplies with its SSE3 kernels at a fifth of the machine's rate; the core
// makes it choose again. Wherever the CPU has AVX2 + FMA, the kernels in use are AVX2 or
// AVX-512 ones.
void TestEngine::blasMultipliesWithTheCpusKernels()
{
    QVERIFY(!attn::areVectorKernels("Prescott"));
    QVERIFY(!attn::areVectorKernels(""));
    QVERIFY(attn::areVectorKernels("skylakex"));
    if (attn::blasKernelsForThisCpu().empty())
        QSKIP("no OpenBLAS, or a CPU without AVX2");
    if (qEnvironmentVariableIsSet("OPENBLAS_CORETYPE"))
        QSKIP("OPENBLAS_CORETYPE chooses the kernels");
    QVERIFY2(attn::areVectorKernels(attn::blasKernels()), attn::blasKernels().c_str());
    QVERIFY(attn::matrixProductLibrary().find(attn::blasKernels()) != std::string::npos);
}

#include "tst_engine.moc"
