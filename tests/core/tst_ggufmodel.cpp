// GGUF models (models/gguf/ggufmodel): files written by tests/reference/gen_gguf_models.py
// with its own GGUF writer. Converted from the Qwen/Llama checkpoints (F32, BF16, Q/K of the
// llama architecture permuted as llama.cpp's converter does), every case equals the
// checkpoint's PyTorch numbers (Llama 3.1's rope scaling as llama.cpp's rope_freqs too); random
// blocks of all 15 types read (a Q4_K_M-like mix) equal the PyTorch forward on their dequantized
// weights; Q8_0 stays near the F32 checkpoint. The weights stay as blocks in the mapped file.
// Broken files are refused naming the file and the fault, in the window's ModelError and as one
// line with exit status 2 on the command line.
#include "clirun.h"
#include "io/gguf.h"
#include "modelfiles.h"
#include "models/families.h"
#include "models/gguf/ggufmodel.h"
#include "models/languagemodel.h"
#include "models/llama/model.h"

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
using namespace modelfiles;

namespace {

const fs::path kGguf = ATTN_REFERENCE_DIR "/gguf";
const fs::path kLlama = ATTN_REFERENCE_DIR "/llama";

// The byte offset of `inner` (a view into `bytes`) in `bytes`.
std::size_t offsetOf(const std::string& bytes, std::string_view inner)
{
    return std::size_t(inner.data() - bytes.data());
}
std::size_t offsetOf(const std::string& bytes, std::span<const std::byte> inner)
{
    return std::size_t(reinterpret_cast<const char*>(inner.data()) - bytes.data());
}

template <class T> void poke(std::string& bytes, std::size_t at, T value)
{
    std::memcpy(bytes.data() + at, &value, sizeof value);
}

// A tensor info's fields after its name: dimensions (u32), ne (u64 each), type (u32),
// offset (u64).
std::size_t typeFieldOf(const std::string& bytes, const attn::GgufTensor& tensor)
{
    return offsetOf(bytes, tensor.name) + tensor.name.size() + 4 + 8 * tensor.ne.size();
}

} // namespace

class TestGgufModel : public QObject {
    Q_OBJECT

private slots:
    void parity_data();
    void parity();
    void quantizedNearItsCheckpoint();
    void modelInfo_data();
    void modelInfo();
    void weightsStayInTheFile();
    void tokenizerFromMetadata();
    void badFiles_data();
    void badFiles();
    void commandLine();

private:
    std::shared_ptr<const attn::LanguageModel> model(const QString& name);
    std::map<QString, std::shared_ptr<const attn::LanguageModel>> models_;
};

std::shared_ptr<const attn::LanguageModel> TestGgufModel::model(const QString& name)
{
    auto& slot = models_[name];
    if (!slot)
        slot = attn::openModel(kGguf / (name.toStdString() + ".gguf"));
    return slot;
}

void TestGgufModel::parity_data()
{
    // (file, the numbers it must give): converted files their checkpoints', random blocks
    // their own dequantized weights'.
    addParityRows(
        {
            {"qwen2-f32", kLlama / "qwen2-f32.json"},
            {"llama-f32", kLlama / "llama-f32.json"},
            {"llama3-f32", kLlama / "llama3-f32.json"},
            {"smollm2-f32", kLlama / "smollm2-f32.json"},
            {"qwen3-bf16", kLlama / "qwen3-bf16.json"},
            {"qwen2-q8_0", kGguf / "qwen2-q8_0.json"},
            {"qwen2-mix", kGguf / "qwen2-mix.json"},
            {"llama-mix", kGguf / "llama-mix.json"},
        },
        ".gguf");
}

void TestGgufModel::parity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    QFETCH(QJsonObject, caseData);
    checkParity(*this->model(model), expected, caseData);
}

void TestGgufModel::quantizedNearItsCheckpoint()
{
    // Q8_0 of qwen2-f32's weights: its attention within its quantization of the checkpoint's
    // (8-bit steps of 1/127 of each block's largest weight: the attention weights move by
    // 0.002 on average, by up to 0.08 where a sharp head sits between two keys), and the same
    // top token.
    const QJsonObject expected = readJson(kLlama / "qwen2-f32.json");
    const QJsonObject textbook = expected.value(QLatin1String("cases")).toArray()[0].toObject();
    const auto lm = model(QStringLiteral("qwen2-q8_0"));
    const std::vector<int> ids = idsOf(expected);
    const attn::ModelRun run = lm->runIds(ids, switchesOf({}, -1, lm->info()));
    const QJsonArray layers = textbook.value(QLatin1String("attention")).toArray();
    QVERIFY2(attentionDifference(run, layers, 0.1).isEmpty(),
             qPrintable(attentionDifference(run, layers, 0.1)));
    // Not the same numbers: the quantization shows at 1e-5.
    QVERIFY(!attentionDifference(run, layers, 1e-5).isEmpty());
    const int T = int(ids.size());
    QCOMPARE(run.predictions(T - 1, 1)[0].id,
             textbook.value(QLatin1String("top10")).toArray()[0].toInt());
}

void TestGgufModel::modelInfo_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("family");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<QString>("weightType");
    QTest::newRow("qwen2, F32") << "qwen2-f32"
                                << "qwen2" << 32 << 8 << "F32";
    QTest::newRow("qwen3, BF16, key_length given") << "qwen3-bf16"
                                                   << "qwen3" << 32 << 16 << "BF16";
    QTest::newRow("llama, Q4_K_M") << "llama-mix"
                                   << "llama" << 256 << 64 << "Q4_K_M";
    QTest::newRow("qwen2, Q8_0") << "qwen2-q8_0"
                                 << "qwen2" << 32 << 8 << "Q8_0";
}

void TestGgufModel::modelInfo()
{
    QFETCH(QString, model);
    QFETCH(QString, family);
    QFETCH(int, dModel);
    QFETCH(int, headDim);
    QFETCH(QString, weightType);
    const attn::ModelInfo& info = this->model(model)->info();
    QCOMPARE(QString::fromStdString(info.family), family);
    QCOMPARE(QString::fromStdString(info.name), model); // general.name
    QCOMPARE(info.layers, 2);
    QCOMPARE(info.heads, 4);
    QCOMPARE(info.kvHeads, 2);
    QCOMPARE(info.dModel, dModel);
    QCOMPARE(info.headDim, headDim);
    QCOMPARE(info.maxPositions, 64);
    QCOMPARE(info.vocabulary, 260);
    QCOMPARE(QString::fromStdString(info.weightType), weightType); // general.file_type
    QCOMPARE(info.endTokens, std::vector<int>{2});
    QCOMPARE(info.folder, kGguf / (model.toStdString() + ".gguf"));
    QVERIFY(info.rotary && info.causal);
    // The metadata's tokenizer spells and labels the ids as the folder's tokenizer.json.
    QCOMPARE(this->model(model)->tokenSpelling(258), std::string("\u0120the"));
    QCOMPARE(this->model(model)->tokenLabel(104), std::string("h"));
}

void TestGgufModel::weightsStayInTheFile()
{
    // Every matrix of the Q4_K_M-like file is a view of its blocks in the mapping (none
    // expanded to floats); only the norms are floats of their own. Q and K of the llama
    // architecture read their rows in Hugging Face's order; V and the MLP in the file's.
    const auto lm = model(QStringLiteral("llama-mix"));
    const auto* llama = dynamic_cast<const attn::LlamaModel*>(lm.get());
    QVERIFY(llama);
    const attn::LlamaWeights& w = llama->weights();
    QCOMPARE(w.files.size(), std::size_t(1));
    std::size_t floats = 0;
    for (const auto& values : w.converted)
        floats += values.size();
    // Two norms a layer and the final one, C = 256 each.
    QCOMPARE(floats, std::size_t(256 * 5));
    const auto inFile = [&](const attn::WeightView& view) {
        return view.inBlocks() && !view.data && w.fileHolding(view.blocks) == w.files[0].get();
    };
    QVERIFY(inFile(w.tokenEmbedding) && inFile(w.outputEmbedding));
    for (const attn::LlamaBlock& b : w.blocks)
        for (const attn::WeightView* view : {&b.qWeight, &b.kWeight, &b.vWeight, &b.oWeight,
                                             &b.gateWeight, &b.upWeight, &b.downWeight})
            QVERIFY(inFile(*view));
    QVERIFY(w.blocks[0].qWeight.rowOrder && w.blocks[0].kWeight.rowOrder);
    QVERIFY(!w.blocks[0].vWeight.rowOrder && !w.blocks[0].upWeight.rowOrder);
    QCOMPARE(w.blocks[0].qWeight.type, attn::GgmlType::Q4_K);
    QCOMPARE(w.blocks[1].downWeight.type, attn::GgmlType::BF16);
    // qwen2 rotates halves as Hugging Face: no reordering.
    const auto* qwen =
        dynamic_cast<const attn::LlamaModel*>(model(QStringLiteral("qwen2-mix")).get());
    QVERIFY(qwen && !qwen->weights().blocks[0].qWeight.rowOrder);
}

void TestGgufModel::tokenizerFromMetadata()
{
    // The folder's tokenizer.json and the GGUF's tokenizer.ggml.* (the same vocabulary,
    // merges and Qwen2 pre-tokenizer) give the same ids.
    const auto folder = attn::openModel(kLlama / "qwen2-f32");
    const auto file = model(QStringLiteral("qwen2-f32"));
    for (const char* text : {"The cat sat on the mat", "the theme, then the", "a  b\n\nc 123 it's",
                             "<|endoftext|>the"}) {
        const std::vector<int> want = folder->tokenizer()->encodeIds(text);
        QCOMPARE(file->tokenizer()->encodeIds(text), want);
    }
    QCOMPARE(file->tokenizer()->encodeIds("<|endoftext|>"), std::vector<int>{259});
}

void TestGgufModel::badFiles_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("message");
    QTest::newRow("truncated") << "truncated"
                               << "goes past the end of the file";
    QTest::newRow("wrong magic") << "magic"
                                 << "it does not begin with \"GGUF\"";
    QTest::newRow("version 1") << "version 1"
                               << "GGUF version 1 is not supported";
    QTest::newRow("big-endian") << "big-endian"
                                << "a big-endian GGUF file is not supported";
    QTest::newRow("tensor count beyond the file") << "tensor count"
                                                  << "the tensor count";
    QTest::newRow("string length beyond the file") << "string length"
                                                   << "a metadata key goes past the end";
    QTest::newRow("offset outside the data") << "offset"
                                             << "goes past the end of the file: truncated";
    QTest::newRow("offset not aligned") << "unaligned"
                                        << "is not a multiple of the alignment 32";
    QTest::newRow("a type ggml lacks") << "type 99"
                                       << "has ggml type 99, which ggml does not have";
    QTest::newRow("a type AttnScope does not read") << "type Q8_1"
                                                    << "has the type Q8_1, which AttnScope does "
                                                       "not read";
    QTest::newRow("an architecture it does not run") << "architecture"
                                                     << "the architecture \"mamba\"";
    QTest::newRow("a missing key") << "key"
                                   << "the metadata key qwen2.block_count is missing";
    QTest::newRow("a missing tensor") << "tensor"
                                      << "the tensor blk.1.ffn_up.weight is missing";
    QTest::newRow("a merge of unknown tokens") << "merge"
                                               << "the merge \"h Z\"";
    QTest::newRow("alignment not a power of two") << "alignment"
                                                  << "general.alignment is not a power of two";
}

void TestGgufModel::badFiles()
{
    QFETCH(QString, fault);
    QFETCH(QString, message);
    std::string bytes = readFile(kGguf / "qwen2-q8_0.gguf");
    const attn::GgufFile parsed =
        attn::parseGguf({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, "x");
    const attn::GgufTensor& first = parsed.tensors.front();
    const attn::GgufTensor& last = parsed.tensors.back();
    const auto valueAt = [&](std::string_view key) {
        return offsetOf(bytes, parsed.find(key)->bytes);
    };
    const auto keyAt = [&](std::string_view key) {
        for (const auto& [name, value] : parsed.metadata)
            if (name == key)
                return offsetOf(bytes, name);
        qFatal("no key");
    };
    if (fault == "truncated")
        bytes.resize(bytes.size() - 100);
    else if (fault == "magic")
        bytes[3] = 'X';
    else if (fault == "version 1")
        poke<std::uint32_t>(bytes, 4, 1);
    else if (fault == "big-endian")
        poke<std::uint32_t>(bytes, 4, 0x03000000);
    else if (fault == "tensor count")
        poke<std::uint64_t>(bytes, 8, std::uint64_t(1) << 40);
    else if (fault == "string length")
        poke<std::uint64_t>(bytes, 24, std::uint64_t(1) << 40);
    else if (fault == "offset")
        poke<std::uint64_t>(bytes, typeFieldOf(bytes, last) + 4, std::uint64_t(1) << 30);
    else if (fault == "unaligned")
        poke<std::uint64_t>(bytes, typeFieldOf(bytes, last) + 4, last.offset + 4);
    else if (fault == "type 99")
        poke<std::uint32_t>(bytes, typeFieldOf(bytes, first), 99);
    else if (fault == "type Q8_1") // the first tensor grows into the next: not checked
        poke<std::uint32_t>(bytes, typeFieldOf(bytes, first), 9);
    else if (fault == "architecture")
        bytes.replace(valueAt("general.architecture"), 5, "mamba");
    else if (fault == "key")
        bytes.replace(keyAt("qwen2.block_count") + 16, 1, "X");
    else if (fault == "tensor")
        bytes.replace(offsetOf(bytes, parsed.tensor("blk.1.ffn_up.weight")->name) + 13, 1, "X");
    else if (fault == "merge") {
        const std::size_t at = bytes.find("h e", valueAt("tokenizer.ggml.merges"));
        bytes.replace(at + 2, 1, "Z");
    } else if (fault == "alignment")
        poke<std::uint32_t>(bytes, valueAt("general.alignment"), 24);
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "broken.gguf";
    writeFile(file, bytes);
    const OpenFault opened = openFault(file);
    QVERIFY2(opened.message.contains(message), qPrintable(opened.message));
    QCOMPARE(opened.file, QStringLiteral("broken.gguf"));
}

void TestGgufModel::commandLine()
{
    // A GGUF file is --model's as a folder is; a broken one: exit status 2, one line naming
    // the file and the fault.
    const QString good = QString::fromStdString((kGguf / "llama-mix.gguf").string());
    const attn::test::Run run =
        attn::test::attnscope({"compute", "--model", good, "--text", "The cat", "--json", "-",
                               "--only-layer", "1", "--scale", "none"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY(run.out.contains("\"weight_type\":\"Q4_K_M\"") ||
            run.out.contains("\"weight_type\": \"Q4_K_M\""));
    QTemporaryDir dir;
    const fs::path broken = fs::path(dir.path().toStdString()) / "model.gguf";
    std::string bytes = readFile(kGguf / "llama-mix.gguf");
    bytes.resize(bytes.size() / 2);
    writeFile(broken, bytes);
    const attn::test::Run bad =
        attn::test::attnscope({"compute", "--model", QString::fromStdString(broken.string()),
                               "--text", "The cat", "--json", "-"});
    QCOMPARE(bad.exitCode, 2);
    const QByteArray line = attn::test::oneErrorLine(bad.err, QStringLiteral("model.gguf"));
    QVERIFY2(line.isEmpty(), line.constData());
    QVERIFY(bad.err.contains("truncated"));
}

QTEST_GUILESS_MAIN(TestGgufModel)
#include "tst_ggufmodel.moc"
