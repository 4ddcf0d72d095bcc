// Gpt2Model: every layer's attention, the logits and the top 10 of three tiny random GPT-2
// checkpoints (F32 and BF16 with a small vocabulary, F16 with GPT-2's own) against a plain
// PyTorch forward (tests/reference/gen_gpt2_model.py) under the textbook formula, each
// switch and a switch on one layer only; and refusals of broken model folders and texts.
#include "engine/options.h"
#include "modelfiles.h"
#include "models/configfields.h"
#include "models/families.h"
#include "models/forward.h"
#include "models/gpt2/model.h"
#include "models/gpt2/weights.h"
#include "models/languagemodel.h"
#include "models/modelattention.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using attn::ModelError;
using attn::ModelSwitches;
using namespace modelfiles;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR "/gpt2";
const fs::path kRealVocabulary = ATTN_REFERENCE_DIR "/../data/gpt2";

// A copy of the small F32 checkpoint in `dir`, to break.
fs::path copyOfSmallModel(const QTemporaryDir& dir)
{
    const fs::path folder = fs::path(dir.path().toStdString()) / "model";
    fs::create_directories(folder);
    for (const char* name : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
        fs::copy_file(kReference / "small-f32" / name, folder / name);
    return folder;
}

} // namespace

class TestGpt2Model : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parity_data();
    void parity();
    void modelInfo();
    void packsConv1dWeights();
    void modelName_data();
    void modelName();
    void predictionsAreOrdered();
    void onlyLayerLeavesOtherLayersTextbook();
    void nanLogitsTieByLowerId();
    void longTextsSkipTheMaskedBlocks_data();
    void longTextsSkipTheMaskedBlocks();
    void badFolders_data();
    void badFolders();
    void badTexts_data();
    void badTexts();

private:
    [[nodiscard]] fs::path folderOf(const QString& model) const;
    std::shared_ptr<const attn::LanguageModel> model(const QString& name);

    QTemporaryDir realVocabulary_;
    std::map<QString, std::shared_ptr<const attn::LanguageModel>> models_;
};

void TestGpt2Model::initTestCase()
{
    // The real-vocabulary checkpoint is committed without GPT-2's vocab.json and
    // merges.txt (tests/data/gpt2 has them): its folder is put together here.
    QVERIFY(realVocabulary_.isValid());
    const fs::path folder = fs::path(realVocabulary_.path().toStdString());
    for (const char* name : {"config.json", "model.safetensors"})
        fs::copy_file(kReference / "real-f16" / name, folder / name);
    for (const char* name : {"vocab.json", "merges.txt"})
        fs::copy_file(kRealVocabulary / name, folder / name);
}

fs::path TestGpt2Model::folderOf(const QString& model) const
{
    if (model == QLatin1String("real-f16"))
        return fs::path(realVocabulary_.path().toStdString());
    return kReference / model.toStdString();
}

std::shared_ptr<const attn::LanguageModel> TestGpt2Model::model(const QString& name)
{
    auto& slot = models_[name];
    if (!slot)
        slot = attn::openModel(folderOf(name));
    return slot;
}

void TestGpt2Model::parity_data()
{
    addParityRows(kReference, {"small-f32", "small-bf16", "real-f16"});
}

void TestGpt2Model::parity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    QFETCH(QJsonObject, caseData);
    checkGpt2Parity(*this->model(model), expected, caseData);
}

void TestGpt2Model::modelInfo()
{
    const auto small = model(QStringLiteral("small-bf16"));
    QCOMPARE(small->info().family, std::string("gpt2"));
    QCOMPARE(small->info().layers, 3);
    QCOMPARE(small->info().heads, 2);
    QCOMPARE(small->info().dModel, 32);
    QCOMPARE(small->info().headDim, 16);
    QCOMPARE(small->info().maxPositions, 24);
    QCOMPARE(small->info().weightType, std::string("BF16"));
    QCOMPARE(small->info().name, std::string("small-bf16"));
    const auto real = model(QStringLiteral("real-f16"));
    QCOMPARE(real->info().vocabulary, 50257);
    QCOMPARE(real->info().weightType, std::string("F16"));
    QCOMPARE(real->tokenSpelling(2603), std::string("Ġmat"));
    QCOMPARE(real->tokenLabel(2603), std::string(" mat"));
}

// Loading packs the blocks' Conv1D weights, stored [in, out], once as nn.Linear's rows [out, in]
// for the product kernel, on every CPU; the parity cases run the packed products.
void TestGpt2Model::packsConv1dWeights()
{
    const fs::path folder = kReference / "small-f32";
    std::ifstream file(folder / "config.json");
    std::stringstream json;
    json << file.rdbuf();
    const attn::Gpt2Config config = attn::parseGpt2Config(
        attn::parseConfigObject(json.str(), folder / "config.json"), folder / "config.json");
    const attn::Gpt2Weights w = attn::loadGpt2Weights(folder / "model.safetensors", config);
    QVERIFY(w.packed);
    int packed = 0, wrong = 0;
    for (const attn::Gpt2Block& b : w.blocks)
        for (const attn::WeightView* v :
             {&b.attnWeight, &b.projWeight, &b.fcWeight, &b.fcProjWeight}) {
            QVERIFY(v->packed);
            ++packed;
            const Eigen::Index K = v->rows, N = v->cols;
            for (Eigen::Index n = 0; n < N; ++n)
                for (Eigen::Index k = 0; k < K; ++k)
                    wrong += v->packed[n * K + k] != v->data[k * N + n];
        }
    QCOMPARE(wrong, 0);
    QCOMPARE(packed, 4 * config.layers);
}

void TestGpt2Model::modelName_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("name");
    QTest::newRow("a folder") << "/home/me/models/gpt2"
                              << "gpt2";
    QTest::newRow("a folder with a slash") << "/home/me/models/gpt2/"
                                           << "gpt2";
    QTest::newRow("the hub's cache")
        << "/home/me/.cache/huggingface/hub/models--openai-community--gpt2/snapshots/607a30d"
        << "openai-community/gpt2";
    QTest::newRow("the hub's cache, one name") << "/h/hub/models--distilgpt2/snapshots/2290a62/"
                                               << "distilgpt2";
    QTest::newRow("snapshots elsewhere") << "/data/snapshots/gpt2"
                                         << "gpt2";
}

void TestGpt2Model::modelName()
{
    QFETCH(QString, folder);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(attn::modelName(folder.toStdString())), name);
}

void TestGpt2Model::predictionsAreOrdered()
{
    const auto lm = model(QStringLiteral("real-f16"));
    const attn::ModelRun run = lm->run("The cat sat on the", ModelSwitches{});
    const std::vector<attn::Prediction> all = run.predictions(4, 50257);
    QCOMPARE(int(all.size()), 50257);
    double sum = 0;
    for (std::size_t n = 0; n < all.size(); ++n) {
        sum += all[n].probability;
        if (n > 0) {
            const attn::Prediction &a = all[n - 1], &b = all[n];
            QVERIFY(a.logit > b.logit || (a.logit == b.logit && a.id < b.id));
        }
    }
    QVERIFY(std::abs(sum - 1.0) < 1e-4);
    QCOMPARE(all.front().token, lm->tokenSpelling(all.front().id));
    // Every position predicts; outside 0 … T−1 is refused.
    QCOMPARE(int(run.predictions(0, 3).size()), 3);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)run.predictions(5));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)run.logits(-1));
}

void TestGpt2Model::onlyLayerLeavesOtherLayersTextbook()
{
    const auto lm = model(QStringLiteral("small-bf16"));
    const std::string text = "The cat sat on the mat";
    const attn::ModelRun textbook = lm->run(text, ModelSwitches{});
    ModelSwitches broken;
    broken.formula.scale = attn::ScaleMode::None;
    broken.onlyLayer = 1;
    const attn::ModelRun run = lm->run(text, broken);
    // Layer 0 comes before the switch; layer 1 is switched; layer 2 sees layer 1's change.
    QCOMPARE(run.attention->head(0, 0, 0), textbook.attention->head(0, 0, 0));
    QVERIFY(run.attention->head(1, 0, 0) != textbook.attention->head(1, 0, 0));
    QVERIFY(run.attention->head(2, 0, 0) != textbook.attention->head(2, 0, 0));
    QCOMPARE(run.switches, broken);
}

void TestGpt2Model::nanLogitsTieByLowerId()
{
    // Softmax over a batch of one with −∞ in the masked cells: NaN weights (as torch),
    // which reach every logit. Every logit then ties, and the lower id comes first.
    const auto lm = model(QStringLiteral("small-f32"));
    ModelSwitches batch;
    batch.formula.axis = attn::SoftmaxAxis::Batch;
    const attn::ModelRun run = lm->run("The cat sat", batch);
    const std::vector<attn::Prediction> top = run.predictions(2, 3);
    QCOMPARE(int(top.size()), 3);
    for (int n = 0; n < 3; ++n) {
        QCOMPARE(top[std::size_t(n)].id, n);
        QVERIFY(std::isnan(top[std::size_t(n)].probability));
    }
}

void TestGpt2Model::longTextsSkipTheMaskedBlocks_data()
{
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("maskStage");
    QTest::newRow("T=300 mask before") << 300 << int(attn::MaskStage::BeforeSoftmax);
    QTest::newRow("T=300 mask after") << 300 << int(attn::MaskStage::AfterSoftmax);
    QTest::newRow("T=256 mask before") << 256 << int(attn::MaskStage::BeforeSoftmax);
    QTest::newRow("T=255 mask before") << 255 << int(attn::MaskStage::BeforeSoftmax);
    QTest::newRow("T=1030 mask before") << 1030 << int(attn::MaskStage::BeforeSoftmax);
    QTest::newRow("T=1030 mask after") << 1030 << int(attn::MaskStage::AfterSoftmax);
}

void TestGpt2Model::longTextsSkipTheMaskedBlocks()
{
    // A causal layer makes S and P·V a block of rows at a time (about 256 KB of S, so
    // several blocks from T = 256 on), each only up to its last row's key; the weights and
    // the merged heads are those of the whole products, worked out here in double:
    // P = softmax(S/√d_k masked), merged_h = P V_h. P's buffer starts as NaN: every
    // weight must be written, the skipped future included.
    QFETCH(int, T);
    QFETCH(int, maskStage);
    const int C = 32, H = 4, dK = C / H;
    attn::Config formula = ModelSwitches::textbookFormula();
    formula.dModel = C;
    formula.heads = H;
    formula.maskStage = attn::MaskStage(maskStage);
    std::srand(7);
    const attn::Matrix qkv = attn::Matrix::Random(T, 3 * C);
    const attn::MaskMatrix mask = attn::attentionMask(formula, T);
    attn::AttentionBuffers buffers;
    std::vector<float> weights(std::size_t(H) * std::size_t(T) * std::size_t(T),
                               std::numeric_limits<float>::quiet_NaN());
    attn::Matrix merged;
    attn::multiHeadAttention(qkv, formula, mask, buffers, weights.data(), merged);
    const bool after = formula.maskStage == attn::MaskStage::AfterSoftmax;
    double worstWeight = 0, worstOutput = 0;
    for (int h = 0; h < H; ++h) {
        const Eigen::MatrixXd q = qkv.middleCols(h * dK, dK).cast<double>();
        const Eigen::MatrixXd k = qkv.middleCols(C + h * dK, dK).cast<double>();
        const Eigen::MatrixXd v = qkv.middleCols(2 * C + h * dK, dK).cast<double>();
        Eigen::MatrixXd p = q * k.transpose() / std::sqrt(double(dK));
        for (int i = 0; i < T; ++i) {
            const int keys = after ? T : i + 1; // before: a softmax over the visible keys
            const double top = p.row(i).head(keys).maxCoeff();
            const Eigen::RowVectorXd e = (p.row(i).head(keys).array() - top).exp().matrix();
            p.row(i).setZero();
            p.row(i).head(keys) = e / e.sum();
            p.row(i).tail(T - i - 1).setZero(); // after: the future zeroed
        }
        const Eigen::MatrixXd o = p * v;
        const Eigen::Map<const attn::Matrix> got(weights.data() + std::size_t(h) * T * T, T, T);
        QVERIFY(got.allFinite());
        worstWeight = std::max(worstWeight, (got.cast<double>() - p).cwiseAbs().maxCoeff());
        worstOutput = std::max(
            worstOutput, (merged.middleCols(h * dK, dK).cast<double>() - o).cwiseAbs().maxCoeff());
    }
    QVERIFY2(worstWeight < 1e-6, qPrintable(QString::number(worstWeight)));
    QVERIFY2(worstOutput < 1e-5, qPrintable(QString::number(worstOutput)));
}

void TestGpt2Model::badFolders_data()
{
    QTest::addColumn<QString>("breakage");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("fault");
    QTest::newRow("no config.json") << "no config.json"
                                    << "config.json"
                                    << "missing";
    QTest::newRow("no weights") << "no weights"
                                << "model.safetensors"
                                << "No such file";
    QTest::newRow("no merges") << "no merges"
                               << "merges.txt"
                               << "";
    QTest::newRow("no vocab") << "no vocab"
                              << "vocab.json"
                              << "";
    QTest::newRow("config not JSON") << "config not JSON"
                                     << "config.json"
                                     << "not JSON: line 1";
    QTest::newRow("n_embd not divisible") << "n_embd not divisible"
                                          << "config.json"
                                          << "n_embd 30 is not divisible by n_head 4";
    QTest::newRow("n_layer missing") << "n_layer missing"
                                     << "config.json"
                                     << "the field n_layer is missing";
    QTest::newRow("n_head a string") << "n_head a string"
                                     << "config.json"
                                     << "n_head is not a number";
    QTest::newRow("n_layer 0") << "n_layer 0"
                               << "config.json"
                               << "n_layer 0 is not a positive whole number";
    QTest::newRow("model_type t5") << "model_type t5"
                                   << "config.json"
                                   << "model_type \"t5\" is not supported";
    QTest::newRow("activation relu") << "activation relu"
                                     << "config.json"
                                     << "activation_function \"relu\" is not supported";
    QTest::newRow("missing tensor") << "missing tensor"
                                    << "model.safetensors"
                                    << "the tensor ln_f.bias is missing";
    QTest::newRow("wrong shape") << "wrong shape"
                                 << "model.safetensors"
                                 << "the tensor ln_f.weight has the shape [2, 16], expected [32]";
    QTest::newRow("truncated weights") << "truncated weights"
                                       << "model.safetensors"
                                       << "";
    QTest::newRow("unknown dtype") << "unknown dtype"
                                   << "model.safetensors"
                                   << "Q4";
    QTest::newRow("dtype I32") << "dtype I32"
                               << "model.safetensors"
                               << "is stored as I32, not F32, F16 or BF16";
}

void TestGpt2Model::badFolders()
{
    QFETCH(QString, breakage);
    QFETCH(QString, file);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    const fs::path folder = copyOfSmallModel(dir);
    const fs::path config = folder / "config.json", weights = folder / "model.safetensors";
    auto editConfig = [&](const std::string& from, const std::string& to) {
        QVERIFY2(editText(config, from, to), from.c_str());
    };
    const std::string b = breakage.toStdString();
    if (b == "no config.json")
        fs::remove(config);
    else if (b == "no weights")
        fs::remove(weights);
    else if (b == "no merges")
        fs::remove(folder / "merges.txt");
    else if (b == "no vocab")
        fs::remove(folder / "vocab.json");
    else if (b == "config not JSON")
        writeFile(config, "{model_type: gpt2}");
    else if (b == "n_embd not divisible")
        editConfig("\"n_embd\": 32", "\"n_embd\": 30");
    else if (b == "n_layer missing")
        editConfig("\"n_layer\": 2,", "");
    else if (b == "n_head a string")
        editConfig("\"n_head\": 4", "\"n_head\": \"4\"");
    else if (b == "n_layer 0")
        editConfig("\"n_layer\": 2", "\"n_layer\": 0");
    else if (b == "model_type t5")
        editConfig("\"gpt2\"", "\"t5\"");
    else if (b == "activation relu")
        editConfig("\"gelu_new\"", "\"relu\"");
    else if (b == "missing tensor")
        editHeader(weights, "\"ln_f.bias\"", "\"ln_f.bias_\"");
    else if (b == "wrong shape")
        editHeader(weights, "\"shape\":[32],\"data_offsets\":[145024,",
                   "\"shape\":[2,16],\"data_offsets\":[145024,");
    else if (b == "truncated weights")
        fs::resize_file(weights, fs::file_size(weights) / 2);
    else if (b == "unknown dtype")
        editHeader(weights, "\"dtype\":\"F32\"", "\"dtype\":\"Q4\"");
    else if (b == "dtype I32")
        editHeader(weights, "\"dtype\":\"F32\"", "\"dtype\":\"I32\"");
    const OpenFault fault_ = openFault(folder);
    QVERIFY2(fault_.message.contains(file), qPrintable(fault_.message));
    QVERIFY2(fault_.message.contains(fault), qPrintable(fault_.message));
    QCOMPARE(fault_.file, file);
}

void TestGpt2Model::badTexts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("refusal");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "" << int(attn::Refusal::EmptyText) << "the text is empty";
    // small-f32 reads at most 32 tokens.
    QTest::newRow("longer than n_positions")
        << QString("cat ").repeated(40) << int(attn::Refusal::TextTooLong)
        << "the text has 41 tokens, the model reads at most 32";
    QTest::newRow("invalid UTF-8") << QString() << int(attn::Refusal::InvalidUtf8) << "UTF-8";
}

void TestGpt2Model::badTexts()
{
    QFETCH(QString, text);
    QFETCH(int, refusal);
    QFETCH(QString, message);
    const auto lm = model(QStringLiteral("small-f32"));
    std::string bytes = text.toStdString();
    if (refusal == int(attn::Refusal::InvalidUtf8))
        bytes = "cat \xff";
    try {
        (void)lm->run(bytes, ModelSwitches{});
        QFAIL("ran");
    } catch (const attn::InputError& error) {
        QCOMPARE(int(error.refusal()), refusal);
        QVERIFY2(QString::fromStdString(error.what()).contains(message), error.what());
    }
}

QTEST_GUILESS_MAIN(TestGpt2Model)
#include "tst_gpt2model.moc"
