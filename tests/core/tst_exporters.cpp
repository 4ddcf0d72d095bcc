// The CSV and .npy exports read back to the engine's very numbers, and token text
// stays data in a spreadsheet.
//
// Legend: B sequences, T tokens, H heads; weights are indexed [b][h][i][j].
#include "engine.h"
#include "exporters.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

using namespace attn;

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(std::string)

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kFormulaStarts = "=+-@\t\r";
constexpr int kColumns = 9;

using Table = std::vector<std::vector<std::string>>;

// A strict RFC 4180 reader: records end with CRLF, a quoted field doubles its quotes
// and may hold anything, an unquoted one holds no quote, CR or LF. Nothing on error.
std::optional<Table> parseCsv(std::string_view text)
{
    Table table;
    std::vector<std::string> record;
    std::string field;
    std::size_t k = 0;
    while (k < text.size()) {
        field.clear();
        if (text[k] == '"') {
            for (++k;; ++k) {
                if (k >= text.size())
                    return std::nullopt; // unterminated quote
                if (text[k] == '"') {
                    if (k + 1 < text.size() && text[k + 1] == '"') {
                        field += '"';
                        ++k;
                    } else {
                        ++k;
                        break;
                    }
                } else {
                    field += text[k];
                }
            }
        } else {
            for (; k < text.size() && text[k] != ',' && text[k] != '\r'; ++k) {
                if (text[k] == '"' || text[k] == '\n')
                    return std::nullopt;
                field += text[k];
            }
        }
        record.push_back(field);
        if (k < text.size() && text[k] == ',') {
            ++k;
            continue;
        }
        if (text.substr(k, 2) != "\r\n")
            return std::nullopt; // a field must end in a comma or CRLF
        k += 2;
        table.push_back(std::move(record));
        record.clear();
    }
    return table;
}

// Undoes csvToken's formula guard, as exporters.h tells a reader to.
std::string unguard(std::string_view field)
{
    const std::size_t first = field.find_first_not_of('\'');
    if (first != 0 && first != std::string_view::npos &&
        kFormulaStarts.find(field[first]) != std::string_view::npos)
        field.remove_prefix(1);
    return std::string(field);
}

std::optional<float> parseFloat(const std::string& text)
{
    float value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

bool sameFloat(float a, float b)
{
    return (std::isnan(a) && std::isnan(b)) ||
           std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

QString printable(std::string_view text)
{
    return QString::fromUtf8(QByteArray(text.data(), qsizetype(text.size())).toPercentEncoding());
}

Request smallRequest(std::string text)
{
    Request r;
    r.text = std::move(text);
    r.config.dModel = 16;
    r.config.heads = 2;
    return r;
}

// Checks that `csv` holds one row per (b, h, i, j) of `r`, every cell equal to the
// engine's; returns the parsed table for further checks.
Table checkCsvMatches(const Result& r, const std::string& csv)
{
    Table table;
    [&] {
        QVERIFY2(csv.starts_with(kBom), "the CSV does not start with the byte order mark");
        auto parsed = parseCsv(std::string_view(csv).substr(kBom.size()));
        QVERIFY2(parsed, "the CSV is not well-formed RFC 4180");
        table = std::move(*parsed);
        const int B = r.batch(), H = r.heads(), Tq = r.length(), Tk = r.keyLength();
        QCOMPARE(table.size(), std::size_t(B) * H * Tq * Tk + 1);
        QCOMPARE(table[0], (std::vector<std::string>{"b", "h", "i", "j", "query", "key", "score",
                                                     "logit", "weight"}));
        std::size_t row = 1;
        for (int b = 0; b < B; ++b)
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < Tq; ++i)
                    for (int j = 0; j < Tk; ++j, ++row) {
                        const auto& f = table[row];
                        const QByteArray where = QByteArray("row ") + QByteArray::number(row);
                        QVERIFY2(f.size() == kColumns, where.constData());
                        QVERIFY2(f[0] == std::to_string(b) && f[1] == std::to_string(h) &&
                                     f[2] == std::to_string(i) && f[3] == std::to_string(j),
                                 where.constData());
                        const auto& queries = r.tokens->tokens[std::size_t(b)];
                        const auto& keys = r.keyTokens->tokens[std::size_t(b)];
                        QVERIFY2(unguard(f[4]) == queries[std::size_t(i)], where.constData());
                        QVERIFY2(unguard(f[5]) == keys[std::size_t(j)], where.constData());
                        const std::array<float, 3> expected{r.scores->at(b, h)(i, j),
                                                            r.logit(b, h, i, j),
                                                            r.weights->at(b, h)(i, j)};
                        for (std::size_t c = 0; c < expected.size(); ++c) {
                            const auto value = parseFloat(f[6 + c]);
                            QVERIFY2(value && sameFloat(*value, expected[c]),
                                     qPrintable(QStringLiteral("%1, column %2: \"%3\" != %4")
                                                    .arg(QString::fromLatin1(where))
                                                    .arg(6 + c)
                                                    .arg(QString::fromStdString(f[6 + c]))
                                                    .arg(double(expected[c]), 0, 'g', 9)));
                        }
                    }
    }();
    return table;
}

struct NpyHeader {
    QString dict;
    std::vector<long long> shape;
    std::size_t dataOffset = 0;
};

// Parses and checks a version 1.0 header; fails the test when it is not one.
std::optional<NpyHeader> parseNpyHeader(const std::string& npy)
{
    std::optional<NpyHeader> out;
    [&] {
        QVERIFY(npy.size() >= 10);
        QCOMPARE(npy.substr(0, 6), std::string("\x93NUMPY"));
        QCOMPARE(int(npy[6]), 1);
        QCOMPARE(int(npy[7]), 0);
        const std::size_t length =
            std::size_t(std::uint8_t(npy[8])) | std::size_t(std::uint8_t(npy[9])) << 8;
        QVERIFY(npy.size() >= 10 + length);
        QCOMPARE((10 + length) % 64, std::size_t(0));
        const std::string dict = npy.substr(10, length);
        QVERIFY2(dict.ends_with('\n'), "the header does not end with a newline");
        static const QRegularExpression form(
            QStringLiteral(R"(^\{'descr': '<f4', 'fortran_order': False, )"
                           R"('shape': \((\d+), (\d+), (\d+), (\d+)\), \} *\n$)"));
        const auto match = form.match(QString::fromLatin1(dict));
        QVERIFY2(match.hasMatch(), dict.c_str());
        NpyHeader header;
        header.dict = QString::fromLatin1(dict);
        for (int k = 1; k <= 4; ++k)
            header.shape.push_back(match.captured(k).toLongLong());
        header.dataOffset = 10 + length;
        out = header;
    }();
    return out;
}

const char* const kNumpyScript = R"(
import json, sys
import numpy as np
a = np.load(sys.argv[1])
print(json.dumps({"shape": list(a.shape), "dtype": a.dtype.str,
                  "bits": a.view("<u4").ravel().tolist()}))
)";

// The first python3 that can import numpy: the one on PATH (which may be a virtual
// environment's without it), else the system's. Empty when there is none.
QString pythonWithNumpy()
{
    for (const QString& python : {QStandardPaths::findExecutable(QStringLiteral("python3")),
                                  QStringLiteral("/usr/bin/python3")}) {
        if (python.isEmpty() || !QFileInfo(python).isExecutable())
            continue;
        QProcess probe;
        probe.start(python, {QStringLiteral("-c"), QStringLiteral("import numpy")});
        if (probe.waitForFinished(60'000) && probe.exitStatus() == QProcess::NormalExit &&
            probe.exitCode() == 0)
            return python;
    }
    return {};
}

} // namespace

class TestExporters : public QObject {
    Q_OBJECT

private slots:
    void csvMatchesEngine_data();
    void csvMatchesEngine();
    void csvWithoutBom();
    void csvHostileTokens_data();
    void csvHostileTokens();
    void csvGuardIsReversible_data();
    void csvGuardIsReversible();
    void npyMatchesEngine_data();
    void npyMatchesEngine();
    void npyLoadsInNumpy();
};

void TestExporters::csvMatchesEngine_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<bool>("hasNan");

    QTest::newRow("one line, defaults") << smallRequest("the cat sat on the mat") << false;
    Request nan = smallRequest("the cat sat on the mat\nit was tired");
    nan.config.axis = SoftmaxAxis::Queries; // a <pad> key column has no unmasked query
    nan.config.maskFill = MaskFill::NegInf;
    nan.config.paddingMask = true;
    QTest::newRow("two lines, padding mask, axis=queries, neg-inf (NaN)") << nan << true;
    Request billion = smallRequest("a b c d\ne f");
    billion.config.mask = MaskKind::Causal;
    billion.config.maskFill = MaskFill::NegBillion;
    billion.config.axis = SoftmaxAxis::Batch;
    QTest::newRow("causal, -1e9, axis=batch") << billion << false;
    Request after = smallRequest("one two three");
    after.config.mask = MaskKind::Causal;
    after.config.maskStage = MaskStage::AfterSoftmax;
    after.config.scale = ScaleMode::None;
    after.config.temperature = 0.25f;
    QTest::newRow("causal after softmax, scale=none, tau=0.25") << after << false;
    Request chinese = smallRequest("小猫坐在垫子上，因为它很累。");
    QTest::newRow("Chinese, auto tokenizer") << chinese << false;
    // T_q = 6 queries from the text, T_k = 3 keys from the second: query labels from
    // the one, key labels from the other.
    Request cross = smallRequest("the cat sat on the mat\nit was tired");
    cross.config.attention = AttentionKind::Cross;
    cross.crossText = "猫 在 垫子";
    QTest::newRow("cross-attention, T_q=6, T_k=3") << cross << false;
}

void TestExporters::csvMatchesEngine()
{
    QFETCH(Request, request);
    QFETCH(bool, hasNan);

    AttentionEngine engine;
    const Result r = engine.compute(request);
    QCOMPARE(r.stats->nanCount > 0, hasNan);
    checkCsvMatches(r, csvReport(r));
}

void TestExporters::csvWithoutBom()
{
    AttentionEngine engine;
    const Result r = engine.compute(smallRequest("x y"));
    const std::string csv = csvReport(r, CsvBom::Without);
    QVERIFY(csv.starts_with("b,h,i,j,query,key,score,logit,weight\r\n"));
    QCOMPARE(std::string(kBom) + csv, csvReport(r));
}

void TestExporters::csvHostileTokens_data()
{
    QTest::addColumn<std::string>("token");
    QTest::addColumn<bool>("fromTokenizer"); // false: the tokenizer cannot make it

    for (const char* token : {"<b>", "&", "\"quoted\"", "=SUM(A1)", "+1", "-2", "@x", "a,b", ",",
                              "'=already", "'plain", "x=1", "=HYPERLINK(\"http://x\",\"y\")"})
        QTest::newRow(token) << std::string(token) << true;
    QTest::newRow("tab first") << std::string("\t=1") << false;
    QTest::newRow("tab inside") << std::string("a\tb") << false;
    QTest::newRow("CR first") << std::string("\r=1") << false;
    QTest::newRow("CRLF inside") << std::string("a\r\nb") << false;
    QTest::newRow("LF inside") << std::string("a\nb") << false;
    QTest::newRow("bell") << std::string("ding\a") << false;
    QTest::newRow("escape sequence") << std::string("\x1b[31mred") << false;
    QTest::newRow("NUL") << std::string("a\0b", 3) << false;
    QTest::newRow("DEL") << std::string("a\x7f") << false;
}

void TestExporters::csvHostileTokens()
{
    QFETCH(std::string, token);
    QFETCH(bool, fromTokenizer);

    Request request = smallRequest(fromTokenizer ? token + " end" : "first end");
    request.config.tokenizer = TokenizerMode::Spaces;
    AttentionEngine engine;
    Result r = engine.compute(request);
    if (fromTokenizer) {
        QCOMPARE(r.tokens->tokens[0][0], token);
    } else {
        // Tokens the tokenizer never makes, for whatever else may build a Result.
        TokenBatch tokens = *r.tokens;
        tokens.tokens[0][0] = token;
        r.tokens = std::make_shared<const TokenBatch>(std::move(tokens));
        r.keyTokens = r.tokens; // self-attention: one batch of tokens
    }

    const Table table = checkCsvMatches(r, csvReport(r));
    if (QTest::currentTestFailed())
        return;
    for (std::size_t row = 1; row < table.size(); ++row) {
        for (std::size_t column : {4, 5}) {
            const std::string& field = table[row][column];
            QVERIFY2(field.empty() || kFormulaStarts.find(field[0]) == std::string::npos,
                     qPrintable(QStringLiteral("a field starts a formula: ") + printable(field)));
        }
    }
    // Row 1 is (0, 0, 0, 0): the hostile token as query and key.
    const std::string& field = table[1][4];
    QCOMPARE(unguard(field), token);
    const bool guarded =
        kFormulaStarts.find(token[token.find_first_not_of('\'')]) != std::string::npos;
    QCOMPARE(field, guarded ? "'" + token : token);
}

void TestExporters::csvGuardIsReversible_data()
{
    QTest::addColumn<std::string>("token");
    QTest::addColumn<std::string>("guarded");

    QTest::newRow("plain") << std::string("cat") << std::string("cat");
    QTest::newRow("=") << std::string("=1+1") << std::string("'=1+1");
    QTest::newRow("+") << std::string("+1") << std::string("'+1");
    QTest::newRow("-") << std::string("-") << std::string("'-");
    QTest::newRow("@") << std::string("@SUM") << std::string("'@SUM");
    QTest::newRow("tab") << std::string("\tx") << std::string("'\tx");
    QTest::newRow("CR") << std::string("\rx") << std::string("'\rx");
    QTest::newRow("' then =") << std::string("'=x") << std::string("''=x");
    QTest::newRow("'' then -") << std::string("''-x") << std::string("'''-x");
    QTest::newRow("' then letter") << std::string("'s") << std::string("'s");
    QTest::newRow("only quotes") << std::string("''") << std::string("''");
    QTest::newRow("= later") << std::string("a=b") << std::string("a=b");
    QTest::newRow("full-width ＝") << std::string("＝1") << std::string("＝1");
}

void TestExporters::csvGuardIsReversible()
{
    QFETCH(std::string, token);
    QFETCH(std::string, guarded);

    QCOMPARE(csvToken(token), guarded);
    QCOMPARE(unguard(guarded), token);
}

void TestExporters::npyMatchesEngine_data()
{
    QTest::addColumn<Request>("request");

    QTest::newRow("B=1, H=1") << [] {
        Request r = smallRequest("hello");
        r.config.heads = 1;
        return r;
    }();
    QTest::newRow("B=2, H=2") << smallRequest("the cat sat on the mat\nit was tired");
    Request nan = smallRequest("the cat sat on the mat\nit was tired");
    nan.config.axis = SoftmaxAxis::Queries;
    QTest::newRow("NaN from fully masked columns") << nan;
    QTest::newRow("B=3, H=16, T=12") << [] {
        Request r = smallRequest("a b c d e f g h i j k l\nm n o\np");
        r.config.dModel = 64;
        r.config.heads = 16;
        r.config.tokenizer = TokenizerMode::Spaces;
        return r;
    }();
    QTest::newRow("cross-attention, (2, 2, 6, 4)") << [] {
        Request r = smallRequest("the cat sat on the mat\nit was tired");
        r.config.attention = AttentionKind::Cross;
        r.crossText = "a b c d\ne f";
        r.config.tokenizer = TokenizerMode::Spaces;
        return r;
    }();
}

void TestExporters::npyMatchesEngine()
{
    QFETCH(Request, request);

    AttentionEngine engine;
    const Result r = engine.compute(request);
    const std::string npy = npyWeights(r);
    const auto header = parseNpyHeader(npy);
    if (!header)
        return;
    const int B = r.batch(), H = r.heads(), Tq = r.length(), Tk = r.keyLength();
    QCOMPARE(header->shape, (std::vector<long long>{B, H, Tq, Tk}));
    QCOMPARE(npy.size(), header->dataOffset + std::size_t(B) * H * Tq * Tk * sizeof(float));

    // Bit for bit, NaN payloads included: little-endian float32 in C order.
    const char* data = npy.data() + header->dataOffset;
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < Tq; ++i)
                for (int j = 0; j < Tk; ++j, data += 4) {
                    const std::uint32_t bits = std::uint32_t(std::uint8_t(data[0])) |
                                               std::uint32_t(std::uint8_t(data[1])) << 8 |
                                               std::uint32_t(std::uint8_t(data[2])) << 16 |
                                               std::uint32_t(std::uint8_t(data[3])) << 24;
                    const float expected = r.weights->at(b, h)(i, j);
                    QVERIFY2(bits == std::bit_cast<std::uint32_t>(expected),
                             qPrintable(QStringLiteral("weights[%1][%2][%3][%4]: %5 != %6")
                                            .arg(b)
                                            .arg(h)
                                            .arg(i)
                                            .arg(j)
                                            .arg(double(std::bit_cast<float>(bits)))
                                            .arg(double(expected))));
                }

    // The same writer serves scores and logits.
    const auto scores = parseNpyHeader(npyMatrixStack(*r.scores));
    QVERIFY(scores);
    QCOMPARE(scores->shape, header->shape);
}

void TestExporters::npyLoadsInNumpy()
{
    const QString python = pythonWithNumpy();
    if (python.isEmpty())
        QSKIP("no python3 with numpy is installed");

    Request request = smallRequest("the cat sat on the mat\nit was tired");
    request.config.axis = SoftmaxAxis::Queries; // NaN columns
    AttentionEngine engine;
    const Result r = engine.compute(request);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("weights.npy"));
    const std::string npy = npyWeights(r);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(npy.data(), qint64(npy.size())), qint64(npy.size()));
    file.close();

    QProcess process;
    process.start(python, {QStringLiteral("-c"), QString::fromLatin1(kNumpyScript), path});
    QVERIFY(process.waitForFinished(60'000));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
    const QJsonObject loaded = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
    const int B = r.batch(), H = r.heads(), T = r.length();
    QCOMPARE(loaded.value(u"shape").toArray(), (QJsonArray{B, H, T, T}));
    QCOMPARE(loaded.value(u"dtype").toString(), QStringLiteral("<f4"));
    const QJsonArray bits = loaded.value(u"bits").toArray();
    QCOMPARE(bits.size(), qsizetype(B) * H * T * T);
    qsizetype k = 0;
    int nans = 0;
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < T; ++i)
                for (int j = 0; j < T; ++j, ++k) {
                    const float expected = r.weights->at(b, h)(i, j);
                    nans += std::isnan(expected) ? 1 : 0;
                    QCOMPARE(bits[k].toInteger(), qint64(std::bit_cast<std::uint32_t>(expected)));
                }
    QVERIFY2(nans > 0, "the case was meant to carry NaN weights");
}

QTEST_GUILESS_MAIN(TestExporters)
#include "tst_exporters.moc"
