// `attnscope compute --model DIR --ids …` on the Qwen/Llama family: the JSON's attention and
// next tokens equal the PyTorch reference's (tests/reference/gen_llama_model.py) under the
// switches given on the command line, --rope off among them; the model says each query head's
// K/V head; --rope and --ids refused where they do not apply, with exit status 2.
#include "clirun.h"
#include "modeljson.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using attn::test::Run;

namespace {

const QString kReference = QStringLiteral(ATTN_REFERENCE_DIR "/llama/");

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonObject referenceCase(const QJsonObject& expected, const QString& name)
{
    for (const QJsonValue c : expected.value(QLatin1String("cases")).toArray())
        if (c.toObject().value(QLatin1String("name")).toString() == name)
            return c.toObject();
    qFatal("no reference case %s", qPrintable(name));
}

QString idsText(const QJsonObject& expected)
{
    QStringList ids;
    for (const QJsonValue id : expected.value(QLatin1String("ids")).toArray())
        ids << QString::number(id.toInt());
    return ids.join(QLatin1Char(','));
}

// tokenizer.json's spelling of each id (its vocabulary and added tokens).
QHash<int, QString> spellings(const QString& folder)
{
    const QJsonObject tokenizer = readJson(folder + QLatin1String("/tokenizer.json"));
    QHash<int, QString> out;
    const QJsonObject vocab =
        tokenizer.value(QLatin1String("model")).toObject().value(QLatin1String("vocab")).toObject();
    for (auto it = vocab.begin(); it != vocab.end(); ++it)
        out.insert(it.value().toInt(), it.key());
    for (const QJsonValue added : tokenizer.value(QLatin1String("added_tokens")).toArray())
        out.insert(added.toObject().value(QLatin1String("id")).toInt(),
                   added.toObject().value(QLatin1String("content")).toString());
    return out;
}

} // namespace

class TestLlamaCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void json_data();
    void json();
    void textIsItsIds();
    void refusals_data();
    void refusals();

private:
    QTemporaryDir scratch_;
    QString noTokenizer_; // qwen2-f32 without its tokenizer.json
};

void TestLlamaCli::initTestCase()
{
    QVERIFY(scratch_.isValid());
    noTokenizer_ = scratch_.filePath(QStringLiteral("qwen2-no-tokenizer"));
    QVERIFY(QDir().mkpath(noTokenizer_));
    for (const char* file : {"config.json", "model.safetensors"})
        QVERIFY(QFile::copy(kReference + QLatin1String("qwen2-f32/") + QLatin1String(file),
                            noTokenizer_ + QLatin1Char('/') + QLatin1String(file)));
}

void TestLlamaCli::json_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("referenceName");
    QTest::addColumn<QString>("rope");
    QTest::newRow("qwen2: textbook") << "qwen2-f32" << QStringList{} << "textbook"
                                     << "on";
    QTest::newRow("qwen2: rope off") << "qwen2-f32" << QStringList{"--rope", "off"} << "rope=off"
                                     << "off";
    QTest::newRow("qwen3: rope off, no mask")
        << "qwen3-bf16" << QStringList{"--rope=off", "--mask", "none"} << "rope=off mask=none"
        << "off";
    QTest::newRow("llama: only layer 1 unscaled")
        << "llama-f32" << QStringList{"--only-layer", "1", "--scale", "none"}
        << "only_layer=1 scale=none"
        << "on";
    QTest::newRow("llama: only layer 0 rope off, view")
        << "llama-f32" << QStringList{"--only-layer", "0", "--rope", "off", "--head-split", "view"}
        << "only_layer=0 rope=off head_split=view"
        << "off";
}

void TestLlamaCli::json()
{
    QFETCH(QString, model);
    QFETCH(QStringList, options);
    QFETCH(QString, referenceName);
    QFETCH(QString, rope);
    const QJsonObject expected = readJson(kReference + model + QLatin1String(".json"));
    const QJsonObject reference = referenceCase(expected, referenceName);
    const Run run = attn::test::attnscope(QStringList{"compute", "--model", kReference + model,
                                                      "--ids", idsText(expected), "--json", "-"} +
                                          options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();

    // 1. The model: grouped-query attention, query heads 0 and 1 on K/V head 0, 2 and 3 on 1.
    const QJsonObject info = out.value(QLatin1String("model")).toObject();
    QCOMPARE(info.value(QLatin1String("family")).toString(),
             expected.value(QLatin1String("family")).toString());
    QCOMPARE(info.value(QLatin1String("heads")).toInt(), 4);
    QCOMPARE(info.value(QLatin1String("key_value_heads")).toInt(), 2);
    QCOMPARE(info.value(QLatin1String("key_value_head_of")).toArray(), (QJsonArray{0, 0, 1, 1}));
    QCOMPARE(info.value(QLatin1String("head_dim")).toInt(),
             expected.value(QLatin1String("head_dim")).toInt());
    QCOMPARE(out.value(QLatin1String("token_ids")).toArray(),
             expected.value(QLatin1String("ids")).toArray());
    QCOMPARE(
        out.value(QLatin1String("switches")).toObject().value(QLatin1String("rope")).toString(),
        rope);

    // 2. Every layer's heads, equal to torch's within 1e-5 (2e-5 with BF16 weights).
    const double tolerance = model.endsWith(QLatin1String("f32")) ? 1e-5 : 2e-5;
    const int T = int(expected.value(QLatin1String("ids")).toArray().size());
    const QJsonArray layers = out.value(QLatin1String("layers")).toArray();
    const QJsonArray wantLayers = reference.value(QLatin1String("attention")).toArray();
    const QString difference =
        attn::test::jsonAttentionDifference(layers, wantLayers, T, tolerance);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // 3. The next tokens: torch's top 10, each piece spelt as tokenizer.json spells it.
    const QHash<int, QString> spelling = spellings(kReference + model);
    const QJsonArray next = out.value(QLatin1String("next_tokens")).toArray();
    const QJsonArray top = reference.value(QLatin1String("top10")).toArray();
    QCOMPARE(next.size(), qsizetype(10));
    for (int n = 0; n < 10; ++n) {
        const QJsonObject token = next[n].toObject();
        QCOMPARE(token.value(QLatin1String("id")).toInt(), top[n].toInt());
        QCOMPARE(token.value(QLatin1String("piece")).toString(), spelling.value(top[n].toInt()));
    }
}

void TestLlamaCli::textIsItsIds()
{
    // --text goes through the folder's tokenizer.json: the JSON is --ids' of the same ids
    // ("the" = t + he, " the" one merged token, the added token whole), text and labels too.
    const QString qwen = kReference + QLatin1String("qwen2-f32");
    const Run text = attn::test::attnscope(QStringList{
        "compute", "--model", qwen, "--text", "the cat at the<|endoftext|>", "--json", "-"});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    const Run ids =
        attn::test::attnscope(QStringList{"compute", "--model", qwen, "--ids",
                                          "116,257,32,99,97,116,32,97,116,258,259", "--json", "-"});
    QVERIFY2(ids.exitCode == 0, ids.err.constData());
    QJsonObject fromText = QJsonDocument::fromJson(text.out).object();
    QJsonObject fromIds = QJsonDocument::fromJson(ids.out).object();
    QCOMPARE(fromText.value(QLatin1String("token_ids")).toArray(),
             (QJsonArray{116, 257, 32, 99, 97, 116, 32, 97, 116, 258, 259}));
    QVERIFY(!fromText.isEmpty());
    QCOMPARE(fromText, fromIds);
}

void TestLlamaCli::refusals_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("keyword");
    const QString qwen = kReference + QLatin1String("qwen2-f32");
    const QString gpt2 = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/small-f32");
    QTest::newRow("a folder without tokenizer.json")
        << QStringList{"--model", noTokenizer_, "--text", "你好"} << "tokenizer.json";
    QTest::newRow("--ids without tokenizer.json")
        << QStringList{"--model", noTokenizer_, "--ids", "1,2"} << "tokenizer.json";
    QTest::newRow("--ids and --text")
        << QStringList{"--model", qwen, "--ids", "1,2", "--text", "a"} << "--ids and --text";
    QTest::newRow("--ids past the vocabulary") << QStringList{"--model", qwen, "--ids", "1,260"}
                                               << "--ids: 260 is outside the vocabulary (0 … 259)";
    QTest::newRow("--ids not numbers") << QStringList{"--model", qwen, "--ids", "1,x"} << "--ids";
    QTest::newRow("--ids empty item") << QStringList{"--model", qwen, "--ids", "1,,2"} << "--ids";
    QTest::newRow("--rope unknown")
        << QStringList{"--model", qwen, "--ids", "1", "--rope", "maybe"} << "--rope must be on|off";
    QTest::newRow("--rope on GPT-2")
        << QStringList{"--model", gpt2, "--text", "cat", "--rope", "off"}
        << "--rope applies to models with rotary positions";
}

void TestLlamaCli::refusals()
{
    QFETCH(QStringList, options);
    QFETCH(QString, keyword);
    const Run run =
        attn::test::attnscope(QStringList{"compute"} + options + QStringList{"--json", "-"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(attn::test::oneErrorLine(run.err, keyword).isEmpty(),
             attn::test::oneErrorLine(run.err, keyword).constData());
}

QTEST_GUILESS_MAIN(TestLlamaCli)
#include "tst_llama_cli.moc"
