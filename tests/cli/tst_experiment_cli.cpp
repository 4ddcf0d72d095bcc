// `attnscope export --model DIR --experiment …`: each experiment's JSON holds what
// `compute --model` writes for it (--logit-lens, --head-importance, --induction-test,
// --rollout) on the same run, its CSV the same numbers, its figures are a PNG, an SVG and
// a PDF that read back; a wrong combination is exit status 2 with one line, a file that
// cannot be written exit status 1.
#include "clirun.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using attn::test::Run;

namespace {

const QString kModel = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/small-f32");
const QStringList kText{"--model", kModel, "--text", "The cat sat on the mat"};

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestExperimentCli : public QObject {
    Q_OBJECT

private slots:
    void jsonEqualsCompute_data();
    void jsonEqualsCompute();
    void csvHoldsTheNumbers();
    void figures_data();
    void figures();
    void refusals_data();
    void refusals();
    void unwritable();

private:
    QTemporaryDir dir_;
};

void TestExperimentCli::jsonEqualsCompute_data()
{
    QTest::addColumn<QStringList>("input");
    QTest::addColumn<QString>("experiment");
    QTest::addColumn<QStringList>("computeOptions");
    QTest::addColumn<QString>("key");
    QTest::newRow("logit lens") << kText << "logit-lens" << QStringList{"--logit-lens"}
                                << "logit_lens";
    QTest::newRow("which heads matter, a target named")
        << kText + QStringList{"--target-token", "42"} << "head-importance"
        << QStringList{"--head-importance"} << "head_importance";
    QTest::newRow("head roles on the induction test")
        << QStringList{"--model", kModel, "--induction-test", "6", "--seed", "3"} << "head-roles"
        << QStringList{} << "head_scores";
    QTest::newRow("rollout, a switch on") << kText + QStringList{"--scale", "none"} << "rollout"
                                          << QStringList{"--rollout"} << "rollout";
}

void TestExperimentCli::jsonEqualsCompute()
{
    QFETCH(QStringList, input);
    QFETCH(QString, experiment);
    QFETCH(QStringList, computeOptions);
    QFETCH(QString, key);
    const QString out = dir_.filePath(experiment + ".json");
    const Run exported = attn::test::attnscope(
        QStringList{"export"} + input + QStringList{"--experiment", experiment, "--out", out});
    QCOMPARE(exported.exitCode, 0);
    const QJsonObject file = QJsonDocument::fromJson(readAll(out)).object();
    const Run computed = attn::test::attnscope(QStringList{"compute"} + input + computeOptions +
                                               QStringList{"--json", "-"});
    QCOMPARE(computed.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(computed.out).object();
    QVERIFY(!json.value(key).isUndefined());
    QCOMPARE(file.value(key), json.value(key));
    QCOMPARE(file.value(QLatin1String("token_ids")), json.value(QLatin1String("token_ids")));
    QCOMPARE(file.value(QLatin1String("switches")), json.value(QLatin1String("switches")));
    QVERIFY(file.value(QLatin1String("layers")).toArray().isEmpty()); // the weights left out
}

// The rollout's CSV: a line a cell, the numbers of its JSON.
void TestExperimentCli::csvHoldsTheNumbers()
{
    const QString csv = dir_.filePath("rollout.csv"), json = dir_.filePath("rollout-n.json");
    for (const QString& out : {csv, json})
        QCOMPARE(attn::test::attnscope(QStringList{"export"} + kText +
                                       QStringList{"--experiment", "rollout", "--out", out})
                     .exitCode,
                 0);
    const QJsonArray rollout =
        QJsonDocument::fromJson(readAll(json)).object().value(QLatin1String("rollout")).toArray();
    const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
    const qsizetype T = rollout.size();
    QVERIFY(T > 1);
    QCOMPARE(lines.size(), T * T + 1);
    QCOMPARE(lines.front(), QByteArray("query,query_token,key,key_token,rollout"));
    for (qsizetype i = 0; i < T; ++i)
        for (qsizetype j = 0; j < T; ++j) {
            const QList<QByteArray> fields = lines[1 + i * T + j].split(',');
            QCOMPARE(fields.front().toLongLong(), i);
            QCOMPARE(float(fields.back().toDouble()), float(rollout[i].toArray()[j].toDouble()));
        }
}

void TestExperimentCli::figures_data()
{
    QTest::addColumn<QString>("experiment");
    QTest::addColumn<QStringList>("input");
    QTest::newRow("logit lens") << "logit-lens" << kText;
    QTest::newRow("which heads matter") << "head-importance" << kText;
    QTest::newRow("head roles") << "head-roles"
                                << QStringList{"--model", kModel, "--induction-test", "5"};
    QTest::newRow("rollout, row 2") << "rollout" << kText + QStringList{"--row", "2"};
}

void TestExperimentCli::figures()
{
    QFETCH(QString, experiment);
    QFETCH(QStringList, input);
    for (const QString suffix : {"png", "svg", "pdf"}) {
        const QString out = dir_.filePath(experiment + QLatin1Char('.') + suffix);
        const Run run = attn::test::attnscope(
            QStringList{"export"} + input + QStringList{"--experiment", experiment, "--out", out});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QByteArray bytes = readAll(out);
        if (suffix == QLatin1String("png")) {
            const QImage image = QImage::fromData(bytes, "PNG");
            QVERIFY(!image.isNull());
            QVERIFY(image.width() > 200 && image.height() > 100);
        } else if (suffix == QLatin1String("svg")) {
            QXmlStreamReader xml(bytes);
            while (!xml.atEnd())
                xml.readNext();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            QVERIFY(bytes.contains("<svg"));
        } else {
            QVERIFY(bytes.startsWith("%PDF"));
        }
    }
}

void TestExperimentCli::refusals_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("keyword");
    const QString out = QStringLiteral("x.png");
    QTest::newRow("an unknown experiment")
        << kText + QStringList{"--experiment", "lens", "--out", out} << "--experiment must be";
    QTest::newRow("npy") << kText + QStringList{"--experiment", "rollout", "--out", "x.npy"}
                         << ".npy";
    QTest::newRow("--what beside it")
        << kText + QStringList{"--experiment", "rollout", "--what", "model", "--out", out}
        << "--what";
    QTest::newRow("a row past the text")
        << kText + QStringList{"--experiment", "rollout", "--row", "40", "--out", out}
        << "--row 40";
    QTest::newRow("--row with the logit lens")
        << kText + QStringList{"--experiment", "logit-lens", "--row", "1", "--out", out} << "--row";
    QTest::newRow("--target-token with rollout")
        << kText + QStringList{"--experiment", "rollout", "--target-token", "3", "--out", out}
        << "--target-token";
    QTest::newRow("a target outside the vocabulary")
        << kText + QStringList{"--experiment", "head-importance", "--target-token",
                               "9999",         "--out",           out}
        << "head-importance";
    QTest::newRow("head roles on one token")
        << QStringList{"--model",      kModel,       "--text", "The",
                       "--experiment", "head-roles", "--out",  out}
        << "head-roles";
    QTest::newRow("a knock-out the model lacks")
        << kText + QStringList{"--experiment", "rollout", "--knock-out", "7.0", "--out", out}
        << "knock-out";
    QTest::newRow("no --out") << kText + QStringList{"--experiment", "rollout"} << "--out";
}

void TestExperimentCli::refusals()
{
    QFETCH(QStringList, options);
    QFETCH(QString, keyword);
    const Run run = attn::test::attnscope(QStringList{"export"} + options);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(attn::test::oneErrorLine(run.err, keyword).isEmpty(),
             attn::test::oneErrorLine(run.err, keyword).constData());
    QVERIFY(!QFile::exists(QStringLiteral("x.png")));
}

void TestExperimentCli::unwritable()
{
    const Run run = attn::test::attnscope(
        QStringList{"export"} + kText +
        QStringList{"--experiment", "rollout", "--out", "/nonexistent/folder/r.png"});
    QCOMPARE(run.exitCode, 1);
    QVERIFY(run.err.contains("/nonexistent/folder/r.png"));
}

QTEST_MAIN(TestExperimentCli)
#include "tst_experiment_cli.moc"
