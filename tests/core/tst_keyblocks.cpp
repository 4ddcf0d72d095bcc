// The one path of the formula over the keys (engine/keyblocks.h): the engine's stages 5–8
// and a model layer's attention, given the same Q, K, V and switches, make the same S in
// the same blocks and so the same P, bit for bit, and the same heads' outputs.
#include "engine/engine.h"
#include "engine/keyblocks.h"
#include "enginerequests.h"
#include "models/conv1dproduct.h"
#include "models/modelattention.h"

#include <QtTest>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

using attn::Matrix;

class TestKeyBlocks : public QObject {
    Q_OBJECT

private slots:
    void engineAndModelLayerTakeOnePath_data();
    void engineAndModelLayerTakeOnePath();
    void blocksCoverEveryRowOnce_data();
    void blocksCoverEveryRowOnce();
    void callersProductMakesBothInOne();
};

void TestKeyBlocks::engineAndModelLayerTakeOnePath_data()
{
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("mask");
    QTest::addColumn<int>("fill");
    QTest::addColumn<int>("stage");
    QTest::addColumn<bool>("avx512");
    using attn::MaskFill, attn::MaskKind, attn::MaskStage;
    for (const bool avx512 : {false, true})
        for (const int T : {40, 300, 700}) { // one block; blocks of 150; blocks of 127 or 128
            const auto row = [&](const char* what, MaskKind mask, MaskFill fill, MaskStage stage) {
                QTest::addRow("%s, T=%d, %s", avx512 ? "AVX-512" : "sgemm", T, what)
                    << T << int(mask) << int(fill) << int(stage) << avx512;
            };
            row("causal before", MaskKind::Causal, MaskFill::NegInf, MaskStage::BeforeSoftmax);
            row("causal -1e9", MaskKind::Causal, MaskFill::NegBillion, MaskStage::BeforeSoftmax);
            row("causal after", MaskKind::Causal, MaskFill::NegInf, MaskStage::AfterSoftmax);
            row("no mask", MaskKind::None, MaskFill::NegInf, MaskStage::BeforeSoftmax);
        }
}

// On sgemm both make S with the same products (scoreBlocks' blocks, the keys up to a block's
// last row, then the rest unless the softmax does not read them) and P with the same row
// softmax, so P is the engine's to the bit; P·V runs in other blocks of rows, so the heads'
// outputs agree to rounding. On the models' AVX-512 kernel (where the CPU has it) S is
// rounded in another order: P and the outputs agree to rounding.
void TestKeyBlocks::engineAndModelLayerTakeOnePath()
{
    QFETCH(int, T);
    QFETCH(int, mask);
    QFETCH(int, fill);
    QFETCH(int, stage);
    QFETCH(bool, avx512);
    const bool before = attn::setConv1dAvx512(avx512);
    if (avx512 && !attn::conv1dUsesAvx512()) {
        attn::setConv1dAvx512(before);
        QSKIP("this CPU has no AVX-512");
    }
    attn::Request r = attn::test::wordsRequest(T, 32, 2);
    r.config.mask = attn::MaskKind(mask);
    r.config.maskFill = attn::MaskFill(fill);
    r.config.maskStage = attn::MaskStage(stage);
    attn::AttentionEngine engine;
    const attn::Result result = engine.compute(r);
    const int C = r.config.dModel, H = r.config.heads, dK = C / H;
    QCOMPARE(result.tokens->length(), T);

    // A model layer on the engine's Q, K, V: c_attn's columns [q k v].
    Matrix qkv(T, 3 * C);
    qkv << result.projection->q[0], result.projection->k[0], result.projection->v[0];
    attn::AttentionBuffers buffers;
    std::vector<float> weights(std::size_t(H) * std::size_t(T) * std::size_t(T),
                               std::numeric_limits<float>::quiet_NaN());
    Matrix merged;
    attn::multiHeadAttention(qkv, result.config(), (*result.mask)[0], buffers, weights.data(),
                             merged);
    attn::setConv1dAvx512(before);

    for (int h = 0; h < H; ++h) {
        const Matrix& expected = result.weights->at(0, h);
        const Eigen::Map<const Matrix> got(weights.data() + std::size_t(h) * T * T, T, T);
        if (avx512) {
            const float worst = (got - expected).cwiseAbs().maxCoeff();
            QVERIFY2(worst < 1e-6f, qPrintable(QString("head %1: P off by %2").arg(h).arg(worst)));
        } else {
            QVERIFY2(std::memcmp(got.data(), expected.data(), sizeof(float) * std::size_t(T * T)) ==
                         0,
                     qPrintable(QString("head %1: P not the engine's bits").arg(h)));
        }
    }
    const Matrix& engineMerged = result.aggregation->merged[0];
    const float worst = (merged - engineMerged).cwiseAbs().maxCoeff();
    QVERIFY2(worst < 1e-5f * std::max(1.0f, engineMerged.cwiseAbs().maxCoeff()),
             qPrintable(QString("merged heads off by %1").arg(worst)));
    QCOMPARE(merged.cols(), Eigen::Index(H * dK));
}

void TestKeyBlocks::blocksCoverEveryRowOnce_data()
{
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("Tk");
    QTest::addColumn<int>("count");
    QTest::newRow("one token") << 1 << 1 << 1;
    QTest::newRow("under two blocks") << 255 << 255 << 1; // 128 rows a block from T_k = 2048 down
    QTest::newRow("two blocks") << 256 << 256 << 2;
    QTest::newRow("long keys, 64 rows") << 1000 << 8000 << 15; // 1 MB of S: 32 rows, at least 64
    QTest::newRow("cross-attention") << 300 << 7 << 2;
}

// The blocks split the rows evenly, every row in one block; a block's first product stops
// at its last row where the queries are the keys, and takes every key where they are not.
void TestKeyBlocks::blocksCoverEveryRowOnce()
{
    QFETCH(int, T);
    QFETCH(int, Tk);
    QFETCH(int, count);
    const attn::ScoreBlocks blocks = attn::scoreBlocks(T, Tk);
    QCOMPARE(blocks.count, count);
    Eigen::Index next = 0;
    for (int b = 0; b < blocks.count; ++b) {
        QCOMPARE(blocks.begin(b), next);
        QVERIFY(blocks.size(b) >= 1 && blocks.size(b) <= blocks.largest());
        QCOMPARE(blocks.nearKeys(b), T == Tk ? blocks.end(b) : Eigen::Index(Tk));
        next = blocks.end(b);
    }
    QCOMPARE(next, Eigen::Index(T));
}

// A caller's product (a model's kernel) is asked for the block's rows once: up to the block's
// last row, or every key when the future is read; S's rows are what it wrote.
void TestKeyBlocks::callersProductMakesBothInOne()
{
    const int T = 300, dK = 8;
    std::srand(3);
    const Matrix q = Matrix::Random(T, dK), k = Matrix::Random(T, dK);
    const attn::ScoreBlocks blocks = attn::scoreBlocks(T, T);
    QCOMPARE(blocks.count, 2);
    for (const bool future : {false, true}) {
        std::vector<Eigen::Index> asked;
        const attn::ScoreProduct product = [&](Eigen::Index first, Eigen::Index rows,
                                               Eigen::Index keys, float* s, Eigen::Index stride) {
            asked.insert(asked.end(), {first, rows, keys});
            Eigen::Map<Matrix, 0, Eigen::OuterStride<>> out(s, rows, keys,
                                                            Eigen::OuterStride<>(stride));
            out = q.middleRows(first, rows) * k.topRows(keys).transpose();
        };
        // The last block: its keys end at T, with or without the future.
        Matrix mine = Matrix::Constant(blocks.size(1), T, -7.0f);
        Matrix eigen = mine;
        attn::multiplyScores(q, k, mine, blocks, 1, future, product);
        attn::multiplyScores(q, k, eigen, blocks, 1, future);
        QCOMPARE(asked, (std::vector<Eigen::Index>{150, 150, 300})); // the last block: every key
        QVERIFY((mine - eigen).cwiseAbs().maxCoeff() < 1e-5f);
    }
    // The first block: up to its last row, unless the future is read.
    for (const bool future : {false, true}) {
        Eigen::Index keys = -1;
        Matrix s = Matrix::Constant(blocks.size(0), T, -7.0f);
        attn::multiplyScores(
            q, k, s, blocks, 0, future,
            [&](Eigen::Index, Eigen::Index, Eigen::Index n, float*, Eigen::Index) { keys = n; });
        QCOMPARE(keys, Eigen::Index(future ? T : 150));
        attn::multiplyScores(q, k, s, blocks, 0, future);
        QCOMPARE(s(0, T - 1) == -7.0f, !future); // the keys after the block untouched
    }
}

QTEST_GUILESS_MAIN(TestKeyBlocks)
#include "tst_keyblocks.moc"
