// The staged pipeline: a change recomputes only from the first stage it touches; partial
// results, cancelling, the memory refusals and the positional encoding. The fused passes
// are in tst_fusedpasses, the worker pool and BLAS in tst_parallel.
#include "engine/embedding.h"
#include "engine/engine.h"
#include "engine/positions.h"
#include "engine/statistics.h"
#include "enginerequests.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

using attn::AttentionEngine;
using attn::Request;
using attn::Stage;
using attn::test::baseRequest;
using attn::test::sameBits;

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(attn::SoftmaxAxis)
Q_DECLARE_METATYPE(attn::MaskKind)
Q_DECLARE_METATYPE(attn::MaskStage)

namespace {

std::array<int, attn::kStageCount> runCounts(const AttentionEngine& engine)
{
    std::array<int, attn::kStageCount> counts{};
    for (int s = 0; s < attn::kStageCount; ++s)
        counts[static_cast<std::size_t>(s)] = engine.runs(static_cast<Stage>(s));
    return counts;
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT

private slots:
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
    void positionalEncoding();
    void headTransformStepsRebuildTheSplit_data();
    void headTransformStepsRebuildTheSplit();
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

void TestEngine::headTransformStepsRebuildTheSplit_data()
{
    QTest::addColumn<Request>("request");
    auto row = [](const char* name, auto change) {
        Request request = baseRequest();
        request.config.heads = 4;
        change(request.config);
        QTest::newRow(name) << request;
    };
    row("qk-norm", [](attn::Config& c) { c.qkNorm = true; });
    row("rope", [](attn::Config& c) { c.positional = attn::Positional::Rope; });
    row("qk-norm rope kv-heads=2", [](attn::Config& c) {
        c.qkNorm = true;
        c.positional = attn::Positional::Rope;
        c.ropeTheta = 500000;
        c.kvHeads = 2;
    });
    row("rope head-split=view", [](attn::Config& c) {
        c.positional = attn::Positional::Rope;
        c.headSplit = attn::HeadSplit::View;
    });
    row("kv-heads=1", [](attn::Config& c) { c.kvHeads = 1; });
}

// Stage 4 one step at a time (Step by Step's tiles) ends in the engine's own Q_h and K_h,
// bit for bit, K from the K/V head query head h reads.
void TestEngine::headTransformStepsRebuildTheSplit()
{
    QFETCH(Request, request);
    AttentionEngine engine;
    const attn::Result result = engine.compute(request);
    QVERIFY(result.split);
    const attn::Config& config = result.config();
    const auto last = [](const attn::HeadTransformSteps& steps) {
        return steps.rotated.size() != 0  ? steps.rotated
               : steps.normed.size() != 0 ? steps.normed
                                          : steps.split;
    };
    for (int b = 0; b < result.batch(); ++b) {
        for (int h = 0; h < config.heads; ++h) {
            const attn::HeadTransformSteps q = attn::headTransformSteps(
                config, result.projection->q[std::size_t(b)], config.heads, h);
            const attn::HeadTransformSteps k =
                attn::headTransformSteps(config, result.projection->k[std::size_t(b)],
                                         config.kvHeadCount(), config.kvHeadOf(h));
            QCOMPARE(q.normed.size() != 0, config.qkNorm);
            QCOMPARE(k.rotated.size() != 0, config.positional == attn::Positional::Rope);
            using Matrices = std::vector<attn::Matrix>;
            QVERIFY(sameBits(Matrices{last(q)}, Matrices{result.split->q.at(b, h)}));
            QVERIFY(sameBits(Matrices{last(k)}, Matrices{result.split->k.at(b, h)}));
        }
    }
}

QTEST_GUILESS_MAIN(TestEngine)
#include "tst_engine.moc"
