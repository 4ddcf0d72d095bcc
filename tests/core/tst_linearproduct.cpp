// core/models/linearproduct: the product kernel on each of its paths (AVX-512 and AVX2 + FMA
// where the CPU has them, portable everywhere) against products in double precision, within
// the bound of a float sum of K terms (K·2⁻²⁴·Σ|x·w| for a chain of fused multiply-adds, twice
// that where each product is rounded too): W as floats in place, unaligned, padded and read
// along a Conv1D's columns; every remainder of outputs, tokens and depth; W as ggml blocks of
// every type (tests/reference/gguf/blocks, the values ggml's dequantize_row_* gives), rows
// reordered and unaligned, and the kernel's own dequantizer bit for bit against them. The
// AVX2 and AVX-512 paths give the same bits (one chain of fused multiply-adds each).
#include "models/linearproduct.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTest>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

Q_DECLARE_METATYPE(attn::ProductPath)
Q_DECLARE_METATYPE(attn::GgmlType)

namespace {

using attn::PackedTokens;
using attn::ProductPath;
using attn::ProductWeight;
using Index = Eigen::Index;

const QString kBlocks = QStringLiteral(ATTN_REFERENCE_DIR "/gguf/blocks/");
const ProductPath kPaths[] = {ProductPath::Avx512, ProductPath::Avx2, ProductPath::Portable};

QByteArray readBlocks(const QString& name)
{
    QFile file(kBlocks + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

std::vector<float> randomValues(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& f : v)
        f = u(rng);
    return v;
}

// y = x·Wᵀ through the kernel: x (T × K) packed, one tile of every output and token.
std::vector<float> kernelProduct(const std::vector<float>& x, Index T, Index K,
                                 const ProductWeight& w)
{
    PackedTokens packed;
    attn::packTokens(x.data(), K, T, K, packed);
    const Index ldt = packed.panels() * attn::kTokenPanel;
    std::vector<float> yt(std::size_t(w.outputs * ldt), std::nanf(""));
    attn::productTile(packed, 0, packed.panels(), w, 0, w.outputs, yt.data(), ldt);
    std::vector<float> y(std::size_t(T * w.outputs));
    for (Index t = 0; t < T; ++t)
        for (Index n = 0; n < w.outputs; ++n)
            y[std::size_t(t * w.outputs + n)] = yt[std::size_t(n * ldt + t)];
    return y;
}

// Empty when every y[t, n] is within the rounding bound of Σₖ x[t, k]·W[n, k] in double (W's
// rows `weights`, N × K); else the first that is not.
QString checkAgainstDouble(const std::vector<float>& y, const std::vector<float>& x,
                           const std::vector<float>& weights, Index T, Index N, Index K,
                           ProductPath path)
{
    const double u = std::ldexp(1.0, -24) * (path == ProductPath::Portable ? 2.0 : 1.0);
    for (Index t = 0; t < T; ++t)
        for (Index n = 0; n < N; ++n) {
            double exact = 0, magnitude = 0;
            for (Index k = 0; k < K; ++k) {
                const double p =
                    double(x[std::size_t(t * K + k)]) * double(weights[std::size_t(n * K + k)]);
                exact += p;
                magnitude += std::abs(p);
            }
            const double got = y[std::size_t(t * N + n)];
            const double bound = double(K) * u * magnitude + 1e-30;
            if (!(std::abs(got - exact) <= bound))
                return QString("y[%1, %2] = %3, exactly %4 (bound %5)")
                    .arg(t)
                    .arg(n)
                    .arg(got, 0, 'g', 9)
                    .arg(exact, 0, 'g', 9)
                    .arg(bound);
        }
    return {};
}

bool usePath(ProductPath path)
{
    if (!attn::productPathSupported(path))
        return false;
    attn::setProductPath(path);
    return true;
}

} // namespace

class TestLinearProduct : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { attn::setProductPath(m_initial); }
    void packedTokensLayout();
    void floats_data();
    void floats();
    void blocks_data();
    void blocks();
    void wideQuantizedRows_data();
    void wideQuantizedRows();
    void vectorPathsAgreeBitForBit();

private:
    ProductPath m_initial = attn::productPath();
};

void TestLinearProduct::packedTokensLayout()
{
    // 19 tokens × 5 inputs: 2 panels, token 16 + j's input k at panel 1's (k·16 + j), the
    // 13 missing tokens of panel 1 zero.
    const Index T = 19, K = 5;
    std::vector<float> x(T * K);
    for (Index i = 0; i < T * K; ++i)
        x[std::size_t(i)] = float(i + 1);
    PackedTokens packed;
    packed.data.assign(1000, 7.0f); // a previous product's: resized and overwritten
    attn::packTokens(x.data(), K, T, K, packed);
    QCOMPARE(packed.panels(), Index(2));
    QCOMPARE(packed.data.size(), std::size_t(2 * K * 16));
    for (Index p = 0; p < 2; ++p)
        for (Index k = 0; k < K; ++k)
            for (Index j = 0; j < 16; ++j) {
                const Index t = 16 * p + j;
                QCOMPARE(packed.panel(p)[k * 16 + j], t < T ? x[std::size_t(t * K + k)] : 0.0f);
            }
}

void TestLinearProduct::floats_data()
{
    QTest::addColumn<ProductPath>("path");
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("N");
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("layout"); // 0 in place, 1 unaligned with padded rows, 2 Conv1D
    const char* layouts[] = {"in place", "unaligned, rows padded", "a Conv1D's columns"};
    for (const ProductPath path : kPaths)
        for (int layout = 0; layout < 3; ++layout) {
            const auto row = [&](const char* what, int T, int N, int K) {
                QTest::addRow("%s, %s: %s", attn::productPathName(path).data(), layouts[layout],
                              what)
                    << path << T << N << K << layout;
            };
            row("one token, one output, one input", 1, 1, 1);
            row("a panel and a token; 8, 6 and 4 outputs and remainders", 17, 13, 7);
            row("3 panels and 2 (AVX-512's 3 and its remainder)", 80, 9, 40);
            row("chunks of 256, 256 and 1", 5, 23, 513);
            row("a full block of every path, a chunk and a half", 48, 48, 384);
        }
}

void TestLinearProduct::floats()
{
    QFETCH(ProductPath, path);
    QFETCH(int, T);
    QFETCH(int, N);
    QFETCH(int, K);
    QFETCH(int, layout);
    if (!usePath(path))
        QSKIP("this CPU has no such instructions");
    const std::vector<float> x = randomValues(std::size_t(T * K), 1);
    const std::vector<float> w = randomValues(std::size_t(N * K), 2); // W's rows, N × K
    // The same W stored three ways: rows in place; one float past a vector's alignment with 3
    // floats of padding after each row; [in, out] as GPT-2's Conv1D stores it.
    std::vector<float> stored;
    ProductWeight weight;
    weight.outputs = N;
    weight.depth = K;
    if (layout == 0) {
        stored = w;
        weight.floats = stored.data();
        weight.rowStride = K;
    } else if (layout == 1) {
        stored.assign(std::size_t(N * (K + 3) + 1), std::nanf(""));
        for (Index n = 0; n < N; ++n)
            std::memcpy(stored.data() + 1 + n * (K + 3), w.data() + n * K, sizeof(float) * K);
        weight.floats = stored.data() + 1;
        weight.rowStride = K + 3;
    } else {
        stored.resize(w.size());
        for (Index n = 0; n < N; ++n)
            for (Index k = 0; k < K; ++k)
                stored[std::size_t(k * N + n)] = w[std::size_t(n * K + k)];
        weight.floats = stored.data();
        weight.rowStride = 1;
        weight.depthStride = N;
    }
    const QString fault = checkAgainstDouble(kernelProduct(x, T, K, weight), x, w, T, N, K, path);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
}

void TestLinearProduct::blocks_data()
{
    QTest::addColumn<ProductPath>("path");
    QTest::addColumn<QJsonObject>("fixture");
    const auto manifest =
        QJsonDocument::fromJson(readBlocks(QStringLiteral("manifest.json"))).array();
    for (const ProductPath path : kPaths)
        for (const auto& entry : manifest) {
            const QJsonObject c = entry.toObject();
            QTest::addRow("%s: %s", attn::productPathName(path).data(),
                          qPrintable(c["case"].toString()))
                << path << c;
        }
}

void TestLinearProduct::blocks()
{
    // The fixture's rows of blocks 3 bytes past any alignment, read as a W of 11 rows through
    // a row order (row n is stored row n mod rows, backwards): each row dequantized as ggml
    // does, bit for bit; then, where every value is finite, x·Wᵀ against double.
    QFETCH(ProductPath, path);
    QFETCH(QJsonObject, fixture);
    if (!usePath(path))
        QSKIP("this CPU has no such instructions");
    const auto type = attn::GgmlType(fixture["type_id"].toInt());
    const int rows = fixture["rows"].toInt(), K = fixture["cols"].toInt();
    const QByteArray bytes = readBlocks(fixture["blocks"].toString());
    const QByteArray expectedBytes = readBlocks(fixture["expected"].toString());
    std::vector<float> expected(std::size_t(rows * K));
    QCOMPARE(std::size_t(expectedBytes.size()), expected.size() * sizeof(float));
    std::memcpy(expected.data(), expectedBytes.constData(), std::size_t(expectedBytes.size()));
    std::vector<std::byte> shifted(std::size_t(bytes.size()) + 3);
    std::memcpy(shifted.data() + 3, bytes.constData(), std::size_t(bytes.size()));
    const Index N = 11;
    std::vector<std::int32_t> order(N);
    for (Index n = 0; n < N; ++n)
        order[std::size_t(n)] = std::int32_t(rows - 1 - n % rows);
    ProductWeight weight;
    weight.outputs = N;
    weight.depth = K;
    weight.blocks = shifted.data() + 3;
    weight.type = type;
    weight.rowBytes = std::size_t(bytes.size() / rows);
    weight.rowOrder = order.data();

    std::vector<float> w(std::size_t(N * K));
    std::vector<float> row(static_cast<std::size_t>(K));
    bool finite = true;
    for (Index n = 0; n < N; ++n) {
        attn::productWeightRow(weight, n, 0, K, row.data());
        const float* want = expected.data() + order[std::size_t(n)] * K;
        for (Index k = 0; k < K; ++k) {
            std::uint32_t a, b;
            std::memcpy(&a, &row[std::size_t(k)], 4);
            std::memcpy(&b, &want[k], 4);
            const bool bothNan = std::isnan(row[std::size_t(k)]) && std::isnan(want[k]);
            QVERIFY2(a == b || bothNan, qPrintable(QString("row %1, element %2: %3, ggml %4")
                                                       .arg(n)
                                                       .arg(k)
                                                       .arg(double(row[std::size_t(k)]))
                                                       .arg(double(want[k]))));
            finite = finite && std::isfinite(want[k]);
        }
        std::memcpy(w.data() + n * K, want, sizeof(float) * std::size_t(K));
    }
    if (!finite)
        return; // infinities and NaNs: the dequantized bits are the test
    const Index T = 21;
    const std::vector<float> x = randomValues(std::size_t(T * K), 3);
    const QString fault = checkAgainstDouble(kernelProduct(x, T, K, weight), x, w, T, N, K, path);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
}

void TestLinearProduct::wideQuantizedRows_data()
{
    QTest::addColumn<ProductPath>("path");
    QTest::addColumn<attn::GgmlType>("type");
    for (const ProductPath path : kPaths)
        for (const auto type : {attn::GgmlType::Q8_0, attn::GgmlType::Q4_0, attn::GgmlType::Q5_0,
                                attn::GgmlType::Q4_1})
            QTest::addRow("%s: %s", attn::productPathName(path).data(),
                          attn::ggmlTypeInfo(std::uint32_t(type))->name.data())
                << path << type;
}

void TestLinearProduct::wideQuantizedRows()
{
    // Rows of 800 (chunks of 256, 256, 256 and 32) of random 32-element blocks, each block's
    // scale a sane half (1/64) in its first two bytes: the chunks' rows start mid-row at a
    // block, the last chunk is one block.
    QFETCH(ProductPath, path);
    QFETCH(attn::GgmlType, type);
    if (!usePath(path))
        QSKIP("this CPU has no such instructions");
    const Index N = 10, K = 800, T = 33;
    const auto info = *attn::ggmlTypeInfo(std::uint32_t(type));
    const std::size_t rowBytes = std::size_t(*attn::ggmlRowBytes(type, K));
    std::vector<std::byte> blocks(rowBytes * N);
    std::mt19937 rng(9);
    for (std::byte& b : blocks)
        b = std::byte(rng() & 0xFF);
    for (std::size_t at = 0; at < blocks.size(); at += std::size_t(info.blockBytes)) {
        blocks[at] = std::byte(0x00); // half 0x2400 = 1/64
        blocks[at + 1] = std::byte(0x24);
        if (type == attn::GgmlType::Q4_1) { // its min, a second half: -1/32
            blocks[at + 2] = std::byte(0x00);
            blocks[at + 3] = std::byte(0xA8);
        }
    }
    ProductWeight weight;
    weight.outputs = N;
    weight.depth = K;
    weight.blocks = blocks.data();
    weight.type = type;
    weight.rowBytes = rowBytes;
    std::vector<float> w(std::size_t(N * K));
    for (Index n = 0; n < N; ++n)
        attn::dequantizeRow(type, blocks.data() + std::size_t(n) * rowBytes, w.data() + n * K, K);
    const std::vector<float> x = randomValues(std::size_t(T * K), 4);
    const QString fault = checkAgainstDouble(kernelProduct(x, T, K, weight), x, w, T, N, K, path);
    QVERIFY2(fault.isEmpty(), qPrintable(fault));
}

void TestLinearProduct::vectorPathsAgreeBitForBit()
{
    if (!attn::productPathSupported(ProductPath::Avx512))
        QSKIP("this CPU has no AVX-512");
    const Index T = 50, N = 29, K = 777;
    const std::vector<float> x = randomValues(std::size_t(T * K), 5);
    const std::vector<float> w = randomValues(std::size_t(N * K), 6);
    ProductWeight weight;
    weight.outputs = N;
    weight.depth = K;
    weight.floats = w.data();
    weight.rowStride = K;
    attn::setProductPath(ProductPath::Avx512);
    const std::vector<float> wide = kernelProduct(x, T, K, weight);
    attn::setProductPath(ProductPath::Avx2);
    const std::vector<float> narrow = kernelProduct(x, T, K, weight);
    QVERIFY(std::memcmp(wide.data(), narrow.data(), wide.size() * sizeof(float)) == 0);
}

QTEST_APPLESS_MAIN(TestLinearProduct)
#include "tst_linearproduct.moc"
