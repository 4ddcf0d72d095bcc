// `attnscope compute` as a user runs it: the real binary under QProcess. Exit status 0
// is success, 1 a file that could not be written, 2 bad input; a failure prints one
// line "attnscope: <problem>" on standard error, nothing on standard output, and
// leaves no file behind.
//
// Legend: B sequences, T tokens, C = d_model, H heads, d_k = C / H.
#include "commandline.h"
#include "options.h"
#include "presets.h"
#include "processrun.h"
#include "report.h"

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

namespace {

constexpr int kTimeoutMs = 120'000;

using attn::test::finish;
using attn::test::Run;

Run attnscope(const QStringList& arguments)
{
    QProcess process;
    process.setProgram(QStringLiteral(ATTN_BINARY));
    process.setArguments(arguments);
    return finish(process, kTimeoutMs);
}

// Runs `script` with /bin/sh: $0 is the attnscope binary, $1 … are `arguments`.
Run shell(const QString& script, const QStringList& arguments = {})
{
    QProcess process;
    process.setProgram(QStringLiteral("/bin/sh"));
    process.setArguments(QStringList{"-c", script, QStringLiteral(ATTN_BINARY)} + arguments);
    return finish(process, kTimeoutMs);
}

// Empty when `err` is exactly one line "attnscope: …" holding `keyword`; else why not.
QByteArray oneErrorLine(const QByteArray& err, const QString& keyword)
{
    if (!err.startsWith("attnscope: ") || !err.endsWith('\n') || err.count('\n') != 1)
        return "standard error is not one line \"attnscope: …\": \"" + err + "\"";
    if (!QString::fromUtf8(err).contains(keyword))
        return "standard error \"" + err.trimmed() + "\" does not name \"" + keyword.toUtf8() +
               "\"";
    return {};
}

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

// Calls add(option, spellings) for every enum option.
template <typename Add> void forEachEnumOption(Add&& add)
{
    using All = std::tuple<TokenizerMode, EmbeddingMode, Positional, ScaleMode, SoftmaxAxis,
                           MaskKind, MaskFill, MaskStage, HeadSplit, AttentionKind>;
    std::apply(
        [&](auto... tag) {
            (
                [&] {
                    using E = decltype(tag);
                    QStringList spellings;
                    for (const auto& row : EnumTable<E>::rows)
                        spellings << QString::fromUtf8(row.text.data(),
                                                       static_cast<qsizetype>(row.text.size()));
                    add(QString::fromUtf8(EnumTable<E>::option.data(),
                                          static_cast<qsizetype>(EnumTable<E>::option.size())),
                        spellings);
                }(),
                ...);
        },
        All{});
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
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
    void jsonConfigSpelling_data();
    void jsonConfigSpelling();
    void crossAttention();
    void jsonFile();
    void jsonNaN_data();
    void jsonNaN();
    void presetFirst();
    void badInput_data();
    void badInput();
    void invalidUtf8_data();
    void invalidUtf8();
    void writeFailure_data();
    void writeFailure();
    void fullStandardOutput_data();
    void fullStandardOutput();
    void seeds_data();
    void seeds();
    void versionAndHelp_data();
    void versionAndHelp();
    void helpInChinese_data();
    void helpInChinese();
    void helpRefusals_data();
    void helpRefusals();
    void sessionFileOpensTheWindow_data();
    void sessionFileOpensTheWindow();

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
    QCOMPARE(json["key_tokens"].toArray(), QJsonArray({QJsonArray{"猫", "坐", "垫子"}}));
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

void TestCli::badInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("keyword"); // part of the one line on standard error

    const QStringList text{"compute", "--text", "the cat sat"};
    QTest::newRow("unknown option")
        << text + QStringList{"--frobnicate", "1"} << "unknown option --frobnicate";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    QTest::newRow("help for no command")
        << QStringList{"help", "frobnicate"} << "no help for 'frobnicate': not a command";
    QTest::newRow("presets: a word")
        << QStringList{"presets", "all"} << "unexpected argument 'all'";
    QTest::newRow("presets: an option")
        << QStringList{"presets", "--preset", "article"} << "unknown option --preset";
    QTest::newRow("presets: --language fr")
        << QStringList{"presets", "--language", "fr"} << "--language must be en|zh_CN, not 'fr'";
    QTest::newRow("single dash") << text + QStringList{"-x"} << "unexpected argument '-x'";
    QTest::newRow("bare word") << text + QStringList{"hello"} << "unexpected argument 'hello'";
    QTest::newRow("missing value: --heads")
        << text + QStringList{"--heads"} << "--heads needs a value";
    QTest::newRow("missing value: --text")
        << QStringList{"compute", "--text"} << "--text needs a value";
    QTest::newRow("empty value: --heads=")
        << text + QStringList{"--heads="} << "--heads must be a whole number";

    forEachEnumOption([&](const QString& option, const QStringList& spellings) {
        QTest::addRow("bad value: --%s nosuch", qPrintable(option))
            << text + QStringList{"--" + option, "nosuch"}
            << "--" + option + " must be " + spellings.join('|') + ", not 'nosuch'";
        QTest::addRow("bad value: --%s %s (case)", qPrintable(option),
                      qPrintable(spellings[0].toUpper()))
            << text + QStringList{"--" + option, spellings[0].toUpper()}
            << "--" + option + " must be " + spellings.join('|');
    });
    QTest::newRow("bad value: --padding-mask yes") << text + QStringList{"--padding-mask", "yes"}
                                                   << "--padding-mask must be on|off, not 'yes'";

    QTest::newRow("--attention cross without --cross-text")
        << text + QStringList{"--attention", "cross"}
        << "cross-attention needs the keys' and values' text: give it with --cross-text";
    QTest::newRow("--cross-text blank")
        << text + QStringList{"--cross-text", " \t"} << "give it with --cross-text";
    QTest::newRow("--cross-text with --mask causal")
        << text + QStringList{"--cross-text", "a b", "--mask", "causal"}
        << "a causal mask has no meaning in cross-attention";
    QTest::newRow("--cross-text of 2 lines for 3")
        << QStringList{"compute", "--text", "a\nb\nc", "--cross-text", "x\ny"}
        << "the keys' and values' text has 2 lines and the queries' text 3";
    QTest::newRow("--heads 3 --d-model 16") << text + QStringList{"--heads", "3", "--d-model", "16"}
                                            << "heads (3) must divide d_model (16)";
    QTest::newRow("--heads 32 --d-model 16")
        << text + QStringList{"--heads", "32", "--d-model", "16"}
        << "heads must be between 1 and d_model (16), not 32";
    QTest::newRow("--heads 0") << text + QStringList{"--heads", "0"}
                               << "--heads must be between 1 and";
    QTest::newRow("--temperature 0")
        << text + QStringList{"--temperature", "0"} << "--temperature must be greater than 0";
    QTest::newRow("--temperature -1")
        << text + QStringList{"--temperature", "-1"} << "--temperature must be greater than 0";
    QTest::newRow("--temperature abc") << text + QStringList{"--temperature", "abc"}
                                       << "--temperature must be a number, not 'abc'";
    QTest::newRow("--temperature nan") << text + QStringList{"--temperature", "nan"}
                                       << "--temperature must be a number, not 'nan'";
    QTest::newRow("--temperature inf")
        << text + QStringList{"--temperature", "inf"} << "--temperature must be a number";
    QTest::newRow("--temperature 1e-7") << text + QStringList{"--temperature", "1e-7"}
                                        << "--temperature must be between 1e-06 and 1e+06";
    QTest::newRow("--temperature 2e6") << text + QStringList{"--temperature", "2e6"}
                                       << "--temperature must be between 1e-06 and 1e+06";
    QTest::newRow("--temperature '1 '")
        << text + QStringList{"--temperature", "1 "} << "--temperature must be a number";
    QTest::newRow("--d-model 0") << text + QStringList{"--d-model", "0"}
                                 << "--d-model must be between 1 and 4096, not 0";
    QTest::newRow("--d-model 5000") << text + QStringList{"--d-model", "5000"}
                                    << "--d-model must be between 1 and 4096, not 5000";
    QTest::newRow("--d-model 16.5") << text + QStringList{"--d-model", "16.5"}
                                    << "--d-model must be a whole number, not '16.5'";
    QTest::newRow("--seed -1") << text + QStringList{"--seed", "-1"}
                               << "--seed must be a whole number from 0 to 18446744073709551615";
    QTest::newRow("--seed 18446744073709551616")
        << text + QStringList{"--seed", "18446744073709551616"}
        << "--seed must be a whole number from 0 to 18446744073709551615";
    QTest::newRow("--seed 0x10") << text + QStringList{"--seed", "0x10"}
                                 << "--seed must be a whole number";
    QTest::newRow("empty --text") << QStringList{"compute", "--text", ""} << "no text";
    QTest::newRow("whitespace-only --text")
        << QStringList{"compute", "--text", " \t  "} << "no text";
    QTest::newRow("blank lines --text") << QStringList{"compute", "--text", "\n \n"} << "no text";
    QTest::newRow("neither --text nor --preset") << QStringList{"compute"} << "no text";
    QTest::newRow("--preset nosuch")
        << QStringList{"compute", "--preset", "nosuch"} << "--preset must be article|saturation|";
    QTest::newRow("--json ''") << text + QStringList{"--json", ""} << "--json needs a file name";
}

void TestCli::badInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, keyword);
    // A --json file up front: bad input must not create it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (arguments.first() == "compute")
        arguments = arguments.mid(0, 1) + QStringList{"--json", dir.filePath("out.json")} +
                    arguments.mid(1);

    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 2);
    const QByteArray problem = oneErrorLine(run.err, keyword);
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
             QStringList());
}

void TestCli::invalidUtf8_data()
{
    // printf formats: QProcess's arguments are QStrings and cannot carry invalid UTF-8.
    QTest::addColumn<QString>("printf");
    QTest::addColumn<QString>("keyword");
    QTest::newRow("ff fe") << "\\377\\376"
                           << "invalid UTF-8 at byte 0";
    QTest::newRow("after a word") << "abc \\377"
                                  << "invalid UTF-8 at byte 4";
    QTest::newRow("truncated") << "caf\\303"
                               << "invalid UTF-8 at byte 3";
    QTest::newRow("overlong slash") << "\\300\\257"
                                    << "invalid UTF-8 at byte 0";
    QTest::newRow("surrogate") << "a\\355\\240\\200"
                               << "invalid UTF-8 at byte 1";
    QTest::newRow("second line") << "ok\\nno \\377"
                                 << "invalid UTF-8 at byte 6";
}

void TestCli::invalidUtf8()
{
    QFETCH(QString, printf);
    QFETCH(QString, keyword);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Run run = shell(R"sh("$0" compute --json "$1" --text "$(printf "$2")")sh",
                          {dir.filePath("out.json"), printf});
    QCOMPARE(run.exitCode, 2);
    const QByteArray problem = oneErrorLine(run.err, keyword);
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(run.out, QByteArray());
    QVERIFY(QDir(dir.path()).isEmpty());

    // The same road carries valid bytes: "caf\303\251" is "café".
    const Run valid = shell(R"sh("$0" compute --json - --text "$(printf 'caf\303\251')")sh");
    QCOMPARE(valid.exitCode, 0);
    QVERIFY2(valid.out.contains("\"café\""), valid.out.left(200).constData());
}

void TestCli::writeFailure_data()
{
    QTest::addColumn<QString>("target"); // "%1" is the temporary folder
    QTest::addColumn<QString>("keyword");
    QTest::addColumn<QStringList>("before"); // entries of the folder before and after

    QTest::newRow("folder does not exist") << "%1/missing/out.json"
                                           << "cannot write %1/missing/out.json" << QStringList();
    QTest::newRow("target is a folder") << "%1/out.json"
                                        << "cannot write %1/out.json" << QStringList{"out.json"};
    QTest::newRow("/proc/version") << "/proc/version"
                                   << "cannot write /proc/version" << QStringList();
}

void TestCli::writeFailure()
{
    QFETCH(QString, target);
    QFETCH(QString, keyword);
    QFETCH(QStringList, before);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QString& folder : before)
        QVERIFY(QDir(dir.path()).mkdir(folder));
    auto inFolder = [&](const QString& text) {
        return text.contains("%1") ? text.arg(dir.path()) : text;
    };
    target = inFolder(target);

    const Run run = attnscope({"compute", "--preset", "article", "--json", target});
    QCOMPARE(run.exitCode, 1);
    const QByteArray problem = oneErrorLine(run.err, inFolder(keyword));
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(run.out, QByteArray());
    // No partial file and no temporary file beside the target.
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
             before);
    for (const QString& folder : before)
        QVERIFY(QDir(dir.filePath(folder))
                    .isEmpty(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden));
}

void TestCli::fullStandardOutput_data()
{
    QTest::addColumn<QString>("json"); // the --json value, or empty for the text report
    QTest::newRow("text report") << "";
    QTest::newRow("--json -") << "-";
}

void TestCli::fullStandardOutput()
{
    // A report that cannot be written is a write failure, not a success.
    QFETCH(QString, json);
    if (!QFileInfo::exists("/dev/full"))
        QSKIP("no /dev/full here");
    const Run run = json.isEmpty()
                        ? shell(R"("$0" compute --preset article > /dev/full)")
                        : shell(R"("$0" compute --preset article --json "$1" > /dev/full)", {json});
    QCOMPARE(run.exitCode, 1);
    const QByteArray problem = oneErrorLine(run.err, "cannot write to standard output");
    QVERIFY2(problem.isEmpty(), problem.constData());
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

void TestCli::versionAndHelp_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("pattern"); // a regular expression for standard output

    QTest::newRow("--version")
        << QStringList{"--version"}
        << R"(^attnscope \d+\.\d+\.\d+\nmatrix products: (OpenBLAS .*\(1 thread per call(; kernels chosen by AttnScope: OpenBLAS did not know this CPU)?\)|Eigen's own kernels)\n$)";
    QTest::newRow("--help") << QStringList{"--help"}
                            << R"(usage:[\s\S]*--axis keys\|queries\|batch)";
    QTest::newRow("help") << QStringList{"help"} << R"(usage:[\s\S]*--json FILE)";
    QTest::newRow("-h") << QStringList{"-h"} << R"(usage:[\s\S]*--mask-fill neg-inf\|-1e9)";
    // A command's own help: its usage, then compute's options where it computes, then its own.
    QTest::newRow("export --help")
        << QStringList{"export", "--help"}
        << R"(^usage:\n  attnscope export \[options\] --out FILE\s+write a figure[\s\S]*)"
           R"(options of compute:\n  --text TEXT[\s\S]*options of export[\s\S]*--png-scale)";
    QTest::newRow("sweep -h")
        << QStringList{"sweep", "-h"}
        << R"(^usage:\n  attnscope sweep [\s\S]*options of sweep[\s\S]*--from N)";
    QTest::newRow("compute --help")
        << QStringList{"compute", "--help"}
        << R"(^usage:\n  attnscope compute \[options\] +compute attention[\s\S]*--language en\|zh_CN)";
    QTest::newRow("help steps")
        << QStringList{"help", "steps"}
        << R"(^usage:\n  attnscope steps [\s\S]*options of steps[\s\S]*--cell I,J)";
    QTest::newRow("presets --help")
        << QStringList{"presets", "--help"}
        << R"(^usage:\n  attnscope presets \[--language en\|zh_CN\]\n[\s\S]*options of presets:\n  --language)";
    QString every;
    for (const Preset& preset : presets())
        every += "[\\s\\S]*" + QRegularExpression::escape(QString::fromUtf8(
                                   preset.name.data(), static_cast<qsizetype>(preset.name.size())));
    QTest::newRow("presets") << QStringList{"presets"} << "^" + every;
}

void TestCli::versionAndHelp()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, pattern);
    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(QRegularExpression(pattern).match(out).hasMatch(), qPrintable(out));
}

// The help in Chinese: every piece of English help text is translated (none of the English
// help's phrases is left), and the lines still fit a terminal of 80 columns, a CJK
// character taking two.
void TestCli::helpInChinese_data()
{
    QTest::addColumn<QStringList>("english");
    QTest::addColumn<QString>("heading"); // in the Chinese help
    QTest::newRow("--help") << QStringList{"--help"} << "compute 的选项：";
    QTest::newRow("help export") << QStringList{"help", "export"}
                                 << "export 的选项（以及 compute 的选项，--json 除外）：";
    QTest::newRow("sweep --help") << QStringList{"sweep", "--help"}
                                  << "sweep 的选项（以及 compute 的选项，--d-model、--heads 和 "
                                     "--scale 除外）：";
    QTest::newRow("compare -h") << QStringList{"compare", "-h"}
                                << "A 的 mask-stage（默认：标准公式的）";
    QTest::newRow("help steps") << QStringList{"help", "steps"} << "--cell I,J";
    QTest::newRow("presets --help") << QStringList{"presets", "--help"} << "presets 的选项：";
}

void TestCli::helpInChinese()
{
    QFETCH(QStringList, english);
    QFETCH(QString, heading);
    const Run en = attnscope(english);
    const Run zh = attnscope(english + QStringList{"--language", "zh_CN"});
    QCOMPARE(zh.exitCode, 0);
    QCOMPARE(zh.err, QByteArray());
    const QString chinese = QString::fromUtf8(zh.out);
    QVERIFY2(chinese.startsWith(english.size() == 1 ? u"AttnScope " : u"用法：\n"),
             qPrintable(chinese.left(200)));
    QVERIFY2(chinese.contains(heading), qPrintable(chinese));
    // The English help's phrases: on each line, the text after the option or usage column,
    // where it has two words of letters in a row ("the format", "K and V").
    const QRegularExpression words(QStringLiteral(R"(\b[A-Za-z]{2,} [A-Za-z]{3,}\b)"));
    int phrases = 0;
    for (const QString& line : QString::fromUtf8(en.out).split(u'\n')) {
        const bool option = line.startsWith(u"  --") || line.startsWith(QString(30, u' '));
        if (!option && !line.startsWith(u"  attnscope "))
            continue; // headings, examples
        const int column = option ? 30 : 33;
        if (line.mid(column - 2, 2) != u"  ")
            continue; // a usage or option longer than its column: no text beside it
        const QString text = line.mid(column).trimmed();
        if (text.isEmpty() || !words.match(text).hasMatch() || text.startsWith(u"attnscope "))
            continue;
        ++phrases;
        QVERIFY2(!chinese.contains(text), qPrintable(QStringLiteral("untranslated: ") + text));
    }
    QVERIFY(phrases >= 2);
    for (const QString& line : chinese.split(u'\n'))
        QVERIFY2(terminalColumns(line.toStdString()) <= 80, qPrintable(line));
    for (const QString& line : QString::fromUtf8(en.out).split(u'\n'))
        QVERIFY2(terminalColumns(line.toStdString()) <= 80, qPrintable(line));
    // In English, --language en is the help without it.
    QCOMPARE(attnscope(english + QStringList{"--language", "en"}).out, en.out);
}

// What the help refuses, each with a message and exit status 2.
void TestCli::helpRefusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option")
        << QStringList{"--help", "--bogus"} << "attnscope: unknown option --bogus\n";
    QTest::newRow("unknown language") << QStringList{"help", "--language", "fr"}
                                      << "attnscope: --language must be en|zh_CN, not 'fr'\n";
    QTest::newRow("no value") << QStringList{"export", "--help", "--language"}
                              << "attnscope: --language needs a value (en|zh_CN)\n";
    QTest::newRow("not a command")
        << QStringList{"help", "nothing", "--language", "zh_CN"}
        << "attnscope: no help for 'nothing': not a command (try: attnscope --help)\n";
}

void TestCli::helpRefusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QString::fromUtf8(run.err), message);
}

// `attnscope lesson.attnscope` (a double click) opens the window with the session, not a
// command: a file that cannot be opened is named on standard error while the window
// stays open (offscreen here), never refused as an unknown command.
void TestCli::sessionFileOpensTheWindow_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("contents"); // empty: the file does not exist
    QTest::addColumn<QString>("reason");      // part of the line on standard error

    QTest::newRow("missing lesson.attnscope")
        << "lesson.attnscope" << QByteArray() << "Cannot open";
    QTest::newRow("missing, upper case") << "LESSON.ATTNSCOPE" << QByteArray() << "Cannot open";
    QTest::newRow("damaged lesson.attnscope")
        << "lesson.attnscope" << QByteArray("{\"format\": \"attnscope-session\"")
        << "not valid JSON";
}

void TestCli::sessionFileOpensTheWindow()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, contents);
    QFETCH(QString, reason);

    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    if (!contents.isEmpty()) {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(contents);
    }
    // Settings and the autosave in the temporary folder, so no recovery is offered.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    environment.insert("HOME", dir.path());
    environment.insert("XDG_CONFIG_HOME", dir.filePath("config"));
    environment.insert("XDG_DATA_HOME", dir.filePath("data"));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setReadChannel(QProcess::StandardError);
    process.start(QStringLiteral(ATTN_BINARY), {path});
    // Qt's own warnings may come first; the line that matters starts with "attnscope: ".
    QByteArray all;
    QByteArray err;
    while (err.isEmpty() && process.waitForReadyRead(60000)) {
        all += process.readAllStandardError();
        for (const QByteArray& line : all.split('\n'))
            if (line.startsWith("attnscope: ") && all.contains(line + '\n'))
                err = line;
    }
    const bool running = process.state() == QProcess::Running;
    process.kill();
    process.waitForFinished();
    QVERIFY2(!all.contains("unknown command"), all.constData());
    QVERIFY2(!err.isEmpty(), all.constData());
    QVERIFY2(err.contains(QDir::toNativeSeparators(path).toUtf8()), err.constData());
    QVERIFY2(err.contains(reason.toUtf8()), err.constData());
    QVERIFY2(running, "the window closed after the message");
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
