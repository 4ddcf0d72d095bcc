// A GGUF file of the bert architecture (ggufbert): converted as llama.cpp's converter converts
// a Hugging Face BERT (tests/reference/gen_gguf_bert.py, from gen_bert_model.py's two
// checkpoints, F32 and BF16 blocks), every layer's attention equals its checkpoint's under
// every switch; its vocabulary, turned back from llama.cpp's phantom-space spelling, gives the
// checkpoint's folder's ids; the file has no masked-LM head, so the model predicts nothing
// and says so; broken files are refused.
#include "engine/options.h"
#include "modelfiles.h"
#include "models/bert/model.h"
#include "models/families.h"
#include "models/gguf/ggufmodel.h"
#include "models/languagemodel.h"
#include "text/ggufwordpiece.h"
#include "text/wordpiecetokenizer.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using attn::ModelError;
using namespace modelfiles;

namespace {

const fs::path kGguf = ATTN_REFERENCE_DIR "/gguf";
const fs::path kBert = ATTN_REFERENCE_DIR "/bert";

// The GGUF file `name`.gguf with its first `from` replaced by `to` (as long), in `dir`.
fs::path brokenCopy(const QTemporaryDir& dir, const std::string& name, const std::string& from,
                    const std::string& to)
{
    std::string bytes = readFile(kGguf / (name + ".gguf"));
    const std::size_t at = bytes.find(from);
    if (at == std::string::npos || from.size() != to.size())
        return {};
    bytes.replace(at, from.size(), to);
    const fs::path file = fs::path(dir.path().toStdString()) / (name + ".gguf");
    writeFile(file, bytes);
    return file;
}

} // namespace

class TestGgufBert : public QObject {
    Q_OBJECT

private slots:
    void parity_data();
    void parity();
    void tokenizer_data();
    void tokenizer();
    void vocabulary();
    void spelling_data();
    void spelling();
    void casing();
    void modelInfo_data();
    void modelInfo();
    void noHead();
    void badFiles_data();
    void badFiles();

private:
    std::shared_ptr<const attn::LanguageModel> model(const QString& name);
    std::map<QString, std::shared_ptr<const attn::LanguageModel>> models_;
};

std::shared_ptr<const attn::LanguageModel> TestGgufBert::model(const QString& name)
{
    auto& slot = models_[name];
    if (!slot)
        slot = attn::openModel(kGguf / (name.toStdString() + ".gguf"));
    return slot;
}

void TestGgufBert::parity_data()
{
    addParityRows(kBert, {"bert-f32", "bert-bf16"});
}

void TestGgufBert::parity()
{
    // Every layer's attention, every head, at tst_bertmodel's tolerances: the file holds
    // the checkpoint's weights exactly (BF16 blocks of the BF16 checkpoint).
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    QFETCH(QJsonObject, caseData);
    const auto lm = this->model(model);
    const attn::ModelSwitches switches =
        switchesOf(caseData.value(QLatin1String("switches")).toObject(),
                   caseData.value(QLatin1String("only_layer")).toInt(), false);
    attn::ModelRun run;
    checkAttention(*lm, expected, caseData, switches, run);
}

void TestGgufBert::tokenizer_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("Chinese with [MASK]") << QStringLiteral("巴黎是[MASK]国的首都。");
    QTest::newRow("Chinese, unknown characters") << QStringLiteral("我喜欢这个产品的设计，很好！");
    QTest::newRow("English, continuation pieces")
        << QStringLiteral("The cats sat on the mat, playing; unable to run.");
    QTest::newRow("capitals, digits, unknown word")
        << QStringLiteral("Hello WORLD 2024: Paris is (the) capital of France?");
    QTest::newRow("special tokens typed") << QStringLiteral("[CLS] a dog [SEP] [PAD] [UNK]");
}

void TestGgufBert::tokenizer()
{
    // The metadata's tokenizer gives the checkpoint's folder's ids (Hugging Face's).
    QFETCH(QString, text);
    const auto folder = attn::WordPieceTokenizer::fromFolder(kBert / "bert-f32");
    const auto lm = model(QStringLiteral("bert-f32"));
    std::vector<int> ids;
    std::vector<attn::TokenLabel> labels;
    lm->tokenize(text.toStdString(), ids, labels);
    QCOMPARE(ids, folder->encodeIds(text.toStdString()));
}

void TestGgufBert::vocabulary()
{
    // Every token spelt as vocab.txt spells it, with the folder's casing.
    const auto folder = attn::WordPieceTokenizer::fromFolder(kBert / "bert-bf16");
    const auto lm = model(QStringLiteral("bert-bf16"));
    const auto* read = dynamic_cast<const attn::WordPieceTokenizer*>(lm->tokenizer());
    QVERIFY(read);
    QCOMPARE(read->vocabularySize(), folder->vocabularySize());
    for (int id = 0; id < folder->vocabularySize(); ++id)
        QCOMPARE(read->token(id), folder->token(id));
    QCOMPARE(read->casing(), folder->casing());
}

void TestGgufBert::spelling_data()
{
    QTest::addColumn<QString>("stored");
    QTest::addColumn<bool>("control");
    QTest::addColumn<QString>("spelling");
    QTest::newRow("control token") << QStringLiteral("[CLS]") << true << QStringLiteral("[CLS]");
    QTest::newRow("word start") << QStringLiteral("▁the") << false << QStringLiteral("the");
    QTest::newRow("continuation") << QStringLiteral("ing") << false << QStringLiteral("##ing");
    QTest::newRow("CJK character") << QStringLiteral("▁的") << false << QStringLiteral("的");
    QTest::newRow("\"##\" itself") << QString() << false << QStringLiteral("##");
    QTest::newRow("[unused0], a normal token")
        << QStringLiteral("▁[unused0]") << false << QStringLiteral("[unused0]");
}

void TestGgufBert::spelling()
{
    QFETCH(QString, stored);
    QFETCH(bool, control);
    QFETCH(QString, spelling);
    QCOMPARE(QString::fromStdString(attn::wordPieceSpelling(stored.toStdString(), control)),
             spelling);
}

void TestGgufBert::casing()
{
    // An uncased vocabulary (no capitals) is lower-cased; one with many words in both
    // spellings ("The" and "the") is cased.
    std::vector<std::string> tokens{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "##s"};
    QVERIFY(attn::guessedCasing(tokens).lowerCase);
    for (int i = 0; i <= attn::kCasedPairs; ++i) { // "ba" and "Ba", "ca" and "Ca" …
        std::string word{char('a' + (i + 1) % 26), char('a' + (i + 1) / 26)};
        tokens.push_back(word);
        word[0] = char(word[0] - 'a' + 'A');
        tokens.push_back(word);
    }
    QVERIFY(!attn::guessedCasing(tokens).lowerCase);
    QVERIFY(!attn::guessedCasing(tokens).stripsAccents());
}

void TestGgufBert::modelInfo_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<QString>("weightType");
    QTest::newRow("F32") << "bert-f32" << 32 << "F32";
    QTest::newRow("BF16 blocks") << "bert-bf16" << 48 << "BF16";
}

void TestGgufBert::modelInfo()
{
    QFETCH(QString, model);
    QFETCH(int, dModel);
    QFETCH(QString, weightType);
    const auto lm = this->model(model);
    const attn::ModelInfo& info = lm->info();
    QCOMPARE(QString::fromStdString(info.family), QStringLiteral("bert"));
    QCOMPARE(QString::fromStdString(info.name), model); // general.name
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
    QVERIFY(!info.predicts);
    QCOMPARE(lm->maskId(), std::nullopt);
    const auto* bert = dynamic_cast<const attn::BertModel*>(lm.get());
    QVERIFY(bert && !bert->hasHead());
    QCOMPARE(bert->config().tokenTypes, 2);
    QCOMPARE(bert->config().epsilon, double(1e-12f)); // float32 in the file
}

void TestGgufBert::noHead()
{
    // A text with [MASK] runs and shows its attention; nothing is predicted, and asking is
    // a ModelError naming the file and what it lacks.
    const auto lm = model(QStringLiteral("bert-f32"));
    const attn::ModelRun run =
        lm->run("巴黎是[MASK]国的首都。", switchesOf(QJsonObject{}, -1, false));
    QCOMPARE(run.attention->shape().layers, 2);
    QVERIFY(run.maskedPositions().empty());
    try {
        (void)run.predictions(4, 10);
        QFAIL("predicted without a head");
    } catch (const ModelError& error) {
        QCOMPARE(error.file(), kGguf / "bert-f32.gguf");
        QCOMPARE(QString::fromStdString(error.fault()),
                 QString::fromUtf8(attn::kNoOutputHead.data(), int(attn::kNoOutputHead.size())));
    }
    QVERIFY_THROWS_EXCEPTION(ModelError, (void)lm->logitsOfRows(run.hidden));
}

void TestGgufBert::badFiles_data()
{
    using namespace std::string_literals;
    const auto bytes = [](const std::string& text) { return QByteArray::fromStdString(text); };
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("fault");
    QTest::newRow("token_types missing")
        << bytes("token_types.weight") << bytes("token_typez.weight")
        << "the tensor token_types.weight is missing or not a matrix";
    QTest::newRow("a layer's norm missing")
        << bytes("blk.1.layer_output_norm.bias") << bytes("blk.1.layer_output_norm.bia_")
        << "the tensor blk.1.layer_output_norm.bias is missing";
    QTest::newRow("no layer norm epsilon, ε 1e-12: opens")
        << bytes("bert.attention.layer_norm_epsilon") << bytes("bert.attention.layer_norm_epsilom")
        << "";
    QTest::newRow("block count missing") << bytes("bert.block_count") << bytes("bert.block_counx")
                                         << "the metadata key bert.block_count is missing";
    // The string value's type (8) and length (4) after the key, then its text.
    QTest::newRow("not a WordPiece vocabulary")
        << bytes("tokenizer.ggml.model\x08\0\0\0\x04\0\0\0\0\0\0\0bert"s)
        << bytes("tokenizer.ggml.model\x08\0\0\0\x04\0\0\0\0\0\0\0gpt2"s)
        << "the tokenizer model \"gpt2\" (tokenizer.ggml.model) is not BERT's (\"bert\", "
           "WordPiece)";
    QTest::newRow("attention causal")
        << bytes("bert.attention.causal\x07\0\0\0\0"s)
        << bytes("bert.attention.causal\x07\0\0\0\x01"s)
        << "bert.attention.causal is true: a BERT's attention is bidirectional";
}

void TestGgufBert::badFiles()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    const fs::path file = brokenCopy(dir, "bert-f32", from.toStdString(), to.toStdString());
    QVERIFY2(!file.empty(), "the bytes to break are not in the file");
    try {
        (void)attn::openGgufModel(file);
        QCOMPARE(QString(), fault);
    } catch (const ModelError& error) {
        QCOMPARE(error.file(), file);
        QCOMPARE(QString::fromStdString(error.fault()), fault);
    }
}

QTEST_GUILESS_MAIN(TestGgufBert)
#include "tst_ggufbert.moc"
