// `attnscope compute --model DIR` on the BERT family: the JSON's attention equals the PyTorch
// reference's (tests/reference/gen_bert_model.py) under the switches given on the command line
// (no mask without --mask: BERT's own formula; --mask causal breaks it); instead of next_tokens
// the JSON has masked_predictions, torch's top 10 at each [MASK]; a text without [MASK] gives
// an empty list, and so does a BERT GGUF file (no head), which refuses the logit lens and head
// importance; broken folders and options refused with exit status 2 and one line naming the
// file and the fault.
#include "clirun.h"
#include "modeljson.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using attn::test::Run;

namespace {

const QString kReference = QStringLiteral(ATTN_REFERENCE_DIR "/bert/");
const QString kGguf = QStringLiteral(ATTN_REFERENCE_DIR "/gguf/");

QByteArray readBytes(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

QJsonObject readJson(const QString& path)
{
    return QJsonDocument::fromJson(readBytes(path)).object();
}

QJsonObject referenceCase(const QJsonObject& expected, const QString& name)
{
    for (const QJsonValue c : expected.value(QLatin1String("cases")).toArray())
        if (c.toObject().value(QLatin1String("name")).toString() == name)
            return c.toObject();
    qFatal("no reference case %s", qPrintable(name));
}

QString idsText(const QJsonArray& ids)
{
    QStringList out;
    for (const QJsonValue id : ids)
        out << QString::number(id.toInt());
    return out.join(QLatin1Char(','));
}

// vocab.txt's lines: line n is id n.
QStringList vocabulary(const QString& folder)
{
    QStringList lines =
        QString::fromUtf8(readBytes(folder + QLatin1String("/vocab.txt"))).split(QLatin1Char('\n'));
    lines.removeLast(); // after the last newline
    return lines;
}

// A copy of bert-f32 in `folder` with `file`'s text `from` replaced by `to` (none: removed).
void brokenCopy(const QString& folder, const QString& file, const QByteArray& from,
                const QByteArray& to)
{
    QVERIFY(QDir().mkpath(folder));
    for (const char* name :
         {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json"}) {
        const QString target = folder + QLatin1Char('/') + QLatin1String(name);
        QVERIFY(QFile::copy(kReference + QLatin1String("bert-f32/") + QLatin1String(name), target));
        QFile(target).setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    const QString path = folder + QLatin1Char('/') + file;
    if (from.isEmpty()) {
        QVERIFY(QFile::remove(path));
        return;
    }
    QByteArray bytes = readBytes(path);
    QVERIFY2(bytes.contains(from), from.constData());
    QVERIFY2(from.size() == to.size() || file != QLatin1String("model.safetensors"),
             "a header edit keeps its length");
    bytes.replace(from, to);
    QFile out(path);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(bytes);
}

} // namespace

class TestBertCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void json_data();
    void json();
    void textWithMask();
    void textWithoutMask();
    void ggufWithoutHead();
    void refusals_data();
    void refusals();

private:
    QTemporaryDir scratch_;
};

void TestBertCli::initTestCase()
{
    QVERIFY(scratch_.isValid());
    brokenCopy(scratch_.filePath(QStringLiteral("no-vocab")), QStringLiteral("vocab.txt"), {}, {});
    brokenCopy(scratch_.filePath(QStringLiteral("heads")), QStringLiteral("config.json"),
               "\"hidden_size\": 32", "\"hidden_size\": 30");
    brokenCopy(scratch_.filePath(QStringLiteral("act")), QStringLiteral("config.json"), "\"gelu\"",
               "\"relu\"");
    brokenCopy(scratch_.filePath(QStringLiteral("tensor")), QStringLiteral("model.safetensors"),
               "\"cls.predictions.bias\"", "\"cls.predictions.bia_\"");
    brokenCopy(scratch_.filePath(QStringLiteral("shape")), QStringLiteral("model.safetensors"),
               "\"shape\":[64,32]", "\"shape\":[32,64]");
}

void TestBertCli::json_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("referenceName");
    QTest::addColumn<QString>("mask");
    QTest::newRow("f32: textbook, no mask") << "bert-f32" << QStringList{} << "textbook"
                                            << "none";
    QTest::newRow("f32: causal") << "bert-f32" << QStringList{"--mask", "causal"} << "mask=causal"
                                 << "causal";
    QTest::newRow("bf16: only layer 1 causal")
        << "bert-bf16" << QStringList{"--only-layer", "1", "--mask", "causal"}
        << "only_layer=1 mask=causal"
        << "causal";
    QTest::newRow("bf16: view") << "bert-bf16" << QStringList{"--head-split", "view"}
                                << "head_split=view"
                                << "none";
}

void TestBertCli::json()
{
    QFETCH(QString, model);
    QFETCH(QStringList, options);
    QFETCH(QString, referenceName);
    QFETCH(QString, mask);
    const QJsonObject expected = readJson(kReference + model + QLatin1String(".json"));
    const QJsonObject reference = referenceCase(expected, referenceName);
    const QJsonArray ids = expected.value(QLatin1String("ids")).toArray();
    const Run run = attn::test::attnscope(QStringList{"compute", "--model", kReference + model,
                                                      "--ids", idsText(ids), "--json", "-"} +
                                          options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();

    // 1. The model: an encoder without grouped queries; the switches as run.
    const QJsonObject info = out.value(QLatin1String("model")).toObject();
    QCOMPARE(info.value(QLatin1String("family")).toString(), QStringLiteral("bert"));
    QCOMPARE(info.value(QLatin1String("heads")).toInt(), 4);
    QVERIFY(!info.contains(QLatin1String("key_value_heads")));
    QCOMPARE(out.value(QLatin1String("token_ids")).toArray(), ids);
    QCOMPARE(
        out.value(QLatin1String("switches")).toObject().value(QLatin1String("mask")).toString(),
        mask);

    // 2. Every layer's heads, equal to torch's within 1e-5 (2e-5 with BF16 weights).
    const double tolerance = model.endsWith(QLatin1String("f32")) ? 1e-5 : 2e-5;
    const int T = int(ids.size());
    const QJsonArray layers = out.value(QLatin1String("layers")).toArray();
    const QJsonArray wantLayers = reference.value(QLatin1String("attention")).toArray();
    const QString difference =
        attn::test::jsonAttentionDifference(layers, wantLayers, T, tolerance);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // 3. No next token: at each [MASK], torch's top 10, each piece spelt as vocab.txt does.
    QVERIFY(!out.contains(QLatin1String("next_tokens")));
    const QStringList vocab = vocabulary(kReference + model);
    const QJsonArray masked = out.value(QLatin1String("masked_predictions")).toArray();
    const QJsonArray masks = expected.value(QLatin1String("masks")).toArray();
    const QJsonArray tops = reference.value(QLatin1String("top10")).toArray();
    QCOMPARE(masked.size(), masks.size());
    for (int m = 0; m < masked.size(); ++m) {
        const QJsonObject at = masked[m].toObject();
        QCOMPARE(at.value(QLatin1String("position")).toInt(), masks[m].toInt());
        const QJsonArray predictions = at.value(QLatin1String("predictions")).toArray();
        const QJsonArray top = tops[m].toArray();
        QCOMPARE(predictions.size(), qsizetype(10));
        for (int n = 0; n < 10; ++n) {
            const QJsonObject token = predictions[n].toObject();
            QCOMPARE(token.value(QLatin1String("id")).toInt(), top[n].toInt());
            QCOMPARE(token.value(QLatin1String("piece")).toString(), vocab.value(top[n].toInt()));
            QVERIFY(token.value(QLatin1String("probability")).toDouble() > 0);
        }
    }
}

void TestBertCli::textWithMask()
{
    // The text through vocab.txt's WordPiece: a CJK character a token, [MASK] typed in the
    // text kept whole, [CLS] … [SEP] around; the fill-ins at the [MASK], most probable first.
    const QJsonObject expected = readJson(kReference + QLatin1String("bert-f32.json"));
    const Run run = attn::test::attnscope(
        QStringList{"compute", "--model", kReference + QLatin1String("bert-f32"), "--text",
                    expected.value(QLatin1String("text")).toString(), "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value(QLatin1String("token_ids")).toArray(),
             expected.value(QLatin1String("text_ids")).toArray());
    QCOMPARE(out.value(QLatin1String("tokens")).toArray().at(4).toString(),
             QStringLiteral("[MASK]"));
    const QJsonArray masked = out.value(QLatin1String("masked_predictions")).toArray();
    QCOMPARE(masked.size(), qsizetype(1));
    QCOMPARE(masked[0].toObject().value(QLatin1String("position")).toInt(), 4);
    const QJsonArray predictions =
        masked[0].toObject().value(QLatin1String("predictions")).toArray();
    QCOMPARE(predictions.size(), qsizetype(10));
    double previous = 1.0;
    for (const QJsonValue p : predictions) {
        const double probability = p.toObject().value(QLatin1String("probability")).toDouble();
        QVERIFY(probability <= previous);
        previous = probability;
        QVERIFY(!p.toObject().value(QLatin1String("token")).toString().isEmpty());
    }
}

void TestBertCli::textWithoutMask()
{
    const Run run = attn::test::attnscope(
        QStringList{"compute", "--model", kReference + QLatin1String("bert-bf16"), "--text",
                    "巴黎是法国的首都。", "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    QVERIFY(out.contains(QLatin1String("masked_predictions")));
    QVERIFY(out.value(QLatin1String("masked_predictions")).toArray().isEmpty());
    QVERIFY(!out.contains(QLatin1String("next_tokens")));
}

void TestBertCli::ggufWithoutHead()
{
    // A BERT GGUF file (llama.cpp's converter drops the masked-LM head): the text runs, its
    // [MASK] is a token as any other and nothing is filled in.
    const QJsonObject expected = readJson(kReference + QLatin1String("bert-f32.json"));
    const Run run = attn::test::attnscope(
        QStringList{"compute", "--model", kGguf + QLatin1String("bert-f32.gguf"), "--text",
                    expected.value(QLatin1String("text")).toString(), "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    QCOMPARE(out.value(QLatin1String("token_ids")).toArray(),
             expected.value(QLatin1String("text_ids")).toArray());
    QVERIFY(out.value(QLatin1String("masked_predictions")).toArray().isEmpty());
}

void TestBertCli::refusals_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("keyword");
    const QString bert = kReference + QLatin1String("bert-f32");
    const auto broken = [this](const char* name) { return scratch_.filePath(QLatin1String(name)); };
    QTest::newRow("vocab.txt missing")
        << QStringList{"--model", broken("no-vocab"), "--text", "巴黎"} << "vocab.txt";
    QTest::newRow("hidden_size not divisible")
        << QStringList{"--model", broken("heads"), "--text", "巴黎"}
        << "config.json: hidden_size 30 is not divisible by num_attention_heads 4";
    QTest::newRow("hidden_act relu") << QStringList{"--model", broken("act"), "--text", "巴黎"}
                                     << "config.json: hidden_act \"relu\" is not supported";
    QTest::newRow("missing tensor")
        << QStringList{"--model", broken("tensor"), "--text", "巴黎"}
        << "model.safetensors: the tensor cls.predictions.bias is missing";
    QTest::newRow("wrong shape") << QStringList{"--model", broken("shape"), "--text", "巴黎"}
                                 << "has the shape [32, 64], expected [64, 32]";
    QTest::newRow("--ids past the vocabulary") << QStringList{"--model", bert, "--ids", "2,84"}
                                               << "--ids: 84 is outside the vocabulary (0 … 83)";
    QTest::newRow("--rope on BERT")
        << QStringList{"--model", bert, "--text", "巴黎", "--rope", "off"}
        << "--rope applies to models with rotary positions";
    const QString gguf = kGguf + QLatin1String("bert-f32.gguf");
    QTest::newRow("--logit-lens on a GGUF file without the head")
        << QStringList{"--model", gguf, "--text", "巴黎", "--logit-lens"}
        << "bert-f32.gguf: this GGUF file has no masked-language-model head: attention only";
    QTest::newRow("--head-importance on a GGUF file without the head")
        << QStringList{"--model", gguf, "--text", "巴黎", "--head-importance"}
        << "no masked-language-model head";
}

void TestBertCli::refusals()
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

QTEST_GUILESS_MAIN(TestBertCli)
#include "tst_bert_cli.moc"
