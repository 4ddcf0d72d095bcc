// The CSV and .npy exports read back to the engine's very numbers, and token text
// stays data in a spreadsheet.
//
// Legend: B sequences, T tokens, H heads; weights are indexed [b][h][i][j].
#include "engine/engine.h"
#include "formats/exporters.h"
#include "numberfiles.h"

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
using namespace attn::test;

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(std::string)

namespace {

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
    checkNpyMatches(*r.weights, npy, *header);
    if (QTest::currentTestFailed())
        return;

    // The same writer serves scores and logits.
    const auto scores = parseNpyHeader(npyMatrixStack(*r.scores));
    QVERIFY(scores);
    QCOMPARE(scores->shape, header->shape);
}

void TestExporters::npyLoadsInNumpy()
{
    const QString python = pythonWithNumpy();
    if (python.isEmpty()) {
        QVERIFY2(!numpyRequired(), kNumpyMissing);
        QSKIP(kNumpyMissing);
    }

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
