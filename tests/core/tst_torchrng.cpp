// TorchGenerator against PyTorch 1.13, bit for bit.
//
// The fixture tests/reference/torch_rng.json is written by gen_torch_rng.py with
// Debian's python3-torch; every float is stored as its bit pattern, so every
// comparison here is exact. The spec's own check values are tested as well, so a
// wrong fixture cannot pass unnoticed either.
#include "engine/torchrng.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
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

std::uint64_t parseHex(const QJsonValue& value)
{
    bool ok = false;
    const std::uint64_t bits = value.toString().toULongLong(&ok, 16);
    if (!ok)
        qFatal("bad bit pattern \"%s\"", qPrintable(value.toString()));
    return bits;
}

// Hex patterns as Bits: std::uint32_t for floats, std::uint64_t for doubles and random64().
template <typename Bits> std::vector<Bits> parseBits(const QJsonValue& value)
{
    std::vector<Bits> bits;
    for (const QJsonValue item : value.toArray())
        bits.push_back(static_cast<Bits>(parseHex(item)));
    return bits;
}

// A value's bit pattern: floats reinterpreted, integers as they are.
template <typename T> auto bitsOf(T value)
{
    if constexpr (std::is_same_v<T, float>)
        return std::bit_cast<std::uint32_t>(value);
    else if constexpr (std::is_same_v<T, double>)
        return std::bit_cast<std::uint64_t>(value);
    else
        return value;
}

// "0x3f800000 (1)": the pattern, then the value it stands for.
template <typename T> QString describe(decltype(bitsOf(T{})) bits)
{
    const QString hex =
        QStringLiteral("0x%1").arg(bits, int(2 * sizeof bits), 16, QLatin1Char('0'));
    if constexpr (std::is_floating_point_v<T>)
        return hex + QStringLiteral(" (%1)").arg(std::bit_cast<T>(bits), 0, 'g', 17);
    else
        return hex + QStringLiteral(" (%1)").arg(bits);
}

// Empty when actual matches expected bit for bit; else how many differ and the first.
template <typename T>
QString firstMismatch(const QString& what, const std::vector<decltype(bitsOf(T{}))>& expected,
                      const std::vector<T>& actual, std::size_t offset = 0)
{
    if (expected.size() != actual.size())
        return QStringLiteral("%1: expected %2 values, got %3")
            .arg(what)
            .arg(expected.size())
            .arg(actual.size());
    std::size_t mismatches = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (bitsOf(actual[i]) != expected[i] && mismatches++ == 0)
            first = i;
    }
    if (mismatches == 0)
        return {};
    return QStringLiteral("%1: %2 of %3 values differ; first at index %4: expected %5, got %6")
        .arg(what)
        .arg(mismatches)
        .arg(expected.size())
        .arg(first + offset)
        .arg(describe<T>(expected[first]), describe<T>(bitsOf(actual[first])));
}

// n successive results of draw().
template <typename Draw> auto drawEach(std::size_t n, Draw draw)
{
    std::vector<decltype(draw())> values(n);
    for (auto& value : values)
        value = draw();
    return values;
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
    QString message =
        firstMismatch(what + QStringLiteral(" weight"), parseBits<std::uint32_t>(entry[u"weight"]),
                      flatten(layer.weight));
    if (message.isEmpty())
        message = firstMismatch(what + QStringLiteral(" bias"),
                                parseBits<std::uint32_t>(entry[u"bias"]), flatten(layer.bias));
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
    void random32_data() { addCaseRows({u"mt"}); }
    void random32();
    void random64_data() { addCaseRows({u"random64"}); }
    void random64();
    void uniformFloat_data() { addCaseRows({u"rand_float"}); }
    void uniformFloat();
    void uniformDouble_data() { addCaseRows({u"rand_double"}); }
    void uniformDouble();
    void randn_data() { addCaseRows({u"randn", u"randn_default"}); }
    void randn();
    void randnChain_data() { addCaseRows({u"randn_chain"}); }
    void randnChain();
    void manualSeedClearsCachedNormal_data();
    void manualSeedClearsCachedNormal();
    void uniform_data() { addCaseRows({u"uniform"}); }
    void uniform();
    void bulkDrawsAreSingleDraws_data();
    void bulkDrawsAreSingleDraws();
    void linear_data() { addCaseRows({u"linear"}); }
    void linear();
    void referenceOrder_data() { addCaseRows({u"reference"}); }
    void referenceOrder();
    void specFirstValues_data();
    void specFirstValues();
    void largeChecksum_data() { addCaseRows({u"randn_large", u"uniform_large"}); }
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
    const auto actual = drawEach(expected.size(), [&] { return generator.random(); });
    const QString message =
        firstMismatch(QStringLiteral("random()"), {expected.begin(), expected.end()}, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::random32()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    std::vector<std::uint32_t> expected;
    for (const QJsonValue value : testCase[u"values"].toArray())
        expected.push_back(static_cast<std::uint32_t>(value.toInteger()));
    QCOMPARE(expected.size(), std::size_t{8});
    const auto actual = drawEach(expected.size(), [&] { return generator.random(); });
    const QString message = firstMismatch(QStringLiteral("random()"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::random64()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const auto expected = parseBits<std::uint64_t>(testCase[u"bits"]);
    QVERIFY(!expected.empty());
    const auto actual = drawEach(expected.size(), [&] { return generator.random64(); });
    const QString message = firstMismatch(QStringLiteral("random64()"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::uniformFloat()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const auto expected = parseBits<std::uint32_t>(testCase[u"bits"]);
    QVERIFY(!expected.empty());
    const auto actual = drawEach(expected.size(), [&] { return generator.uniformFloat(); });
    const QString message = firstMismatch(QStringLiteral("torch.rand"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::uniformDouble()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const auto expected = parseBits<std::uint64_t>(testCase[u"bits"]);
    QVERIFY(!expected.empty());
    const auto actual = drawEach(expected.size(), [&] { return generator.uniformDouble(); });
    const QString message = firstMismatch(QStringLiteral("torch.rand(float64)"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::randn()
{
    QFETCH(QJsonObject, testCase);
    // The default-seed row checks that a fresh generator starts where torch's does.
    TorchGenerator generator;
    if (testCase[u"kind"].toString() == u"randn")
        generator.manualSeed(parseSeed(testCase));
    const std::vector<std::uint32_t> expected = parseBits<std::uint32_t>(testCase[u"bits"]);
    QCOMPARE(expected.size(), static_cast<std::size_t>(testCase[u"n"].toInteger()));
    const QString message =
        firstMismatch(QStringLiteral("randn"), expected, drawRandn(generator, expected.size()));
    QVERIFY2(message.isEmpty(), qPrintable(message));
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
        const std::vector<std::uint32_t> expected = parseBits<std::uint32_t>(step[u"bits"]);
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
    const QString message =
        firstMismatch(QStringLiteral("randn(1) after reseeding"),
                      parseBits<std::uint32_t>(testCase[u"bits"]), drawRandn(generator, 1));
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::uniform()
{
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const double from = std::bit_cast<double>(parseHex(testCase[u"from_bits"]));
    const double to = std::bit_cast<double>(parseHex(testCase[u"to_bits"]));
    const std::vector<std::uint32_t> expected = parseBits<std::uint32_t>(testCase[u"bits"]);
    std::vector<float> actual(expected.size());
    generator.uniform(actual.data(), actual.size(), from, to);
    const QString message = firstMismatch(QStringLiteral("uniform_"), expected, actual);
    QVERIFY2(message.isEmpty(), qPrintable(message));
}

void TestTorchRng::bulkDrawsAreSingleDraws_data()
{
    QTest::addColumn<int>("before"); // single draws first: where in the state the run starts
    for (const int before : {0, 1, 2, 396, 622, 623, 624, 625, 1247, 1248})
        QTest::addRow("after %d draws", before) << before;
}

void TestTorchRng::bulkDrawsAreSingleDraws()
{
    // uniform_ and randn's uniforms take runs of state words between twists; each value
    // must be the one random() would have given at that point, wherever the run starts
    // and across several twists (against torch itself in uniform() and randn() above).
    QFETCH(int, before);
    TorchGenerator bulk(7), single(7);
    for (int k = 0; k < before; ++k) {
        (void)bulk.random();
        (void)single.random();
    }
    constexpr std::size_t n = 1900; // three twists
    const float lo = -0.25f, range = 0.5f;
    std::vector<float> fromBulk(n), fromSingle(n);
    bulk.uniform(fromBulk.data(), n, double(lo), double(lo + range));
    for (float& value : fromSingle)
        value = std::fmaf(single.uniformFloat(), range, lo);
    QVERIFY(std::memcmp(fromBulk.data(), fromSingle.data(), n * sizeof(float)) == 0);
    // And the generators are in step afterwards.
    QCOMPARE(bulk.random(), single.random());
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

void TestTorchRng::referenceOrder()
{
    // x = torch.randn(2, 4, 16); W_q, W_k, W_v, W_o = four nn.Linear(16, 16).
    QFETCH(QJsonObject, testCase);
    TorchGenerator generator(parseSeed(testCase));
    const std::vector<std::uint32_t> x = parseBits<std::uint32_t>(testCase[u"x"]);
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
        generator.uniform(values.data(), n, std::bit_cast<double>(parseHex(testCase[u"from_bits"])),
                          std::bit_cast<double>(parseHex(testCase[u"to_bits"])));
    }

    // 1. Head and tail bit for bit: these name the index when they differ.
    const std::vector<std::uint32_t> head = parseBits<std::uint32_t>(testCase[u"head"]);
    const std::vector<std::uint32_t> tail = parseBits<std::uint32_t>(testCase[u"tail"]);
    QString message = firstMismatch(QStringLiteral("head"), head,
                                    std::vector<float>(values.begin(), values.begin() + 16));
    QVERIFY2(message.isEmpty(), qPrintable(message));
    message = firstMismatch(QStringLiteral("tail"), tail,
                            std::vector<float>(values.end() - 16, values.end()), n - 16);
    QVERIFY2(message.isEmpty(), qPrintable(message));

    // 2. Per-chunk SHA-256, so a difference in the middle is located to one chunk.
    const QByteArray bytes = littleEndianBytes(values);
    const auto chunk = static_cast<qsizetype>(testCase[u"chunk"].toInteger()) * 4;
    const QJsonArray chunkHashes = testCase[u"chunk_sha256"].toArray();
    QCOMPARE(chunkHashes.size(), (bytes.size() + chunk - 1) / chunk);
    for (qsizetype k = 0; k < chunkHashes.size(); ++k) {
        const qsizetype begin = k * chunk;
        const qsizetype end = std::min(begin + chunk, bytes.size());
        QVERIFY2(sha256Hex(QByteArrayView(bytes).sliced(begin, end - begin)) ==
                     chunkHashes[k].toString().toLatin1(),
                 qPrintable(QStringLiteral("values [%1, %2) differ from torch (SHA-256)")
                                .arg(begin / 4)
                                .arg(end / 4)));
    }

    // 3. The whole array.
    QCOMPARE(sha256Hex(bytes), testCase[u"sha256"].toString().toLatin1());
}

QTEST_GUILESS_MAIN(TestTorchRng)
#include "tst_torchrng.moc"
