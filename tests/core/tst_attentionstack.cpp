// The stack's own arithmetic: float16/bfloat16 conversion, thumbnails (block maxima, NaN
// kept), head patterns as headpatterns.h defines them, "heads like this one", a large
// file made here and mapped, and stored .npz members used in place.
//
// Legend: L layers, B sequences, H heads, T_q queries (rows), T_k keys (columns).
#include "attention/attentionfile.h"
#include "attention/headpatterns.h"
#include "engine/engine.h"
#include "engine/options.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace attn;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// One head (T_q, T_k) from rows of values.
Matrix matrix(std::initializer_list<std::initializer_list<float>> rows)
{
    Matrix m(Eigen::Index(rows.size()), Eigen::Index(rows.begin()->size()));
    int i = 0;
    for (const auto& row : rows) {
        int j = 0;
        for (const float v : row)
            m(i, j++) = v;
        ++i;
    }
    return m;
}

} // namespace

class TestAttentionStack : public QObject {
    Q_OBJECT

private slots:
    void halfFloats_data();
    void halfFloats();
    void thumbnailIsBlockMaxima_data();
    void thumbnailIsBlockMaxima();
    void patterns_data();
    void patterns();
    void roles_data();
    void roles();
    void headsLikeThisOne();
    void memoryStackChecksItsSize();
    void largeBuffersAreRecycled();
    void largeFileMadeHere();
    void storedMembersAreMapped();
};

void TestAttentionStack::halfFloats_data()
{
    QTest::addColumn<int>("bits");
    QTest::addColumn<float>("value");
    QTest::newRow("1.0") << 0x3C00 << 1.0f;
    QTest::newRow("-2.0") << 0xC000 << -2.0f;
    QTest::newRow("largest 65504") << 0x7BFF << 65504.0f;
    QTest::newRow("smallest normal 2^-14") << 0x0400 << std::ldexp(1.0f, -14);
    QTest::newRow("smallest subnormal 2^-24") << 0x0001 << std::ldexp(1.0f, -24);
    QTest::newRow("subnormal 0x03FF") << 0x03FF << std::ldexp(1023.0f, -24);
    QTest::newRow("-0") << 0x8000 << -0.0f;
    QTest::newRow("+inf") << 0x7C00 << kInf;
    QTest::newRow("-inf") << 0xFC00 << -kInf;
    QTest::newRow("NaN") << 0x7E00 << kNaN;
}

void TestAttentionStack::halfFloats()
{
    QFETCH(int, bits);
    QFETCH(float, value);
    const float got = halfToFloat(std::uint16_t(bits));
    if (std::isnan(value))
        QVERIFY(std::isnan(got));
    else
        QCOMPARE(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(value));
    QCOMPARE(bfloat16ToFloat(0x3F80), 1.0f);
    QCOMPARE(bfloat16ToFloat(0xC0A0), -5.0f);
}

void TestAttentionStack::thumbnailIsBlockMaxima_data()
{
    QTest::addColumn<int>("queries");
    QTest::addColumn<int>("keys");
    QTest::addColumn<int>("size");
    QTest::newRow("5×5 at 2") << 5 << 5 << 2;
    QTest::newRow("100×100 at 12") << 100 << 100 << 12;
    QTest::newRow("cross 7×300 at 32") << 7 << 300 << 32;
    QTest::newRow("smaller than the size") << 3 << 4 << 32;
    QTest::newRow("size 1") << 9 << 9 << 1;
}

void TestAttentionStack::thumbnailIsBlockMaxima()
{
    QFETCH(int, queries);
    QFETCH(int, keys);
    QFETCH(int, size);
    // Two heads of random weights, a NaN and an infinity in the second.
    const StackShape shape{1, 1, 2, queries, keys};
    FloatBuffer w(std::size_t(2 * queries * keys));
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0, 1);
    for (float& x : w)
        x = u(rng);
    const std::size_t second = std::size_t(queries * keys);
    w[second + std::size_t(keys) / 2] = kNaN; // row 0
    w[second + second - 1] = kInf;            // the last row
    const MemoryAttentionStack stack(shape, w);
    for (int h = 0; h < 2; ++h) {
        const Thumbnail t = stack.thumbnail(0, 0, h, size);
        const Matrix m = stack.head(0, 0, h);
        QCOMPARE(t.rows, std::min(size, queries));
        QCOMPARE(t.cols, std::min(size, keys));
        QCOMPARE(t.nonFinite, h == 0 ? 0 : 2);
        // Brute force: cell (r, c) is the largest of the weights whose row i has
        // i·rows/T_q = r and column j·cols/T_k = c; NaN if one of them is.
        for (int r = 0; r < t.rows; ++r)
            for (int c = 0; c < t.cols; ++c) {
                float want = -kInf;
                bool nan = false;
                for (int i = 0; i < queries; ++i)
                    for (int j = 0; j < keys; ++j)
                        if (i * t.rows / queries == r && j * t.cols / keys == c) {
                            nan = nan || std::isnan(m(i, j));
                            want = std::max(want, m(i, j));
                        }
                const float got = t.values[std::size_t(r * t.cols + c)];
                if (nan)
                    QVERIFY2(std::isnan(got), qPrintable(QStringLiteral("(%1,%2)").arg(r).arg(c)));
                else
                    QCOMPARE(got, want);
            }
        float finiteMax = 0;
        for (int i = 0; i < queries; ++i)
            for (int j = 0; j < keys; ++j)
                if (std::isfinite(m(i, j)))
                    finiteMax = std::max(finiteMax, m(i, j));
        QCOMPARE(t.maximum, finiteMax);
    }
    const std::vector<Thumbnail> all = stack.thumbnails(0, size);
    QCOMPARE(all.size(), std::size_t(2));
    QCOMPARE(all[1].values.size(), stack.thumbnail(0, 0, 1, size).values.size());
    // A newer job's flag stops the pass.
    const std::atomic<bool> cancel{true};
    QVERIFY_THROWS_EXCEPTION(Cancelled, (void)stack.thumbnails(0, size, &cancel));
    QVERIFY_THROWS_EXCEPTION(Cancelled, (void)stackPatterns(stack, 0, &cancel));
}

void TestAttentionStack::patterns_data()
{
    QTest::addColumn<Matrix>("weights");
    QTest::addColumn<bool>("cross");
    QTest::addColumn<double>("previous");
    QTest::addColumn<double>("self");
    QTest::addColumn<double>("first");
    QTest::addColumn<double>("entropy");
    QTest::addColumn<int>("queries");
    QTest::addColumn<bool>("sink"); // first > kSinkThreshold (0.5): an "attention sink"
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Query 0 is left out in self-attention: it is trivially all three under a mask.
    QTest::newRow("self (identity)") << matrix({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}) << false << 0.0
                                     << 1.0 << 0.0 << 0.0 << 2 << false;
    QTest::newRow("previous token") << matrix({{1, 0, 0}, {1, 0, 0}, {0, 1, 0}}) << false << 1.0
                                    << 0.0 << 0.5 << 0.0 << 2 << false;
    QTest::newRow("sink") << matrix({{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}) << false << 0.5 << 0.0 << 1.0
                          << 0.0 << 2 << true;
    // Causal and uniform: row i spreads over i + 1 keys, log2(i + 1) bits.
    QTest::newRow("causal uniform")
        << matrix({{1, 0, 0, 0},
                   {0.5f, 0.5f, 0, 0},
                   {0.25f, 0.25f, 0.5f, 0},
                   {0.25f, 0.25f, 0.25f, 0.25f}})
        << false << (0.5 + 0.25 + 0.25) / 3 << (0.5 + 0.5 + 0.25) / 3 << (0.5 + 0.25 + 0.25) / 3
        << (1.0 + 1.5 + 2.0) / 3 << 3 << false;
    QTest::newRow("a NaN row is left out") << matrix({{1, 0, 0}, {kNaN, 0, 0}, {0, 0, 1}}) << false
                                           << 0.0 << 1.0 << 0.0 << 0.0 << 1 << false;
    QTest::newRow("rows not summing to 1 are not rescaled")
        << matrix({{1, 0}, {2, 2}}) << false << 2.0 << 2.0 << 2.0 << -4.0 << 1 << true;
    QTest::newRow("one query") << matrix({{1}}) << false << nan << nan << nan << nan << 0 << false;
    QTest::newRow("cross: every query, no previous or self")
        << matrix({{0.5f, 0.5f, 0}, {1, 0, 0}}) << true << nan << nan << 0.75 << 0.5 << 2 << true;
    // Xiao et al.'s sink: more than half the weight on the first token, on average.
    QTest::newRow("just over half on the first token: a sink")
        << matrix({{1, 0, 0}, {0.5f, 0.5f, 0}, {0.625f, 0.25f, 0.125f}}) << false << 0.375 << 0.3125
        << 0.5625 << 1.1493974703476992 << 2 << true;
    QTest::newRow("just under half: no sink")
        << matrix({{1, 0, 0}, {0.5f, 0.5f, 0}, {0.375f, 0.375f, 0.25f}}) << false << 0.4375 << 0.375
        << 0.4375 << 1.2806390622295665 << 2 << false;
}

void TestAttentionStack::patterns()
{
    QFETCH(Matrix, weights);
    QFETCH(bool, cross);
    QFETCH(double, previous);
    QFETCH(double, self);
    QFETCH(double, first);
    QFETCH(double, entropy);
    QFETCH(int, queries);
    QFETCH(bool, sink);
    const HeadPatterns p = headPatterns(weights, cross);
    QCOMPARE(isAttentionSink(p), sink);
    const auto same = [](double got, double want) {
        return std::isnan(want) ? std::isnan(got) : std::abs(got - want) < 1e-12;
    };
    QCOMPARE(p.queries, queries);
    QVERIFY2(same(p.previous, previous), qPrintable(QString::number(p.previous)));
    QVERIFY2(same(p.self, self), qPrintable(QString::number(p.self)));
    QVERIFY2(same(p.first, first), qPrintable(QString::number(p.first)));
    QVERIFY2(same(p.entropy, entropy), qPrintable(QString::number(p.entropy)));
}

void TestAttentionStack::roles_data()
{
    QTest::addColumn<Matrix>("weights");
    QTest::addColumn<bool>("cross");
    QTest::addColumn<double>("entropyMax"); // mean log2 of the keys each query weighs
    QTest::addColumn<HeadRole>("role");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("identity: self")
        << matrix({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}) << false << 0.0 << HeadRole::Self;
    QTest::newRow("previous token")
        << matrix({{1, 0, 0}, {1, 0, 0}, {0, 1, 0}}) << false << 0.0 << HeadRole::PreviousToken;
    QTest::newRow("sink: first beats previous (0.5)")
        << matrix({{1, 0, 0}, {1, 0, 0}, {1, 0, 0}}) << false << 0.0 << HeadRole::FirstToken;
    // Rows weigh 2, 3 and 4 keys: 1.5 bits of at most 1.528 on average, 98 %.
    QTest::newRow("causal uniform: broad")
        << matrix({{1, 0, 0, 0},
                   {0.5f, 0.5f, 0, 0},
                   {0.25f, 0.25f, 0.5f, 0},
                   {0.25f, 0.25f, 0.25f, 0.25f}})
        << false << (1.0 + std::log2(3.0) + 2.0) / 3 << HeadRole::Broad;
    // Two tokens back: previous 0.25, first 0.5 (not more than half), entropy 0.
    QTest::newRow("focused, on no named position: no clear pattern")
        << matrix({{1, 0, 0, 0, 0},
                   {1, 0, 0, 0, 0},
                   {1, 0, 0, 0, 0},
                   {0, 1, 0, 0, 0},
                   {0, 0, 1, 0, 0}})
        << false << 0.0 << HeadRole::NoClearPattern;
    // 0.92 bits of at most log2 3 = 1.58: 58 %, under the 80 % of broad.
    QTest::newRow("spread, but not evenly enough: no clear pattern")
        << matrix({{1, 0, 0}, {0.1f, 0.1f, 0.8f}, {0.1f, 0.8f, 0.1f}}) << false << std::log2(3.0)
        << HeadRole::NoClearPattern;
    QTest::newRow("one query: nothing measured")
        << matrix({{1}}) << false << nan << HeadRole::NoClearPattern;
    QTest::newRow("cross: first") << matrix({{0.5f, 0.5f, 0}, {1, 0, 0}}) << true << 0.5
                                  << HeadRole::FirstToken;
}

void TestAttentionStack::roles()
{
    QFETCH(Matrix, weights);
    QFETCH(bool, cross);
    QFETCH(double, entropyMax);
    QFETCH(HeadRole, role);
    const HeadPatterns p = headPatterns(weights, cross);
    if (std::isnan(entropyMax))
        QVERIFY(std::isnan(p.entropyMax));
    else
        QVERIFY2(std::abs(p.entropyMax - entropyMax) < 1e-12,
                 qPrintable(QString::number(p.entropyMax, 'g', 17)));
    QCOMPARE(headRoleSpelling(headRole(p)), headRoleSpelling(role));
}

void TestAttentionStack::headsLikeThisOne()
{
    // Heads 0 and 2 look at the previous token, 1 at the first, 3 at itself.
    const auto head = [](int kind) {
        Matrix m = Matrix::Zero(4, 4);
        for (int i = 0; i < 4; ++i)
            m(i, kind == 0 ? std::max(i - 1, 0) : kind == 1 ? 0 : i) = 1;
        return m;
    };
    FloatBuffer w;
    for (int kind : {0, 1, 0, 2}) {
        const Matrix m = head(kind);
        w.insert(w.end(), m.data(), m.data() + m.size());
    }
    const MemoryAttentionStack stack({1, 1, 4, 4, 4}, w);
    const std::vector<HeadPatterns> all = stackPatterns(stack, 0);
    QCOMPARE(all[0].previous, 1.0);
    QCOMPARE(all[1].first, 1.0);
    QCOMPARE(all[3].self, 1.0);
    const std::vector<int> order = headsLike(all, 2, 4);
    QCOMPARE(order.front(), 2);
    QCOMPARE(order[1], 0);
}

void TestAttentionStack::memoryStackChecksItsSize()
{
    QVERIFY_THROWS_EXCEPTION(InputError, MemoryAttentionStack({1, 1, 1, 2, 2}, {1, 2, 3}));
    QVERIFY_THROWS_EXCEPTION(
        InputError, MemoryAttentionStack({1, 1, 1, 2, 2}, {1, 0, 0, 1}, {{"a", "b", "c"}}));
    const MemoryAttentionStack ok({1, 1, 1, 2, 2}, {1, 0, 0, 1}, {{"a", "b"}});
    QCOMPARE(ok.keyTokens(), (std::vector<std::string>{"a", "b"}));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)ok.head(1, 0, 0));
}

// A model run's attention buffer freed while another run is shown is handed to the next
// run of the same size with its pages (tensor.h's BufferAllocator): the same block, not a
// new mapping. One spare is kept, the one freed last; a block of another size is a new one;
// with the last block in use the spare goes too.
void TestAttentionStack::largeBuffersAreRecycled()
{
    const std::size_t large = (std::size_t(16) << 20) / sizeof(float);
    QCOMPARE(spareBufferBytes(), std::size_t(0));
    {
        const FloatBuffer shown(large, 0.5f); // the run on screen
        const float* first = nullptr;
        {
            const FloatBuffer run(large, 1.0f);
            first = run.data();
        }
        QCOMPARE(spareBufferBytes(), large * sizeof(float));
        {
            FloatBuffer next(large);
            QCOMPARE(next.data(), first); // the spare, taken
            QCOMPARE(spareBufferBytes(), std::size_t(0));
            const FloatBuffer other(large * 2); // no spare left: a new block
            QVERIFY(other.data() != first);
            next.front() = 2.0f;
        } // `other` freed, then `next`: the spare is `next`'s block
        {
            const FloatBuffer again(large);
            QCOMPARE(again.data(), first);
            QCOMPARE(again.front(), 2.0f); // unzeroed: the forward writes every value
        }
        QCOMPARE(shown.back(), 0.5f);
    }
    QCOMPARE(spareBufferBytes(), std::size_t(0)); // nothing in use: nothing kept
    {
        const FloatBuffer small(16, 3.0f); // below the spare's size: malloc's
        QCOMPARE(small.back(), 3.0f);
    }
    QCOMPARE(spareBufferBytes(), std::size_t(0));
}

// A (2, 1, 2, 700, 700) float32 .npy of 7.8 MB written here: its weights come back, and
// its thumbnails read it without a float copy.
void TestAttentionStack::largeFileMadeHere()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("large.npy"));
    const int T = 700;
    QByteArray header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1, 2, 700, 700), }";
    while ((10 + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("\x93NUMPY\x01\x00", 8);
    file.write(QByteArray(1, char(header.size() & 0xFF)) + char(header.size() >> 8) + header);
    std::vector<float> values(std::size_t(4) * T * T);
    for (std::size_t k = 0; k < values.size(); ++k)
        values[k] = float(k % 1000) / 1000.0f;
    file.write(reinterpret_cast<const char*>(values.data()), qint64(values.size() * 4));
    file.close();

    const auto stack = openAttentionFile(path.toStdString());
    QCOMPARE(stack->shape(), (StackShape{2, 1, 2, T, T}));
    const Matrix m = stack->head(1, 0, 1);
    const std::size_t base = std::size_t(3) * T * T;
    QCOMPARE(m(0, 0), values[base]);
    QCOMPARE(m(699, 699), values[base + std::size_t(T) * T - 1]);
    const std::vector<Thumbnail> all = stack->thumbnails(0, 32);
    QCOMPARE(all.size(), std::size_t(4));
    QCOMPARE(all[3].rows, 32);
    QCOMPARE(all[3].maximum, 0.999f);
}

void TestAttentionStack::storedMembersAreMapped()
{
    const auto inside = [](const char* name) {
        QFile file(QStringLiteral(ATTN_REFERENCE_DIR "/attention/") + QLatin1String(name));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("missing fixture");
        const QByteArray data = file.readAll();
        const auto* begin = reinterpret_cast<const std::byte*>(data.constData());
        const auto stack = openAttentionBytes({begin, std::size_t(data.size())}, name);
        const std::byte* head = stack->view(1, 1, 2).base;
        return head >= begin && head < begin + data.size();
    };
    QVERIFY(inside("stack5_stored.npz"));    // np.savez: used in place
    QVERIFY(!inside("stack5_deflated.npz")); // np.savez_compressed: inflated
    QVERIFY(inside("layers_bf16.safetensors"));
}

QTEST_GUILESS_MAIN(TestAttentionStack)
#include "tst_attentionstack.moc"
