// LlamaModel: every layer's attention, the logits and the top 10 of three tiny random
// checkpoints of the Qwen/Llama family (qwen2 F32 with q/k/v biases and tied embeddings,
// qwen3 BF16 with q/k norms and head_dim ≠ C/H, llama F32 with an untied lm_head), all with
// grouped-query attention (4 query heads, 2 K/V heads), against a plain PyTorch forward
// (tests/reference/gen_llama_model.py) under the textbook formula, each switch, RoPE off and
// switches on one layer only; and refusals of broken folders and ids.
#include "engine/options.h"
#include "modelfiles.h"
#include "models/configfields.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "models/llama/config.h"
#include "models/llama/model.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using attn::ModelError;
using attn::ModelSwitches;
using namespace modelfiles;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR "/llama";

// A copy of a checkpoint in `dir`, to break.
fs::path copyOfModel(const QTemporaryDir& dir, const char* name)
{
    const fs::path folder = fs::path(dir.path().toStdString()) / "model";
    fs::create_directories(folder);
    for (const char* file : {"config.json", "model.safetensors", "tokenizer.json"})
        fs::copy_file(kReference / name / file, folder / file);
    return folder;
}

} // namespace

// config.json's text read as the family's reader reads it.
attn::LlamaConfig parseLlama(const std::string& json)
{
    return attn::parseLlamaConfig(attn::parseConfigObject(json, "config.json"), "config.json");
}

class TestLlamaModel : public QObject {
    Q_OBJECT

private slots:
    void parity_data();
    void parity();
    void modelInfo_data();
    void modelInfo();
    void ropeOffMakesAttentionBlindToOrder();
    void slidingWindowHidesTheFarKeys();
    void smolLm2HasNoLmHead();
    void textRunsAsItsIds();
    void badIds_data();
    void badIds();
    void badFolders_data();
    void badFolders();
    void ropeParameters();
    void ropeScaling();

private:
    std::shared_ptr<const attn::LanguageModel> model(const QString& name);
    std::map<QString, std::shared_ptr<const attn::LanguageModel>> models_;
};

std::shared_ptr<const attn::LanguageModel> TestLlamaModel::model(const QString& name)
{
    auto& slot = models_[name];
    if (!slot)
        slot = attn::openModel(kReference / name.toStdString());
    return slot;
}

void TestLlamaModel::parity_data()
{
    addParityRows(kReference, {"qwen2-f32", "qwen3-bf16", "llama-f32", "llama3-f32",
                               "qwen2-linear-f32", "smollm2-f32", "mistral-f32"});
}

void TestLlamaModel::parity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    QFETCH(QJsonObject, caseData);
    checkParity(*this->model(model), expected, caseData);
}

void TestLlamaModel::modelInfo_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<QString>("weightType");
    QTest::newRow("qwen2") << "qwen2-f32"
                           << "qwen2" << 32 << 8 << "F32";
    QTest::newRow("qwen3, head_dim given") << "qwen3-bf16"
                                           << "qwen3" << 32 << 16 << "BF16";
    QTest::newRow("llama") << "llama-f32"
                           << "llama" << 48 << 12 << "F32";
}

void TestLlamaModel::modelInfo()
{
    QFETCH(QString, model);
    QFETCH(QString, family);
    QFETCH(int, dModel);
    QFETCH(int, headDim);
    QFETCH(QString, weightType);
    const attn::ModelInfo& info = this->model(model)->info();
    QCOMPARE(QString::fromStdString(info.family), family);
    QCOMPARE(QString::fromStdString(info.name), model);
    QCOMPARE(info.layers, 2);
    QCOMPARE(info.heads, 4);
    QCOMPARE(info.kvHeads, 2);
    QCOMPARE(info.dModel, dModel);
    QCOMPARE(info.headDim, headDim);
    QCOMPARE(info.maxPositions, 64);
    QCOMPARE(info.vocabulary, 260);
    QCOMPARE(QString::fromStdString(info.weightType), weightType);
    QVERIFY(info.causal);
    QVERIFY(info.rotary);
    // Query heads 0 and 1 share K/V head 0, heads 2 and 3 K/V head 1 (repeat_kv).
    QCOMPARE(
        (std::vector<int>{info.kvHeadOf(0), info.kvHeadOf(1), info.kvHeadOf(2), info.kvHeadOf(3)}),
        (std::vector<int>{0, 0, 1, 1}));
    // The folder's tokenizer.json spells and labels the ids: byte b is id b, " the" 258.
    QCOMPARE(this->model(model)->tokenSpelling(258), std::string("\u0120the"));
    QCOMPARE(this->model(model)->tokenLabel(104), std::string("h"));
}

void TestLlamaModel::ropeOffMakesAttentionBlindToOrder()
{
    // Without RoPE and without the causal mask nothing tells positions apart: the same
    // token at two positions attends alike (ids 17 at 1 and 5, 42 at 2 and 9), in the
    // first layer, where the inputs are the embeddings themselves.
    const auto lm = model(QStringLiteral("qwen3-bf16"));
    const std::vector<int> ids = idsOf(readJson(kReference / "qwen3-bf16.json"));
    ModelSwitches switches;
    switches.formula.mask = attn::MaskKind::None;
    switches.rope = false;
    const attn::ModelRun blind = lm->runIds(ids, switches);
    switches.rope = true;
    const attn::ModelRun seeing = lm->runIds(ids, switches);
    for (int h = 0; h < 4; ++h) {
        const attn::Matrix p = blind.attention->head(0, 0, h);
        QVERIFY((p.row(1) - p.row(5)).cwiseAbs().maxCoeff() < 1e-6f);
        const attn::Matrix q = seeing.attention->head(0, 0, h);
        QVERIFY((q.row(1) - q.row(5)).cwiseAbs().maxCoeff() > 1e-3f);
    }
}

void TestLlamaModel::slidingWindowHidesTheFarKeys()
{
    // Mistral's window of 4 is its own formula's: query i sees keys i − 3 … i under the
    // causal mask; with the window switched off and no mask, every key.
    const auto lm = model(QStringLiteral("mistral-f32"));
    QCOMPARE(lm->info().slidingWindow, 4);
    QCOMPARE(QString::fromStdString(lm->info().family), QStringLiteral("mistral"));
    const std::vector<int> ids = idsOf(readJson(kReference / "mistral-f32.json"));
    ModelSwitches own;
    own.formula = ModelSwitches::textbookFormula(lm->info());
    QCOMPARE(own.formula.window, 4);
    const attn::ModelRun windowed = lm->runIds(ids, own);
    ModelSwitches open = own;
    open.formula.mask = attn::MaskKind::None;
    open.formula.window = 0;
    const attn::ModelRun unmasked = lm->runIds(ids, open);
    const int T = int(ids.size());
    for (int h = 0; h < lm->info().heads; ++h) {
        const attn::Matrix p = windowed.attention->head(1, 0, h);
        const attn::Matrix q = unmasked.attention->head(1, 0, h);
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j) {
                const bool seen = j <= i && i - j < 4;
                QVERIFY2(seen ? p(i, j) > 0.0f : p(i, j) == 0.0f,
                         qPrintable(QStringLiteral("head %1 (%2, %3)").arg(h).arg(i).arg(j)));
                QVERIFY(q(i, j) > 0.0f);
            }
    }
    // The trace's mask is the window's too.
    const attn::HeadTrace trace = lm->trace("The cat sat on the mat", own, 0, 0);
    QVERIFY(trace.mask(5, 1));
    QVERIFY(!trace.mask(5, 2));
    QVERIFY(trace.mask(5, 6));
}

void TestLlamaModel::smolLm2HasNoLmHead()
{
    // Its tied head is embed_tokens: the file has no lm_head.weight, and the logits are the
    // final hidden row times the input embedding (parity checks their values).
    const auto lm = model(QStringLiteral("smollm2-f32"));
    QCOMPARE(lm->info().heads, 6);
    QCOMPARE(lm->info().kvHeads, 2);
    QCOMPARE(lm->info().kvHeadOf(5), 1);
    const std::string header =
        readFile(kReference / "smollm2-f32" / "model.safetensors").substr(0, 8192);
    QVERIFY(header.find("model.embed_tokens.weight") != std::string::npos);
    QVERIFY(header.find("lm_head") == std::string::npos);
}

void TestLlamaModel::textRunsAsItsIds()
{
    // tokenizer.json's byte-level BPE: "the" is t + the merge "he", " the" one token, the
    // added token whole; the run of the text is the run of those ids.
    const auto lm = model(QStringLiteral("qwen2-f32"));
    const attn::ModelRun text = lm->run("the cat at the<|endoftext|>", ModelSwitches{});
    const std::vector<int> ids{116, 257, 32, 99, 97, 116, 32, 97, 116, 258, 259};
    QCOMPARE(text.ids, ids);
    QCOMPARE(text.labels[9].label, std::string(" the"));
    const attn::ModelRun byIds = lm->runIds(ids, ModelSwitches{});
    QCOMPARE(text.hidden, byIds.hidden);
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 4; ++h)
            QCOMPARE(text.attention->head(l, 0, h), byIds.attention->head(l, 0, h));
}

void TestLlamaModel::badIds_data()
{
    addBadIdRows(260);
}

void TestLlamaModel::badIds()
{
    QFETCH(std::vector<int>, ids);
    QFETCH(QString, message);
    const QString fault = runIdsFault(*model(QStringLiteral("llama-f32")), ids);
    QVERIFY2(fault.contains(message), qPrintable(fault));
}

void TestLlamaModel::badFolders_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("from"); // config.json's text or a tensor header's, replaced
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("fault");
    const QString config = QStringLiteral("config.json"), weights("model.safetensors");
    QTest::newRow("hidden_size missing") << "llama-f32"
                                         << "\"hidden_size\": 48,"
                                         << "" << config << "the field hidden_size is missing";
    QTest::newRow("intermediate_size missing")
        << "qwen2-f32"
        << "\"intermediate_size\": 64,"
        << "" << config << "the field intermediate_size is missing";
    QTest::newRow("hidden_size not divisible")
        << "llama-f32"
        << "\"hidden_size\": 48"
        << "\"hidden_size\": 50" << config
        << "hidden_size 50 is not divisible by num_attention_heads 4";
    QTest::newRow("heads not divisible by kv heads")
        << "qwen2-f32"
        << "\"num_key_value_heads\": 2"
        << "\"num_key_value_heads\": 3" << config
        << "num_attention_heads 4 is not divisible by num_key_value_heads 3";
    QTest::newRow("odd head_dim") << "qwen3-bf16"
                                  << "\"head_dim\": 16"
                                  << "\"head_dim\": 15" << config << "head_dim 15 is odd";
    QTest::newRow("hidden_act gelu")
        << "llama-f32"
        << "\"silu\""
        << "\"gelu\"" << config << "hidden_act \"gelu\" is not supported";
    QTest::newRow("rope_scaling yarn")
        << "llama-f32"
        << "\"rope_scaling\": null"
        << "\"rope_scaling\": {\"rope_type\": \"yarn\", \"factor\": 4.0}" << config
        << "rope type \"yarn\" is not supported (this version runs \"default\", \"linear\" and "
           "\"llama3\")";
    QTest::newRow("rope_parameters dynamic")
        << "qwen3-bf16"
        << "\"rope_type\": \"default\""
        << "\"rope_type\": \"dynamic\", \"factor\": 2.0" << config
        << "rope_parameters's rope type \"dynamic\" is not supported";
    QTest::newRow("llama3 without its factors")
        << "llama-f32"
        << "\"rope_scaling\": null"
        << "\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8.0}" << config
        << "rope_scaling's low_freq_factor is missing";
    QTest::newRow("linear factor 0")
        << "llama-f32"
        << "\"rope_scaling\": null"
        << "\"rope_scaling\": {\"type\": \"linear\", \"factor\": 0}" << config << "factor";
    QTest::newRow("sliding window")
        << "qwen2-f32"
        << "\"use_sliding_window\": false"
        << "\"use_sliding_window\": true" << config << "use_sliding_window true is not supported";
    QTest::newRow("model_type t5") << "qwen2-f32"
                                   << "\"qwen2\""
                                   << "\"t5\"" << config << "model_type \"t5\" is not supported";
    QTest::newRow("missing tensor")
        << "llama-f32"
        << "\"model.norm.weight\""
        << "\"model.norm.weigh_\"" << weights << "the tensor model.norm.weight is missing";
    QTest::newRow("missing lm_head, untied")
        << "llama-f32"
        << "\"lm_head.weight\""
        << "\"lm_head.weigh_\"" << weights << "the tensor lm_head.weight is missing";
    QTest::newRow("missing q bias") << "qwen2-f32"
                                    << "\"model.layers.1.self_attn.q_proj.bias\""
                                    << "\"model.layers.1.self_attn.q_proj.bia_\"" << weights
                                    << "the tensor model.layers.1.self_attn.q_proj.bias is missing";
    QTest::newRow("missing q_norm") << "qwen3-bf16"
                                    << "\"model.layers.0.self_attn.q_norm.weight\""
                                    << "\"model.layers.0.self_attn.q_norm.weigh_\"" << weights
                                    << "the tensor model.layers.0.self_attn.q_norm.weight is "
                                       "missing";
    QTest::newRow("wrong shape") << "llama-f32"
                                 << "\"shape\":[24,48],\"data_offsets\":[142656,"
                                 << "\"shape\":[48,24],\"data_offsets\":[142656," << weights
                                 << "the tensor model.layers.1.self_attn.k_proj.weight has the "
                                    "shape [48, 24], expected [24, 48]";
    // tokenizer.json: read before the weights, its faults named by it.
    const QString tokenizer = QStringLiteral("tokenizer.json");
    QTest::newRow("tokenizer.json missing") << "qwen2-f32"
                                            << ""
                                            << "" << tokenizer << "";
    QTest::newRow("tokenizer.json not BPE") << "qwen3-bf16"
                                            << "\"type\": \"BPE\""
                                            << "\"type\": \"WordPiece\"" << tokenizer << "";
    QTest::newRow("tokenizer.json past vocab_size")
        << "llama-f32"
        << "\"id\": 259"
        << "\"id\": 300" << tokenizer << "the vocabulary has ids up to 300";
}

void TestLlamaModel::badFolders()
{
    QFETCH(QString, model);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, file);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    const fs::path folder = copyOfModel(dir, qPrintable(model));
    QVERIFY2(breakFile(folder, file.toStdString(), from.toStdString(), to.toStdString()),
             qPrintable(from));
    const OpenFault fault_ = openFault(folder);
    QVERIFY2(fault_.message.contains(fault), qPrintable(fault_.message));
    QCOMPARE(fault_.file, file);
}

void TestLlamaModel::ropeParameters()
{
    // rope_theta at the top level, or in rope_parameters as newer configs write it (which
    // wins); num_key_value_heads and head_dim default to H and C / H.
    const attn::LlamaConfig top = parseLlama(
        R"({"model_type":"llama","num_hidden_layers":1,"num_attention_heads":4,"hidden_size":16,
            "intermediate_size":8,"vocab_size":10,"max_position_embeddings":8,
            "rope_theta":500000.0})");
    QCOMPARE(top.ropeTheta, 500000.0);
    QCOMPARE(top.kvHeads, 4);
    QCOMPARE(top.headDim, 4);
    QCOMPARE(top.epsilon, 1e-6);
    QVERIFY(!top.tiedEmbeddings);
    const attn::LlamaConfig nested = parseLlama(
        R"({"model_type":"qwen3","num_hidden_layers":1,"num_attention_heads":4,"hidden_size":16,
            "intermediate_size":8,"vocab_size":10,"max_position_embeddings":8,"head_dim":null,
            "rope_parameters":{"rope_type":"default","rope_theta":1000000.0}})");
    QCOMPARE(nested.ropeTheta, 1000000.0);
    QCOMPARE(nested.headDim, 4);
    QVERIFY(nested.qkNorm);
    QVERIFY(!nested.qkvBias);
    QCOMPARE(nested.ropeScaling, attn::RopeScaling{});
}

// Llama 3.1's scaling keeps the fast frequencies, divides the slow ones by the factor and
// smooths those between (HF's _compute_llama3_parameters); linear divides them all.
void TestLlamaModel::ropeScaling()
{
    const attn::LlamaConfig llama3 =
        parseLlama(readFile(kReference / "llama3-f32" / "config.json"));
    QCOMPARE(llama3.ropeScaling.type, attn::RopeScaling::Type::Llama3);
    QCOMPARE(llama3.ropeScaling.factor, 8.0);
    QCOMPARE(llama3.ropeScaling.lowFreqFactor, 1.0);
    QCOMPARE(llama3.ropeScaling.highFreqFactor, 4.0);
    QCOMPARE(llama3.ropeScaling.originalPositions, 64.0);
    // head_dim 12, θ = 500000: wavelengths 2π·θ^(i/6) = 6.3, 56, 499 …; kept below 64/4 = 16,
    // divided by 8 above 64.
    const attn::RotaryTable plain = attn::rotaryTable(3, 12, 500000.0);
    const attn::RotaryTable scaled = attn::rotaryTable(3, 12, 500000.0, llama3.ropeScaling);
    const auto angle = [](const attn::RotaryTable& table, int i) {
        return std::atan2(double(table.sin(1, i)), double(table.cos(1, i))); // position 1
    };
    QVERIFY(std::abs(angle(scaled, 0) - angle(plain, 0)) < 1e-7);
    for (int i = 2; i < 6; ++i)
        QVERIFY(std::abs(angle(scaled, i) - angle(plain, i) / 8) < 1e-7);
    const double smooth = (64 / (2 * std::numbers::pi / angle(plain, 1)) - 1) / 3;
    QVERIFY(std::abs(angle(scaled, 1) -
                     ((1 - smooth) * angle(plain, 1) / 8 + smooth * angle(plain, 1))) < 1e-6);
    const attn::LlamaConfig linear =
        parseLlama(readFile(kReference / "qwen2-linear-f32" / "config.json"));
    QCOMPARE(linear.ropeScaling.type, attn::RopeScaling::Type::Linear);
    QCOMPARE(linear.ropeScaling.factor, 4.0);
    const attn::RotaryTable quarter = attn::rotaryTable(3, 8, 10000.0, linear.ropeScaling);
    const attn::RotaryTable whole = attn::rotaryTable(3, 8, 10000.0);
    for (int i = 0; i < 4; ++i)
        QVERIFY(std::abs(std::atan2(double(quarter.sin(1, i)), double(quarter.cos(1, i))) -
                         std::atan2(double(whole.sin(1, i)), double(whole.cos(1, i))) / 4) < 1e-7);
}

QTEST_GUILESS_MAIN(TestLlamaModel)
#include "tst_llamamodel.moc"
