// TorchGenerator against PyTorch 1.13, bit for bit.
//
// The fixture tests/reference/torch_rng.json is written by gen_torch_rng.py with
// Debian's python3-torch; every float is stored as its bit pattern, so every
// comparison here is exact. The spec's own check values are tested as well, so a
// wrong fixture cannot pass unnoticed either.
#include "torchrng.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

using attn::TorchGenerator;

namespace {

std::uint64_t parseSeed(const QJsonObject& testCase)
{
    bool ok = false;
    const std::uint64_t seed = testCase[u"seed"].toString().toULongLong(&ok);
    if (!ok)
        qFatal("case \"%s\" has no decimal seed", qPrintable(testCase[u"name"].toString()));
    return seed;
}

std::vector<std::uint32_t> parseBits32(const QJsonValue& value)
{
    std::vector<std::uint32_t> bits;
    for (const QJsonValue item : value.toArray()) {
        bool ok = false;
        bits.push_back(item.toString().toUInt(&ok, 16));
        if (!ok)
            qFatal("bad float bit pattern \"%s\"", qPrintable(item.toString()));
    }
    return bits;
}

std::uint64_t parseHex64(const QJsonValue& value)
{
    bool ok = false;
    const std::uint64_t bits = value.toString().toULongLong(&ok, 16);
    if (!ok)
        qFatal("bad 64-bit pattern \"%s\"", qPrintable(value.toString()));
    return bits;
}

std::vector<std::uint64_t> parseBits64(const QJsonValue& value)
{
    std::vector<std::uint64_t> bits;
    for (const QJsonValue item : value.toArray())
        bits.push_back(parseHex64(item));
    return bits;
}

QString describe(std::uint32_t bits)
{
    return QStringLiteral("0x%1 (%2)")
        .arg(bits, 8, 16, QLatin1Char('0'))
        .arg(static_cast<double>(std::bit_cast<float>(bits)), 0, 'g', 9);
}

// Empty when actual matches expected bit for bit; else where and how it first differs.
QString firstMismatch(const QString& what, const std::vector<std::uint32_t>& expected,
                      const std::vector<float>& actual, std::size_t offset = 0)
{
    if (expected.size() != actual.size())
        return QStringLiteral("%1: expected %2 values, got %3")
            .arg(what)
            .arg(expected.size())
            .arg(actual.size());
    std::size_t mismatches = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (std::bit_cast<std::uint32_t>(actual[i]) != expected[i] && mismatches++ == 0)
            first = i;
    }
    if (mismatches == 0)
        return {};
    return QStringLiteral("%1: %2 of %3 values differ; first at index %4: expected %5, got %6")
        .arg(what)
        .arg(mismatches)
        .arg(expected.size())
        .arg(first + offset)
        .arg(describe(expected[first]), describe(std::bit_cast<std::uint32_t>(actual[first])));
}

std::vector<float> drawRandn(TorchGenerator& generator, std::size_t n)
{
    std::vector<float> values(n);
    generator.randn(values.data(), n);
    return values;
}

std::vector<float> flatten(const attn::Matrix& m)
{
    // Matrix is row-major, so data() is torch's memory order.
    return {m.data(), m.data() + m.size()};
}

std::vector<float> flatten(const attn::Vector& v)
{
    return {v.data(), v.data() + v.size()};
}

// Empty when the layer matches the fixture entry {in, out, weight, bias}.
QString linearMismatch(const QString& what, const QJsonObject& entry, const attn::Linear& layer)
{
    QString message = firstMismatch(what + QStringLiteral(" weight"), parseBits32(entry[u"weight"]),
                                    flatten(layer.weight));
    if (message.isEmpty())
        message = firstMismatch(what + QStringLiteral(" bias"), parseBits32(entry[u"bias"]),
                                flatten(layer.bias));
    return message;
}

QByteArray littleEndianBytes(const std::vector<float>& values)
{
    QByteArray bytes;
    bytes.reserve(static_cast<qsizetype>(values.size() * 4));
    for (const float value : values) {
        const auto bits = std::bit_cast<std::uint32_t>(value);
        for (int shift = 0; shift < 32; shift += 8)
            bytes.append(static_cast<char>((bits >> shift) & 0xffU));
    }
    return bytes;
}

QByteArray sha256Hex(QByteArrayView bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
}

} // namespace

class TestTorchRng : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();

    void specCheckValues_data();
    void specCheckValues();
    void random32_data();
    void random32();
    void random64_data();
    void random64();
    void uniformFloat_data();
    void uniformFloat();
    void uniformDouble_data();
    void uniformDouble();
    void randn_data();
    void randn();
    void randnChain_data();
    void randnChain();
    void manualSeedClearsCachedNormal_data();
    void manualSeedClearsCachedNormal();
    void uniform_data();
    void uniform();
    void linear_data();
    void linear();
    void referenceOrder_data();
    void referenceOrder();
    void specFirstValues_data();
    void specFirstValues();
    void largeChecksum_data();
    void largeChecksum();

private:
    // One row per fixture case of the given kinds, named after the case.
    void addCaseRows(std::initializer_list<QStringView> kinds,
                     const std::function<bool(const QJsonObject&)>& accept = {});

    QList<QJsonObject> cases_;
};

void TestTorchRng::initTestCase()
{
    QFile file(QStringLiteral(ATTN_REFERENCE_DIR "/torch_rng.json"));
    QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.errorString()));
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    for (const QJsonValue item : document.object()[u"cases"].toArray())
        cases_.append(item.toObject());

    // An empty or truncated fixture would make the data-driven tests pass with no rows.
    const auto count = [this](QStringView kind) {
        return std::count_if(cases_.cbegin(), cases_.cend(), [kind](const QJsonObject& c) {
            return c[u"kind"].toString() == kind;
        });
    };
    QCOMPARE(count(u"mt"), 6);
    QCOMPARE(count(u"random64"), 6);
    QCOMPARE(count(u"rand_float"), 6);
    QCOMPARE(count(u"rand_double"), 6);
    QCOMPARE(count(u"randn"), 60);
    QCOMPARE(count(u"randn_default"), 1);
    QCOMPARE(count(u"randn_chain"), 6);
    QCOMPARE(count(u"uniform"), 12);
    QCOMPARE(count(u"linear"), 18);
    QCOMPARE(count(u"reference"), 1);
    QCOMPARE(count(u"randn_large"), 1);
    QCOMPARE(count(u"uniform_large"), 1);
}

void TestTorchRng::addCaseRows(std::initializer_list<QStringView> kinds,
                               const std::function<bool(const QJsonObject&)>& accept)
{
    QTest::addColumn<QJsonObject>("testCase");
    for (const QJsonObject& testCase : std::as_const(cases_)) {
        const QString kind = testCase[u"kind"].toString();
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end() &&
            (!accept || accept(testCase)))
            QTest::newRow(qPrintable(testCase[u"name"].toString())) << testCase;
    }
}

void TestTorchRng::specCheckValues_data()
{
    QTest::addColumn<quint64>("seed");
    QTest::addColumn<QList<quint32>>("expected");
    QTest::newRow("seed 42 first 4 random()")
        << quint64{42} << QList<quint32>{1608637542U, 3421126067U, 4083286876U, 787846414U};
    QTest::newRow("seed 0 first random()") << quint64{0} << QList<quint32>{2357136044U};
}

void TestTorchRng::specCheckValues()
{
    QFETCH(quint64, seed);
    QFETCH(QList<quint32>, expected);
    TorchGenerator generator(seed);
    for (qsizetype i = 0; i < expected.size(); ++i)
        QCOMPARE(generator.random(), expected[i]);
}

void TestTorchRng::random32_data()
{
    addCaseRows({u"mt"});
}

void TestTorchRng::random32()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const QJsonArray expected = testCase[u"values"].toArray();
    QCOMPARE(expected.size(), 8);
    for (qsizetype i = 0; i < expected.size(); ++i) {
        const std::uint32_t actual = generator.random();
        const auto wanted = static_cast<std::uint32_t>(expected[i].toInteger());
        QVERIFY2(
            actual == wanted,
            qPrintable(
                QStringLiteral("output %1: expected %2, got %3").arg(i).arg(wanted).arg(actual)));
    }
}

void TestTorchRng::random64_data()
{
    addCaseRows({u"random64"});
}

void TestTorchRng::random64()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const std::vector<std::uint64_t> expected = parseBits64(testCase[u"bits"]);
    QVERIFY(!expected.empty());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const std::uint64_t actual = generator.random64();
        QVERIFY2(actual == expected[i], qPrintable(QStringLiteral("draw %1: expected %2, got %3")
                                                       .arg(i)
                                                       .arg(expected[i], 16, 16, QLatin1Char('0'))
                                                       .arg(actual, 16, 16, QLatin1Char('0'))));
    }
}

void TestTorchRng::uniformFloat_data()
{
    addCaseRows({u"rand_float"});
}

void TestTorchRng::uniformFloat()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const std::vector<std::uint32_t> expected = parseBits32(testCase[u"bits"]);
    std::vector<float> actual(expected.size());
    for (float& value : actual)
        value = generator.uniformFloat();
    const QString message = firstMismatch(QStringLiteral("rand"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::uniformDouble_data()
{
    addCaseRows({u"rand_double"});
}

void TestTorchRng::uniformDouble()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const std::vector<std::uint64_t> expected = parseBits64(testCase[u"bits"]);
    QVERIFY(!expected.empty());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double actual = generator.uniformDouble();
        const auto actualBits = std::bit_cast<std::uint64_t>(actual);
        QVERIFY2(actualBits == expected[i],
                 qPrintable(QStringLiteral("draw %1: expected %2, got %3 (%4)")
                                .arg(i)
                                .arg(std::bit_cast<double>(expected[i]), 0, 'g', 17)
                                .arg(actual, 0, 'g', 17)
                                .arg(actualBits, 16, 16, QLatin1Char('0'))));
    }
}

void TestTorchRng::randn_data()
{
    addCaseRows({u"randn", u"randn_default"});
}

void TestTorchRng::randn()
{
    QFETCH(QJsonObject, testCase);
    // The default-seed row checks that a fresh generator starts where torch's does.
    TorchGenerator generator;
    if (testCase[u"kind"].toString() == u"randn")
        generator.manualSeed(parseSeed(testCase));
    const std::vector<std::uint32_t> expected = parseBits32(testCase[u"bits"]);
    QCOMPARE(expected.size(), static_cast<std::size_t>(testCase[u"n"].toInteger()));
    const QString message =
        firstMismatch(QStringLiteral("randn"), expected, drawRandn(generator, expected.size()));
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::randnChain_data()
{
    addCaseRows({u"randn_chain"});
}

void TestTorchRng::randnChain()
{
    // One seed, then calls of every size in turn: the cached normal and the engine state
    // must carry over between calls exactly as in torch.
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const QJsonArray steps = testCase[u"steps"].toArray();
    QVERIFY(!steps.isEmpty());
    for (qsizetype s = 0; s < steps.size(); ++s) {
        const QJsonObject step = steps[s].toObject();
        const std::vector<std::uint32_t> expected = parseBits32(step[u"bits"]);
        const QString what =
            QStringLiteral("call %1, randn(%2)").arg(s).arg(step[u"n"].toInteger());
        const QString message =
            firstMismatch(what, expected, drawRandn(generator, expected.size()));
        QVERIFY2(message.isEmpty(), qPrintable(message));
    }
}

void TestTorchRng::manualSeedClearsCachedNormal_data()
{
    addCaseRows({u"randn"}, [](const QJsonObject& c) { return c[u"n"].toInteger() == 1; });
}

void TestTorchRng::manualSeedClearsCachedNormal()
{
    // randn(1) leaves r·sin θ cached; reseeding must drop it, or the second randn(1)
    // would return that cached value instead of torch's first normal again.
    QFETCH(QJsonObject, testCase);
    const std::uint64_t seed = parseSeed(testCase);
    TorchGenerator generator(seed);
    (void)drawRandn(generator, 1);
    generator.manualSeed(seed);
    const QString message = firstMismatch(QStringLiteral("randn(1) after reseeding"),
                                          parseBits32(testCase[u"bits"]), drawRandn(generator, 1));
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::uniform_data()
{
    addCaseRows({u"uniform"});
}

void TestTorchRng::uniform()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const double from = std::bit_cast<double>(parseHex64(testCase[u"from_bits"]));
    const double to = std::bit_cast<double>(parseHex64(testCase[u"to_bits"]));
    const std::vector<std::uint32_t> expected = parseBits32(testCase[u"bits"]);
    std::vector<float> actual(expected.size());
    generator.uniform(actual.data(), actual.size(), from, to);
    const QString message = firstMismatch(QStringLiteral("uniform_"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::linear_data()
{
    addCaseRows({u"linear"});
}

void TestTorchRng::linear()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const int in = testCase[u"in"].toInt();
    const int out = testCase[u"out"].toInt();
    const attn::Linear layer = generator.linear(in, out);
    QCOMPARE(layer.weight.rows(), out);
    QCOMPARE(layer.weight.cols(), in);
    QCOMPARE(layer.bias.size(), out);
    const QString message = linearMismatch(QStringLiteral("Linear"), testCase, layer);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::referenceOrder_data()
{
    addCaseRows({u"reference"});
}

void TestTorchRng::referenceOrder()
{
    // x = torch.randn(2, 4, 16); W_q, W_k, W_v, W_o = four nn.Linear(16, 16).
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const std::vector<std::uint32_t> x = parseBits32(testCase[u"x"]);
    QCOMPARE(x.size(), std::size_t{2 * 4 * 16});
    QString message = firstMismatch(QStringLiteral("x"), x, drawRandn(generator, x.size()));
    QVERIFY2(message.isEmpty(), qPrintable(message));

    const QJsonArray linears = testCase[u"linears"].toArray();
    QCOMPARE(linears.size(), 4);
    const char* names[] = {"W_q", "W_k", "W_v", "W_o"};
    for (qsizetype k = 0; k < linears.size(); ++k) {
        const attn::Linear layer = generator.linear(16, 16);
        message = linearMismatch(QString::fromLatin1(names[k]), linears[k].toObject(), layer);
        QVERIFY2(message.isEmpty(), qPrintable(message));
    }
}

void TestTorchRng::specFirstValues_data()
{
    // TORCH_PARITY.md §5, printed by torch as the doubles of the float32 values.
    QTest::addColumn<QString>("quantity");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("seed 42 x[0,0,:3]")
        << QStringLiteral("x")
        << QList<double>{1.9269152879714966, 1.4872840642929077, 0.9007171988487244};
    QTest::newRow("seed 42 W_q.weight[0,:3]")
        << QStringLiteral("W_q.weight")
        << QList<double>{0.2096174657344818, -0.0496160089969635, 0.21509918570518494};
    QTest::newRow("seed 42 W_q.bias[:3]")
        << QStringLiteral("W_q.bias")
        << QList<double>{0.003510594367980957, 0.22745224833488464, -0.21301287412643433};
}

void TestTorchRng::specFirstValues()
{
    QFETCH(QString, quantity);
    QFETCH(QList<double>, expected);
    TorchGenerator generator(42);
    const std::vector<float> x = drawRandn(generator, 2 * 4 * 16);
    const attn::Linear wq = generator.linear(16, 16);
    const std::vector<float> actual = quantity == u"x"            ? x
                                      : quantity == u"W_q.weight" ? flatten(wq.weight)
                                                                  : flatten(wq.bias);
    for (qsizetype i = 0; i < expected.size(); ++i) {
        // Exact: each decimal is the shortest repr of the float's double value.
        const double value = actual[static_cast<std::size_t>(i)];
        QVERIFY2(value == expected[i], qPrintable(QStringLiteral("%1[%2]: expected %3, got %4")
                                                      .arg(quantity)
                                                      .arg(i)
                                                      .arg(expected[i], 0, 'g', 17)
                                                      .arg(value, 0, 'g', 17)));
    }
}

void TestTorchRng::largeChecksum_data()
{
    addCaseRows({u"randn_large", u"uniform_large"});
}

void TestTorchRng::largeChecksum()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const auto n = static_cast<std::size_t>(testCase[u"n"].toInteger());
    QVERIFY(n > 32);
    std::vector<float> values(n);
    if (testCase[u"kind"].toString() == u"randn_large") {
        generator.randn(values.data(), n);
    } else {
        generator.uniform(values.data(), n,
                          std::bit_cast<double>(parseHex64(testCase[u"from_bits"])),
                          std::bit_cast<double>(parseHex64(testCase[u"to_bits"])));
    }

    // 1. Head and tail bit for bit: these name the index when they differ.
    const std::vector<std::uint32_t> head = parseBits32(testCase[u"head"]);
    const std::vector<std::uint32_t> tail = parseBits32(testCase[u"tail"]);
    QString message =
        firstMismatch(QStringLiteral("head"), head, {values.begin(), values.begin() + 16});
    QVERIFY2(message.isEmpty(), qPrintable(message));
    message =
        firstMismatch(QStringLiteral("tail"), tail, {values.end() - 16, values.end()}, n - 16);
    QVERIFY2(message.isEmpty(), qPrintable(message));

    // 2. Per-chunk SHA-256, so a difference in the middle is located to one chunk.
    const QByteArray bytes = littleEndianBytes(values);
    const auto chunk = static_cast<qsizetype>(testCase[u"chunk"].toInteger()) * 4;
    const QJsonArray chunkHashes = testCase[u"chunk_sha256"].toArray();
    QCOMPARE(chunkHashes.size(), (bytes.size() + chunk - 1) / chunk);
    for (qsizetype k = 0; k < chunkHashes.size(); ++k) {
        const QByteArray actual = sha256Hex(
            QByteArrayView(bytes).sliced(k * chunk, std::min(chunk, bytes.size() - k * chunk)));
        QVERIFY2(
            actual == chunkHashes[k].toString().toLatin1(),
            qPrintable(QStringLiteral("values [%1, %2) differ from torch (SHA-256)")
                           .arg(k * chunk / 4)
                           .arg(std::min(chunk, bytes.size() - k * chunk) / 4 + k * chunk / 4)));
    }

    // 3. The whole array.
    QCOMPARE(sha256Hex(bytes), testCase[u"sha256"].toString().toLatin1());
}

QTEST_GUILESS_MAIN(TestTorchRng)
#include "tst_torchrng.moc"
