// `attnscope compute` as a user runs it: the real binary under QProcess; its reports, text
// and JSON, in English and Chinese. Refusals are in tst_clierrors, help in tst_clihelp.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H.
#include "clirun.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "engine/statistics.h"
#include "formats/commandline.h"
#include "formats/report.h"
#include "lab/presets.h"
#include "processrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <tuple>

using namespace attn;
using namespace attn::test;

namespace {

QJsonDocument parse(const QByteArray& json, QByteArray* problem)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        *problem = "invalid JSON at offset " + QByteArray::number(error.offset) + ": " +
                   error.errorString().toUtf8();
    else if (!document.isObject())
        *problem = "the JSON is not an object";
    return document;
}

// The nulls anywhere in `value`: what the report writes for NaN and ±inf.
qint64 countNulls(const QJsonValue& value)
{
    qint64 n = value.isNull() ? 1 : 0;
    if (value.isArray())
        for (const QJsonValue& v : value.toArray())
            n += countNulls(v);
    if (value.isObject())
        for (const QJsonValue& v : value.toObject())
            n += countNulls(v);
    return n;
}

// Empty when `m` is a rows × cols matrix of numbers within `tolerance` of expected(i, j);
// else a message naming the largest difference and where it is.
QByteArray compareMatrix(const char* what, const QJsonValue& m, int rows, int cols,
                         const std::function<double(int, int)>& expected, double tolerance)
{
    const QJsonArray a = m.toArray();
    if (a.size() != rows)
        return QByteArray(what) + ": " + QByteArray::number(a.size()) + " rows, expected " +
               QByteArray::number(rows);
    double largest = 0;
    int worstI = -1, worstJ = -1;
    for (int i = 0; i < rows; ++i) {
        const QJsonArray row = a[i].toArray();
        if (row.size() != cols)
            return QByteArray(what) + ": row " + QByteArray::number(i) + " has " +
                   QByteArray::number(row.size()) + " columns, expected " +
                   QByteArray::number(cols);
        for (int j = 0; j < cols; ++j) {
            const double difference = row[j].isDouble()
                                          ? std::abs(row[j].toDouble() - expected(i, j))
                                          : std::numeric_limits<double>::infinity();
            if (!(difference <= largest)) {
                largest = difference;
                worstI = i;
                worstJ = j;
            }
        }
    }
    if (largest <= tolerance)
        return {};
    return QByteArray(what) + ": largest difference " + QByteArray::number(largest, 'g', 3) +
           " at [" + QByteArray::number(worstI) + "][" + QByteArray::number(worstJ) +
           "], expected " + QByteArray::number(expected(worstI, worstJ), 'g', 9);
}

// Every option of `compute` that is a switch of the formula, i.e. a key of "config".
QStringList switchNames()
{
    ComputeOptions scratch;
    QStringList names;
    for (const Option& option : computeOptionTable(scratch, true))
        if (option.name != "text" && option.name != "cross-text" && option.name != "preset" &&
            option.name != "json")
            names << QString::fromStdString(option.name);
    return names;
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void namesOption_data();
    void namesOption();
    void textReport_data();
    void textReport();
    void reportInChinese_data();
    void reportInChinese();
    void peakedWarning_data();
    void peakedWarning();
    void sweepTableInChinese();
    void presetsInChinese();
    void jsonArticle();
    void jsonConfigKeys();
    void jsonTodaysFigures();
    void jsonConfigSpelling_data();
    void jsonConfigSpelling();
    void crossAttention();
    void jsonFile();
    void jsonNaN_data();
    void jsonNaN();
    void presetFirst();
    void seeds_data();
    void seeds();

private:
    QString article_;         // compute --preset article
    QJsonObject articleJson_; // compute --preset article --json -
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(ATTN_BINARY)).isExecutable(), "attnscope is not built");
    const Run text = attnscope({"compute", "--preset", "article"});
    QCOMPARE(text.exitCode, 0);
    QCOMPARE(text.err, QByteArray());
    article_ = QString::fromUtf8(text.out);

    const Run json = attnscope({"compute", "--preset", "article", "--json", "-"});
    QCOMPARE(json.exitCode, 0);
    QCOMPARE(json.err, QByteArray());
    QByteArray problem;
    articleJson_ = parse(json.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
}

void TestCli::textReport_data()
{
    QTest::addColumn<QString>("line"); // a whole line of the report, or its start

    QTest::newRow("tokens") << "tokens (B=2, T=4):";
    QTest::newRow("sequence 0") << "  [0] 我 | 喜欢 | 这个 | 产品";
    QTest::newRow("sequence 1") << "  [1] 它 | 的 | 设计 | 很好";
    QTest::newRow("config") << "config: tokenizer=spaces d-model=16 heads=1 seed=42 "
                               "embedding=torch positional=none scale=sqrt-dk temperature=1 "
                               "axis=keys mask=none mask-fill=neg-inf mask-stage=before-softmax "
                               "head-split=transpose padding-mask=on attention=self\n";
    QTest::newRow("x shape") << "x        (B, T, C)      = (2, 4, 16)";
    QTest::newRow("Q K V shape") << "Q, K, V  (B, H, T, d_k) = (2, 1, 4, 16)";
    QTest::newRow("scores shape") << "scores   (B, H, T, T)   = (2, 1, 4, 4)";
    QTest::newRow("output shape") << "output   (B, T, C)      = (2, 4, 16)";
    QTest::newRow("std before scaling") << "std before scaling: 1.1888\n";
    QTest::newRow("std after scaling") << "std after scaling:  0.2972  (scale 0.2500, ";
    QTest::newRow("row sums") << "row sums: 1.0000";
    QTest::newRow("no warnings") << "no warnings\n";
}

void TestCli::textReport()
{
    QFETCH(QString, line);
    QVERIFY2(article_.contains(line), qPrintable("not in the report:\n" + article_));
}

void TestCli::reportInChinese_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("lines"); // whole lines of the report, or their starts

    // As the Chinese tutorial's own program prints them: 缩放前标准差, 权重行和.
    QTest::newRow("article") << "article"
                             << QStringList{
                                    "词元 (B=2, T=4):\n",
                                    "  [0] 我 | 喜欢 | 这个 | 产品\n",
                                    "配置: tokenizer=spaces d-model=16 heads=1 seed=42",
                                    "x        (B, T, C)      = (2, 4, 16)\n",
                                    "缩放前标准差: 1.1888\n",
                                    "缩放后标准差: 0.2972  (缩放系数 0.2500, 温度 1.0000)\n",
                                    "权重行和: 1.0000 到 1.0000    权重列和: 0.8602 到 1.1298\n",
                                    "没有警告\n"};
    QTest::newRow("a warning") << "saturation"
                               << QStringList{"警告:\n  - ", "已饱和（最大权重 ≥ 0.99）"};
    QTest::newRow("cross-attention")
        << "cross-attention"
        << QStringList{"交叉注意力，查询来自 (B=1, T=3):\n", "键和值来自 (B=1, T=4):\n"};
}

// --language zh_CN: the report's words and warnings in Chinese, its numbers, shapes,
// config line and table as in English; --json stays the same.
void TestCli::reportInChinese()
{
    QFETCH(QString, preset);
    QFETCH(QStringList, lines);
    const Run zh = attnscope({"compute", "--preset", preset, "--language", "zh_CN"});
    QCOMPARE(zh.exitCode, 0);
    QCOMPARE(zh.err, QByteArray());
    const QString report = QString::fromUtf8(zh.out);
    for (const QString& line : lines)
        QVERIFY2(report.contains(line), qPrintable(line + "\nnot in the report:\n" + report));
    for (const char* english :
         {"std before", "row sums", "tokens", "warning", "config:", "ratio", "saturated"})
        QVERIFY2(!report.contains(QLatin1String(english)), english);
    // The heads' table: Chinese headings, each number starting in the terminal column where
    // its heading starts (a CJK character takes two).
    const QStringList reportLines = report.split(u'\n');
    const auto heading = std::ranges::find_if(
        reportLines, [](const QString& line) { return line.startsWith(u"序列 头 "); });
    QVERIFY2(heading != reportLines.end(), qPrintable(report));
    const QString& firstHead = *(heading + 1);
    const std::string headings = heading->toStdString();
    for (const auto& [word, number] : {std::pair{"std(S)", 2},
                                       {"比值", 4},
                                       {"熵/最大值", 5},
                                       {"饱和", 7},
                                       {"列和", 9},
                                       {"NaN", 10}}) {
        const std::size_t at = headings.find(word);
        QVERIFY2(at != std::string::npos, word);
        // Where the head's line's number-th field (fields are separated by spaces) starts.
        QList<int> starts;
        for (int k = 0; k < firstHead.size(); ++k)
            if (firstHead[k] != u' ' && (k == 0 || firstHead[k - 1] == u' '))
                starts << k;
        QVERIFY(number < starts.size());
        const int from = starts[number];
        QCOMPARE(terminalColumns(headings.substr(0, at)), from);
    }

    // English is the default, and --language en says so.
    const Run en = attnscope({"compute", "--preset", preset});
    QCOMPARE(attnscope({"compute", "--preset", preset, "--language", "en"}).out, en.out);
    QVERIFY(en.out != zh.out);
    // Same number of lines: only words change.
    QCOMPARE(zh.out.count('\n'), en.out.count('\n'));

    const Run json = attnscope({"compute", "--preset", preset, "--json", "-"});
    QCOMPARE(attnscope({"compute", "--preset", preset, "--json", "-", "--language", "zh_CN"}).out,
             json.out);

    const Run wrong = attnscope({"compute", "--preset", preset, "--language", "fr"});
    QCOMPARE(wrong.exitCode, 2);
    QCOMPARE(wrong.out, QByteArray());
    QVERIFY2(wrong.err.contains("--language must be en|zh_CN, not 'fr'"), wrong.err.constData());
}

// sweep --language zh_CN: the table's words as the sweep's charts word them, its numbers
// the same and in the same columns (a wide character takes two of a terminal's).
void TestCli::peakedWarning_data()
{
    // The √d_k lesson at the tutorial's d_model 512: peaked short of saturation, with what to
    // try; the textbook formula at the same size keeps quiet.
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("lines"); // in the report
    const QStringList large{"compute",   "--text", "The cat sat on the mat because it was tired .",
                            "--d-model", "512",    "--heads",
                            "4"};
    QTest::newRow("C=512, H=4 without scaling")
        << large + QStringList{"--scale", "none"}
        << QStringList{"  - The softmax is peaked: the largest weight of a row is 0.78 on average "
                       "and its entropy 0.90 of at most 3.46 bits. Without √d_k scaling the "
                       "logits spread √d_k = 11.3 times wider: turn √d_k scaling on.\n"};
    QTest::newRow("C=512, H=4 without scaling, in Chinese")
        << large + QStringList{"--scale", "none", "--language", "zh_CN"}
        << QStringList{"警告:\n  - softmax 过于尖锐：", "打开 √d_k 缩放。\n"};
    QTest::newRow("C=512, H=4, the textbook") << large << QStringList{"no warnings\n"};
}

void TestCli::peakedWarning()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, lines);
    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    const QString report = QString::fromUtf8(run.out);
    for (const QString& line : lines)
        QVERIFY2(report.contains(line), qPrintable(line + "\nnot in the report:\n" + report));
}

void TestCli::sweepTableInChinese()
{
    const Run en = attnscope({"sweep", "--to", "64"});
    const Run zh = attnscope({"sweep", "--to", "64", "--language", "zh_CN"});
    QCOMPARE(zh.exitCode, 0);
    QCOMPARE(zh.err, QByteArray());
    QCOMPARE(attnscope({"sweep", "--to", "64", "--language", "en"}).out, en.out);
    const QStringList zhLines = QString::fromUtf8(zh.out).split(u'\n');
    const QStringList enLines = QString::fromUtf8(en.out).split(u'\n');
    QCOMPARE(zhLines.size(), enLines.size());
    QVERIFY2(zhLines[0].startsWith(u"同一段文本在每个 d_k 下"), qPrintable(zhLines[0]));
    for (const char16_t* word : {u"logit 标准差", u"行熵（比特）", u"雅可比范数", u"饱和行"})
        QVERIFY2(zhLines[1].contains(QString::fromUtf16(word)), qPrintable(zhLines[1]));
    QVERIFY2(zhLines[2].contains(u"未缩放  已缩放"), qPrintable(zhLines[2]));
    QVERIFY2(zhLines.at(zhLines.size() - 2).startsWith(u"均匀的一行熵为 2.000 比特"),
             qPrintable(zh.out));
    // The numbers' lines are the same bytes; the headings end where the numbers do.
    for (int k = 3; k < 6; ++k)
        QCOMPARE(zhLines[k], enLines[k]);
    const std::string headings = zhLines[2].toStdString();
    QCOMPARE(terminalColumns(headings), terminalColumns(zhLines[3].toStdString()));
    QCOMPARE(terminalColumns(headings.substr(0, headings.find("未缩放") + strlen("未缩放"))),
             int(zhLines[3].indexOf(u"1.1888")) + 6);
}

// presets --language zh_CN: each preset's line as the preset panel says it.
void TestCli::presetsInChinese()
{
    const Run zh = attnscope({"presets", "--language", "zh_CN"});
    QCOMPARE(zh.exitCode, 0);
    QCOMPARE(zh.err, QByteArray());
    const QStringList lines = QString::fromUtf8(zh.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), int(presets().size()));
    for (std::size_t k = 0; k < presets().size(); ++k) {
        const QString name =
            QString::fromUtf8(presets()[k].name.data(), qsizetype(presets()[k].name.size()));
        QVERIFY2(lines[int(k)].startsWith(name + u' '), qPrintable(lines[int(k)]));
        // Each line says something in Chinese (a CJK character after the name).
        const QString line = lines[int(k)].mid(name.size());
        QVERIFY2(std::ranges::any_of(
                     line, [](QChar c) { return c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF; }),
                 qPrintable(lines[int(k)]));
    }
    QVERIFY2(lines[0].endsWith(u"教程里的 20 行代码，数值逐一对得上。"), qPrintable(lines[0]));
    QCOMPARE(attnscope({"presets", "--language", "en"}).out, attnscope({"presets"}).out);
}

void TestCli::jsonArticle()
{
    const QJsonObject& json = articleJson_;
    QCOMPARE(json["format"].toString(), QString("attnscope-result"));
    QCOMPARE(json["tokens"].toArray(), QJsonArray({QJsonArray{"我", "喜欢", "这个", "产品"},
                                                   QJsonArray{"它", "的", "设计", "很好"}}));
    QCOMPARE(json["lengths"].toArray(), QJsonArray({4, 4}));
    QCOMPARE(json["shape"].toObject(),
             QJsonObject({{"B", 2}, {"H", 1}, {"T", 4}, {"T_k", 4}, {"C", 16}, {"d_k", 16}}));

    const QJsonObject stats = json["stats"].toObject();
    const double stdScores = stats["std_scores"].toDouble();
    QVERIFY2(std::abs(stdScores - 1.1888) < 5e-5, qPrintable(QString::number(stdScores, 'g', 9)));
    const double stdScaled = stats["std_scaled"].toDouble();
    QVERIFY2(std::abs(stdScaled - 0.2972) < 5e-5, qPrintable(QString::number(stdScaled, 'g', 9)));
    QCOMPARE(stats["scale"].toDouble(), 0.25);
    QCOMPARE(json["warnings"].toArray(), QJsonArray());

    // One head per (b, h), each with its (T, T) matrices: L = S/4, P = softmax(L) by rows.
    const QJsonArray heads = json["heads"].toArray();
    QCOMPARE(heads.size(), 2);
    for (int b = 0; b < 2; ++b) {
        const QJsonObject head = heads[b].toObject();
        QCOMPARE(head["batch"].toInt(), b);
        QCOMPARE(head["head"].toInt(), 0);
        const QJsonArray s = head["scores"].toArray();
        auto score = [&](int i, int j) { return s[i].toArray()[j].toDouble(); };
        QByteArray problem = compareMatrix("scores", head["scores"], 4, 4, score,
                                           std::numeric_limits<double>::max());
        QVERIFY2(problem.isEmpty(), problem.constData());
        problem = compareMatrix(
            "scaled", head["scaled"], 4, 4, [&](int i, int j) { return score(i, j) / 4; }, 1e-6);
        QVERIFY2(problem.isEmpty(), problem.constData());
        auto softmax = [&](int i, int j) {
            double sum = 0;
            for (int k = 0; k < 4; ++k)
                sum += std::exp((score(i, k) - score(i, j)) / 4);
            return 1 / sum;
        };
        problem = compareMatrix("weights", head["weights"], 4, 4, softmax, 1e-6);
        QVERIFY2(problem.isEmpty(), problem.constData());
    }

    // O: (B, T, C) = (2, 4, 16), every entry a number.
    const QJsonArray output = json["output"].toArray();
    QCOMPARE(output.size(), 2);
    for (const QJsonValue& sequence : output) {
        const QByteArray problem = compareMatrix(
            "output", sequence, 4, 16, [](int, int) { return 0.0; },
            std::numeric_limits<double>::max());
        QVERIFY2(problem.isEmpty(), problem.constData());
    }
    QCOMPARE(json["nonfinite"].toInteger(-1), 0);
    QCOMPARE(countNulls(json), 0);
}

void TestCli::jsonConfigKeys()
{
    // "config" holds every switch of the command line, keyed by its option name...
    const QJsonObject config = articleJson_["config"].toObject();
    QStringList keys = config.keys();
    QStringList names = switchNames();
    keys.sort();
    names.sort();
    QCOMPARE(keys, names);
    QCOMPARE(config["tokenizer"].toString(), QString("spaces"));
    QCOMPARE(config["d-model"].toInt(), 16);
    QCOMPARE(config["heads"].toInt(), 1);
    QCOMPARE(config["seed"].toInt(), 42);
    QCOMPARE(config["embedding"].toString(), QString("torch"));
    QCOMPARE(config["positional"].toString(), QString("none"));
    QCOMPARE(config["temperature"].toDouble(), 1.0);
    QCOMPARE(config["padding-mask"].toString(), QString("on"));

    // ...and spelled as it takes them: fed back as options it reproduces the config.
    QStringList arguments{"compute", "--text", "我 喜欢 这个 产品\n它 的 设计 很好", "--json", "-"};
    for (auto it = config.begin(); it != config.end(); ++it)
        arguments << "--" + it.key()
                  << (it.value().isString() ? it.value().toString()
                                            : QString::number(it.value().toDouble(), 'g', 17));
    const Run again = attnscope(arguments);
    QCOMPARE(again.exitCode, 0);
    QByteArray problem;
    const QJsonObject json = parse(again.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(json["config"].toObject(), config);
    QCOMPARE(json["stats"].toObject().value("std_scores"),
             articleJson_["stats"].toObject().value("std_scores"));
}

// The figures of today's switches join the report where a switch makes them, after the
// keys it always had: the std of L after ALiBi and the cap, what a sink takes.
void TestCli::jsonTodaysFigures()
{
    const QStringList classic{
        "col_sum_max",  "col_sum_min", "mean_entropy", "mean_entropy_max", "mean_jacobian_norm",
        "mean_row_max", "nan_count",   "row_sum_max",  "row_sum_min",      "saturated_share",
        "scale",        "std_scaled",  "std_scores"};
    QCOMPARE(articleJson_["stats"].toObject().keys(), classic);
    const QJsonObject articleHead = articleJson_["heads"][0]["stats"].toObject();
    QVERIFY(!articleHead.contains("std_final_logits") && !articleHead.contains("sink_weights"));

    QByteArray problem;
    AttentionEngine engine;
    const Run capped = attnscope({"compute", "--preset", "softcap", "--json", "-"});
    QCOMPARE(capped.exitCode, 0);
    const QJsonObject softcap = parse(capped.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
    const Result cap = engine.compute(findPreset("softcap")->request);
    // keys() are sorted: the new ones fall between the others.
    const auto with = [&classic](QStringList added) {
        added << classic;
        added.sort();
        return added;
    };
    QCOMPARE(softcap["stats"].toObject().keys(), with({"std_final_logits"}));
    QCOMPARE(softcap["stats"]["std_final_logits"].toDouble(), cap.stats->stdFinalLogits);
    QVERIFY(cap.stats->stdFinalLogits < cap.stats->stdLogits);
    QCOMPARE(softcap["heads"][0]["stats"]["std_final_logits"].toDouble(),
             cap.stats->heads[0].stdFinalLogits);
    for (const QJsonValue& row : softcap["heads"][0]["scaled"].toArray())
        for (const QJsonValue& logit : row.toArray())
            QVERIFY(std::abs(logit.toDouble()) < 10); // c·tanh(L/c), c = 10

    const Run sunk = attnscope({"compute", "--preset", "attention-sink", "--json", "-"});
    QCOMPARE(sunk.exitCode, 0);
    const QJsonObject sinkJson = parse(sunk.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
    const Result sink = engine.compute(findPreset("attention-sink")->request);
    QCOMPARE(sinkJson["stats"].toObject().keys(), with({"max_sink_weight", "sink_rows"}));
    QCOMPARE(sinkJson["stats"]["max_sink_weight"].toDouble(), sink.stats->maxSinkWeight);
    QCOMPARE(sinkJson["stats"]["sink_rows"].toInt(), sink.stats->sinkRows);
    QVERIFY(sink.stats->sinkRows > 0);
    const QJsonArray heads = sinkJson["heads"].toArray();
    QCOMPARE(heads.size(), sink.heads());
    for (int h = 0; h < sink.heads(); ++h) {
        const QJsonArray weights = heads[h]["stats"]["sink_weights"].toArray();
        const std::vector<double>& expected = sink.stats->heads[std::size_t(h)].sinkWeights;
        QCOMPARE(weights.size(), qsizetype(expected.size()));
        for (qsizetype i = 0; i < weights.size(); ++i)
            QCOMPARE(weights[i].toDouble(), expected[std::size_t(i)]);
        QVERIFY(!heads[h]["stats"].toObject().contains("std_final_logits"));
    }
}

void TestCli::jsonConfigSpelling_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QJsonValue>("expected");
    forEachEnumOption([](const QString& option, const QStringList& spellings) {
        for (const QString& spelling : spellings)
            QTest::addRow("%s=%s", qPrintable(option), qPrintable(spelling))
                << option << spelling << QJsonValue(spelling);
    });
    QTest::newRow("padding-mask=on") << "padding-mask"
                                     << "on" << QJsonValue("on");
    QTest::newRow("padding-mask=off") << "padding-mask"
                                      << "off" << QJsonValue("off");
    QTest::newRow("d-model=8") << "d-model"
                               << "8" << QJsonValue(8);
    QTest::newRow("heads=2") << "heads"
                             << "2" << QJsonValue(2);
    QTest::newRow("seed=7") << "seed"
                            << "7" << QJsonValue(7);
    QTest::newRow("temperature=0.5") << "temperature"
                                     << "0.5" << QJsonValue(0.5);
}

void TestCli::jsonConfigSpelling()
{
    QFETCH(QString, option);
    QFETCH(QString, value);
    QFETCH(QJsonValue, expected);
    QStringList arguments{"compute", "--text",      "a b\nc", "--d-model", "8", "--heads",
                          "2",       "--" + option, value,    "--json",    "-"};
    if (option == "attention" && value == "cross")
        arguments << "--cross-text"
                  << "x y z"; // it needs the keys' text
    const Run run = attnscope(arguments);
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QByteArray problem;
    const QJsonObject json = parse(run.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(json["config"].toObject().value(option), expected);
}

void TestCli::crossAttention()
{
    // Queries from --text (5 tokens), keys and values from --cross-text (3): every
    // weight matrix is T_q × T_k, its rows sum to 1, and the keys' tokens are reported.
    const Run run =
        attnscope({"compute", "--text", "the cat sat on mats", "--cross-text", "猫 坐 垫子",
                   "--tokenizer", "spaces", "--heads", "2", "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QByteArray problem;
    const QJsonObject json = parse(run.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(json["config"].toObject()["attention"].toString(), QString("cross"));
    QCOMPARE(json["key_tokens"].toArray(), QJsonArray{QJsonValue(QJsonArray{"猫", "坐", "垫子"})});
    QCOMPARE(json["shape"].toObject()["T"].toInt(), 5);
    QCOMPARE(json["shape"].toObject()["T_k"].toInt(), 3);
    const QJsonArray heads = json["heads"].toArray();
    QCOMPARE(heads.size(), 2);
    for (const QJsonValue& head : heads) {
        const QJsonArray weights = head["weights"].toArray();
        QCOMPARE(weights.size(), 5);
        for (const QJsonValue& row : weights) {
            QCOMPARE(row.toArray().size(), 3);
            double sum = 0;
            for (const QJsonValue& w : row.toArray())
                sum += w.toDouble();
            QVERIFY(std::abs(sum - 1.0) < 1e-5);
        }
    }
    // The text report names both sentences and the rectangular shapes.
    const Run text = attnscope({"compute", "--text", "the cat sat on mats", "--cross-text",
                                "猫 坐 垫子", "--tokenizer", "spaces", "--heads", "2"});
    QVERIFY2(text.exitCode == 0, text.err.constData());
    const QString report = QString::fromUtf8(text.out);
    QVERIFY2(report.contains("keys and values from (B=1, T=3):\n  [0] 猫 | 坐 | 垫子"),
             qPrintable(report));
    QVERIFY2(report.contains("scores   (B, H, T_q, T_k)   = (1, 2, 5, 3)"), qPrintable(report));
}

void TestCli::jsonFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("out.json");
    QFile old(path); // an existing file is replaced whole
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write(QByteArray(1 << 20, 'x'));
    old.close();

    const Run run = attnscope({"compute", "--preset", "article", "--json", path});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(run.err, QByteArray());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray content = file.readAll();
    QByteArray problem;
    QCOMPARE(parse(content, &problem).object(), articleJson_);
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
             QStringList{"out.json"});
    // Readable like any file the user creates, not private like a temporary file.
    QVERIFY(file.permissions() & QFileDevice::ReadOwner);
    QVERIFY(file.permissions() & QFileDevice::WriteOwner);
}

void TestCli::jsonNaN_data()
{
    // Line 1 is "d <pad> <pad>"; the padding mask hides its pad keys 1 and 2.
    QTest::addColumn<QString>("axis");
    QTest::addColumn<bool>("nan");        // whether weights are NaN, not only logits -inf
    QTest::addColumn<QString>("warning"); // start of the first warning; empty: none
    QTest::newRow("axis=keys: -inf logits only") << "keys" << false << "";
    QTest::newRow("axis=queries: pad columns NaN")
        << "queries" << true << "NaN where every query is masked with -inf (column [1, 1], [1, 2])";
}

void TestCli::jsonNaN()
{
    QFETCH(QString, axis);
    QFETCH(bool, nan);
    QFETCH(QString, warning);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("nan.json");
    const Run run = attnscope({"compute", "--text", "a b c\nd", "--padding-mask", "on",
                               "--mask-fill", "neg-inf", "--axis", axis, "--json", path});
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QByteArray problem;
    const QJsonObject json = parse(file.readAll(), &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());

    // Every NaN and ±inf is a null, and "nonfinite" counts them all.
    const qint64 nonfinite = json["nonfinite"].toInteger(-1);
    QVERIFY2(nonfinite > 0, "no non-finite number was counted");
    QCOMPARE(countNulls(json), nonfinite);

    const int H = json["shape"].toObject()["H"].toInt();
    const QJsonObject head = json["heads"].toArray()[1 * H + 0].toObject(); // b = 1, h = 0
    for (int i = 0; i < 3; ++i) {
        const QJsonArray scaled = head["scaled"].toArray()[i].toArray();
        const QJsonArray weights = head["weights"].toArray()[i].toArray();
        QVERIFY2(scaled[0].isDouble(), qPrintable(QString("L[%1][0] is not a number").arg(i)));
        QVERIFY2(weights[0].isDouble(), qPrintable(QString("P[%1][0] is not a number").arg(i)));
        for (int j : {1, 2}) {
            QVERIFY2(scaled[j].isNull(),
                     qPrintable(QString("L[%1][%2] = -inf is not null").arg(i).arg(j)));
            QCOMPARE(weights[j].isNull(), nan);
        }
    }
    QCOMPARE(json["stats"].toObject()["nan_count"].toInt() > 0, nan);
    const QJsonArray warnings = json["warnings"].toArray();
    if (warning.isEmpty()) {
        QCOMPARE(warnings, QJsonArray());
    } else {
        const QString text = warnings[0].toObject()["text"].toString();
        QVERIFY2(text.startsWith(warning), qPrintable(text));
    }
}

void TestCli::presetFirst()
{
    // The preset applies first wherever it stands; later options change it.
    for (const QStringList& arguments :
         {QStringList{"compute", "--scale", "none", "--preset", "article", "--json", "-"},
          QStringList{"compute", "--preset", "article", "--scale", "none", "--json", "-"}}) {
        const Run run = attnscope(arguments);
        QCOMPARE(run.exitCode, 0);
        QByteArray problem;
        const QJsonObject json = parse(run.out, &problem).object();
        QVERIFY2(problem.isEmpty(), problem.constData());
        QCOMPARE(json["config"].toObject()["scale"].toString(), QString("none"));
        QCOMPARE(json["config"].toObject()["d-model"].toInt(), 16);
        QCOMPARE(json["tokens"], articleJson_["tokens"]);
    }
    // --text replaces the preset's text; repeated, it adds lines.
    const Run run = attnscope(
        {"compute", "--preset", "article", "--text", "x y", "--text", "z", "--json", "-"});
    QCOMPARE(run.exitCode, 0);
    QByteArray problem;
    const QJsonObject json = parse(run.out, &problem).object();
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(json["tokens"].toArray(),
             QJsonArray({QJsonArray{"x", "y"}, QJsonArray{"z", "<pad>"}}));
}

void TestCli::seeds_data()
{
    QTest::addColumn<QString>("seed");
    QTest::addColumn<QString>("shown"); // in the report's config line
    QTest::newRow("0") << "0"
                       << "0";
    QTest::newRow("42") << "42"
                        << "42";
    QTest::newRow("2^64-1") << "18446744073709551615"
                            << "18446744073709551615";
    QTest::newRow("leading zeros") << "007"
                                   << "7";
}

void TestCli::seeds()
{
    QFETCH(QString, seed);
    QFETCH(QString, shown);
    const Run run = attnscope({"compute", "--text", "the cat sat", "--seed", seed});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QCOMPARE(run.err, QByteArray());
    QVERIFY2(run.out.contains(" seed=" + shown.toUtf8() + " "), run.out.constData());
}

// What picks compute's and export's form: --model and --attention-file, spelt alone or with
// "=", and nothing that only begins like them.
void TestCli::namesOption_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("names");
    const auto row = [](const char* tag, QStringList args, const char* name, bool names) {
        QTest::newRow(tag) << args << QString::fromLatin1(name) << names;
    };
    row("alone", {"--text", "a", "--model", "dir"}, "model", true);
    row("with =", {"--model=dir"}, "model", true);
    row("empty after =", {"--model="}, "model", true);
    row("absent", {"--text", "a"}, "model", false);
    row("a longer option", {"--models", "dir"}, "model", false);
    row("a longer option with =", {"--model-x=1"}, "model", false);
    row("a value, not an option", {"--text", "model"}, "model", false);
    row("one dash", {"-model", "dir"}, "model", false);
    row("attention file", {"--attention-file", "a.npz"}, "attention-file", true);
    row("attention, not the file", {"--attention", "cross"}, "attention-file", false);
}

void TestCli::namesOption()
{
    QFETCH(QStringList, args);
    QFETCH(QString, name);
    QFETCH(bool, names);
    std::vector<std::string> list;
    for (const QString& arg : args)
        list.push_back(arg.toStdString());
    QCOMPARE(attn::namesOption(list, name.toStdString()), names);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
