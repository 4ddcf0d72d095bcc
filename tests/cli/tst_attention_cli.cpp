// `attnscope compute --attention-file FILE`: the JSON holds the file's very weights
// (float32 exactly, float16/bfloat16 as converted), its tokens, each head's statistics and
// patterns; a bad file or argument is exit status 2 with a message naming it.
//
// Legend: L layers, B sequences, H heads, T_q queries, T_k keys.
#include "base/jsonread.h"
#include "clirun.h"
#include "processrun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <charconv>
#include <cmath>

using namespace attn;
using attn::test::headless;
using attn::test::Run;

namespace {

const QString kDir = QStringLiteral(ATTN_REFERENCE_DIR "/attention/");

const QJsonObject& expected()
{
    static const QJsonObject object = [] {
        QFile file(kDir + QStringLiteral("expected.json"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("missing expected.json");
        return QJsonDocument::fromJson(file.readAll()).object();
    }();
    return object;
}

// A JSON number's text read straight to float (not through double), or NaN for null.
float asFloat(const JsonValue& value)
{
    if (value.isNull())
        return std::numeric_limits<float>::quiet_NaN();
    float f = 0;
    std::from_chars(value.text().data(), value.text().data() + value.text().size(), f);
    return f;
}

JsonValue readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return parseJson(file.readAll().toStdString());
}

std::vector<std::string> strings(const JsonValue* list)
{
    std::vector<std::string> out;
    if (list)
        for (const JsonValue& item : list->items())
            out.push_back(item.text());
    return out;
}

std::vector<std::string> expectedTokens(const char* key, int count = -1)
{
    std::vector<std::string> out;
    const QJsonArray all = expected()[QLatin1String(key)].toArray();
    for (int k = 0; k < (count < 0 ? all.size() : count); ++k)
        out.push_back(all[k].toString().toStdString());
    return out;
}

} // namespace

class TestAttentionCli : public QObject {
    Q_OBJECT

private slots:
    void json_data();
    void json();
    void oneLayer();
    void nonFiniteWeightsAreNull();
    void summary();
    void refuses_data();
    void refuses();
    void help();
};

// Each row: the file, which expected tensor it holds, the sequence asked for, the tokens
// it has (none, the queries', or cross with the keys').
void TestAttentionCli::json_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("sequence");
    QTest::addColumn<QString>("tokens");
    QTest::newRow("npy f32, sequence 1") << "stack5_f32.npy"
                                         << "f32" << 1 << "none";
    QTest::newRow("npz deflated") << "stack5_deflated.npz"
                                  << "f32" << 0 << "self";
    QTest::newRow("README snippet") << "hf_snippet.npz"
                                    << "f32" << 1 << "self";
    QTest::newRow("safetensors f16") << "stack5_f16.safetensors"
                                     << "f16" << 0 << "self";
    QTest::newRow("safetensors bf16 per layer") << "layers_bf16.safetensors"
                                                << "bf16" << 1 << "self";
    QTest::newRow("cross npz") << "cross.npz"
                               << "cross" << 0 << "cross";
    QTest::newRow("cross safetensors") << "cross.safetensors"
                                       << "cross" << 0 << "cross";
}

void TestAttentionCli::json()
{
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QFETCH(int, sequence);
    QFETCH(QString, tokens);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const Run run = headless({QStringLiteral("compute"), QStringLiteral("--attention-file"),
                              kDir + file, QStringLiteral("--sequence"), QString::number(sequence),
                              QStringLiteral("--json"), out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const JsonValue json = readJson(out);
    QVERIFY(json.isObject());
    // 1. The tokens, as the file has them.
    if (tokens == u"none") {
        QVERIFY(!json.find("tokens"));
    } else if (tokens == u"self") {
        QCOMPARE(strings(json.find("tokens")), expectedTokens("tokens"));
        QVERIFY(!json.find("key_tokens"));
    } else {
        QCOMPARE(strings(json.find("tokens")), expectedTokens("tokens", 3));
        QCOMPARE(strings(json.find("key_tokens")), expectedTokens("key_tokens"));
    }
    // 2. Every weight of every layer and head, exactly.
    const QJsonArray want = expected()[kind].toArray();
    const std::vector<JsonValue>& layers = json.find("layers")->items();
    QCOMPARE(qsizetype(layers.size()), want.size());
    for (std::size_t l = 0; l < layers.size(); ++l) {
        const std::vector<JsonValue>& heads = layers[l].find("heads")->items();
        const QJsonArray wantHeads = want[qsizetype(l)][sequence].toArray();
        QCOMPARE(qsizetype(heads.size()), wantHeads.size());
        for (std::size_t h = 0; h < heads.size(); ++h) {
            const std::vector<JsonValue>& rows = heads[h].find("weights")->items();
            const QJsonArray wantRows = wantHeads[qsizetype(h)].toArray();
            QCOMPARE(qsizetype(rows.size()), wantRows.size());
            for (std::size_t i = 0; i < rows.size(); ++i)
                for (std::size_t j = 0; j < rows[i].items().size(); ++j) {
                    const float got = asFloat(rows[i].items()[j]);
                    const float w = float(wantRows[qsizetype(i)][qsizetype(j)].toDouble());
                    QVERIFY2(got == w, qPrintable(QStringLiteral("(%1,%2,%3,%4): %5 ≠ %6")
                                                      .arg(l)
                                                      .arg(h)
                                                      .arg(i)
                                                      .arg(j)
                                                      .arg(double(got), 0, 'g', 9)
                                                      .arg(double(w), 0, 'g', 9)));
                }
            // 3. Statistics and patterns are there, of the head's size.
            const JsonValue* stats = heads[h].find("statistics");
            QCOMPARE(qsizetype(stats->find("row_sums")->items().size()), wantRows.size());
            QCOMPARE(stats->find("nan_count")->text(), std::string("0"));
            const JsonValue* patterns = heads[h].find("patterns");
            for (const char* key : {"previous", "self", "first", "entropy", "queries"})
                QVERIFY2(patterns->find(key), key);
            if (tokens != u"cross")
                QVERIFY(asFloat(*patterns->find("self")) >= 0);
        }
    }
}

void TestAttentionCli::oneLayer()
{
    const Run run =
        headless({QStringLiteral("compute"),
                  QStringLiteral("--attention-file=") + kDir + QStringLiteral("stack5_stored.npz"),
                  QStringLiteral("--layer"), QStringLiteral("1"), QStringLiteral("--json"),
                  QStringLiteral("-")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const JsonValue json = parseJson(run.out.toStdString());
    QCOMPARE(json.find("layers")->items().size(), std::size_t(1));
    QCOMPARE(json.find("layers")->items()[0].find("layer")->text(), std::string("1"));
    QCOMPARE(json.find("shape")->find("layers")->text(), std::string("2"));
}

void TestAttentionCli::nonFiniteWeightsAreNull()
{
    const Run run = headless({QStringLiteral("compute"), QStringLiteral("--attention-file"),
                              kDir + QStringLiteral("nonfinite.npz"), QStringLiteral("--json"),
                              QStringLiteral("-")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const JsonValue json = parseJson(run.out.toStdString());
    const JsonValue& head = json.find("layers")->items()[0].find("heads")->items()[0];
    QVERIFY(head.find("weights")->items()[1].items()[0].isNull());
    QCOMPARE(head.find("statistics")->find("nan_count")->text(), std::string("1"));
    QCOMPARE(head.find("statistics")->find("nan_rows")->items()[0].text(), std::string("1"));
}

void TestAttentionCli::summary()
{
    const Run run = headless({QStringLiteral("compute"), QStringLiteral("--attention-file"),
                              kDir + QStringLiteral("layers_f32.safetensors")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(out.contains(QStringLiteral("float32, 2 layers × 2 sequences × 3 heads × 5 queries "
                                         "× 5 keys")),
             run.out.constData());
    QVERIFY2(out.contains(QStringLiteral("tokens: The Ġcat Ġsat 猫 .")), run.out.constData());
    QCOMPARE(out.count(QLatin1Char('\n')), 3 + 2 * 3 + 1);
}

void TestAttentionCli::refuses_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const auto file = [](const char* name) { return kDir + QLatin1String(name); };
    QTest::newRow("missing file") << QStringList{"--attention-file", "/nonexistent/a.npz"}
                                  << "attnscope: /nonexistent/a.npz: cannot open the file";
    QTest::newRow("tokens length")
        << QStringList{"--attention-file", file("tokens_mismatch.npz")}
        << "tokens_mismatch.npz: tokens has 4 tokens, the attention 5 queries (T_q)";
    QTest::newRow("zip bomb") << QStringList{"--attention-file", file("bomb_claims.npz")}
                              << "(a zip bomb?)";
    QTest::newRow("not an attention file")
        << QStringList{"--attention-file", file("expected.json")} << "not an attention file";
    QTest::newRow("sequence out of range")
        << QStringList{"--attention-file", file("stack5_f32.npy"), "--sequence", "2"}
        << "--sequence 2: " + file("stack5_f32.npy") + " has 2 sequences, 0 to 1";
    QTest::newRow("layer out of range")
        << QStringList{"--attention-file", file("stack5_f32.npy"), "--layer", "9"}
        << "--layer 9: " + file("stack5_f32.npy") + " has 2 layers, 0 to 1";
    QTest::newRow("a formula option")
        << QStringList{"--attention-file", file("stack5_f32.npy"), "--text", "hi"} << "--text";
    QTest::newRow("negative sequence")
        << QStringList{"--attention-file", file("stack5_f32.npy"), "--sequence", "-1"}
        << "--sequence must be between 0";
}

void TestAttentionCli::refuses()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out.json"));
    const Run run = headless(QStringList{QStringLiteral("compute")} + arguments +
                             QStringList{QStringLiteral("--json"), out});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY2(QString::fromUtf8(run.err).startsWith(QStringLiteral("attnscope: ")),
             run.err.constData());
    QVERIFY(!QFile::exists(out)); // nothing written
}

void TestAttentionCli::help()
{
    const Run run = headless({QStringLiteral("compute"), QStringLiteral("--help")});
    QCOMPARE(run.exitCode, 0);
    for (const char* option : {"--attention-file FILE", "--sequence N", "--layer N"})
        QVERIFY2(run.out.contains(option), option);
    // export takes an attention file too, with --layer and --what head:H|mean|model.
    const Run exportHelp = headless({QStringLiteral("export"), QStringLiteral("--help")});
    for (const char* option : {"--attention-file FILE", "--layer L", "--what head:H|mean|model"})
        QVERIFY2(exportHelp.out.contains(option), option);
    const Run all = headless({QStringLiteral("--help")});
    QVERIFY(all.out.contains("attnscope compute --attention-file FILE"));
}

QTEST_GUILESS_MAIN(TestAttentionCli)
#include "tst_attention_cli.moc"
