// core/io/ggml: the ggml type table, row sizes, llama.cpp's file type names, and each of the 15
// dequantizers against tests/reference/gguf/blocks/ (gen_ggml_blocks.py: blocks and the float32
// values ggml's dequantize_row_* gives them), bit for bit, from aligned and unaligned bytes.
#include "io/ggml.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

Q_DECLARE_METATYPE(std::optional<std::uint64_t>)

namespace {

const QString kBlocks = QStringLiteral(ATTN_REFERENCE_DIR "/gguf/blocks/");

QByteArray readFile(const QString& name)
{
    QFile file(kBlocks + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

std::uint32_t bitsOf(float v)
{
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
}

// Dequantizes `rows` rows of `cols` from `bytes` starting `offset` bytes into a copy (an odd
// offset puts every block at an unaligned address).
std::vector<float> dequantizeCopy(attn::GgmlType type, const QByteArray& bytes, int rows, int cols,
                                  int offset)
{
    std::vector<std::byte> copy(std::size_t(bytes.size() + offset));
    std::memcpy(copy.data() + offset, bytes.constData(), std::size_t(bytes.size()));
    const auto rowBytes = attn::ggmlRowBytes(type, cols);
    if (!rowBytes || *rowBytes * std::uint64_t(rows) != std::uint64_t(bytes.size()))
        qFatal("the fixture's bytes are not %d rows of %d", rows, cols);
    std::vector<float> values(std::size_t(rows) * std::size_t(cols));
    for (int r = 0; r < rows; ++r)
        attn::dequantizeRow(type, copy.data() + offset + std::size_t(r) * *rowBytes,
                            values.data() + std::size_t(r) * std::size_t(cols), cols);
    return values;
}

// Empty when `actual` has the bits of `expected` everywhere (two NaNs are equal); else how
// many elements differ and the first of them.
QString bitDifference(const std::vector<float>& actual, const float* expected, int cols)
{
    int differing = 0;
    QString first;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const bool same = bitsOf(actual[i]) == bitsOf(expected[i]) ||
                          (std::isnan(actual[i]) && std::isnan(expected[i]));
        if (same)
            continue;
        if (differing++ == 0)
            first = QString("row %1, element %2: %3 (0x%4), expected %5 (0x%6)")
                        .arg(i / std::size_t(cols))
                        .arg(i % std::size_t(cols))
                        .arg(double(actual[i]), 0, 'g', 9)
                        .arg(bitsOf(actual[i]), 8, 16, QChar('0'))
                        .arg(double(expected[i]), 0, 'g', 9)
                        .arg(bitsOf(expected[i]), 8, 16, QChar('0'));
    }
    return differing == 0 ? QString()
                          : QString("%1 elements differ; first %2").arg(differing).arg(first);
}

} // namespace

class TestGgmlQuants : public QObject {
    Q_OBJECT

private slots:
    void dequantizesAsGgml_data();
    void dequantizesAsGgml();
    void unalignedSource_data() { dequantizesAsGgml_data(); }
    void unalignedSource();
    void everyHalf();
    void emptyRow_data() { typeTable_data(); }
    void emptyRow();
    void typeTable_data();
    void typeTable();
    void unknownIds_data();
    void unknownIds();
    void rowBytes_data();
    void rowBytes();
    void refusals_data();
    void refusals();
    void fileTypeNames_data();
    void fileTypeNames();
};

void TestGgmlQuants::dequantizesAsGgml_data()
{
    QTest::addColumn<quint32>("typeId");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<QString>("blocks");
    QTest::addColumn<QString>("expected");
    const auto manifest = QJsonDocument::fromJson(readFile("manifest.json")).array();
    QVERIFY(manifest.size() >= 15 * 3);
    for (const auto& entry : manifest) {
        const auto c = entry.toObject();
        QTest::newRow(qPrintable(c["case"].toString()))
            << quint32(c["type_id"].toInt()) << c["rows"].toInt() << c["cols"].toInt()
            << c["blocks"].toString() << c["expected"].toString();
    }
}

void TestGgmlQuants::dequantizesAsGgml()
{
    QFETCH(quint32, typeId);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(QString, blocks);
    QFETCH(QString, expected);
    const QByteArray want = readFile(expected);
    QCOMPARE(want.size(), qsizetype(rows) * cols * 4);
    const auto values = dequantizeCopy(attn::GgmlType(typeId), readFile(blocks), rows, cols, 0);
    const QString difference =
        bitDifference(values, reinterpret_cast<const float*>(want.constData()), cols);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TestGgmlQuants::unalignedSource()
{
    // GGUF aligns tensors, not the rows inside them: every block read from odd addresses.
    QFETCH(quint32, typeId);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(QString, blocks);
    QFETCH(QString, expected);
    const QByteArray bytes = readFile(blocks);
    const QByteArray want = readFile(expected);
    for (const int offset : {1, 3}) {
        const auto values = dequantizeCopy(attn::GgmlType(typeId), bytes, rows, cols, offset);
        const QString difference =
            bitDifference(values, reinterpret_cast<const float*>(want.constData()), cols);
        QVERIFY2(difference.isEmpty(), qPrintable(QString("offset %1: ").arg(offset) + difference));
    }
}

void TestGgmlQuants::everyHalf()
{
    // All 65,536 halves against their value worked out in double: mantissa · 2^(exponent - 25)
    // (subnormals: 2^-24), and for infinities and NaNs the float bits with a NaN's quiet bit set.
    std::vector<std::uint16_t> halves(65536);
    for (std::size_t h = 0; h < halves.size(); ++h)
        halves[h] = std::uint16_t(h);
    std::vector<float> values(halves.size());
    attn::dequantizeRow(attn::GgmlType::F16, reinterpret_cast<const std::byte*>(halves.data()),
                        values.data(), std::int64_t(halves.size()));
    for (std::uint32_t h = 0; h < 65536; ++h) {
        const std::uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF;
        std::uint32_t want;
        if (exponent == 0x1F) {
            want = 0x7F800000 | mantissa << 13 | (mantissa ? 0x00400000 : 0);
        } else {
            const double magnitude = exponent == 0
                                         ? std::ldexp(double(mantissa), -24)
                                         : std::ldexp(double(mantissa | 0x400), int(exponent) - 25);
            want = bitsOf(float(magnitude));
        }
        want |= (h & 0x8000) << 16;
        if (bitsOf(values[h]) != want)
            QFAIL(qPrintable(QString("half 0x%1: 0x%2, expected 0x%3")
                                 .arg(h, 4, 16, QChar('0'))
                                 .arg(bitsOf(values[h]), 8, 16, QChar('0'))
                                 .arg(want, 8, 16, QChar('0'))));
    }
}

void TestGgmlQuants::emptyRow()
{
    // A row of no elements reads and writes nothing, from null pointers too (fuzz_ggmlblocks
    // found F32's memcpy given them).
    QFETCH(quint32, id);
    QFETCH(bool, dequantizable);
    if (dequantizable)
        attn::dequantizeRow(attn::GgmlType(id), nullptr, nullptr, 0);
    QCOMPARE(attn::ggmlRowBytes(attn::GgmlType(id), 0), std::uint64_t(0));
}

void TestGgmlQuants::typeTable_data()
{
    // ggml.h's ids and gguf-py's GGML_QUANT_SIZES (block elements, block bytes), but for Q8_1,
    // where ggml's block_q8_1 (two halves and 32 bytes) is 36 bytes and gguf-py says 40.
    QTest::addColumn<quint32>("id");
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("elements");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<bool>("dequantizable");
    struct Row {
        std::uint32_t id;
        const char* name;
        std::int64_t elements, bytes;
        bool dequantizable;
    };
    const Row rows[] = {
        {0, "F32", 1, 4, true},          {1, "F16", 1, 2, true},
        {2, "Q4_0", 32, 18, true},       {3, "Q4_1", 32, 20, true},
        {6, "Q5_0", 32, 22, true},       {7, "Q5_1", 32, 24, true},
        {8, "Q8_0", 32, 34, true},       {9, "Q8_1", 32, 36, false},
        {10, "Q2_K", 256, 84, true},     {11, "Q3_K", 256, 110, true},
        {12, "Q4_K", 256, 144, true},    {13, "Q5_K", 256, 176, true},
        {14, "Q6_K", 256, 210, true},    {15, "Q8_K", 256, 292, false},
        {16, "IQ2_XXS", 256, 66, false}, {17, "IQ2_XS", 256, 74, false},
        {18, "IQ3_XXS", 256, 98, false}, {19, "IQ1_S", 256, 50, false},
        {20, "IQ4_NL", 32, 18, true},    {21, "IQ3_S", 256, 110, false},
        {22, "IQ2_S", 256, 82, false},   {23, "IQ4_XS", 256, 136, true},
        {24, "I8", 1, 1, false},         {25, "I16", 1, 2, false},
        {26, "I32", 1, 4, false},        {27, "I64", 1, 8, false},
        {28, "F64", 1, 8, false},        {29, "IQ1_M", 256, 56, false},
        {30, "BF16", 1, 2, true},        {34, "TQ1_0", 256, 54, false},
        {35, "TQ2_0", 256, 66, false},   {39, "MXFP4", 32, 17, false},
        {40, "NVFP4", 64, 36, false},    {41, "Q1_0", 128, 18, false},
        {42, "Q2_0", 64, 18, false},
    };
    for (const auto& r : rows)
        QTest::newRow(r.name) << r.id << QString(r.name) << qint64(r.elements) << qint64(r.bytes)
                              << r.dequantizable;
}

void TestGgmlQuants::typeTable()
{
    QFETCH(quint32, id);
    QFETCH(QString, name);
    QFETCH(qint64, elements);
    QFETCH(qint64, bytes);
    QFETCH(bool, dequantizable);
    const auto info = attn::ggmlTypeInfo(id);
    QVERIFY(info.has_value());
    QCOMPARE(QString::fromUtf8(info->name.data(), qsizetype(info->name.size())), name);
    QCOMPARE(qint64(info->blockElements), elements);
    QCOMPARE(qint64(info->blockBytes), bytes);
    QCOMPARE(info->dequantizable, dequantizable);
    QCOMPARE(attn::ggmlRowBytes(attn::GgmlType(id), 3 * elements), std::uint64_t(3 * bytes));
}

void TestGgmlQuants::unknownIds_data()
{
    QTest::addColumn<quint32>("id");
    QTest::newRow("4 (Q4_2, removed)") << quint32(4);
    QTest::newRow("5 (Q4_3, removed)") << quint32(5);
    QTest::newRow("31 (Q4_0_4_4, removed)") << quint32(31);
    QTest::newRow("33 (Q4_0_8_8, removed)") << quint32(33);
    QTest::newRow("36 (IQ4_NL_4_4, removed)") << quint32(36);
    QTest::newRow("38 (IQ4_NL_8_8, removed)") << quint32(38);
    QTest::newRow("43 (GGML_TYPE_COUNT)") << quint32(43);
    QTest::newRow("2^32 - 1") << std::numeric_limits<quint32>::max();
}

void TestGgmlQuants::unknownIds()
{
    QFETCH(quint32, id);
    QVERIFY(!attn::ggmlTypeInfo(id).has_value());
    QVERIFY(!attn::ggmlRowBytes(attn::GgmlType(id), 0).has_value());
}

void TestGgmlQuants::rowBytes_data()
{
    QTest::addColumn<quint32>("type");
    QTest::addColumn<qint64>("n");
    QTest::addColumn<std::optional<std::uint64_t>>("bytes");
    using attn::GgmlType;
    const auto none = std::optional<std::uint64_t>();
    const qint64 max = std::numeric_limits<qint64>::max();
    auto row = [](const char* name, GgmlType type, qint64 n, std::optional<std::uint64_t> b) {
        QTest::newRow(name) << quint32(type) << n << b;
    };
    row("Q4_K, two blocks", GgmlType::Q4_K, 512, 288);
    row("Q8_0, 4096", GgmlType::Q8_0, 4096, 4352);
    row("Q6_K, empty row", GgmlType::Q6_K, 0, 0);
    row("Q4_K, 100 (not a multiple of 256)", GgmlType::Q4_K, 100, none);
    row("Q8_0, 33 (not a multiple of 32)", GgmlType::Q8_0, 33, none);
    row("F32, -4", GgmlType::F32, -4, none);
    row("I8, 2^63 - 1 bytes", GgmlType::I8, max, std::uint64_t(max));
    row("F16, 2^64 - 2 bytes", GgmlType::F16, max, std::uint64_t(max) * 2);
    row("F32, 2^65 bytes overflow", GgmlType::F32, max, none);
    row("F64, 2^66 bytes overflow", GgmlType::F64, max, none);
    row("Q8_K, 2^63 - 2^8 elements fit", GgmlType::Q8_K, max - 255, std::uint64_t(max / 256) * 292);
    row("Q4_0, 2^63 - 2^5 elements fit", GgmlType::Q4_0, max - 31, std::uint64_t(max / 32) * 18);
}

void TestGgmlQuants::rowBytes()
{
    QFETCH(quint32, type);
    QFETCH(qint64, n);
    QFETCH(std::optional<std::uint64_t>, bytes);
    QCOMPARE(attn::ggmlRowBytes(attn::GgmlType(type), n), bytes);
}

void TestGgmlQuants::refusals_data()
{
    QTest::addColumn<quint32>("type");
    QTest::addColumn<qint64>("n");
    QTest::newRow("Q8_1 (not read)") << quint32(attn::GgmlType::Q8_1) << qint64(32);
    QTest::newRow("IQ2_XXS (not read)") << quint32(attn::GgmlType::IQ2_XXS) << qint64(256);
    QTest::newRow("F64 (not read)") << quint32(attn::GgmlType::F64) << qint64(1);
    QTest::newRow("id 4 (removed)") << quint32(4) << qint64(32);
    QTest::newRow("Q8_0, 33 elements") << quint32(attn::GgmlType::Q8_0) << qint64(33);
    QTest::newRow("Q6_K, 128 elements") << quint32(attn::GgmlType::Q6_K) << qint64(128);
    QTest::newRow("F16, -2 elements") << quint32(attn::GgmlType::F16) << qint64(-2);
}

void TestGgmlQuants::refusals()
{
    QFETCH(quint32, type);
    QFETCH(qint64, n);
    std::vector<std::byte> src(4096);
    std::vector<float> dst(4096);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             attn::dequantizeRow(attn::GgmlType(type), src.data(), dst.data(), n));
}

void TestGgmlQuants::fileTypeNames_data()
{
    QTest::addColumn<quint32>("fileType");
    QTest::addColumn<QString>("name");
    QTest::newRow("0 ALL_F32") << quint32(0) << "F32";
    QTest::newRow("1 MOSTLY_F16") << quint32(1) << "F16";
    QTest::newRow("7 MOSTLY_Q8_0") << quint32(7) << "Q8_0";
    QTest::newRow("12 MOSTLY_Q3_K_M") << quint32(12) << "Q3_K_M";
    QTest::newRow("15 MOSTLY_Q4_K_M") << quint32(15) << "Q4_K_M";
    QTest::newRow("18 MOSTLY_Q6_K") << quint32(18) << "Q6_K";
    QTest::newRow("25 MOSTLY_IQ4_NL") << quint32(25) << "IQ4_NL";
    QTest::newRow("30 MOSTLY_IQ4_XS") << quint32(30) << "IQ4_XS";
    QTest::newRow("32 MOSTLY_BF16") << quint32(32) << "BF16";
    QTest::newRow("38 MOSTLY_MXFP4_MOE") << quint32(38) << "MXFP4_MOE";
    QTest::newRow("41 MOSTLY_Q2_0") << quint32(41) << "Q2_0";
    QTest::newRow("4 (Q4_1_SOME_F16, removed)") << quint32(4) << "";
    QTest::newRow("33 (Q4_0_4_4, removed)") << quint32(33) << "";
    QTest::newRow("42 (past the last)") << quint32(42) << "";
    QTest::newRow("1024 (GUESSED)") << quint32(1024) << "";
}

void TestGgmlQuants::fileTypeNames()
{
    QFETCH(quint32, fileType);
    QFETCH(QString, name);
    const std::string_view got = attn::ggmlFileTypeName(fileType);
    QCOMPARE(QString::fromUtf8(got.data(), qsizetype(got.size())), name);
}

QTEST_GUILESS_MAIN(TestGgmlQuants)
#include "tst_ggmlquants.moc"
