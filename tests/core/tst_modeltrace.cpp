// LanguageModel::trace for every family: one query head of one layer of the tiny random
// gpt2, qwen2, qwen3, llama and bert checkpoints, stage by stage, against a plain PyTorch
// forward (tests/reference/gen_{gpt2,llama,bert}_model.py's *-trace.json: the layer's input
// — after ln_1 or input_layernorm, or BERT's previous layer's output — Q_h (after Qwen3's
// q_norm and RoPE), K_h and V_h (of the K/V head it shares), S, P, P·V_h and the output
// projection's) under the textbook formula and switches (RoPE off, BERT's causal mask among
// them); its P bit for bit the run's attention; headTraceResult read by explainCell, its
// ÷ √d_model by the hidden size where H·d_k differs; its refusals; and the forward hooks the
// interventions use, in every family.
#include "engine/options.h"
#include "lab/explain.h"
#include "modelfiles.h"
#include "models/families.h"
#include "models/headtrace.h"
#include "models/languagemodel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;
using attn::HeadTrace;
using attn::Matrix;
using attn::ModelSwitches;
using modelfiles::switchesOf;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR;

QJsonObject readJson(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string bytes = text.str();
    return QJsonDocument::fromJson(QByteArray(bytes.data(), qsizetype(bytes.size()))).object();
}

// The largest |a − b| over a matrix and the reference's nested rows, relative to the
// reference's largest magnitude where that exceeds 1 (float rounding grows with the
// values: a head's output of 3 differs in the sixth digit); -1 when the shapes differ.
double largestDifference(const Matrix& a, const QJsonArray& rows)
{
    if (a.rows() != rows.size())
        return -1;
    double largest = 0, magnitude = 1;
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        const QJsonArray row = rows[i].toArray();
        if (a.cols() != row.size())
            return -1;
        for (Eigen::Index j = 0; j < a.cols(); ++j) {
            largest = std::max(largest, std::abs(double(a(i, j)) - row[j].toDouble()));
            magnitude = std::max(magnitude, std::abs(row[j].toDouble()));
        }
    }
    return largest / magnitude;
}

} // namespace

class TestModelTrace : public QObject {
    Q_OBJECT

private slots:
    void parity_data();
    void parity();
    void weightsAreTheRunsExactly_data();
    void weightsAreTheRunsExactly();
    void explainsAsAResult_data();
    void explainsAsAResult();
    void refusals();
    void hooksReachInsideEveryFamily();
    void theTableDescribesEveryFamilyAsItOpens();
};

void TestModelTrace::parity_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QJsonObject>("expected");
    for (const char* model :
         {"gpt2/small-f32", "gpt2/small-bf16", "llama/qwen2-f32", "llama/qwen3-bf16",
          "llama/llama-f32", "llama/mistral-f32", "bert/bert-f32"}) {
        const QJsonObject file = readJson(kReference / (std::string(model) + "-trace.json"));
        QVERIFY2(!file.isEmpty(), model);
        for (const QJsonValue trace : file.value("traces").toArray()) {
            const QString name = trace.toObject().value("name").toString();
            QTest::addRow("%s %s", model, qPrintable(name)) << QString(model) << trace.toObject();
        }
    }
}

void TestModelTrace::parity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    const auto opened = attn::openModel(kReference / model.toStdString());
    const QJsonObject file = readJson(kReference / (model.toStdString() + "-trace.json"));
    const int layer = expected.value("layer").toInt(), head = expected.value("head").toInt();
    const HeadTrace trace =
        opened->trace(file.value("text").toString().toStdString(),
                      switchesOf(expected.value("switches").toObject(),
                                 expected.value("only_layer").toInt(), opened->info()),
                      layer, head);
    QCOMPARE(trace.layer, layer);
    QCOMPARE(trace.head, head);
    QCOMPARE(int(trace.ids.size()), file.value("ids").toArray().size());
    for (std::size_t t = 0; t < trace.ids.size(); ++t)
        QCOMPARE(trace.ids[t], file.value("ids").toArray()[qsizetype(t)].toInt());
    // F32 arithmetic on both sides, in a different order: the inputs of the layer agree to
    // float rounding, S (a sum of d_k products) and the output (of C) a little less tightly.
    const struct {
        const char* name;
        const Matrix& values;
        double tolerance;
    } stages[] = {
        {"x", trace.input, 1e-5},
        {"q", trace.queries, 1e-5},
        {"k", trace.keys, 1e-5},
        {"v", trace.values, 1e-5},
        {"scores", trace.scores, 1e-4},
        {"weights", trace.weights, 1e-5},
        {"head_output", trace.headOutput, 1e-5},
        {"output", trace.output, 1e-4},
    };
    for (const auto& stage : stages) {
        const double difference =
            largestDifference(stage.values, expected.value(stage.name).toArray());
        QVERIFY2(difference >= 0 && difference <= stage.tolerance,
                 qPrintable(QStringLiteral("%1: %2").arg(stage.name).arg(difference)));
    }
}

void TestModelTrace::weightsAreTheRunsExactly_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<ModelSwitches>("switches");
    ModelSwitches textbook;
    ModelSwitches view;
    view.formula.headSplit = attn::HeadSplit::View;
    view.formula.scale = attn::ScaleMode::None;
    ModelSwitches unrotated;
    unrotated.rope = false;
    ModelSwitches after;
    after.formula.maskStage = attn::MaskStage::AfterSoftmax;
    after.formula.axis = attn::SoftmaxAxis::Queries;
    after.onlyLayer = 1;
    ModelSwitches unmasked; // BERT's own formula
    unmasked.formula = ModelSwitches::textbookFormula(false);
    // qwen3-bf16: head_dim 16, 4 query heads over 2 K/V heads.
    for (const char* model : {"gpt2/small-f32", "llama/qwen3-bf16", "bert/bert-f32"}) {
        QTest::addRow("%s textbook", model) << QString(model) << textbook;
        QTest::addRow("%s head-split=view scale=none", model) << QString(model) << view;
        QTest::addRow("%s only-layer=1 mask-stage=after-softmax axis=queries", model)
            << QString(model) << after;
    }
    QTest::newRow("llama/qwen3-bf16 rope off") << "llama/qwen3-bf16" << unrotated;
    QTest::newRow("bert/bert-f32 unmasked") << "bert/bert-f32" << unmasked;
}

void TestModelTrace::weightsAreTheRunsExactly()
{
    QFETCH(QString, model);
    QFETCH(ModelSwitches, switches);
    const auto opened = attn::openModel(kReference / model.toStdString());
    const attn::ModelInfo& info = opened->info();
    const std::string text = "The cat sat on the mat, and the dog sat on the log.";
    const attn::ModelRun run = opened->run(text, switches);
    for (int l = 0; l < info.layers; ++l)
        for (int h = 0; h < info.heads; ++h) {
            const HeadTrace trace = opened->trace(text, switches, l, h);
            QCOMPARE(trace.ids, run.ids);
            // Bit for bit: the trace runs the same forward.
            QVERIFY2(trace.weights == run.attention->head(l, 0, h),
                     qPrintable(QStringLiteral("layer %1 head %2").arg(l).arg(h)));
            const bool switched = switches.onlyLayer < 0 || switches.onlyLayer == l;
            QCOMPARE(trace.formula.headSplit,
                     switched ? switches.formula.headSplit : attn::HeadSplit::Transpose);
            QCOMPARE(trace.formula.heads, info.heads);
            // The width the heads are split from: H·d_k (qwen3: 64, its hidden size 32).
            QCOMPARE(trace.formula.dModel, info.heads * info.headDim);
            QCOMPARE(trace.queries.cols(), info.headDim);
        }
}

void TestModelTrace::explainsAsAResult_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<ModelSwitches>("switches");
    QTest::addColumn<double>("scale");
    ModelSwitches dModel;
    dModel.formula.scale = attn::ScaleMode::SqrtDModel;
    QTest::newRow("gpt2 textbook: 1/√d_k, d_k = 8")
        << "gpt2/small-f32" << ModelSwitches{} << 1.0 / std::sqrt(8.0);
    QTest::newRow("gpt2 scale=d_model: 1/√C, C = 32")
        << "gpt2/small-f32" << dModel << 1.0 / std::sqrt(32.0);
    QTest::newRow("qwen3 textbook: 1/√d_k, d_k = 16")
        << "llama/qwen3-bf16" << ModelSwitches{} << 0.25;
    // ÷ √d_model divides by the hidden size, 32, as the run does, not by H·d_k = 64.
    QTest::newRow("qwen3 scale=d_model: 1/√C, C = 32")
        << "llama/qwen3-bf16" << dModel << 1.0 / std::sqrt(32.0);
}

void TestModelTrace::explainsAsAResult()
{
    // The Result made of a trace: explainCell reads it as an engine's, and its arithmetic
    // reproduces the model's weight.
    QFETCH(QString, model);
    QFETCH(ModelSwitches, switches);
    QFETCH(double, scale);
    const auto opened = attn::openModel(kReference / model.toStdString());
    const HeadTrace trace = opened->trace("The cat sat on the mat", switches, 1, 2);
    const attn::Result result = attn::headTraceResult(trace);
    QCOMPARE(result.scale(), scale);
    const int T = int(trace.ids.size());
    QCOMPARE(result.batch(), 1);
    QCOMPARE(result.length(), T);
    QCOMPARE(result.heads(), opened->info().heads);
    QCOMPARE(result.dK(), opened->info().headDim);
    QCOMPARE(result.tokens->tokens[0].front(), trace.labels.front().label);
    for (int i = 0; i < T; ++i)
        for (int j = 0; j <= i; ++j) {
            const attn::CellExplanation e = attn::explainCell(result, 0, 2, i, j);
            QCOMPARE(e.weight, trace.weights(i, j));
            QCOMPARE(e.score, trace.scores(i, j));
            QCOMPARE(e.scale, scale);
            QVERIFY(std::abs(e.quotient - double(trace.weights(i, j))) < 1e-6);
        }
    // A future key is masked, its weight 0.
    QVERIFY(attn::explainCell(result, 0, 2, 0, 1).masked);
    QCOMPARE(attn::explainCell(result, 0, 2, 0, 1).weight, 0.0f);
}

void TestModelTrace::refusals()
{
    for (const char* name : {"gpt2/small-f32", "llama/llama-f32", "bert/bert-f32"}) {
        const auto model = attn::openModel(kReference / name); // 2 layers, 4 heads each
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)model->trace("a cat", {}, 2, 0));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)model->trace("a cat", {}, -1, 0));
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)model->trace("a cat", {}, 0, 4));
        QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)model->trace("", {}, 0, 0));
        QVERIFY_THROWS_EXCEPTION(
            attn::InputError,
            (void)model->trace(std::string(200, 'x') + " y z" + std::string(100, '!'), {}, 0, 0));
    }
    // BERT makes [CLS] [SEP] of a blank text: refused as empty, by run() as by trace().
    const auto bert = attn::openModel(kReference / "bert/bert-f32");
    for (const char* blank : {"", " \n\t"}) {
        QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)bert->run(blank, {}));
        QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)bert->trace(blank, {}, 0, 0));
    }
    // Query heads 2 and 3 of llama-f32 read K/V head 1: the same keys and values.
    const auto model = attn::openModel(kReference / "llama/llama-f32");
    const HeadTrace two = model->trace("a cat", {}, 1, 2), three = model->trace("a cat", {}, 1, 3);
    QVERIFY(two.keys == three.keys);
    QVERIFY(two.values == three.values);
    QVERIFY(!(two.queries == three.queries));
}

void TestModelTrace::hooksReachInsideEveryFamily()
{
    // ForwardHooks at the same places in every family's forward: the heads' outputs before
    // the output projection (here head 1 of layer 0 knocked out), and the residual stream
    // after each block.
    for (const char* name : {"gpt2/small-f32", "llama/llama-f32", "bert/bert-f32"}) {
        const auto model = attn::openModel(kReference / name); // 2 layers, 4 heads each
        const attn::ModelInfo& info = model->info();
        std::vector<int> ids;
        std::vector<attn::TokenLabel> labels;
        model->tokenize("The cat sat on the mat", ids, labels);
        const attn::ModelRun plain = model->runIds(ids, {});

        // 1. Hooks that change nothing change nothing, and are called once a layer.
        std::vector<int> seen;
        std::vector<Matrix> residuals;
        attn::ForwardHooks watch;
        watch.headOutputs = [&](int layer, Matrix& outputs) {
            QCOMPARE(outputs.rows(), Eigen::Index(ids.size()));
            QCOMPARE(outputs.cols(), Eigen::Index(info.heads * info.headDim));
            seen.push_back(layer);
        };
        watch.residual = [&](int layer, const Matrix& residual) {
            QCOMPARE(layer, int(residuals.size()));
            residuals.push_back(residual);
        };
        const attn::ModelRun watched = model->runIds(ids, {}, watch);
        QCOMPARE(seen, (std::vector<int>{0, 1}));
        QCOMPARE(int(residuals.size()), info.layers);
        QCOMPARE(residuals[0].cols(), Eigen::Index(info.dModel));
        QVERIFY(watched.hidden == plain.hidden);
        QVERIFY(watched.attention->head(1, 0, 0) == plain.attention->head(1, 0, 0));
        if (!info.causal) // BERT has no final norm: its last residual is the hidden states
            QVERIFY(residuals.back() == plain.hidden);

        // 2. Head 1 of layer 0 knocked out: layer 0's attention as it was, what follows not.
        attn::ForwardHooks knockOut;
        knockOut.headOutputs = [&](int layer, Matrix& outputs) {
            if (layer == 0)
                outputs.middleCols(1 * info.headDim, info.headDim).setZero();
        };
        const attn::ModelRun knocked = model->runIds(ids, {}, knockOut);
        for (int h = 0; h < info.heads; ++h)
            QVERIFY(knocked.attention->head(0, 0, h) == plain.attention->head(0, 0, h));
        QVERIFY((knocked.attention->head(1, 0, 0) - plain.attention->head(1, 0, 0))
                    .cwiseAbs()
                    .maxCoeff() > 1e-6f);
        QVERIFY((knocked.hidden - plain.hidden).cwiseAbs().maxCoeff() > 1e-5f);
    }
}

void TestModelTrace::theTableDescribesEveryFamilyAsItOpens()
{
    // The family table finds each folder's family by its model_type, and its describe() says
    // from config.json alone what the opened model says.
    for (const char* name :
         {"gpt2/small-f32", "llama/mistral-f32", "llama/qwen3-bf16", "bert/bert-f32"}) {
        const fs::path path = kReference / name;
        const attn::ModelFolder folder =
            attn::readModelConfig(modelfiles::readFile(path / "config.json"), path);
        const attn::ModelFamily* family = attn::familyOf(folder.modelType);
        QVERIFY2(family, name);
        const attn::ModelInfo described = family->describe(folder);
        attn::ModelInfo opened = attn::openModel(path)->info();
        opened.weightType.clear(); // the weights' dtype: describe() does not read them
        QVERIFY2(described == opened, name);
    }
    QCOMPARE(QString::fromStdString(std::string(attn::familyOf("mistral")->name)),
             QStringLiteral("Qwen/Llama/Mistral"));
    QVERIFY(!attn::familyOf("t5"));
    // A model_type no family runs is refused naming every one that is.
    QCOMPARE(QString::fromStdString(attn::supportedModelTypes()),
             QStringLiteral("\"gpt2\", \"qwen2\", \"qwen3\", \"llama\", \"mistral\" and \"bert\""));
}

QTEST_GUILESS_MAIN(TestModelTrace)
#include "tst_modeltrace.moc"
