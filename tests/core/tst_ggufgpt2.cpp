// GGUF files of the gpt2 architecture (models/gguf/ggufgpt2.cpp): GPT-2 checkpoints converted
// as llama.cpp's convert_hf_to_gguf.py converts them (tests/reference/gen_gguf_gpt2.py: the
// Conv1D weights transposed to nn.Linear's [out, in], llama.cpp's names and gpt2.* keys, the
// tokenizer as tokenizer.ggml.*). F32 and BF16 files give every case of their checkpoints'
// reference (tst_gpt2model's numbers, at its tolerances) and write its greedy text through the
// KV cache; Q8_0 gives the PyTorch forward on its dequantized weights and stays near the F32
// checkpoint. The metadata's tokenizer gives the folder's vocab.json + merges.txt ids; the
// weights stay as blocks in the mapped file.
#include "clirun.h"
#include "io/gguf.h"
#include "modelfiles.h"
#include "models/families.h"
#include "models/generation.h"
#include "models/gpt2/model.h"
#include "models/kvcache.h"
#include "models/languagemodel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace modelfiles;

namespace {

const fs::path kGguf = ATTN_REFERENCE_DIR "/gguf";
const fs::path kGpt2 = ATTN_REFERENCE_DIR "/gpt2";

} // namespace

class TestGgufGpt2 : public QObject {
    Q_OBJECT

private slots:
    void parity_data();
    void parity();
    void quantizedNearItsCheckpoint();
    void greedyGeneration_data();
    void greedyGeneration();
    void modelInfo_data();
    void modelInfo();
    void weightsStayInTheFile();
    void tokenizerFromMetadata_data();
    void tokenizerFromMetadata();
    void badFiles_data();
    void badFiles();
    void commandLine();

private:
    std::shared_ptr<const attn::LanguageModel> model(const QString& name);
    std::map<QString, std::shared_ptr<const attn::LanguageModel>> models_;
};

std::shared_ptr<const attn::LanguageModel> TestGgufGpt2::model(const QString& name)
{
    auto& slot = models_[name];
    if (!slot) {
        const fs::path path = name.startsWith(QLatin1String("gpt2-"))
                                  ? kGguf / (name.toStdString() + ".gguf")
                                  : kGpt2 / name.toStdString();
        slot = attn::openModel(path);
    }
    return slot;
}

void TestGgufGpt2::parity_data()
{
    // (file, the numbers it must give): converted files their checkpoints', Q8_0 its own
    // dequantized weights'.
    addParityRows(
        {
            {"gpt2-small-f32", kGpt2 / "small-f32.json"},
            {"gpt2-small-bf16", kGpt2 / "small-bf16.json"},
            {"gpt2-small-q8_0", kGguf / "gpt2-small-q8_0.json"},
        },
        ".gguf");
}

void TestGgufGpt2::parity()
{
    QFETCH(QString, model);
    QFETCH(QJsonObject, expected);
    QFETCH(QJsonObject, caseData);
    checkGpt2Parity(*this->model(model), expected, caseData);
}

void TestGgufGpt2::quantizedNearItsCheckpoint()
{
    // Q8_0 of small-f32's weights: its attention within its quantization of the checkpoint's,
    // not equal to it, and the same top token.
    const QJsonObject expected = readJson(kGpt2 / "small-f32.json");
    const QJsonObject textbook = expected.value(QLatin1String("cases")).toArray()[0].toObject();
    const auto lm = model(QStringLiteral("gpt2-small-q8_0"));
    const std::vector<int> ids = idsOf(expected);
    const attn::ModelRun run = lm->runIds(ids, switchesOf({}, -1, lm->info()));
    const QJsonArray layers = textbook.value(QLatin1String("attention")).toArray();
    QVERIFY2(attentionDifference(run, layers, 0.05).isEmpty(),
             qPrintable(attentionDifference(run, layers, 0.05)));
    QVERIFY(!attentionDifference(run, layers, 1e-5).isEmpty());
    const int T = int(ids.size());
    QCOMPARE(run.predictions(T - 1, 1)[0].id,
             textbook.value(QLatin1String("top10")).toArray()[0].toInt());
}

void TestGgufGpt2::greedyGeneration_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("checkpoint");
    QTest::addColumn<QJsonObject>("caseData");
    for (const auto& [file, checkpoint] :
         {std::pair{"gpt2-small-f32", "small-f32"}, std::pair{"gpt2-small-bf16", "small-bf16"}}) {
        const QJsonObject expected = readJson(kGpt2 / (std::string(checkpoint) + ".json"));
        for (const QJsonValue c : expected.value(QLatin1String("generation")).toArray())
            QTest::newRow(qPrintable(QLatin1String(file) + QLatin1String(".gguf: ") +
                                     c.toObject().value(QLatin1String("name")).toString()))
                << QString::fromLatin1(file) << QString::fromLatin1(checkpoint) << c.toObject();
    }
}

void TestGgufGpt2::greedyGeneration()
{
    // Greedy writing from the file (a token a step through the KV cache where the switches
    // allow it: embedding rows past the prompt, one query row a layer) writes PyTorch's ids
    // for the checkpoint, each step's top 5 within tst_generation's tolerances.
    QFETCH(QString, model);
    QFETCH(QString, checkpoint);
    QFETCH(QJsonObject, caseData);
    const auto lm = this->model(model);
    const attn::ModelSwitches switches =
        switchesOf(caseData.value(QLatin1String("switches")).toObject(),
                   caseData.value(QLatin1String("only_layer")).toInt(), lm->info());
    std::vector<int> prompt;
    for (const QJsonValue id : caseData.value(QLatin1String("prompt_ids")).toArray())
        prompt.push_back(id.toInt());
    const attn::Generation generation = attn::generate(
        lm, prompt, switches, attn::Sampling{}, caseData.value(QLatin1String("tokens")).toInt());
    QCOMPARE(generation.cached, attn::kvCacheUsable(lm->info(), switches));
    std::vector<int> want;
    for (const QJsonValue id : caseData.value(QLatin1String("generated_ids")).toArray())
        want.push_back(id.toInt());
    QCOMPARE(generation.generated, want);
    const QJsonArray steps = caseData.value(QLatin1String("steps")).toArray();
    QCOMPARE(generation.steps.size(), std::size_t(steps.size()));
    const double tolerance = checkpoint.endsWith(QLatin1String("bf16")) ? 1e-4 : 2e-5;
    for (qsizetype s = 0; s < steps.size(); ++s) {
        const QJsonArray p = steps[s].toObject().value(QLatin1String("probabilities")).toArray();
        const attn::GenerationStep& step = generation.steps[std::size_t(s)];
        for (std::size_t i = 0; i < 5; ++i)
            QVERIFY2(std::abs(step.top[i].probability - p[qsizetype(i)].toDouble()) <= tolerance,
                     qPrintable(QStringLiteral("step %1, rank %2: %3, PyTorch %4")
                                    .arg(s)
                                    .arg(i)
                                    .arg(double(step.top[i].probability))
                                    .arg(p[qsizetype(i)].toDouble())));
    }
}

void TestGgufGpt2::modelInfo_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("checkpoint");
    QTest::addColumn<QString>("weightType");
    QTest::newRow("F32") << "gpt2-small-f32"
                         << "small-f32"
                         << "F32";
    QTest::newRow("BF16, an lm_head of its own") << "gpt2-small-bf16"
                                                 << "small-bf16"
                                                 << "BF16";
    QTest::newRow("Q8_0") << "gpt2-small-q8_0"
                          << "small-f32"
                          << "Q8_0";
}

void TestGgufGpt2::modelInfo()
{
    // The file's ModelInfo is its checkpoint folder's, but for the name (general.name), the
    // file and the weights' type (general.file_type).
    QFETCH(QString, model);
    QFETCH(QString, checkpoint);
    QFETCH(QString, weightType);
    attn::ModelInfo info = this->model(model)->info();
    const attn::ModelInfo& folder = this->model(checkpoint)->info();
    QCOMPARE(QString::fromStdString(info.family), QStringLiteral("gpt2"));
    QCOMPARE(QString::fromStdString(info.name), model);
    QCOMPARE(info.folder, kGguf / (model.toStdString() + ".gguf"));
    QCOMPARE(QString::fromStdString(info.weightType), weightType);
    QCOMPARE(info.endTokens, std::vector<int>{306});
    info.name = folder.name;
    info.folder = folder.folder;
    info.weightType = folder.weightType;
    QVERIFY(info == folder);
    // The metadata's tokenizer spells and labels ids as the folder's vocab.json.
    for (const int id : {259, 262, 306})
        QCOMPARE(this->model(model)->tokenSpelling(id), this->model(checkpoint)->tokenSpelling(id));
}

void TestGgufGpt2::weightsStayInTheFile()
{
    // Every matrix of the Q8_0 file is a view of its blocks in the mapping, nn.Linear-shaped
    // and not packed (only a Conv1D is); position_embd, F32 as llama.cpp keeps it, is read
    // in place; only the norms and biases are floats of their own.
    const auto* q8 =
        dynamic_cast<const attn::Gpt2Model*>(model(QStringLiteral("gpt2-small-q8_0")).get());
    QVERIFY(q8);
    const attn::Gpt2Weights& w = q8->weights();
    QCOMPARE(w.layout, attn::Gpt2MatrixLayout::Linear);
    QCOMPARE(w.files.size(), std::size_t(1));
    QVERIFY(!w.packed);
    const auto inBlocks = [&](const attn::WeightView& view) {
        return view.inBlocks() && !view.data && w.fileHolding(view.blocks) == w.files[0].get();
    };
    QVERIFY(inBlocks(w.tokenEmbedding));
    QCOMPARE(w.tokenEmbedding.type, attn::GgmlType::Q8_0);
    QVERIFY(!w.outputEmbedding.present()); // tied to wte
    QVERIFY(!w.positionEmbedding.inBlocks() &&
            w.fileHolding(w.positionEmbedding.data) == w.files[0].get());
    for (const attn::Gpt2Block& b : w.blocks)
        for (const attn::WeightView* view :
             {&b.attnWeight, &b.projWeight, &b.fcWeight, &b.fcProjWeight}) {
            QVERIFY(inBlocks(*view));
            QVERIFY(!view->packed);
        }
    // (out, in): c_attn's 3C rows of C, c_fc's 4C rows of C.
    QCOMPARE(w.blocks[0].attnWeight.rows, 96);
    QCOMPARE(w.blocks[0].attnWeight.cols, 32);
    QCOMPARE(w.blocks[0].fcProjWeight.rows, 32);
    QCOMPARE(w.blocks[0].fcProjWeight.cols, 128);
    std::size_t floats = 0;
    for (const auto& values : w.converted)
        floats += values.size();
    // Per layer 4 norm vectors of C, the biases 3C + C + 4C + C; ln_f's two.
    QCOMPARE(floats, std::size_t(2 * (4 * 32 + 9 * 32) + 2 * 32));
    // The BF16 file keeps the checkpoint's lm_head as output.weight, in blocks too.
    const auto* bf16 =
        dynamic_cast<const attn::Gpt2Model*>(model(QStringLiteral("gpt2-small-bf16")).get());
    QVERIFY(bf16 && bf16->weights().outputEmbedding.inBlocks());
    QCOMPARE(bf16->weights().outputEmbedding.type, attn::GgmlType::BF16);
}

void TestGgufGpt2::tokenizerFromMetadata_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("the reference text") << "The cat sat on the mat and the dog";
    QTest::newRow("merges across words") << "the theme, then the mat said";
    QTest::newRow("spaces, newlines, digits, a contraction") << "a  b\n\nc 123 it's 2024; they'll";
    QTest::newRow("bytes outside the merges") << "Zürich ~ {x}";
}

void TestGgufGpt2::tokenizerFromMetadata()
{
    // The folder's vocab.json + merges.txt and the GGUF's tokenizer.ggml.* (pre "gpt-2") give
    // the same ids.
    QFETCH(QString, text);
    const std::string utf8 = text.toStdString();
    const std::vector<int> want = model(QStringLiteral("small-f32"))->tokenizer()->encodeIds(utf8);
    QVERIFY(!want.empty());
    for (const char* file : {"gpt2-small-f32", "gpt2-small-q8_0"})
        QCOMPARE(model(QLatin1String(file))->tokenizer()->encodeIds(utf8), want);
}

void TestGgufGpt2::badFiles_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<QString>("message");
    QTest::newRow("a missing key") << "key"
                                   << "the metadata key gpt2.attention.head_count is missing";
    QTest::newRow("a missing bias") << "tensor"
                                    << "the tensor blk.1.attn_qkv.bias is missing";
    QTest::newRow("c_attn not transposed (Conv1D's [in, out])")
        << "conv1d"
        << "the tensor blk.0.attn_qkv.weight has the shape [96, 32] (ggml's order), not [32, 96]";
}

void TestGgufGpt2::badFiles()
{
    QFETCH(QString, fault);
    QFETCH(QString, message);
    std::string bytes = readFile(kGguf / "gpt2-small-f32.gguf");
    const attn::GgufFile parsed =
        attn::parseGguf({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, "x");
    const auto nameAt = [&](const std::string& tensor) {
        const std::string_view name = parsed.tensor(tensor)->name;
        return std::size_t(name.data() - bytes.data());
    };
    if (fault == "key") {
        bytes[bytes.find("gpt2.attention.head_count") + 15] = 'X';
    } else if (fault == "tensor") {
        bytes[nameAt("blk.1.attn_qkv.bias") + 15] = 'X';
    } else if (fault == "conv1d") {
        // ne[0] and ne[1] (u64 each, after the name and the dimension count) swapped: the
        // same bytes read as [in, out].
        const std::size_t ne = nameAt("blk.0.attn_qkv.weight") + 21 + 4;
        std::uint64_t cols = 0, rows = 0;
        std::memcpy(&cols, bytes.data() + ne, 8);
        std::memcpy(&rows, bytes.data() + ne + 8, 8);
        std::memcpy(bytes.data() + ne, &rows, 8);
        std::memcpy(bytes.data() + ne + 8, &cols, 8);
    }
    QTemporaryDir dir;
    const fs::path file = fs::path(dir.path().toStdString()) / "broken.gguf";
    writeFile(file, bytes);
    const OpenFault opened = openFault(file);
    QVERIFY2(opened.message.contains(message), qPrintable(opened.message));
    QCOMPARE(opened.file, QStringLiteral("broken.gguf"));
}

void TestGgufGpt2::commandLine()
{
    // A GGUF file of GPT-2 is --model's as its checkpoint folder is: the same ids and every
    // head's weights within 1e-5, the model described as the folder's but for its name.
    const auto compute = [](const fs::path& model) {
        const attn::test::Run run = attn::test::attnscope(
            {"compute", "--model", QString::fromStdString(model.string()), "--text",
             "The cat sat on the mat", "--json", "-", "--scale", "none"});
        if (run.exitCode != 0)
            qWarning("%s", run.err.constData());
        return QJsonDocument::fromJson(run.out).object();
    };
    const QJsonObject file = compute(kGguf / "gpt2-small-f32.gguf");
    const QJsonObject folder = compute(kGpt2 / "small-f32");
    QVERIFY(!file.isEmpty() && !folder.isEmpty());
    QJsonObject described = file.value(QLatin1String("model")).toObject();
    QCOMPARE(described.value(QLatin1String("name")).toString(), QStringLiteral("gpt2-small-f32"));
    described.insert(QLatin1String("name"), QStringLiteral("small-f32"));
    QCOMPARE(described, folder.value(QLatin1String("model")).toObject());
    QCOMPARE(file.value(QLatin1String("token_ids")), folder.value(QLatin1String("token_ids")));
    const QJsonArray layers = file.value(QLatin1String("layers")).toArray();
    const QJsonArray want = folder.value(QLatin1String("layers")).toArray();
    QCOMPARE(layers.size(), want.size());
    double largest = 0;
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toObject().value(QLatin1String("heads")).toArray();
        const QJsonArray wantHeads = want[l].toObject().value(QLatin1String("heads")).toArray();
        QCOMPARE(heads.size(), wantHeads.size());
        for (int h = 0; h < heads.size(); ++h) {
            const QJsonArray rows = heads[h].toObject().value(QLatin1String("weights")).toArray();
            const QJsonArray wantRows =
                wantHeads[h].toObject().value(QLatin1String("weights")).toArray();
            QCOMPARE(rows.size(), wantRows.size());
            for (int i = 0; i < rows.size(); ++i)
                for (int j = 0; j < rows[i].toArray().size(); ++j)
                    largest = std::max(largest, std::abs(rows[i].toArray()[j].toDouble() -
                                                         wantRows[i].toArray()[j].toDouble()));
        }
    }
    QVERIFY2(largest <= 1e-5, qPrintable(QStringLiteral("largest difference %1").arg(largest)));
}

QTEST_GUILESS_MAIN(TestGgufGpt2)
#include "tst_ggufgpt2.moc"
