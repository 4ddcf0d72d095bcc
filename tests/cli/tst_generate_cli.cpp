// `attnscope generate --model DIR`: the JSON's greedy ids equal PyTorch's greedy decoding
// (tests/reference/generation.py) under the switches and knock-outs given on the command
// line, --tau is the formula's temperature and --temperature the sampling's, a seed writes
// the same text again; a bad argument is exit status 2 with one line naming it.
#include "clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using attn::test::Run;

namespace {

const QString kGpt2 = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/");
const QString kLlama = QStringLiteral(ATTN_REFERENCE_DIR "/llama/");

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonObject generationCase(const QString& fixture, const QString& name)
{
    for (const QJsonValue c : readJson(fixture).value(QLatin1String("generation")).toArray())
        if (c.toObject().value(QLatin1String("name")).toString() == name)
            return c.toObject();
    qFatal("no generation case %s", qPrintable(name));
}

QString idList(const QJsonArray& ids)
{
    QStringList out;
    for (const QJsonValue id : ids)
        out << QString::number(id.toInt());
    return out.join(QLatin1Char(','));
}

// generate's JSON on standard output.
QJsonObject generate(const QStringList& options)
{
    const Run run =
        attn::test::attnscope(QStringList{"generate"} + options + QStringList{"--json", "-"});
    if (run.exitCode != 0)
        qWarning("%s", run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

} // namespace

class TestGenerateCli : public QObject {
    Q_OBJECT

private slots:
    void greedy_data();
    void greedy();
    void sampled();
    void refusals_data();
    void refusals();
};

void TestGenerateCli::greedy_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("referenceName");
    QTest::addColumn<bool>("cached");
    QTest::newRow("GPT-2, textbook") << kGpt2 + "small-f32" << QStringList{} << "textbook" << true;
    QTest::newRow("GPT-2, --scale none --greedy")
        << kGpt2 + "small-f32" << QStringList{"--scale", "none", "--greedy"} << "scale=none"
        << true;
    QTest::newRow("GPT-2, a head knocked out")
        << kGpt2 + "small-bf16" << QStringList{"--knock-out", "0.1"} << "knock_out=0.1" << true;
    QTest::newRow("Qwen3, mean knock-out: no cache")
        << kLlama + "qwen3-bf16" << QStringList{"--knock-out", "1.0", "--knock-out-mode", "mean"}
        << "knock_out=1.0 mean" << false;
    QTest::newRow("Mistral, layer 1 over the queries: no cache")
        << kLlama + "mistral-f32" << QStringList{"--only-layer", "1", "--axis", "queries"}
        << "only_layer=1 axis=queries" << false;
}

void TestGenerateCli::greedy()
{
    QFETCH(QString, folder);
    QFETCH(QStringList, options);
    QFETCH(QString, referenceName);
    QFETCH(bool, cached);
    const QJsonObject expected = generationCase(folder + ".json", referenceName);
    const QJsonObject json = generate(
        QStringList{"--model", folder, "--ids",
                    idList(expected.value(QLatin1String("prompt_ids")).toArray()), "--tokens",
                    QString::number(expected.value(QLatin1String("tokens")).toInt())} +
        options);
    QVERIFY(!json.isEmpty());
    QCOMPARE(json.value(QLatin1String("generated_ids")).toArray(),
             expected.value(QLatin1String("generated_ids")).toArray());
    QCOMPARE(json.value(QLatin1String("kv_cache")).toBool(), cached);
    QCOMPARE(json.value(QLatin1String("sampling")).toObject().value(QLatin1String("greedy")),
             QJsonValue(true));
    const QJsonArray steps = json.value(QLatin1String("steps")).toArray();
    const QJsonArray want = expected.value(QLatin1String("steps")).toArray();
    QCOMPARE(steps.size(), want.size());
    for (qsizetype s = 0; s < steps.size(); ++s) {
        const QJsonArray top = steps[s].toArray();
        QCOMPARE(top.size(), 5);
        const double probability =
            want[s].toObject().value(QLatin1String("probabilities")).toArray()[0].toDouble();
        QVERIFY(std::abs(top[0].toObject().value(QLatin1String("probability")).toDouble() -
                         probability) < 1e-4);
    }
    const QString stop = json.value(QLatin1String("stopped_by")).toString();
    QVERIFY(stop == QLatin1String("length") || stop == QLatin1String("end-of-text"));
    QCOMPARE(json.value(QLatin1String("generated_tokens")).toArray().size(), steps.size());
}

void TestGenerateCli::sampled()
{
    const QStringList base{"--model",     kGpt2 + "small-f32", "--text",
                           "The cat sat", "--tokens",          "8"};
    const QStringList sampling{"--temperature", "1.5", "--top-k", "40",
                               "--top-p",       "0.9", "--seed",  "11"};
    const QJsonObject first = generate(base + sampling);
    QCOMPARE(
        first.value(QLatin1String("sampling")).toObject(),
        (QJsonObject{
            {"greedy", false}, {"temperature", 1.5}, {"top-k", 40}, {"top-p", 0.9}, {"seed", 11}}));
    QCOMPARE(generate(base + sampling).value(QLatin1String("generated_ids")),
             first.value(QLatin1String("generated_ids")));
    QVERIFY(first.value(QLatin1String("generated_ids")) !=
            generate(base).value(QLatin1String("generated_ids")));
    // The formula's temperature is --tau; --temperature stays the sampling's.
    const QJsonObject tau = generate(base + QStringList{"--tau", "2", "--temperature=0.5"});
    QCOMPARE(tau.value(QLatin1String("switches")).toObject().value(QLatin1String("temperature")),
             QJsonValue(2));
    QCOMPARE(tau.value(QLatin1String("sampling")).toObject().value(QLatin1String("temperature")),
             QJsonValue(0.5));
    QCOMPARE(tau.value(QLatin1String("prompt_text")).toString(), QStringLiteral("The cat sat"));
}

void TestGenerateCli::refusals_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("keyword");
    const QString small = kGpt2 + "small-f32";
    const QStringList base{"--model", small, "--text", "The cat"};
    QTest::newRow("no --model") << QStringList{"--text", "cat", "--tokens", "3"} << "--model DIR";
    QTest::newRow("no --tokens") << base << "--tokens N";
    QTest::newRow("--tokens 0") << base + QStringList{"--tokens", "0"} << "--tokens";
    QTest::newRow("--tokens 5000") << base + QStringList{"--tokens", "5000"} << "--tokens";
    QTest::newRow("greedy and sampled")
        << base + QStringList{"--tokens", "3", "--greedy", "--top-k", "5"} << "--greedy";
    QTest::newRow("temperature 0")
        << base + QStringList{"--tokens", "3", "--temperature", "0"} << "temperature";
    QTest::newRow("temperature not a number")
        << base + QStringList{"--tokens", "3", "--temperature", "hot"} << "--temperature";
    QTest::newRow("top-p above 1")
        << base + QStringList{"--tokens", "3", "--top-p", "1.5"} << "top-p";
    QTest::newRow("top-k negative")
        << base + QStringList{"--tokens", "3", "--top-k", "-1"} << "--top-k";
    QTest::newRow("a head the model lacks")
        << base + QStringList{"--tokens", "3", "--knock-out", "0.7"} << "4 heads";
    QTest::newRow("a malformed knock-out")
        << base + QStringList{"--tokens", "3", "--knock-out", "1-2"} << "knock-out";
    QTest::newRow("an encoder") << QStringList{"--model",
                                               QStringLiteral(ATTN_REFERENCE_DIR "/bert/bert-f32"),
                                               "--text",
                                               "cat",
                                               "--tokens",
                                               "3"}
                                << "[MASK]";
    QTest::newRow("a compute option")
        << base + QStringList{"--tokens", "3", "--heads", "2"} << "--heads";
}

void TestGenerateCli::refusals()
{
    QFETCH(QStringList, options);
    QFETCH(QString, keyword);
    const Run run =
        attn::test::attnscope(QStringList{"generate"} + options + QStringList{"--json", "-"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(attn::test::oneErrorLine(run.err, keyword).isEmpty(),
             attn::test::oneErrorLine(run.err, keyword).constData());
}

QTEST_GUILESS_MAIN(TestGenerateCli)
#include "tst_generate_cli.moc"
