// A sharded checkpoint (model-00001-of-00002.safetensors, model-00002-of-00002.safetensors and
// model.safetensors.index.json, as Hugging Face splits a bigger model) opens in every family
// and runs to exactly the numbers of the same weights in one model.safetensors; and refusals
// of broken indexes and shards, each naming the file and the fault.
#include "io/safetensors.h"
#include "modelfiles.h"
#include "models/families.h"
#include "models/languagemodel.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace modelfiles;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR;
const char* const kShard1 = "model-00001-of-00002.safetensors";
const char* const kShard2 = "model-00002-of-00002.safetensors";

// A safetensors file of `tensors` (their bytes copied from where they are).
std::string safetensorsOf(const std::vector<const attn::SafetensorsTensor*>& tensors)
{
    std::ostringstream header; // (a chain of std::string + sets off GCC 12's -Warray-bounds)
    std::string data;
    header << "{\"__metadata__\":{\"format\":\"pt\"}";
    for (const attn::SafetensorsTensor* tensor : tensors) {
        header << ",\"" << tensor->name << "\":{\"dtype\":\"" << tensor->dtype << "\",\"shape\":[";
        for (std::size_t i = 0; i < tensor->shape.size(); ++i)
            header << (i ? "," : "") << tensor->shape[i];
        header << "],\"data_offsets\":[" << data.size() << "," << data.size() + tensor->data.size()
               << "]}";
        data.append(reinterpret_cast<const char*>(tensor->data.data()), tensor->data.size());
    }
    header << "}";
    std::string json = header.str();
    json.append((8 - json.size() % 8) % 8, ' ');
    std::string file(8, '\0');
    std::uint64_t length = json.size();
    for (int i = 0; i < 8; ++i, length >>= 8)
        file[std::size_t(i)] = char(length & 0xff);
    return file + json + data;
}

// A copy of the checkpoint `model` (under tests/reference) in `dir` with its
// model.safetensors split in two shards (the first half of its tensors, the rest) and the
// index naming them.
fs::path shardedCopy(const QTemporaryDir& dir, const std::string& model)
{
    const fs::path from = kReference / model, to = fs::path(dir.path().toStdString()) / "model";
    fs::create_directories(to);
    for (const fs::directory_entry& file : fs::directory_iterator(from))
        if (file.path().filename() != "model.safetensors")
            fs::copy_file(file.path(), to / file.path().filename());
    const std::string bytes = readFile(from / "model.safetensors");
    const attn::SafetensorsFile parsed = attn::parseSafetensors(
        std::as_bytes(std::span(bytes.data(), bytes.size())), "model.safetensors");
    std::vector<const attn::SafetensorsTensor*> first, second;
    std::ostringstream index;
    index << "{\"metadata\":{\"total_size\":" << bytes.size() << "},\"weight_map\":{";
    for (std::size_t i = 0; i < parsed.tensors.size(); ++i) {
        const bool early = i < parsed.tensors.size() / 2;
        (early ? first : second).push_back(&parsed.tensors[i]);
        index << (i ? "," : "") << "\"" << parsed.tensors[i].name << "\":\""
              << (early ? kShard1 : kShard2) << "\"";
    }
    index << "}}";
    writeFile(to / kShard1, safetensorsOf(first));
    writeFile(to / kShard2, safetensorsOf(second));
    writeFile(to / "model.safetensors.index.json", index.str());
    return to;
}

} // namespace

class TestShardedWeights : public QObject {
    Q_OBJECT

private slots:
    void sameNumbersAsOneFile_data();
    void sameNumbersAsOneFile();
    void refusals_data();
    void refusals();
};

void TestShardedWeights::sameNumbersAsOneFile_data()
{
    QTest::addColumn<QString>("model");
    QTest::newRow("qwen2 F32") << "llama/qwen2-f32";
    QTest::newRow("qwen3 BF16") << "llama/qwen3-bf16";
    QTest::newRow("GPT-2 F32") << "gpt2/small-f32";
    QTest::newRow("BERT F32") << "bert/bert-f32";
}

void TestShardedWeights::sameNumbersAsOneFile()
{
    QFETCH(QString, model);
    QTemporaryDir dir;
    const auto one = attn::openModel(kReference / model.toStdString());
    const auto sharded = attn::openModel(shardedCopy(dir, model.toStdString()));
    QCOMPARE(sharded->info().layers, one->info().layers);
    QCOMPARE(sharded->info().weightType, one->info().weightType);

    const std::vector<int> ids = {5, 80, 12, 61, 42, 17, 3}; // under every vocabulary (BERT: 84)
    attn::ModelSwitches switches;
    switches.formula = attn::ModelSwitches::textbookFormula(one->info());
    const attn::ModelRun a = one->runIds(ids, switches), b = sharded->runIds(ids, switches);
    // 1. Every layer's attention, every head: the same floats, bit for bit.
    QCOMPARE(b.attention->shape(), a.attention->shape());
    for (int l = 0; l < a.attention->shape().layers; ++l)
        for (int h = 0; h < a.attention->shape().heads; ++h)
            QVERIFY2(b.attention->head(l, 0, h) == a.attention->head(l, 0, h),
                     qPrintable(QStringLiteral("layer %1, head %2 differs").arg(l).arg(h)));
    // 2. Every logit at every position.
    for (int t = 0; t < int(ids.size()); ++t)
        QVERIFY2(b.logits(t) == a.logits(t),
                 qPrintable(QStringLiteral("the logits at position %1 differ").arg(t)));
}

void TestShardedWeights::refusals_data()
{
    QTest::addColumn<QString>("index");  // the index's text, or "" to keep the good one
    QTest::addColumn<QString>("damage"); // "remove", "truncate" or "header" a shard, or ""
    QTest::addColumn<QString>("file");   // the file the error names
    QTest::addColumn<QString>("fault");  // what its fault says

    const QString index = QStringLiteral("model.safetensors.index.json");
    QTest::newRow("index not JSON") << "{\"weight_map\": {"
                                    << "" << index << "not JSON";
    QTest::newRow("index an array") << "[]"
                                    << "" << index << "not a JSON object";
    QTest::newRow("no weight_map") << "{\"metadata\": {}}"
                                   << "" << index << "weight_map";
    QTest::newRow("weight_map a list") << "{\"weight_map\": []}"
                                       << "" << index << "not an object";
    QTest::newRow("empty weight_map") << "{\"weight_map\": {}}"
                                      << "" << index << "no tensor";
    QTest::newRow("shard a number") << "{\"weight_map\": {\"a\": 1}}"
                                    << "" << index << "not a string";
    QTest::newRow("shard with ..") << "{\"weight_map\": {\"a\": \"..\"}}"
                                   << "" << index << "not a file name";
    QTest::newRow("shard in another folder")
        << "{\"weight_map\": {\"a\": \"../model/x.safetensors\"}}"
        << "" << index << "not a file name";
    QTest::newRow("shard with a backslash") << "{\"weight_map\": {\"a\": \"b\\\\c\"}}"
                                            << "" << index << "not a file name";
    QTest::newRow("shard missing") << ""
                                   << "remove" << kShard2 << "missing";
    QTest::newRow("shard truncated") << ""
                                     << "truncate" << kShard1 << "";
    QTest::newRow("shard corrupt") << ""
                                   << "header" << kShard1 << "";
    QTest::newRow("tensor not in its shard")
        << "{\"weight_map\": {\"model.embed_tokens.weight\": \"" + QString(kShard2) + "\"}}"
        << "" << kShard2 << "the tensor model.embed_tokens.weight is missing";
    QTest::newRow("tensor the index lacks")
        << "{\"weight_map\": {\"model.norm.weight\": \"" + QString(kShard2) + "\"}}"
        << "" << index << "is missing";
}

void TestShardedWeights::refusals()
{
    QFETCH(QString, index);
    QFETCH(QString, damage);
    QFETCH(QString, file);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    const fs::path folder = shardedCopy(dir, "llama/qwen2-f32");
    if (!index.isEmpty())
        writeFile(folder / "model.safetensors.index.json", index.toStdString());
    if (damage == QLatin1String("remove"))
        fs::remove(folder / kShard2);
    else if (damage == QLatin1String("truncate"))
        fs::resize_file(folder / kShard1, fs::file_size(folder / kShard1) / 2);
    else if (damage == QLatin1String("header"))
        editHeader(folder / kShard1, "\"dtype\"", "\"dtypf\"");
    try {
        (void)attn::openModel(folder);
        QFAIL("opened");
    } catch (const attn::ModelError& error) {
        QCOMPARE(QString::fromStdString(error.file().filename().string()), file);
        QVERIFY2(QString::fromStdString(error.fault()).contains(fault), error.what());
        QVERIFY(!error.fault().empty());
    }
}

QTEST_GUILESS_MAIN(TestShardedWeights)
#include "tst_shardedweights.moc"
