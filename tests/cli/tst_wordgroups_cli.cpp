// `attnscope compute --model DIR --group-words`: the JSON's weights are word by word — the
// sum over a word's tokens' columns, the mean over its rows, computed here again from the
// same run without the option — with a "words" list ({"text", "tokens"}) beside the
// unchanged token_ids and tokens; Chinese byte pieces (the Qwen2 test checkpoint's
// byte-level vocabulary, GPT-2's) grouped into ICU's words.
#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using attn::test::Run;

namespace {

const QString kReference = QStringLiteral(ATTN_REFERENCE_DIR);

QJsonObject computed(const QString& model, const QString& text, bool groupWords)
{
    QStringList arguments{"compute", "--model", kReference + model, "--text", text, "--json", "-"};
    if (groupWords)
        arguments << "--group-words";
    const Run run = attn::test::attnscope(arguments);
    if (run.exitCode != 0)
        qFatal("attnscope failed: %s", run.err.constData());
    return QJsonDocument::fromJson(run.out).object();
}

} // namespace

class TestWordGroupsCli : public QObject {
    Q_OBJECT

private slots:
    void groupedJson_data();
    void groupedJson();
    void withoutTheOptionNoWords();
};

void TestWordGroupsCli::groupedJson_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<QList<int>>("sizes");
    QTest::newRow("qwen2 chinese bytes")
        << "/llama/qwen2-f32" << QStringLiteral("我喜欢这个产品")
        << QStringList{"我", "喜欢", "这个", "产品"} << QList<int>{3, 6, 6, 6};
    QTest::newRow("gpt2 english") << "/gpt2/small-f32" << QStringLiteral("The cat sat")
                                  << QStringList{"The", " cat", " sat"} << QList<int>{1, 1, 1};
    QTest::newRow("gpt2 chinese") << "/gpt2/small-f32" << QStringLiteral("猫坐在垫子上")
                                  << QStringList{"猫", "坐在", "垫子", "上"} << QList<int>{};
}

void TestWordGroupsCli::groupedJson()
{
    QFETCH(QString, model);
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    QFETCH(QList<int>, sizes);
    const QJsonObject tokens = computed(model, text, false);
    const QJsonObject grouped = computed(model, text, true);
    // 1. token_ids and tokens as they are; the words cover every token once, in order.
    for (const char* key : {"token_ids", "tokens", "pieces", "next_tokens"})
        QCOMPARE(grouped.value(QLatin1String(key)), tokens.value(QLatin1String(key)));
    const int T = int(tokens.value(QLatin1String("token_ids")).toArray().size());
    const QJsonArray list = grouped.value(QLatin1String("words")).toArray();
    QStringList texts;
    QList<int> found;
    QList<QList<int>> members;
    int next = 0;
    for (const QJsonValue value : list) {
        const QJsonObject word = value.toObject();
        texts << word.value(QLatin1String("text")).toString();
        QList<int> indices;
        for (const QJsonValue t : word.value(QLatin1String("tokens")).toArray()) {
            QCOMPARE(t.toInt(), next++);
            indices << t.toInt();
        }
        found << int(indices.size());
        members << indices;
    }
    QCOMPARE(next, T);
    QCOMPARE(texts, words);
    if (!sizes.isEmpty())
        QCOMPARE(found, sizes);
    // 2. Every head W × W: word a's row is the mean over its tokens' rows of the sums over
    // word b's tokens' columns; each row sums to 1.
    const int W = int(members.size());
    const QJsonArray layers = tokens.value(QLatin1String("layers")).toArray();
    const QJsonArray groupedLayers = grouped.value(QLatin1String("layers")).toArray();
    QCOMPARE(groupedLayers.size(), layers.size());
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toObject().value(QLatin1String("heads")).toArray();
        const QJsonArray groupedHeads =
            groupedLayers[l].toObject().value(QLatin1String("heads")).toArray();
        QCOMPARE(groupedHeads.size(), heads.size());
        for (int h = 0; h < heads.size(); ++h) {
            const QJsonArray p = heads[h].toObject().value(QLatin1String("weights")).toArray();
            const QJsonArray q =
                groupedHeads[h].toObject().value(QLatin1String("weights")).toArray();
            QCOMPARE(q.size(), qsizetype(W));
            for (int a = 0; a < W; ++a) {
                const QJsonArray row = q[a].toArray();
                QCOMPARE(row.size(), qsizetype(W));
                double rowSum = 0;
                for (int b = 0; b < W; ++b) {
                    double expected = 0;
                    for (const int i : members[a])
                        for (const int j : members[b])
                            expected += p[i].toArray()[j].toDouble();
                    expected /= double(members[a].size());
                    QVERIFY2(std::abs(row[b].toDouble() - expected) < 1e-6,
                             qPrintable(QStringLiteral("layer %1 head %2 (%3, %4): %5, not %6")
                                            .arg(l)
                                            .arg(h)
                                            .arg(a)
                                            .arg(b)
                                            .arg(row[b].toDouble())
                                            .arg(expected)));
                    rowSum += row[b].toDouble();
                }
                QVERIFY(std::abs(rowSum - 1.0) < 1e-5);
            }
        }
    }
}

void TestWordGroupsCli::withoutTheOptionNoWords()
{
    const QJsonObject out = computed(QStringLiteral("/gpt2/small-f32"), "The cat", false);
    QVERIFY(!out.contains(QLatin1String("words")));
}

QTEST_GUILESS_MAIN(TestWordGroupsCli)
#include "tst_wordgroups_cli.moc"
