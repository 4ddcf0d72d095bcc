// BertModel: every layer's attention, the masked-LM logits and top 10 at each [MASK] of two
// tiny random checkpoints of the BERT family (F32 with "bert." names and LayerNorm
// weight/bias, BF16 without the prefix and with gamma/beta), against a plain PyTorch
// BertForMaskedLM (tests/reference/gen_bert_model.py) under the textbook formula (no mask),
// each switch (the causal mask the one that breaks it) and switches on one layer only; and
// refusals of broken folders and ids.
#include "engine/options.h"
#include "modelfiles.h"
#include "models/bert/config.h"
#include "models/bert/model.h"
#include "models/families.h"
#include "models/languagemodel.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using attn::ModelError;
using attn::ModelSwitches;
using namespace modelfiles;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR "/bert";

std::vector<int> intsOf(const QJsonValue& array)
{
    std::vector<int> ids;
    for (const QJsonValue id : array.toArray())
        ids.push_back(id.toInt());
    return ids;
}

// A copy of a checkpoint in `dir`, to break.
fs::path copyOfModel(const QTemporaryDir& dir, const char* name)
{
    const fs::path folder = fs::path(dir.path().toStdString()) / "model";
    fs::create_directories(folder);
    for (const auto& entry : fs::directory_iterator(kReference / name))
        fs::copy_file(entry.path(), folder / entry.path().filename());
    return folder;
}

} // namespace

class TestBertModel : public QObject {
    Q_OBJECT

private slots:
    void parity_data();
    void parity();
    void modelInfo_data();
    void modelInfo();
    void bidirectional();
    void textRunsAsItsIds();
    void badIds_data();
    void badIds();
    void badFolders_data();
    void badFolders();

private:
    std::shared_ptr<const attn::LanguageModel> model(const QString& name);
    std::map<QString, std::shared_ptr<const attn::LanguageModel>> models_;
};

std::shared_ptr<const attn::LanguageModel> TestBertModel::model(const QString& name)
{
    auto& slot = models_[name];
    if (!slot)
        slot = attn::openModel(kReference / name.toStdString());
    return slot;
}

void TestBertModel::parity_data()
{
    addParityRows(kReference, {"bert-f32", "bert-bf16"});
}

void TestBertModel::parity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    QFETCH(QJsonObject, caseData);
    const auto lm = this->model(model);
    const ModelSwitches switches =
        switchesOf(caseData.value(QLatin1String("switches")).toObject(),
                   caseData.value(QLatin1String("only_layer")).toInt(), false);
    // 1. Every layer's attention, every head: ≤ 1e-5 (F32), ≤ 2e-5 (BF16 weights).
    attn::ModelRun run;
    checkAttention(*lm, expected, caseData, switches, run);
    if (QTest::currentTestFailed())
        return;

    // The logit lens: every block read through the final norm and the output head, torch's
    // top 5 at every position.
    const QString lens = lensDifference(*lm, run.ids, switches,
                                        caseData.value(QLatin1String("logit_lens")).toArray());
    QVERIFY2(lens.isEmpty(), qPrintable(lens));

    // 2. At each [MASK]: every logit of the MLM head ≤ 1e-4, and the top 10.
    const std::vector<int> masks = intsOf(expected.value(QLatin1String("masks")));
    const QJsonArray allLogits = caseData.value(QLatin1String("logits")).toArray();
    const QJsonArray allTop = caseData.value(QLatin1String("top10")).toArray();
    QCOMPARE(int(allLogits.size()), int(masks.size()));
    for (std::size_t m = 0; m < masks.size(); ++m) {
        const int position = masks[m];
        const std::vector<float> logits = run.logits(position);
        const QJsonArray want = allLogits[int(m)].toArray();
        QCOMPARE(int(logits.size()), int(want.size()));
        for (int id = 0; id < want.size(); ++id)
            QVERIFY2(agrees(logits[std::size_t(id)], numberOf(want[id]), 1e-4),
                     qPrintable(QStringLiteral("position %1, logit of id %2: %3 vs torch %4")
                                    .arg(position)
                                    .arg(id)
                                    .arg(logits[std::size_t(id)])
                                    .arg(numberOf(want[id]))));
        const QJsonArray top = allTop[int(m)].toArray();
        if (top.isEmpty())
            continue; // NaN logits
        const std::vector<attn::Prediction> predictions = run.predictions(position, 10);
        QCOMPARE(int(predictions.size()), 10);
        for (int n = 0; n < 10; ++n)
            QCOMPARE(predictions[std::size_t(n)].id, top[n].toInt());
    }
}

void TestBertModel::modelInfo_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<QString>("weightType");
    QTest::newRow("bert. names, weight/bias") << "bert-f32" << 32 << "F32";
    QTest::newRow("no prefix, gamma/beta") << "bert-bf16" << 48 << "BF16";
}

void TestBertModel::modelInfo()
{
    QFETCH(QString, model);
    QFETCH(int, dModel);
    QFETCH(QString, weightType);
    const attn::ModelInfo& info = this->model(model)->info();
    QCOMPARE(QString::fromStdString(info.family), QStringLiteral("bert"));
    QCOMPARE(QString::fromStdString(info.name), model);
    QCOMPARE(info.layers, 2);
    QCOMPARE(info.heads, 4);
    QCOMPARE(info.kvHeads, 4);
    QCOMPARE(info.dModel, dModel);
    QCOMPARE(info.headDim, dModel / 4);
    QCOMPARE(info.maxPositions, 64);
    QCOMPARE(info.vocabulary, 84);
    QCOMPARE(QString::fromStdString(info.weightType), weightType);
    QVERIFY(!info.causal);
    QVERIFY(!info.rotary);
}

void TestBertModel::bidirectional()
{
    // The textbook formula lets every token see the ones after it: the first token's row
    // has weight on the last key in every head; the causal switch takes it away.
    const auto lm = model(QStringLiteral("bert-f32"));
    const std::vector<int> ids =
        intsOf(readJson(kReference / "bert-f32.json").value(QLatin1String("ids")));
    const attn::ModelRun textbook = lm->runIds(ids, switchesOf(QJsonObject{}, -1, false));
    const attn::ModelRun causal = lm->runIds(ids, ModelSwitches{});
    const int T = int(ids.size());
    for (int h = 0; h < 4; ++h) {
        QVERIFY(textbook.attention->head(1, 0, h).row(0).tail(T - 1).sum() > 1e-3f);
        QCOMPARE(causal.attention->head(1, 0, h).row(0).tail(T - 1).sum(), 0.0f);
    }
}

void TestBertModel::textRunsAsItsIds()
{
    // vocab.txt's WordPiece: a CJK character a token, [MASK] typed in the text one token,
    // [CLS] … [SEP] around; the run of the text is the run of those ids, and its [MASK]
    // (the tokenizer's id) is where the fill-ins are.
    const auto lm = model(QStringLiteral("bert-f32"));
    const QJsonObject expected = readJson(kReference / "bert-f32.json");
    const attn::ModelRun text =
        lm->run(expected.value(QLatin1String("text")).toString().toStdString(),
                switchesOf(QJsonObject{}, -1, false));
    const std::vector<int> ids = intsOf(expected.value(QLatin1String("text_ids")));
    QCOMPARE(text.ids, ids);
    QCOMPARE(lm->maskId(), std::optional<int>(4));
    QCOMPARE(text.maskedPositions(), std::vector<int>{4});
    QCOMPARE(text.labels[4].label, std::string("[MASK]"));
    QCOMPARE(lm->tokenSpelling(5), std::string("巴"));
    const attn::ModelRun byIds = lm->runIds(ids, switchesOf(QJsonObject{}, -1, false));
    QCOMPARE(text.hidden, byIds.hidden);
    // The two-[MASK] ids of the reference: both positions, in order.
    const attn::ModelRun two =
        lm->runIds(intsOf(expected.value(QLatin1String("ids"))), ModelSwitches{});
    QCOMPARE(two.maskedPositions(), intsOf(expected.value(QLatin1String("masks"))));
}

void TestBertModel::badIds_data()
{
    addBadIdRows(84);
}

void TestBertModel::badIds()
{
    QFETCH(std::vector<int>, ids);
    QFETCH(QString, message);
    const QString fault = runIdsFault(*model(QStringLiteral("bert-f32")), ids);
    QVERIFY2(fault.contains(message), qPrintable(fault));
}

void TestBertModel::badFolders_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("from"); // config.json's text or a tensor header's, replaced
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("fault");
    const QString config = QStringLiteral("config.json"), weights("model.safetensors");
    QTest::newRow("hidden_size missing") << "bert-f32"
                                         << "\"hidden_size\": 32,"
                                         << "" << config << "the field hidden_size is missing";
    QTest::newRow("hidden_size not divisible")
        << "bert-f32"
        << "\"hidden_size\": 32"
        << "\"hidden_size\": 30" << config
        << "hidden_size 30 is not divisible by num_attention_heads 4";
    QTest::newRow("hidden_act gelu_new")
        << "bert-bf16"
        << "\"gelu\""
        << "\"gelu_new\"" << config << "hidden_act \"gelu_new\" is not supported";
    QTest::newRow("relative positions")
        << "bert-f32"
        << "\"absolute\""
        << "\"relative_key\"" << config
        << "position_embedding_type \"relative_key\" is not supported";
    QTest::newRow("missing tensor")
        << "bert-f32"
        << "\"bert.encoder.layer.1.attention.self.key.weight\""
        << "\"bert.encoder.layer.1.attention.self.key.weigh_\"" << weights
        << "the tensor encoder.layer.1.attention.self.key.weight is "
           "missing";
    QTest::newRow("missing MLM bias")
        << "bert-bf16"
        << "\"cls.predictions.bias\""
        << "\"cls.predictions.bia_\"" << weights << "the tensor cls.predictions.bias is missing";
    QTest::newRow("missing gamma") << "bert-bf16"
                                   << "\"embeddings.LayerNorm.gamma\""
                                   << "\"embeddings.LayerNorm.gamm_\"" << weights
                                   << "the tensor embeddings.LayerNorm.weight is missing";
    QTest::newRow("vocab.txt missing") << "bert-bf16"
                                       << ""
                                       << "" << QStringLiteral("vocab.txt") << "";
    QTest::newRow("wrong shape") << "bert-f32"
                                 << "\"shape\":[64,32]"
                                 << "\"shape\":[32,64]" << weights
                                 << "has the shape [32, 64], expected [64, 32]";
}

void TestBertModel::badFolders()
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

QTEST_GUILESS_MAIN(TestBertModel)
#include "tst_bertmodel.moc"
