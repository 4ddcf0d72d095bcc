// The transformer kernels of core/models/modelkernels.h against the same arithmetic in
// double: GPT-2's Conv1D with its bias, with GELU on each tile (conv1dGelu) and summed
// into the residual stream (conv1dAdd), across one and several tiles of rows and columns
// and widths that are not a multiple of the vectors; GELU alone, with the values where
// its tanh changes form; LayerNorm on rows far from 0; nn.Linear alone, several at once
// (linearEach), summed into the stream (linearAdd), with GELU on each tile (linearGelu:
// GPT-2's c_fc from a GGUF file) and SwiGLU's gate and up fused (linearSwiGlu). Every product on
// each of the product kernel's paths (AVX-512, AVX2 + FMA where the CPU has them, portable); the
// Conv1D with W in place and packed as a loaded model's, with depths beyond one chunk of the
// kernel and weights not aligned to a vector. Run again with ATTN_NO_AVX2=1
// (tst_modelkernels_sse2) for the portable GELU.
#include "models/linearproduct.h"
#include "models/modelkernels.h"

#include <QScopeGuard>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

Q_DECLARE_METATYPE(attn::ProductPath)

namespace {

using attn::Matrix;
using attn::WeightView;

// A WeightView of a matrix kept alive by the caller.
WeightView viewOf(const Matrix& m)
{
    return {m.data(), m.rows(), m.cols()};
}

const attn::ProductPath kPaths[] = {attn::ProductPath::Avx512, attn::ProductPath::Avx2,
                                    attn::ProductPath::Portable};

double geluOf(double x)
{
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

} // namespace

class TestModelKernels : public QObject {
    Q_OBJECT

private slots:
    void productPathFollowsTheEnvironment();
    void conv1d_data();
    void conv1d();
    void linearFamily_data();
    void linearFamily();
    void gelu_data();
    void gelu();
    void layerNormOfFarRows();
};

void TestModelKernels::productPathFollowsTheEnvironment()
{
    // tst_modelkernels_sse2 runs with ATTN_NO_AVX2=1: the portable products, as the row passes;
    // otherwise the widest path this CPU has.
    using attn::ProductPath;
    const ProductPath widest = attn::productPathSupported(ProductPath::Avx512) ? ProductPath::Avx512
                               : attn::productPathSupported(ProductPath::Avx2)
                                   ? ProductPath::Avx2
                                   : ProductPath::Portable;
    QCOMPARE(attn::productPath(),
             qEnvironmentVariableIsSet("ATTN_NO_AVX2") ? ProductPath::Portable : widest);
}

void TestModelKernels::conv1d_data()
{
    QTest::addColumn<attn::ProductPath>("path");
    QTest::addColumn<bool>("packed"); // W packed as nn.Linear's rows, as a loaded model's
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("N");
    for (const attn::ProductPath path : kPaths)
        for (const bool packed : {true, false}) {
            const auto row = [&](const char* what, int T, int in, int N) {
                QTest::addRow("%s, %s: %s", attn::productPathName(path).data(),
                              packed ? "packed" : "in place", what)
                    << path << packed << T << in << N;
            };
            row("one token, one partial tile", 1, 16, 37);
            row("a short text, columns in 4 tiles", 7, 70, 800);
            row("rows in 3 tiles, columns in 2", 300, 48, 520);
            // 13 rows: a panel of 16 tokens, 3 of them padding; 50 columns: blocks of 8 (6, 4)
            // and a remainder; a depth of 600: chunks of 256, 256 and 88.
            row("every remainder", 13, 600, 50);
            row("GPT-2's shape, 2 tiles of rows", 130, 96, 2304);
        }
}

void TestModelKernels::conv1d()
{
    // y = x·W + b with W stored [in, out]; then GELU of it; then it summed into y0.
    QFETCH(attn::ProductPath, path);
    QFETCH(bool, packed);
    QFETCH(int, T);
    QFETCH(int, in);
    QFETCH(int, N);
    if (!attn::productPathSupported(path))
        QSKIP("this CPU has no such instructions");
    const attn::ProductPath before = attn::setProductPath(path);
    const auto restore = qScopeGuard([&] { attn::setProductPath(before); });
    QCOMPARE(attn::productPath(), path);
    std::srand(11);
    const Matrix x = Matrix::Random(T, in), w = Matrix::Random(in, N) * 0.5f;
    const Matrix b = Matrix::Random(1, N), y0 = Matrix::Random(T, N);
    Eigen::MatrixXd expected = x.cast<double>() * w.cast<double>();
    expected.rowwise() += b.cast<double>().row(0);
    // W one float past a vector's alignment, as a tensor in a mapped checkpoint may be.
    std::vector<float> shifted(std::size_t(in * N) + 1);
    std::copy(w.data(), w.data() + w.size(), shifted.begin() + 1);
    WeightView wView{shifted.data() + 1, in, N};
    const Matrix rows = w.transpose(); // [out, in], as packGpt2Conv1dWeights packs them
    if (packed)
        wView.packed = rows.data();

    Matrix plain, withGelu, summed = y0;
    attn::conv1d(x, wView, viewOf(b), plain);
    attn::conv1dGelu(x, wView, viewOf(b), withGelu);
    attn::conv1dAdd(x, wView, viewOf(b), summed);
    QCOMPARE(withGelu.rows(), Eigen::Index(T));
    QCOMPARE(withGelu.cols(), Eigen::Index(N));
    const double plainError = (plain.cast<double>() - expected).cwiseAbs().maxCoeff();
    const double geluError =
        (withGelu.cast<double>() - expected.unaryExpr(&geluOf)).cwiseAbs().maxCoeff();
    const double sumError =
        (summed.cast<double>() - y0.cast<double>() - expected).cwiseAbs().maxCoeff();
    // A float sum's rounding grows with its length: 1e-5 for up to 256 terms.
    const double tolerance = 1e-5 * std::max(1.0, in / 256.0);
    QVERIFY2(plainError < tolerance, qPrintable(QString::number(plainError)));
    QVERIFY2(geluError < tolerance, qPrintable(QString::number(geluError)));
    QVERIFY2(sumError < tolerance, qPrintable(QString::number(sumError)));
}

void TestModelKernels::linearFamily_data()
{
    QTest::addColumn<attn::ProductPath>("path");
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("N");
    QTest::addColumn<int>("narrow"); // k_proj's and v_proj's width beside q_proj's N
    for (const attn::ProductPath path : kPaths) {
        const char* name = attn::productPathName(path).data();
        QTest::addRow("%s: one token, one partial tile", name) << path << 1 << 16 << 37 << 8;
        QTest::addRow("%s: a short text, widths not a multiple of 16", name)
            << path << 7 << 70 << 901 << 40;
        QTest::addRow("%s: rows in 3 tiles, Qwen's 896 and 128", name)
            << path << 300 << 48 << 896 << 128;
        QTest::addRow("%s: a depth of 2 chunks and a remainder", name)
            << path << 21 << 530 << 61 << 5;
    }
}

void TestModelKernels::linearFamily()
{
    // nn.Linear (W stored [out, in]): linearEach of three widths at once against linear;
    // linearAdd summed into y0; linearGelu against GELU's tanh form of linear's; linearSwiGlu
    // against silu(x·Wgᵀ + bg)·(x·Wuᵀ + bu).
    QFETCH(attn::ProductPath, path);
    QFETCH(int, T);
    QFETCH(int, in);
    QFETCH(int, N);
    QFETCH(int, narrow);
    if (!attn::productPathSupported(path))
        QSKIP("this CPU has no such instructions");
    const attn::ProductPath before = attn::setProductPath(path);
    const auto restore = qScopeGuard([&] { attn::setProductPath(before); });
    std::srand(13);
    const Matrix x = Matrix::Random(T, in), w = Matrix::Random(N, in) * 0.5f;
    const Matrix k = Matrix::Random(narrow, in), v = Matrix::Random(narrow, in) * 0.5f;
    const Matrix u = Matrix::Random(N, in) * 0.5f;
    const Matrix b = Matrix::Random(1, N), bk = Matrix::Random(1, narrow);
    const Matrix bu = Matrix::Random(1, N), y0 = Matrix::Random(T, N);
    auto expectedOf = [&](const Matrix& weight, const Matrix* bias) {
        Eigen::MatrixXd e = x.cast<double>() * weight.cast<double>().transpose();
        if (bias)
            e.rowwise() += bias->cast<double>().row(0);
        return e;
    };
    auto errorOf = [](const Matrix& got, const Eigen::MatrixXd& expected) {
        if (got.rows() != expected.rows() || got.cols() != expected.cols())
            return std::numeric_limits<double>::infinity();
        // relative to the largest value (SwiGLU's products of two sums reach tens)
        return (got.cast<double>() - expected).cwiseAbs().maxCoeff() /
               std::max(1.0, expected.cwiseAbs().maxCoeff());
    };
    const WeightView none;
    const WeightView wv = viewOf(w), kv = viewOf(k), vv = viewOf(v), bv = viewOf(b),
                     bkv = viewOf(bk);
    Matrix plain, yq, yk, yv, summed = y0, gelu, swiglu;
    attn::linear(x, wv, bv, plain);
    attn::linearEach(x, {{&wv, &bv, &yq}, {&kv, &bkv, &yk}, {&vv, &none, &yv}});
    attn::linearAdd(x, wv, bv, summed);
    attn::linearGelu(x, wv, bv, gelu);
    attn::linearSwiGlu(x, wv, bv, viewOf(u), viewOf(bu), swiglu);

    const Eigen::MatrixXd expected = expectedOf(w, &b);
    const Eigen::MatrixXd gate = expected, up = expectedOf(u, &bu);
    const Eigen::MatrixXd silu =
        (gate.array() / (1.0 + (-gate.array()).exp()) * up.array()).matrix();
    const Eigen::ArrayXXd z = expected.array();
    const Eigen::MatrixXd geluOf =
        (0.5 * z * (1.0 + (0.7978845608028654 * (z + 0.044715 * z.cube())).tanh())).matrix();
    const std::vector<std::pair<const char*, double>> errors{
        {"linear", errorOf(plain, expected)},
        {"linearEach q", errorOf(yq, expected)},
        {"linearEach k", errorOf(yk, expectedOf(k, &bk))},
        {"linearEach v (no bias)", errorOf(yv, expectedOf(v, nullptr))},
        {"linearAdd", errorOf(summed, y0.cast<double>() + expected)},
        {"linearGelu", errorOf(gelu, geluOf)},
        {"linearSwiGlu", errorOf(swiglu, silu)}};
    for (const auto& [what, error] : errors)
        QVERIFY2(error < 1e-5 * std::max(1.0, in / 256.0),
                 qPrintable(QString("%1: %2").arg(what).arg(error)));
}

void TestModelKernels::gelu_data()
{
    QTest::addColumn<std::vector<float>>("values");
    QTest::newRow("around 0, tanh's argument below 0.0004")
        << std::vector<float>{0.0f, 1e-4f, -1e-4f, 4e-4f, -4.5e-4f, 1e-30f, -0.0f};
    QTest::newRow("moderate, 19 values (8, 8 and a tail of 3)")
        << std::vector<float>{-3.0f, -2.0f, -1.5f, -1.0f, -0.5f, -0.1f, 0.1f, 0.3f, 0.5f, 0.7f,
                              1.0f,  1.2f,  1.5f,  2.0f,  2.5f,  3.0f,  3.5f, 4.0f, 5.0f};
    QTest::newRow("large, where tanh's argument is clamped")
        << std::vector<float>{-40.0f, -12.0f, -9.0f, -6.0f, 6.0f, 9.0f, 12.0f, 40.0f, 1e6f};
}

void TestModelKernels::gelu()
{
    QFETCH(std::vector<float>, values);
    Matrix x = Eigen::Map<const Matrix>(values.data(), 1, Eigen::Index(values.size()));
    attn::geluTanh(x);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double expected = geluOf(values[i]);
        const double error = std::abs(double(x(0, Eigen::Index(i))) - expected);
        QVERIFY2(error <= 1e-6 * std::max(1.0, std::abs(expected)),
                 qPrintable(QString("GELU(%1) = %2, expected %3")
                                .arg(double(values[i]))
                                .arg(double(x(0, Eigen::Index(i))))
                                .arg(expected)));
    }
    // NaN stays NaN (a broken layer's NaN reaches the logits, as in torch).
    Matrix nan = Matrix::Constant(1, 9, std::numeric_limits<float>::quiet_NaN());
    attn::geluTanh(nan);
    QVERIFY(nan.array().isNaN().all());
}

void TestModelKernels::layerNormOfFarRows()
{
    // Rows of large values with small differences: the mean and variance in double keep
    // them; then the scale and shift.
    const int T = 70, C = 96; // two bands of rows
    std::srand(5);
    const Matrix noise = Matrix::Random(T, C);
    Matrix x = (noise.array() + 1e4f).matrix();
    const Matrix w = Matrix::Random(1, C), b = Matrix::Random(1, C);
    Matrix y;
    attn::layerNorm(x, viewOf(w), viewOf(b), 1e-5, y);
    double worst = 0;
    for (int t = 0; t < T; ++t) {
        const Eigen::RowVectorXd row = x.row(t).cast<double>();
        const double mean = row.mean();
        const double var = (row.array() - mean).square().mean();
        const Eigen::RowVectorXd expected =
            ((row.array() - mean) / std::sqrt(var + 1e-5)) * w.cast<double>().row(0).array() +
            b.cast<double>().row(0).array();
        worst = std::max(worst, (y.row(t).cast<double>() - expected).cwiseAbs().maxCoeff());
    }
    QVERIFY2(worst < 1e-4, qPrintable(QString::number(worst)));
}

QTEST_APPLESS_MAIN(TestModelKernels)
#include "tst_modelkernels.moc"
