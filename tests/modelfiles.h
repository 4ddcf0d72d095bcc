// Helpers of the model tests (tst_gpt2model, tst_llamamodel, tst_bertmodel, the traces): reading
// and breaking the files of a model folder, and comparing with a PyTorch reference's numbers.
#pragma once

#include "engine/options.h"
#include "models/families.h"
#include "models/knockout.h"
#include "models/languagemodel.h"
#include "models/logitlens.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace modelfiles {

inline std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void writeFile(const std::filesystem::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

inline QJsonObject readJson(const std::filesystem::path& path)
{
    const std::string text = readFile(path);
    return QJsonDocument::fromJson(QByteArray(text.data(), qsizetype(text.size()))).object();
}

// The switches of a reference case ({"scale": "none", "rope": "off", …}) on `textbook`.
inline attn::ModelSwitches switchesFrom(const QJsonObject& switches, int onlyLayer,
                                        const attn::Config& textbook)
{
    attn::ModelSwitches s;
    s.onlyLayer = onlyLayer;
    attn::Config& f = s.formula;
    f = textbook;
    for (auto it = switches.begin(); it != switches.end(); ++it) {
        const std::string value = it.value().toString().toStdString();
        const QString key = it.key();
        if (key == QLatin1String("scale"))
            f.scale = *attn::fromString<attn::ScaleMode>(value);
        else if (key == QLatin1String("temperature"))
            f.temperature = float(it.value().toDouble());
        else if (key == QLatin1String("axis"))
            f.axis = *attn::fromString<attn::SoftmaxAxis>(value);
        else if (key == QLatin1String("mask"))
            f.mask = *attn::fromString<attn::MaskKind>(value);
        else if (key == QLatin1String("mask_fill"))
            f.maskFill = *attn::fromString<attn::MaskFill>(value);
        else if (key == QLatin1String("mask_stage"))
            f.maskStage = *attn::fromString<attn::MaskStage>(value);
        else if (key == QLatin1String("head_split"))
            f.headSplit = *attn::fromString<attn::HeadSplit>(value);
        else if (key == QLatin1String("rope"))
            s.rope = value == "on";
        else if (key == QLatin1String("knock_out")) // heads by number: no L.* in the files
            s.knockedOut = attn::parseKnockOuts(value, 1000, 1000);
        else if (key == QLatin1String("knock_out_mode"))
            s.knockOut = attn::parseKnockOutMode(value);
        else if (key == QLatin1String("window"))
            f.window = it.value().isNull() ? 0 : it.value().toInt();
        else if (key == QLatin1String("softcap"))
            f.softcap = float(it.value().toDouble());
        else if (key == QLatin1String("sink"))
            f.sink = float(it.value().toDouble());
        else
            qFatal("unknown switch %s", qPrintable(key));
    }
    return s;
}

// The same on the model's own formula (its sliding window among them).
inline attn::ModelSwitches switchesOf(const QJsonObject& switches, int onlyLayer,
                                      const attn::ModelInfo& info)
{
    return switchesFrom(switches, onlyLayer, attn::ModelSwitches::textbookFormula(info));
}

// The same on the textbook formula of a decoder (`causal`) or an encoder, no window.
inline attn::ModelSwitches switchesOf(const QJsonObject& switches, int onlyLayer, bool causal)
{
    return switchesFrom(switches, onlyLayer, attn::ModelSwitches::textbookFormula(causal));
}

// A JSON number of the reference: null is NaN, "inf" and "-inf" the infinities.
inline double numberOf(const QJsonValue& value)
{
    if (value.isNull())
        return std::nan("");
    if (value.isString())
        return value.toString() == QLatin1String("inf") ? INFINITY : -INFINITY;
    return value.toDouble();
}

// Whether a and b agree within `tolerance` (absolute), NaN agreeing with NaN and an
// infinity with the same infinity.
inline bool agrees(double a, double b, double tolerance)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= tolerance;
}

// A logit's tolerance: 1e-4, or 2e-5 of its size where it is larger than 5 (times
// sensitivity()). Torch's products run on OpenBLAS's blocked sums, AttnScope's on its own
// kernel's one chain of fused multiply-adds a value (core/models/linearproduct.h): the same
// float32 arithmetic in another order, whose difference grows with the sums' size (a Q4 mix
// without √d_k scaling: 1.3e-4 at 7.04).
inline double logitTolerance(double want)
{
    return std::max(1e-4, 2e-5 * std::abs(want));
}

// How much more a run's numbers move with the rounding of its sums than the textbook formula's:
// without the 1/√d_k scale the softmax's logits, and every rounding difference in them, are
// √d_k times larger (a Q8_0 file unscaled moved a weight by 2.2e-5 where 2e-5 is the scaled
// bound); scaled by 1/√C they are smaller, and the textbook's tolerance stands.
inline double sensitivity(const attn::LanguageModel& lm, const attn::ModelSwitches& switches)
{
    return switches.formula.scale == attn::ScaleMode::None
               ? std::sqrt(double(std::max(1, lm.info().headDim)))
               : 1.0;
}

// model.safetensors with its JSON header edited: `from` replaced by `to` once.
inline void editHeader(const std::filesystem::path& file, const std::string& from,
                       const std::string& to)
{
    std::string bytes = readFile(file);
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i)
        length = length << 8 | std::uint8_t(bytes[std::size_t(i)]);
    std::string header = bytes.substr(8, length);
    const std::size_t at = header.find(from);
    QVERIFY2(at != std::string::npos, from.c_str());
    header.replace(at, from.size(), to);
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i)
        out[std::size_t(i)] = char(std::uint64_t(header.size()) >> (8 * i) & 0xff);
    writeFile(file, out + header + bytes.substr(8 + length));
}

// The folder's text file `file` (config.json, tokenizer.json) with `from` replaced by `to`
// once; false (the file left as it was) when `from` is not in it.
inline bool editText(const std::filesystem::path& file, const std::string& from,
                     const std::string& to)
{
    std::string text = readFile(file);
    const std::size_t at = text.find(from);
    if (at == std::string::npos)
        return false;
    writeFile(file, text.replace(at, from.size(), to));
    return true;
}

// Breaks the folder's `file`: model.safetensors' header with `from` replaced by `to`, a text
// file (config.json, tokenizer.json) likewise, or the file removed when `from` is empty.
// False when `from` is not in the text file.
inline bool breakFile(const std::filesystem::path& folder, const std::string& file,
                      const std::string& from, const std::string& to)
{
    if (file == "model.safetensors")
        editHeader(folder / file, from, to);
    else if (from.empty())
        std::filesystem::remove(folder / file);
    else
        return editText(folder / file, from, to);
    return true;
}

// What openModel says of a broken folder: the file its ModelError names and its message
// ("" and "" when the folder opened).
struct OpenFault {
    QString file;
    QString message;
};
inline OpenFault openFault(const std::filesystem::path& folder)
{
    try {
        (void)attn::openModel(folder);
        return {};
    } catch (const attn::ModelError& error) {
        return {QString::fromStdString(error.file().filename().string()),
                QString::fromStdString(error.what())};
    }
}

// Where `run`'s attention differs from a reference case's "attention" (L × H × T × T,
// every head of every layer) by more than `tolerance` (agrees()): "" when nowhere, else how
// many weights and one of them. The run's stack must have the case's L layers.
inline QString attentionDifference(const attn::ModelRun& run, const QJsonArray& layers,
                                   double tolerance)
{
    const int T = int(run.ids.size());
    int disagreements = 0;
    QString where;
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toArray();
        for (int h = 0; h < heads.size(); ++h) {
            const attn::Matrix p = run.attention->head(l, 0, h);
            const QJsonArray rows = heads[h].toArray();
            for (int i = 0; i < T; ++i) {
                const QJsonArray row = rows[i].toArray();
                for (int j = 0; j < T; ++j) {
                    const double want = numberOf(row[j]), got = p(i, j);
                    if (agrees(got, want, tolerance))
                        continue;
                    ++disagreements;
                    where = QStringLiteral("layer %1 head %2 (%3, %4): %5 vs torch %6")
                                .arg(l)
                                .arg(h)
                                .arg(i)
                                .arg(j)
                                .arg(got)
                                .arg(want);
                }
            }
        }
    }
    return disagreements == 0 ? QString()
                              : QStringLiteral("%1 weights differ by more than %2, e.g. %3")
                                    .arg(disagreements)
                                    .arg(tolerance)
                                    .arg(where);
}

// The rows of a model's bad ids (columns ids, message) for a model of 64 positions and
// `vocabulary` ids: none, one too many, an id of V, a negative one.
inline void addBadIdRows(int vocabulary)
{
    QTest::addColumn<std::vector<int>>("ids");
    QTest::addColumn<QString>("message");
    QTest::newRow("none") << std::vector<int>{} << "the text is empty";
    QTest::newRow("longer than max_position_embeddings")
        << std::vector<int>(65, 3) << "the text has 65 tokens, the model reads at most 64";
    QTest::newRow("id = vocab_size")
        << std::vector<int>{1, vocabulary} << QStringLiteral("token id %1 outside").arg(vocabulary);
    QTest::newRow("negative id") << std::vector<int>{-1} << "token id -1 outside";
}

// What runIds says of `ids` (InputError's or std::out_of_range's message), or "ran".
inline QString runIdsFault(const attn::LanguageModel& model, const std::vector<int>& ids)
{
    try {
        (void)model.runIds(ids, attn::ModelSwitches{});
        return QStringLiteral("ran");
    } catch (const attn::InputError& error) {
        return QString::fromStdString(error.what());
    } catch (const std::out_of_range& error) {
        return QString::fromStdString(error.what());
    }
}

// Where the logit lens of `ids` under `switches` departs from a reference case's
// "logit_lens" (one entry a block, one a position: torch's top 5 ids and probabilities,
// null where a logit is not finite), or empty: the ids in order (two within 1e-6 of each
// other in torch may swap) and the probabilities within 1e-4.
inline QString lensDifference(const attn::LanguageModel& model, const std::vector<int>& ids,
                              const attn::ModelSwitches& switches, const QJsonArray& expected)
{
    const attn::LogitLens lens = attn::logitLens(model, ids, switches, 5);
    if (int(lens.size()) != int(expected.size()))
        return QStringLiteral("%1 blocks read, torch %2").arg(lens.size()).arg(expected.size());
    for (int l = 0; l < int(lens.size()); ++l) {
        const QJsonArray positions = expected[l].toArray();
        for (int t = 0; t < int(positions.size()); ++t) {
            if (positions[t].isNull())
                continue; // not finite in torch
            const QJsonArray wantIds =
                positions[t].toObject().value(QLatin1String("ids")).toArray();
            const QJsonArray wantP =
                positions[t].toObject().value(QLatin1String("probabilities")).toArray();
            const std::vector<attn::Prediction>& got = lens[std::size_t(l)][std::size_t(t)];
            for (int n = 0; n < int(wantIds.size()); ++n) {
                const double p = wantP[n].toDouble();
                const bool tie =
                    (n > 0 && std::abs(wantP[n - 1].toDouble() - p) < 1e-6) ||
                    (n + 1 < wantP.size() && std::abs(wantP[n + 1].toDouble() - p) < 1e-6);
                const attn::Prediction& mine = got[std::size_t(n)];
                if ((mine.id != wantIds[n].toInt() && !tie) ||
                    std::abs(mine.probability - p) > 1e-4)
                    return QStringLiteral(
                               "block %1, position %2, rank %3: id %4 p %5, torch id %6 p %7")
                        .arg(l)
                        .arg(t)
                        .arg(n)
                        .arg(mine.id)
                        .arg(mine.probability)
                        .arg(wantIds[n].toInt())
                        .arg(p);
            }
        }
    }
    return {};
}

// The ids of a reference file's "ids".
inline std::vector<int> idsOf(const QJsonObject& expected)
{
    std::vector<int> ids;
    for (const QJsonValue id : expected.value(QLatin1String("ids")).toArray())
        ids.push_back(id.toInt());
    return ids;
}

// One case of a Qwen/Llama reference file (gen_llama_model.py's, gen_gguf_models.py's) run
// on `lm`: every layer's attention (≤ 1e-5 for F32 weights, ≤ 2e-5 otherwise), the logit
// lens, every logit at the last position (≤ 1e-4) and the top 10.
// `run` of a reference case's ids under `switches`, and its attention checked: every layer,
// every query head, ≤ 1e-5 for F32 weights, ≤ 2e-5 for others (BF16's are the same floats,
// but the activations grow larger; a quantized file's reference is its dequantized weights).
// A caller goes on only when QTest::currentTestFailed() is false.
inline void checkAttention(const attn::LanguageModel& lm, const QJsonObject& expected,
                           const QJsonObject& caseData, const attn::ModelSwitches& switches,
                           attn::ModelRun& run)
{
    const std::vector<int> ids = idsOf(expected);
    run = lm.runIds(ids, switches);
    QCOMPARE(run.ids, ids);
    const int T = int(ids.size());
    const double tolerance =
        (expected.value(QLatin1String("dtype")).toString() == QLatin1String("F32") ? 1e-5 : 2e-5) *
        sensitivity(lm, switches);
    const QJsonArray layers = caseData.value(QLatin1String("attention")).toArray();
    QCOMPARE(run.attention->shape(),
             (attn::StackShape{int(layers.size()), 1, lm.info().heads, T, T}));
    const QString difference = attentionDifference(run, layers, tolerance);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

inline void checkParity(const attn::LanguageModel& lm, const QJsonObject& expected,
                        const QJsonObject& caseData)
{
    const attn::ModelSwitches switches =
        switchesOf(caseData.value(QLatin1String("switches")).toObject(),
                   caseData.value(QLatin1String("only_layer")).toInt(), lm.info());
    // 1. Every layer's attention.
    attn::ModelRun run;
    checkAttention(lm, expected, caseData, switches, run);
    if (QTest::currentTestFailed())
        return;
    const int T = int(run.ids.size());

    // The logit lens: every block read through the final norm and the output head, torch's
    // top 5 at every position.
    const QString lens = lensDifference(lm, run.ids, switches,
                                        caseData.value(QLatin1String("logit_lens")).toArray());
    QVERIFY2(lens.isEmpty(), qPrintable(lens));

    // 2. Every logit at the last position: ≤ 1e-4 (logitTolerance).
    const std::vector<float> logits = run.logits(T - 1);
    const QJsonArray wantLogits = caseData.value(QLatin1String("logits")).toArray();
    QCOMPARE(int(logits.size()), int(wantLogits.size()));
    for (int id = 0; id < wantLogits.size(); ++id) {
        const double want = numberOf(wantLogits[id]), got = logits[std::size_t(id)];
        QVERIFY2(agrees(got, want, logitTolerance(want) * sensitivity(lm, switches)),
                 qPrintable(
                     QStringLiteral("logit of id %1: %2 vs torch %3").arg(id).arg(got).arg(want)));
    }

    // 3. The top 10 (where the logits are numbers).
    const QJsonArray top = caseData.value(QLatin1String("top10")).toArray();
    if (!top.isEmpty()) {
        const std::vector<attn::Prediction> predictions = run.predictions(T - 1, 10);
        QCOMPARE(int(predictions.size()), 10);
        for (int n = 0; n < 10; ++n)
            QCOMPARE(predictions[std::size_t(n)].id, top[n].toInt());
    }
}

// One case of a GPT-2 reference file (gen_gpt2_model.py's, gen_gguf_gpt2.py's) run on `lm`:
// the text's ids, every layer's attention (≤ 1e-5), the logit lens, the logits of the case's
// logit_ids at the last position (≤ 1e-4) and the top 10.
inline void checkGpt2Parity(const attn::LanguageModel& lm, const QJsonObject& expected,
                            const QJsonObject& caseData)
{
    const attn::ModelSwitches switches =
        switchesOf(caseData.value(QLatin1String("switches")).toObject(),
                   caseData.value(QLatin1String("only_layer")).toInt(), lm.info());
    const attn::ModelRun run =
        lm.run(expected.value(QLatin1String("text")).toString().toStdString(), switches);

    // 1. The tokens.
    const std::vector<int> ids = idsOf(expected);
    QCOMPARE(run.ids, ids);
    const int T = int(ids.size());

    // 2. Every layer's attention, every head: ≤ 1e-5.
    const QJsonArray layers = caseData.value(QLatin1String("attention")).toArray();
    QCOMPARE(run.attention->shape(),
             (attn::StackShape{int(layers.size()), 1, lm.info().heads, T, T}));
    const QString difference = attentionDifference(run, layers, 1e-5);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // The logit lens: every block read through the final norm and the output head, torch's
    // top 5 at every position.
    const QString lens = lensDifference(lm, run.ids, switches,
                                        caseData.value(QLatin1String("logit_lens")).toArray());
    QVERIFY2(lens.isEmpty(), qPrintable(lens));

    // 3. The logits at the last position: ≤ 1e-4 (logitTolerance).
    const std::vector<float> logits = run.logits(T - 1);
    QCOMPARE(int(logits.size()), expected.value(QLatin1String("vocab_size")).toInt());
    const QJsonArray logitIds = caseData.value(QLatin1String("logit_ids")).toArray();
    const QJsonArray wantLogits = caseData.value(QLatin1String("logits")).toArray();
    for (int n = 0; n < logitIds.size(); ++n) {
        const int id = logitIds[n].toInt();
        const double want = numberOf(wantLogits[n]), got = logits[std::size_t(id)];
        QVERIFY2(agrees(got, want, logitTolerance(want) * sensitivity(lm, switches)),
                 qPrintable(
                     QStringLiteral("logit of id %1: %2 vs torch %3").arg(id).arg(got).arg(want)));
    }

    // 4. The top 10 (where the logits are numbers).
    const QJsonArray top = caseData.value(QLatin1String("top10")).toArray();
    if (!top.isEmpty()) {
        const std::vector<attn::Prediction> predictions = run.predictions(T - 1, 10);
        QCOMPARE(int(predictions.size()), 10);
        for (int n = 0; n < 10; ++n)
            QCOMPARE(predictions[std::size_t(n)].id, top[n].toInt());
    }
}

// The parity rows of reference files: (the model's name, the file of the numbers it must
// give), one row a case, named "<name><suffix>: <case>", with the columns model (QString),
// expected (the file's object) and caseData (the case).
inline void addParityRows(const std::vector<std::pair<std::string, std::filesystem::path>>& files,
                          const std::string& suffix = {})
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QJsonObject>("expected");
    QTest::addColumn<QJsonObject>("caseData");
    for (const auto& [name, numbers] : files) {
        const QJsonObject expected = readJson(numbers);
        if (expected.isEmpty())
            qFatal("%s is missing or empty", numbers.c_str());
        for (const QJsonValue c : expected.value(QLatin1String("cases")).toArray()) {
            const QString row = QString::fromStdString(name + suffix) + QLatin1String(": ") +
                                c.toObject().value(QLatin1String("name")).toString();
            QTest::newRow(qPrintable(row))
                << QString::fromStdString(name) << expected << c.toObject();
        }
    }
}

// The parity rows of the reference checkpoints `names` (`root`/<name>.json).
inline void addParityRows(const std::filesystem::path& root,
                          std::initializer_list<const char*> names)
{
    std::vector<std::pair<std::string, std::filesystem::path>> files;
    for (const char* name : names)
        files.emplace_back(name, root / (std::string(name) + ".json"));
    addParityRows(files);
}

} // namespace modelfiles
