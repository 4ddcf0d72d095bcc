// `attnscope compute --model DIR`: the JSON holds the tokens, every layer's heads and the
// next tokens, equal to the PyTorch reference's (tests/reference/gen_gpt2_model.py) under
// each switch given on the command line; a bad folder or argument is exit status 2 with
// one line naming it.
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

const QString kReference = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/");
const QString kRealVocabulary = QStringLiteral(ATTN_REFERENCE_DIR "/../data/gpt2/");

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The reference case named `name` of `model`.
QJsonObject referenceCase(const QJsonObject& expected, const QString& name)
{
    for (const QJsonValue c : expected.value(QLatin1String("cases")).toArray())
        if (c.toObject().value(QLatin1String("name")).toString() == name)
            return c.toObject();
    qFatal("no reference case %s", qPrintable(name));
}

bool copyFiles(const QString& from, const QString& to, const QStringList& names)
{
    for (const QString& name : names)
        if (!QFile::copy(from + name, to + QLatin1Char('/') + name))
            return false;
    return true;
}

} // namespace

class TestModelCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void json_data();
    void json();
    void logitLens();
    void headImportance();
    void inductionTest();
    void refusals_data();
    void refusals();

private:
    QString folderOf(const QString& model) const;
    QTemporaryDir realModel_;
};

void TestModelCli::initTestCase()
{
    // GPT-2's vocabulary is committed once, in tests/data/gpt2.
    QVERIFY(realModel_.isValid());
    QVERIFY(copyFiles(kReference + QLatin1String("real-f16/"), realModel_.path(),
                      {"config.json", "model.safetensors"}));
    QVERIFY(copyFiles(kRealVocabulary, realModel_.path(), {"vocab.json", "merges.txt"}));
}

QString TestModelCli::folderOf(const QString& model) const
{
    return model == QLatin1String("real-f16") ? realModel_.path() : kReference + model;
}

void TestModelCli::json_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("referenceName");
    const QList<std::pair<QStringList, QString>> cases{
        {{}, "textbook"},
        {{"--scale", "none"}, "scale=none"},
        {{"--scale=sqrt-dmodel"}, "scale=sqrt-dmodel"},
        {{"--temperature", "0.5"}, "temperature=0.5"},
        {{"--axis", "queries"}, "axis=queries"},
        {{"--axis", "batch", "--mask-stage", "after-softmax"},
         "axis=batch mask_stage=after-softmax"},
        {{"--mask", "none"}, "mask=none"},
        {{"--mask-fill", "-1e9"}, "mask_fill=-1e9"},
        {{"--mask-stage", "after-softmax"}, "mask_stage=after-softmax"},
        {{"--head-split", "view"}, "head_split=view"},
        {{"--only-layer", "1", "--scale", "none"}, "only_layer=1 scale=none"},
        {{"--knock-out", "0.1,1.0"}, "knock_out=0.1,1.0"},
        {{"--knock-out", "0.0", "--knock-out-mode", "mean", "--scale", "none"},
         "knock_out=0.0 mean scale=none"},
        {{"--only-layer", "1", "--axis", "queries", "--knock-out", "0.1", "--knock-out-mode",
          "mean"},
         "only_layer=1 axis=queries knock_out=0.1 mean"},
    };
    for (const char* model : {"small-f32", "real-f16"})
        for (const auto& [options, name] : cases)
            QTest::newRow(qPrintable(QLatin1String(model) + QLatin1String(": ") + name))
                << QString::fromLatin1(model) << options << name;
}

void TestModelCli::json()
{
    QFETCH(QString, model);
    QFETCH(QStringList, options);
    QFETCH(QString, referenceName);
    const QJsonObject expected = readJson(kReference + model + QLatin1String(".json"));
    const QJsonObject reference = referenceCase(expected, referenceName);
    const Run run = attn::test::attnscope(
        QStringList{"compute", "--model", folderOf(model), "--text",
                    expected.value(QLatin1String("text")).toString(), "--json", "-"} +
        options);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();

    // 1. The model and the tokens.
    const QJsonObject info = out.value(QLatin1String("model")).toObject();
    QCOMPARE(info.value(QLatin1String("family")).toString(), QStringLiteral("gpt2"));
    QCOMPARE(info.value(QLatin1String("layers")).toInt(),
             expected.value(QLatin1String("layers")).toInt());
    QCOMPARE(info.value(QLatin1String("heads")).toInt(),
             expected.value(QLatin1String("heads")).toInt());
    QCOMPARE(info.value(QLatin1String("d_model")).toInt(),
             expected.value(QLatin1String("d_model")).toInt());
    QCOMPARE(out.value(QLatin1String("token_ids")).toArray(),
             expected.value(QLatin1String("ids")).toArray());
    const QJsonArray tokens = out.value(QLatin1String("tokens")).toArray();
    const QJsonArray pieces = out.value(QLatin1String("pieces")).toArray();
    const int T = int(tokens.size());
    QCOMPARE(T, int(expected.value(QLatin1String("ids")).toArray().size()));
    QCOMPARE(pieces.size(), qsizetype(T));
    if (model == QLatin1String("real-f16")) {
        QCOMPARE(tokens[5].toString(), QStringLiteral(" mat"));
        QCOMPARE(pieces[5].toString(), QStringLiteral("Ġmat"));
    }

    // The switches, keyed and spelled as the options that set them (and as compute's
    // "config"): the formula's seven and only-layer, nothing else; the knocked-out heads as
    // [layer, head] pairs beside them, and what their outputs became.
    const QJsonObject switches = out.value(QLatin1String("switches")).toObject();
    QCOMPARE(switches.keys(), (QStringList{"axis", "head-split", "mask", "mask-fill", "mask-stage",
                                           "only-layer", "scale", "temperature"}));
    QJsonArray knocked;
    QString mode = QStringLiteral("zero");
    for (int k = 0; k < options.size(); ++k) {
        QString name = options[k].mid(2), value;
        if (name.contains(QLatin1Char('='))) {
            value = name.section(QLatin1Char('='), 1);
            name = name.section(QLatin1Char('='), 0, 0);
        } else {
            value = options[++k];
        }
        if (name == QLatin1String("knock-out")) {
            for (const QString& head : value.split(QLatin1Char(',')))
                knocked.append(QJsonArray{head.section(QLatin1Char('.'), 0, 0).toInt(),
                                          head.section(QLatin1Char('.'), 1).toInt()});
            continue;
        }
        if (name == QLatin1String("knock-out-mode")) {
            mode = value;
            continue;
        }
        const QJsonValue written = switches.value(name);
        QVERIFY2(written.isDouble() ? written.toDouble() == value.toDouble()
                                    : written.toString() == value,
                 qPrintable(name));
    }

    QCOMPARE(out.value(QLatin1String("knocked_out")).toArray(), knocked);
    QCOMPARE(out.value(QLatin1String("knock_out_mode")).toString(), mode);

    // 2. Every layer's heads: T × T weights, equal to torch's within 1e-5 (NaN as null).
    const QJsonArray layers = out.value(QLatin1String("layers")).toArray();
    const QJsonArray wantLayers = reference.value(QLatin1String("attention")).toArray();
    const QString difference = attn::test::jsonAttentionDifference(layers, wantLayers, T, 1e-5);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));

    // 3. The next tokens: torch's top 10, most probable first.
    const QJsonArray next = out.value(QLatin1String("next_tokens")).toArray();
    const QJsonArray top = reference.value(QLatin1String("top10")).toArray();
    QCOMPARE(next.size(), qsizetype(10));
    double previous = 2;
    for (int n = 0; n < 10; ++n) {
        const QJsonObject token = next[n].toObject();
        QCOMPARE(token.value(QLatin1String("id")).toInt(), top[n].toInt());
        QVERIFY(token.contains(QLatin1String("token")));
        const double p = token.value(QLatin1String("probability")).toDouble();
        QVERIFY(p > 0 && p <= previous);
        previous = p;
    }
}

// --logit-lens: every block's top 5 at every position, as PyTorch reads them (here with two
// heads knocked out); the last block's reading at the last position is next_tokens'.
void TestModelCli::logitLens()
{
    const QString model = QStringLiteral("small-f32");
    const QJsonObject expected = readJson(kReference + model + QLatin1String(".json"));
    const QJsonObject reference = referenceCase(expected, QStringLiteral("knock_out=0.1,1.0"));
    const Run run =
        attn::test::attnscope({"compute", "--model", folderOf(model), "--text",
                               expected.value(QLatin1String("text")).toString(), "--knock-out",
                               "0.1,1.0", "--logit-lens", "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    const QJsonArray lens = out.value(QLatin1String("logit_lens")).toArray();
    const QJsonArray want = reference.value(QLatin1String("logit_lens")).toArray();
    QCOMPARE(lens.size(), want.size());
    for (int l = 0; l < lens.size(); ++l) {
        const QJsonArray positions = lens[l].toArray();
        QCOMPARE(positions.size(), want[l].toArray().size());
        for (int t = 0; t < positions.size(); ++t) {
            const QJsonArray top = positions[t].toArray();
            const QJsonObject torch = want[l].toArray()[t].toObject();
            QCOMPARE(top.size(), qsizetype(5));
            for (int n = 0; n < 5; ++n) {
                const QJsonObject entry = top[n].toObject();
                QCOMPARE(entry.keys(), (QStringList{"id", "probability", "token"}));
                QCOMPARE(entry.value(QLatin1String("id")).toInt(),
                         torch.value(QLatin1String("ids")).toArray()[n].toInt());
                QVERIFY(
                    std::abs(entry.value(QLatin1String("probability")).toDouble() -
                             torch.value(QLatin1String("probabilities")).toArray()[n].toDouble()) <
                    1e-4);
            }
        }
    }
    const QJsonArray last = lens.last().toArray().last().toArray();
    const QJsonObject next = out.value(QLatin1String("next_tokens")).toArray().first().toObject();
    QCOMPARE(last.first().toObject().value(QLatin1String("id")).toInt(),
             next.value(QLatin1String("id")).toInt());
    QVERIFY(std::abs(last.first().toObject().value(QLatin1String("probability")).toDouble() -
                     next.value(QLatin1String("probability")).toDouble()) < 1e-6);
}

// --head-importance: PyTorch's scan of the same checkpoint (every head knocked out alone,
// the change of log p of the intact top 1 at the last position), and its target.
void TestModelCli::headImportance()
{
    const QString model = QStringLiteral("small-f32");
    const QJsonObject expected = readJson(kReference + model + QLatin1String(".json"));
    const Run run = attn::test::attnscope({"compute", "--model", folderOf(model), "--text",
                                           expected.value(QLatin1String("text")).toString(),
                                           "--head-importance", "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject out = QJsonDocument::fromJson(run.out).object();
    const QJsonObject torch = expected.value(QLatin1String("head_importance")).toObject();
    const QJsonArray got = out.value(QLatin1String("head_importance")).toArray();
    const QJsonArray want = torch.value(QLatin1String("change")).toArray();
    QCOMPARE(got.size(), want.size());
    for (int l = 0; l < got.size(); ++l) {
        QCOMPARE(got[l].toArray().size(), want[l].toArray().size());
        for (int h = 0; h < got[l].toArray().size(); ++h)
            QVERIFY(std::abs(got[l].toArray()[h].toDouble() - want[l].toArray()[h].toDouble()) <
                    1e-4);
    }
    const QJsonObject target = out.value(QLatin1String("head_importance_target")).toObject();
    QCOMPARE(target.value(QLatin1String("id")).toInt(),
             torch.value(QLatin1String("target")).toInt());
    QCOMPARE(target.value(QLatin1String("id")).toInt(),
             out.value(QLatin1String("next_tokens")).toArray()[0].toObject().value("id").toInt());
    QCOMPARE(target.value(QLatin1String("position")).toInt(),
             out.value(QLatin1String("token_ids")).toArray().size() - 1);
    QVERIFY(std::abs(target.value(QLatin1String("log_probability")).toDouble() -
                     torch.value(QLatin1String("intact")).toDouble()) < 1e-4);
}

// --induction-test N: N random tokens twice (BERT between its [CLS] and [SEP]), the heads'
// scores on them, the same ids for the same --seed; --rollout: T × T rows that sum to 1.
void TestModelCli::inductionTest()
{
    const auto run = [](const QString& model, const QStringList& options) {
        const Run done = attn::test::attnscope(
            QStringList{"compute", "--model", kReference + QLatin1String("../") + model, "--json",
                        "-"} +
            options);
        return std::pair{done.exitCode, QJsonDocument::fromJson(done.out).object()};
    };
    for (const QString model : {"gpt2/small-f32", "bert/bert-f32"}) {
        const auto [code, out] = run(model, {"--induction-test", "4", "--seed", "9", "--rollout"});
        QCOMPARE(code, 0);
        const QJsonArray ids = out.value(QLatin1String("token_ids")).toArray();
        const bool bert = model.startsWith(QLatin1String("bert"));
        QCOMPARE(ids.size(), bert ? 10 : 8);
        const QJsonObject scores = out.value(QLatin1String("head_scores")).toObject();
        QCOMPARE(scores.value(QLatin1String("copy")).toInt(), 4);
        QCOMPARE(scores.value(QLatin1String("positions")).toArray(),
                 (QJsonArray{bert ? 1 : 0, bert ? 9 : 8}));
        for (const char* key : {"previous_token", "duplicate_token", "induction"})
            QCOMPARE(scores.value(QLatin1String(key)).toArray().size(), qsizetype(2));
        const QJsonArray rollout = out.value(QLatin1String("rollout")).toArray();
        QCOMPARE(rollout.size(), ids.size());
        for (const QJsonValue row : rollout) {
            double sum = 0;
            for (const QJsonValue cell : row.toArray())
                sum += cell.toDouble();
            QVERIFY(std::abs(sum - 1) < 1e-5);
        }
        QCOMPARE(run(model, {"--induction-test", "4", "--seed", "9"})
                     .second.value(QLatin1String("token_ids"))
                     .toArray(),
                 ids);
        QVERIFY(run(model, {"--induction-test", "4", "--seed", "10"})
                    .second.value(QLatin1String("token_ids"))
                    .toArray() != ids);
    }
    // --head-scores on a text that does not repeat: previous-token only.
    const auto [code, out] = run("gpt2/small-f32", {"--text", "The cat sat", "--head-scores"});
    QCOMPARE(code, 0);
    const QJsonObject scores = out.value(QLatin1String("head_scores")).toObject();
    QCOMPARE(scores.value(QLatin1String("copy")).toInt(), 0);
    QVERIFY(scores.value(QLatin1String("induction")).isNull());
    QCOMPARE(scores.value(QLatin1String("previous_token")).toArray().size(), qsizetype(2));
}

void TestModelCli::refusals_data()
{
    QTest::addColumn<QString>("breakage");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("keyword");
    const QString small = kReference + QLatin1String("small-f32");
    QTest::newRow("no folder") << "" << QStringList{"--model", "/nonexistent/gpt2", "--text", "cat"}
                               << "/nonexistent/gpt2: not a folder";
    QTest::newRow("no config.json")
        << "no config.json" << QStringList{"--text", "cat"} << "config.json: missing";
    QTest::newRow("no weights") << "no weights" << QStringList{"--text", "cat"}
                                << "model.safetensors";
    QTest::newRow("no merges") << "no merges" << QStringList{"--text", "cat"} << "merges.txt";
    QTest::newRow("n_embd not divisible") << "n_embd not divisible" << QStringList{"--text", "cat"}
                                          << "config.json: n_embd 30 is not divisible by n_head 4";
    QTest::newRow("truncated weights")
        << "truncated weights" << QStringList{"--text", "cat"} << "model.safetensors";
    QTest::newRow("empty text") << "" << QStringList{"--model", small, "--text", ""} << "no text";
    QTest::newRow("text longer than n_positions")
        << "" << QStringList{"--model", small, "--text", QString("cat ").repeated(40).trimmed()}
        << "the text has 40 tokens, the model reads at most 32";
    QTest::newRow("no --json") << "" << QStringList{"--model", small, "--text", "cat"}
                               << "give --json FILE";
    QTest::newRow("--heads with a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--heads", "2"}
        << "--heads does not apply with --model";
    QTest::newRow("--kv-heads with a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--kv-heads", "1"}
        << "--kv-heads does not apply with --model: the model has its own";
    QTest::newRow("--qk-norm with a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--qk-norm", "on"}
        << "--qk-norm does not apply with --model";
    QTest::newRow("--alibi with a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--alibi", "on"}
        << "--alibi does not apply with --model";
    QTest::newRow("--rope-theta with a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--rope-theta", "500"}
        << "--rope-theta does not apply with --model";
    QTest::newRow("--sink with --axis queries in a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--sink", "0", "--axis", "queries"}
        << "a sink is one more key in each row";
    QTest::newRow("--window 0 in a model")
        << "" << QStringList{"--model", small, "--text", "cat", "--window", "0"}
        << "--window must be between 1 and 4096, not 0";
    QTest::newRow("--only-layer past the last")
        << "" << QStringList{"--model", small, "--text", "cat", "--only-layer", "2"}
        << "--only-layer 2: the model has 2 layers";
    QTest::newRow("--only-layer negative")
        << "" << QStringList{"--model", small, "--text", "cat", "--only-layer", "-1"}
        << "--only-layer";
    QTest::newRow("--scale unknown")
        << "" << QStringList{"--model", small, "--text", "cat", "--scale", "half"} << "--scale";
    const auto knockOut = [&](const char* row, QStringList options, const char* keyword) {
        QTest::newRow(row) << "" << QStringList{"--model", small, "--text", "cat"} + options
                           << keyword;
    };
    knockOut("--knock-out without a dot", {"--knock-out", "1"},
             "--knock-out '1': name a head as L.H, or a whole layer as L.*");
    knockOut("--knock-out past the last layer", {"--knock-out", "0.1,2.0"},
             "--knock-out '2.0': the model has 2 layers (0 … 1)");
    knockOut("--knock-out past the last head", {"--knock-out", "1.4"},
             "--knock-out '1.4': the model has 4 heads (0 … 3)");
    knockOut("--knock-out not a number", {"--knock-out", "1.x"},
             "--knock-out '1.x': the head must be a number from 0");
    knockOut("--knock-out empty entry", {"--knock-out", "1.0,"}, "--knock-out '': name a head");
    knockOut("--knock-out-mode unknown", {"--knock-out", "1.0", "--knock-out-mode", "half"},
             "--knock-out-mode must be zero|mean, not 'half'");
    knockOut("--knock-out-mode alone", {"--knock-out-mode", "mean"},
             "--knock-out-mode needs --knock-out");
    knockOut("--target-token alone", {"--target-token", "3"},
             "--target-token needs --head-importance");
    knockOut("--target-token outside the vocabulary",
             {"--head-importance", "--target-token", "100000"},
             "--head-importance: target token 100000 is outside the vocabulary");
    knockOut("--target-token not a number", {"--head-importance", "--target-token", "x"},
             "--target-token");
    QTest::newRow("--induction-test and --text")
        << "" << QStringList{"--model", small, "--text", "cat", "--induction-test", "4"}
        << "--induction-test and --text";
    QTest::newRow("--induction-test 1")
        << "" << QStringList{"--model", small, "--induction-test", "1"} << "--induction-test";
    QTest::newRow("--induction-test too long")
        << "" << QStringList{"--model", small, "--induction-test", "17"}
        << "the induction test needs 2 to 16 tokens a copy, not 17";
    QTest::newRow("--head-scores on one token")
        << "" << QStringList{"--model", small, "--text", "cat", "--head-scores"}
        << "--head-scores: head scores need at least 2 tokens";
    QTest::newRow("--seed without the test")
        << "" << QStringList{"--model", small, "--text", "cat", "--seed", "3"}
        << "--seed does not apply with --model";
}

void TestModelCli::refusals()
{
    QFETCH(QString, breakage);
    QFETCH(QStringList, options);
    QFETCH(QString, keyword);
    QTemporaryDir dir;
    QStringList arguments{"compute"};
    if (!breakage.isEmpty()) {
        // A copy of the small checkpoint, broken.
        QVERIFY(copyFiles(kReference + QLatin1String("small-f32/"), dir.path(),
                          {"config.json", "model.safetensors", "vocab.json", "merges.txt"}));
        const QString folder = dir.path() + QLatin1Char('/');
        if (breakage == QLatin1String("no config.json"))
            QVERIFY(QFile::remove(folder + "config.json"));
        else if (breakage == QLatin1String("no weights"))
            QVERIFY(QFile::remove(folder + "model.safetensors"));
        else if (breakage == QLatin1String("no merges"))
            QVERIFY(QFile::remove(folder + "merges.txt"));
        else if (breakage == QLatin1String("truncated weights"))
            QVERIFY(QFile(folder + "model.safetensors").resize(4000));
        else if (breakage == QLatin1String("n_embd not divisible")) {
            QFile config(folder + "config.json");
            QVERIFY(config.open(QIODevice::ReadOnly));
            QByteArray text = config.readAll().replace("\"n_embd\": 32", "\"n_embd\": 30");
            config.close();
            QVERIFY(config.open(QIODevice::WriteOnly | QIODevice::Truncate));
            config.write(text);
        }
        arguments << "--model" << dir.path();
    }
    // Every row but "no --json" asks for the JSON, so that the refusal is the row's own.
    const bool json = QTest::currentDataTag() != QLatin1String("no --json");
    const Run run = attn::test::attnscope(arguments + options +
                                          (json ? QStringList{"--json", "-"} : QStringList{}));
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(attn::test::oneErrorLine(run.err, keyword).isEmpty(),
             attn::test::oneErrorLine(run.err, keyword).constData());
}

QTEST_GUILESS_MAIN(TestModelCli)
#include "tst_model_cli.moc"
