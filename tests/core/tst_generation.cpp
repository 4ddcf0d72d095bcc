// Letting a decoder write (core/models/generation) and its KV cache (core/models/kvcache):
// greedy decoding against PyTorch on every decoder checkpoint (gen_*_model.py's
// "generation": the whole text run again for every token, under switches a cache serves and
// two it cannot), the cached rows against a forward over the whole text, the stops (end
// token, length, context, cancel), sampling (seeded, top-k, top-p, temperature) and the
// refusals.
#include "engine/engine.h"
#include "engine/options.h"
#include "modelfiles.h"
#include "models/families.h"
#include "models/generation.h"
#include "models/kvcache.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using attn::GenerationEnd;
using attn::ModelSwitches;
using attn::Sampling;
using modelfiles::readJson;
using modelfiles::switchesOf;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR;

std::vector<int> intsOf(const QJsonValue& value)
{
    std::vector<int> out;
    for (const QJsonValue item : value.toArray())
        out.push_back(item.toInt());
    return out;
}

std::shared_ptr<const attn::LanguageModel> open(const QString& name)
{
    return attn::openModel(kReference / name.toStdString());
}

// What a refused generation says, or "" when it is accepted.
QString refusal(const std::shared_ptr<const attn::LanguageModel>& model, std::vector<int> prompt,
                const Sampling& sampling, int tokens)
{
    try {
        attn::Generator generator(model, std::move(prompt), ModelSwitches{}, sampling, tokens);
    } catch (const attn::InputError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

} // namespace

class TestGeneration : public QObject {
    Q_OBJECT

private slots:
    void greedyParity_data();
    void greedyParity();
    void theCacheMakesTheWholeForwardsRows_data();
    void theCacheMakesTheWholeForwardsRows();
    void stops();
    void cancelled();
    void sampling();
    void samplingDistribution();
    void refusals();
};

void TestGeneration::greedyParity_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QJsonObject>("caseData");
    for (const char* name : {"gpt2/small-f32", "gpt2/small-bf16", "llama/qwen2-f32",
                             "llama/qwen3-bf16", "llama/llama-f32", "llama/llama3-f32",
                             "llama/mistral-f32", "llama/qwen2-linear-f32", "llama/smollm2-f32"}) {
        const QJsonObject expected = readJson(kReference / (std::string(name) + ".json"));
        const QJsonArray cases = expected.value(QLatin1String("generation")).toArray();
        if (cases.isEmpty())
            qFatal("%s.json has no generation", name);
        for (const QJsonValue c : cases)
            QTest::newRow(qPrintable(QLatin1String(name) + QLatin1String(": ") +
                                     c.toObject().value(QLatin1String("name")).toString()))
                << QString::fromLatin1(name) << c.toObject();
    }
}

// The ids PyTorch's greedy decoding writes, and each step's top 5 probabilities.
void TestGeneration::greedyParity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, caseData);
    const auto lm = open(model);
    const ModelSwitches switches =
        switchesOf(caseData.value(QLatin1String("switches")).toObject(),
                   caseData.value(QLatin1String("only_layer")).toInt(), lm->info());
    const attn::Generation generation =
        attn::generate(lm, intsOf(caseData.value(QLatin1String("prompt_ids"))), switches,
                       Sampling{}, caseData.value(QLatin1String("tokens")).toInt());
    QCOMPARE(generation.cached, attn::kvCacheUsable(lm->info(), switches));
    QCOMPARE(generation.generated, intsOf(caseData.value(QLatin1String("generated_ids"))));
    const QJsonArray steps = caseData.value(QLatin1String("steps")).toArray();
    QCOMPARE(generation.steps.size(), std::size_t(steps.size()));
    const double tolerance = model.endsWith(QLatin1String("bf16")) ? 1e-4 : 2e-5;
    for (qsizetype s = 0; s < steps.size(); ++s) {
        const QJsonObject expected = steps[s].toObject();
        const std::vector<int> ids = intsOf(expected.value(QLatin1String("ids")));
        const QJsonArray probabilities = expected.value(QLatin1String("probabilities")).toArray();
        const attn::GenerationStep& step = generation.steps[std::size_t(s)];
        QCOMPARE(step.top.size(), std::size_t(5));
        QCOMPARE(step.chosen.id, ids.front());
        for (std::size_t i = 0; i < 5; ++i) {
            // A near tie may swap two ids: the probabilities then still agree.
            const double want = probabilities[qsizetype(i)].toDouble();
            if (std::abs(step.top[i].probability - want) > tolerance)
                QFAIL(qPrintable(QStringLiteral("step %1, rank %2: %3 (id %4), PyTorch %5 (id %6)")
                                     .arg(s)
                                     .arg(i)
                                     .arg(double(step.top[i].probability))
                                     .arg(step.top[i].id)
                                     .arg(want)
                                     .arg(ids[i])));
        }
    }
}

void TestGeneration::theCacheMakesTheWholeForwardsRows_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("GPT-2") << "gpt2/small-f32";
    QTest::newRow("Qwen3: q_norm, k_norm, grouped queries") << "llama/qwen3-bf16";
    QTest::newRow("Mistral: a sliding window") << "llama/mistral-f32";
}

// Every step's attention row and probabilities, made from the cache one row at a time, are
// the rows of one forward over the whole text.
void TestGeneration::theCacheMakesTheWholeForwardsRows()
{
    QFETCH(QString, model);
    const auto lm = open(model);
    const attn::ModelInfo& info = lm->info();
    const std::vector<int> prompt{5, 9, 17, 3};
    ModelSwitches switches;
    switches.formula.scale = attn::ScaleMode::None; // a switch the cache serves
    const attn::Generation generation = attn::generate(lm, prompt, switches, Sampling{}, 12);
    QVERIFY(generation.cached);
    std::vector<int> ids = prompt;
    ids.insert(ids.end(), generation.generated.begin(), generation.generated.end());
    ids.pop_back(); // the last token was written, never read
    const attn::ModelRun whole = lm->runIds(ids, switches);
    const int T = int(ids.size());
    for (const attn::GenerationStep& step : generation.steps) {
        const int row = step.position - 1;
        for (int l = 0; l < info.layers; ++l)
            for (int h = 0; h < info.heads; ++h)
                for (int j = 0; j < step.position; ++j) {
                    const float cached = step.attention[(std::size_t(l * info.heads + h)) *
                                                            std::size_t(step.position) +
                                                        std::size_t(j)];
                    const float full = whole.attention->view(l, 0, h).at(row, j);
                    if (std::abs(cached - full) > 1e-5f)
                        QFAIL(qPrintable(QStringLiteral("position %1, layer %2, head %3, key %4: "
                                                        "%5 cached, %6 whole")
                                             .arg(row)
                                             .arg(l)
                                             .arg(h)
                                             .arg(j)
                                             .arg(double(cached))
                                             .arg(double(full))));
                }
        const std::vector<attn::Prediction> top = whole.predictions(row, 5);
        QCOMPARE(step.chosen.id, top.front().id);
        QVERIFY(std::abs(step.chosen.probability - top.front().probability) < 1e-5f);
    }
    QCOMPARE(T + 1, int(prompt.size() + generation.generated.size()));
}

void TestGeneration::stops()
{
    const auto lm = open(QStringLiteral("gpt2/small-bf16")); // a context of 24 tokens
    const std::vector<int> prompt{5, 9, 17, 3, 30, 41};
    const attn::Generation greedy = attn::generate(lm, prompt, ModelSwitches{}, Sampling{}, 8);
    QCOMPARE(greedy.end, GenerationEnd::Length);
    QCOMPARE(greedy.generated.size(), std::size_t(8));

    // The model's end token (config.json's eos_token_id) is the last id.
    QCOMPARE(lm->info().endTokens, std::vector<int>{lm->info().vocabulary - 1});
    attn::Generator ending(lm, prompt, ModelSwitches{}, Sampling{}, 8);
    ending.setEndTokens({greedy.generated[2]});
    int written = 0;
    while (ending.next())
        ++written;
    QCOMPARE(ending.end(), GenerationEnd::EndOfText);
    QCOMPARE(written, 3);
    QCOMPARE(ending.ids().back(), greedy.generated[2]);

    // At the context: 24 positions at most, whatever was asked.
    const attn::Generation context =
        attn::generate(lm, prompt, ModelSwitches{}, Sampling{}, attn::kMaxNewTokens);
    QCOMPARE(context.end, GenerationEnd::Context);
    QCOMPARE(int(prompt.size() + context.generated.size()), lm->info().maxPositions);
    // A prompt that fills the context writes nothing.
    attn::Generator full(lm, std::vector<int>(std::size_t(lm->info().maxPositions), 7),
                         ModelSwitches{}, Sampling{}, 4);
    QCOMPARE(full.end(), GenerationEnd::Context);
    QVERIFY(!full.next());
    QCOMPARE(QString::fromLatin1(attn::spellingOf(GenerationEnd::EndOfText)),
             QStringLiteral("end-of-text"));
}

void TestGeneration::cancelled()
{
    const auto lm = open(QStringLiteral("gpt2/small-f32"));
    attn::Generator generator(lm, {5, 9, 17}, ModelSwitches{}, Sampling{}, 4);
    QVERIFY(generator.next());
    const std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(attn::Cancelled, generator.next(&cancel));
    QCOMPARE(generator.end(), GenerationEnd::Stopped);
    QVERIFY(!generator.next());
    QCOMPARE(generator.ids().size(), std::size_t(4));
}

void TestGeneration::sampling()
{
    const auto lm = open(QStringLiteral("llama/qwen2-f32"));
    const std::vector<int> prompt{0, 17, 42, 5};
    const auto ids = [&](const Sampling& s) {
        return attn::generate(lm, prompt, ModelSwitches{}, s, 16).generated;
    };
    Sampling sampled;
    sampled.greedy = false;
    sampled.temperature = 1.5;
    sampled.seed = 7;
    const std::vector<int> first = ids(sampled);
    QCOMPARE(ids(sampled), first); // seeded: the same text again
    sampled.seed = 8;
    QVERIFY(ids(sampled) != first);
    const std::vector<int> greedy = ids(Sampling{});
    QVERIFY(first != greedy);
    // One candidate left: the greedy text, whatever the seed.
    Sampling topK = sampled;
    topK.topK = 1;
    QCOMPARE(ids(topK), greedy);
    Sampling topP = sampled;
    topP.topP = 1e-9;
    QCOMPARE(ids(topP), greedy);
    // The steps' distributions are what the token was drawn from: top-k 3 leaves three.
    topK.topK = 3;
    const attn::Generation three = attn::generate(lm, prompt, ModelSwitches{}, topK, 4);
    for (const attn::GenerationStep& step : three.steps) {
        QCOMPARE(step.top.size(), std::size_t(3));
        double sum = 0;
        for (const attn::Prediction& p : step.top)
            sum += p.probability;
        QVERIFY(std::abs(sum - 1) < 1e-6);
        QVERIFY(std::find_if(step.top.begin(), step.top.end(), [&](const attn::Prediction& p) {
                    return p.id == step.chosen.id;
                }) != step.top.end());
    }
}

void TestGeneration::samplingDistribution()
{
    const std::vector<float> logits{1.0f, 3.0f, 2.0f, 3.0f, 0.0f};
    Sampling s;
    s.greedy = false;
    // Temperature 1, no cut: the plain softmax, most probable first, ties by the lower id.
    auto d = attn::samplingDistribution(logits, s);
    QCOMPARE(d.size(), std::size_t(5));
    QCOMPARE(d[0].first, 1);
    QCOMPARE(d[1].first, 3);
    QCOMPARE(d[2].first, 2);
    const double z = 2 * std::exp(3.0) + std::exp(2.0) + std::exp(1.0) + 1;
    QVERIFY(std::abs(d[0].second - std::exp(3.0) / z) < 1e-12);
    s.topK = 2; // the two 3s, half each
    d = attn::samplingDistribution(logits, s);
    QCOMPARE(d.size(), std::size_t(2));
    QVERIFY(std::abs(d[0].second - 0.5) < 1e-12 && std::abs(d[1].second - 0.5) < 1e-12);
    s.topK = 0;
    s.topP = 0.8; // 0.3636 + 0.3636 < 0.8, + 0.1338 reaches it
    d = attn::samplingDistribution(logits, s);
    QCOMPARE(d.size(), std::size_t(3));
    QCOMPARE(d[2].first, 2);
    s.topP = 1;
    s.temperature = 2; // logits halved: p(3) / p(2) = e^0.5
    d = attn::samplingDistribution(logits, s);
    QCOMPARE(d.size(), std::size_t(5));
    QVERIFY(std::abs(d[0].second / d[2].second - std::exp(0.5)) < 1e-9);
}

void TestGeneration::refusals()
{
    const auto gpt2 = open(QStringLiteral("gpt2/small-f32"));
    const std::vector<int> prompt{5, 9};
    Sampling s;
    QVERIFY(refusal(gpt2, prompt, s, 4).isEmpty());
    QVERIFY(refusal(gpt2, prompt, s, 0).contains(QLatin1String("from 1 to 4096")));
    QVERIFY(refusal(gpt2, prompt, s, 4097).contains(QLatin1String("from 1 to 4096")));
    QVERIFY(refusal(gpt2, {}, s, 4).contains(QLatin1String("empty")));
    QVERIFY(refusal(gpt2, std::vector<int>(40, 5), s, 4).contains(QLatin1String("at most 32")));
    s.greedy = false;
    for (const double t : {0.0, -1.0, double(NAN), double(INFINITY)}) {
        s.temperature = t;
        QVERIFY(refusal(gpt2, prompt, s, 4).contains(QLatin1String("temperature")));
    }
    s.temperature = 1;
    s.topK = -1;
    QVERIFY(refusal(gpt2, prompt, s, 4).contains(QLatin1String("top-k")));
    s.topK = 0;
    for (const double p : {0.0, 1.5, double(NAN)}) {
        s.topP = p;
        QVERIFY(refusal(gpt2, prompt, s, 4).contains(QLatin1String("top-p")));
    }
    // An encoder fills in [MASK] instead.
    const auto bert = open(QStringLiteral("bert/bert-f32"));
    QVERIFY(refusal(bert, {2, 5, 3}, Sampling{}, 4).contains(QLatin1String("[MASK]")));
    // A cache where the switches cannot use one: the forward refuses it.
    attn::KvCache cache(gpt2->info(), 8);
    attn::ForwardHooks hooks;
    hooks.cache = &cache;
    ModelSwitches queries;
    queries.formula.axis = attn::SoftmaxAxis::Queries;
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)gpt2->forward(prompt, queries, hooks));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range,
                             (void)gpt2->forward(std::vector<int>(9, 5), ModelSwitches{}, hooks));
}

QTEST_GUILESS_MAIN(TestGeneration)
#include "tst_generation.moc"
