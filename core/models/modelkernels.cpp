#include "models/modelkernels.h"

#include "base/parallel.h"
#include "engine/fastexp.h"
#include "models/conv1dproduct.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ATTN_HAVE_AVX2_GELU 1
#endif

namespace attn {
namespace {

constexpr float kGeluK = 0.7978845608028654f; // √(2/π)
constexpr float kGeluCubic = 0.044715f;

// GELU of n values in place with Eigen's vectorised tanh (SSE2 in a portable build).
void geluEigen(float* x, Eigen::Index n)
{
    auto u = Eigen::Map<Eigen::ArrayXf>(x, n);
    u = 0.5f * u * (1.0f + (kGeluK * (u + kGeluCubic * u * u * u)).tanh());
}

#ifdef ATTN_HAVE_AVX2_GELU
// The same eight values at a time: Eigen's tanh (generic_fast_tanh_float, its FMA form:
// a rational function of degree 13/6 on the argument clamped to ±7.9988, the argument
// itself below 0.0004). Returns how many values it did (a multiple of eight); results may
// differ from the SSE2 ones in the last bit.
__attribute__((target("avx2,fma"))) Eigen::Index geluAvx2(float* x, Eigen::Index n)
{
    const __m256 half = _mm256_set1_ps(0.5f), one = _mm256_set1_ps(1.0f);
    const __m256 k = _mm256_set1_ps(kGeluK), cubic = _mm256_set1_ps(kGeluCubic);
    const __m256 clamp = _mm256_set1_ps(7.99881172180175781f);
    const __m256 tiny = _mm256_set1_ps(0.0004f);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 a1 = _mm256_set1_ps(4.89352455891786e-03f),
                 a3 = _mm256_set1_ps(6.37261928875436e-04f);
    const __m256 a5 = _mm256_set1_ps(1.48572235717979e-05f),
                 a7 = _mm256_set1_ps(5.12229709037114e-08f);
    const __m256 a9 = _mm256_set1_ps(-8.60467152213735e-11f);
    const __m256 a11 = _mm256_set1_ps(2.00018790482477e-13f);
    const __m256 a13 = _mm256_set1_ps(-2.76076847742355e-16f);
    const __m256 b0 = _mm256_set1_ps(4.89352518554385e-03f),
                 b2 = _mm256_set1_ps(2.26843463243900e-03f);
    const __m256 b4 = _mm256_set1_ps(1.18534705686654e-04f),
                 b6 = _mm256_set1_ps(1.19825839466702e-06f);
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 u = _mm256_loadu_ps(x + j);
        // a = √(2/π)·(u + 0.044715·u³), in Eigen's order: ((c·u)·u)·u, then k·(u + …).
        const __m256 a = _mm256_mul_ps(
            k, _mm256_add_ps(u, _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(cubic, u), u), u)));
        const __m256 t =
            _mm256_max_ps(_mm256_min_ps(a, clamp), _mm256_sub_ps(_mm256_setzero_ps(), clamp));
        const __m256 small = _mm256_cmp_ps(_mm256_andnot_ps(sign, a), tiny, _CMP_LT_OQ);
        const __m256 t2 = _mm256_mul_ps(t, t);
        __m256 p = _mm256_fmadd_ps(t2, a13, a11);
        p = _mm256_fmadd_ps(t2, p, a9);
        p = _mm256_fmadd_ps(t2, p, a7);
        p = _mm256_fmadd_ps(t2, p, a5);
        p = _mm256_fmadd_ps(t2, p, a3);
        p = _mm256_fmadd_ps(t2, p, a1);
        p = _mm256_mul_ps(t, p);
        __m256 q = _mm256_fmadd_ps(t2, b6, b4);
        q = _mm256_fmadd_ps(t2, q, b2);
        q = _mm256_fmadd_ps(t2, q, b0);
        const __m256 tanh = _mm256_blendv_ps(_mm256_div_ps(p, q), t, small);
        _mm256_storeu_ps(x + j, _mm256_mul_ps(_mm256_mul_ps(half, u), _mm256_add_ps(one, tanh)));
    }
    return j;
}
#endif

// GELU of n values in place, on the widest vectors this CPU has.
void gelu(float* x, Eigen::Index n)
{
    Eigen::Index done = 0;
#ifdef ATTN_HAVE_AVX2_GELU
    if (rowPassesUseAvx2())
        done = geluAvx2(x, n);
#endif
    if (done < n)
        geluEigen(x + done, n - done);
}

enum class Epilogue { Bias, BiasGelu, AddToOutput };

// The width of a tile of n columns: at most about `widest`, a multiple of `multiple`, in a
// count that is a multiple of the cores so that none waits at the end of the loop.
Eigen::Index tileWidth(Eigen::Index N, Eigen::Index widest, Eigen::Index multiple)
{
    const Eigen::Index cores = coreCount();
    const Eigen::Index tiles = cores * ((N + cores * widest - 1) / (cores * widest));
    return std::max(multiple, ((N + tiles - 1) / tiles + multiple - 1) / multiple * multiple);
}

// The Conv1D products in tiles over every core, each tile finished (bias, GELU or the
// residual sum) while it is in cache: on conv1dTileAvx512 where the CPU has AVX-512, else
// each tile an sgemm.
void conv1dTiles(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y,
                 Epilogue epilogue)
{
    // x: (T, in), W: (in, N) → y: (T, N)
    const Eigen::Index T = x.rows(), K = x.cols(), N = weight.cols;
    if (epilogue != Epilogue::AddToOutput)
        y.resize(T, N);
    const Eigen::Map<const Matrix> w = weight.matrix();
    const auto b = bias.row();
    const bool avx512 = conv1dUsesAvx512();
    // sgemm: tiles of 256 rows × 384 columns, GPT-2's widths (768, 2304, 3072) split into an
    // even count of them, enough to keep both cores busy at T = 128, each large enough for
    // sgemm's own blocking (smaller tiles cost 10–15 % in packing at T = 128). AVX-512: 128
    // rows (their chunk of x stays in L2 while W's goes by) × about 384 columns in bands of
    // 48 (its register block's width).
    const Eigen::Index kRows = avx512 ? 128 : 256;
    const Eigen::Index kCols = avx512 ? tileWidth(N, 384, kConv1dBand) : 384;
    const int rowTiles = int((T + kRows - 1) / kRows);
    const int colTiles = int((N + kCols - 1) / kCols);
    parallelFor(rowTiles * colTiles, [&](int item) {
        const Eigen::Index r = Eigen::Index(item / colTiles) * kRows;
        const Eigen::Index c = Eigen::Index(item % colTiles) * kCols;
        const Eigen::Index rows = std::min(kRows, T - r), cols = std::min(kCols, N - c);
        auto tile = y.block(r, c, rows, cols);
        if (avx512) {
            // W packed: column c (a multiple of the band's width) starts band c / 48, c·K
            // floats in, its rows 48 apart; in place: at column c, rows N apart.
            const bool packed = weight.bands != nullptr;
            conv1dTileAvx512(x.row(r).data(), K, packed ? weight.bands + c * K : weight.data + c,
                             packed ? kConv1dBand : N, packed ? kConv1dBand * K : kConv1dBand,
                             bias.data ? bias.data + c : nullptr, tile.data(), N, rows, cols, K,
                             epilogue == Epilogue::AddToOutput);
        } else {
            if (epilogue == Epilogue::AddToOutput)
                tile.noalias() += x.middleRows(r, rows) * w.middleCols(c, cols); // sgemm, β = 1
            else
                tile.noalias() = x.middleRows(r, rows) * w.middleCols(c, cols);
            tile.rowwise() += b.segment(c, cols);
        }
        if (epilogue == Epilogue::BiasGelu)
            for (Eigen::Index i = 0; i < rows; ++i)
                gelu(tile.row(i).data(), cols);
    });
}

// Rows of a product's tile: enough for sgemm's own blocking; T = 128 is one band.
constexpr Eigen::Index kTileRows = 256;

// The width of a product's column tiles for N output columns: at most about 384 (GPT-2's
// widths 768, 2304, 3072 in tiles of 384, as they were), in a count that is a multiple of
// the cores (Qwen's 896 columns in 384s left one core a third of the last tile alone), a
// multiple of 16 (sgemm's register blocks).
Eigen::Index tileWidth(Eigen::Index N)
{
    return tileWidth(N, 384, 16);
}

enum class LinearEpilogue { Bias, BiasGelu, AddToOutput };

// nn.Linear products y = x·Wᵀ (+ b), or y += …, of every output in one parallel loop over
// all their tiles: Qwen's k_proj and v_proj (128 columns each) alone kept one core idle.
void linearTiles(const Matrix& x, std::initializer_list<LinearOutput> outputs,
                 LinearEpilogue epilogue)
{
    const Eigen::Index T = x.rows();
    const int rowTiles = int((T + kTileRows - 1) / kTileRows);
    struct Tiles {
        LinearOutput out;
        Eigen::Index width;
        int first, colTiles;
    };
    std::vector<Tiles> tiles;
    int count = 0;
    for (const LinearOutput& out : outputs) {
        const Eigen::Index N = out.weight->rows, width = tileWidth(N);
        if (epilogue != LinearEpilogue::AddToOutput)
            out.y->resize(T, N);
        const int colTiles = int((N + width - 1) / width);
        tiles.push_back({out, width, count, colTiles});
        count += rowTiles * colTiles;
    }
    parallelFor(count, [&](int item) {
        std::size_t o = 0;
        while (o + 1 < tiles.size() && item >= tiles[o + 1].first)
            ++o;
        const Tiles& t = tiles[o];
        const int local = item - t.first;
        const Eigen::Index N = t.out.weight->rows;
        const Eigen::Index r = Eigen::Index(local / t.colTiles) * kTileRows;
        const Eigen::Index c = Eigen::Index(local % t.colTiles) * t.width;
        const Eigen::Index rows = std::min(kTileRows, T - r), cols = std::min(t.width, N - c);
        thread_local std::vector<float> scratch; // a tile's weight rows, dequantized
        const Eigen::Map<const Matrix> w = t.out.weight->rowsOf(c, cols, scratch);
        auto tile = t.out.y->block(r, c, rows, cols);
        if (epilogue == LinearEpilogue::AddToOutput)
            tile.noalias() += x.middleRows(r, rows) * w.transpose(); // β = 1
        else
            tile.noalias() = x.middleRows(r, rows) * w.transpose();
        if (t.out.bias && t.out.bias->data)
            tile.rowwise() += t.out.bias->row().segment(c, cols);
        if (epilogue == LinearEpilogue::BiasGelu)
            for (Eigen::Index i = 0; i < rows; ++i)
                gelu(tile.row(i).data(), cols);
    });
}

} // namespace

Eigen::Map<const Matrix> WeightView::rowsOf(Eigen::Index first, Eigen::Index count,
                                            std::vector<float>& scratch) const
{
    if (!inBlocks())
        return {data + first * cols, count, cols};
    scratch.resize(std::size_t(count * cols));
    for (Eigen::Index r = 0; r < count; ++r) {
        const Eigen::Index stored = rowOrder ? rowOrder[first + r] : first + r;
        dequantizeRow(type, blocks + std::size_t(stored) * rowBytes, scratch.data() + r * cols,
                      cols);
    }
    return {scratch.data(), count, cols};
}

void layerNorm(const Matrix& x, const WeightView& weight, const WeightView& bias, double epsilon,
               Matrix& y)
{
    // x, y: (T, C)
    const Eigen::Index T = x.rows(), C = x.cols();
    y.resize(T, C);
    const auto w = weight.row().array();
    const auto b = bias.row().array();
    constexpr Eigen::Index kRows = 64; // bands of rows on every core
    parallelFor(int((T + kRows - 1) / kRows), [&](int band) {
        for (Eigen::Index t = band * kRows; t < std::min(T, (band + 1) * kRows); ++t) {
            // 1. mean and biased variance, summed in double so that a row of large values
            //    loses nothing to cancellation (Eigen's vectorised sums).
            const auto row = x.row(t).array().cast<double>();
            const double mean = row.sum() / double(C);
            const double squares = (row - mean).square().sum();
            const double rstd = 1.0 / std::sqrt(squares / double(C) + epsilon);
            // 2. normalize, then scale and shift.
            y.row(t).array() = ((row - mean) * rstd).cast<float>() * w + b;
        }
    });
}

void geluTanh(Matrix& x)
{
    // In bands of rows on every core: at T = 1024 GPT-2 small takes 38 million of them a
    // forward, a second with std::tanh.
    constexpr Eigen::Index kRows = 32;
    const int bands = int((x.rows() + kRows - 1) / kRows);
    parallelFor(bands, [&](int band) {
        const Eigen::Index row = band * kRows, rows = std::min(kRows, x.rows() - row);
        gelu(x.row(row).data(), rows * x.cols());
    });
}

void geluErf(Matrix& x)
{
    constexpr Eigen::Index kRows = 32;
    const int bands = int((x.rows() + kRows - 1) / kRows);
    parallelFor(bands, [&](int band) {
        const Eigen::Index row = band * kRows, rows = std::min(kRows, x.rows() - row);
        float* values = x.row(row).data();
        for (Eigen::Index i = 0; i < rows * x.cols(); ++i)
            values[i] = values[i] * 0.5f * (1.0f + std::erf(values[i] * 0.70710678118654752f));
    });
}

void conv1d(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    conv1dTiles(x, weight, bias, y, Epilogue::Bias);
}

void conv1dGelu(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    conv1dTiles(x, weight, bias, y, Epilogue::BiasGelu);
}

void conv1dAdd(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    conv1dTiles(x, weight, bias, y, Epilogue::AddToOutput);
}

void rmsNormRows(Matrix& x, const WeightView& weight, double epsilon)
{
    // x: (T, n) in place
    const Eigen::Index T = x.rows(), n = x.cols();
    const auto w = weight.row();
    constexpr Eigen::Index kRows = 64;
    parallelFor(int((T + kRows - 1) / kRows), [&](int band) {
        for (Eigen::Index t = band * kRows; t < std::min(T, (band + 1) * kRows); ++t) {
            // mean(x²) summed in double; rsqrt and the products in float, as torch's.
            double squares = 0;
            for (Eigen::Index c = 0; c < n; ++c)
                squares += double(x(t, c)) * double(x(t, c));
            const float rstd = float(1.0 / std::sqrt(squares / double(n) + epsilon));
            for (Eigen::Index c = 0; c < n; ++c)
                x(t, c) = w(c) * (x(t, c) * rstd);
        }
    });
}

void rmsNorm(const Matrix& x, const WeightView& weight, double epsilon, Matrix& y)
{
    y = x;
    rmsNormRows(y, weight, epsilon);
}

void siluMultiply(Matrix& gate, const Matrix& up)
{
    constexpr Eigen::Index kRows = 32;
    const int bands = int((gate.rows() + kRows - 1) / kRows);
    parallelFor(bands, [&](int band) {
        const Eigen::Index row = band * kRows, rows = std::min(kRows, gate.rows() - row);
        auto g = gate.middleRows(row, rows).array();
        g = g / (1.0f + (-g).exp()) * up.middleRows(row, rows).array();
    });
}

void linear(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    linearEach(x, {LinearOutput{&weight, &bias, &y}});
}

void linearEach(const Matrix& x, std::initializer_list<LinearOutput> outputs)
{
    linearTiles(x, outputs, LinearEpilogue::Bias);
}

void linearAdd(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    linearTiles(x, {LinearOutput{&weight, &bias, &y}}, LinearEpilogue::AddToOutput);
}

void linearGelu(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    linearTiles(x, {LinearOutput{&weight, &bias, &y}}, LinearEpilogue::BiasGelu);
}

void linearSwiGlu(const Matrix& x, const WeightView& gateWeight, const WeightView& gateBias,
                  const WeightView& upWeight, const WeightView& upBias, Matrix& y)
{
    // x: (T, C), gate and up: (I, C) → y: (T, I)
    const Eigen::Index T = x.rows(), N = gateWeight.rows;
    y.resize(T, N);
    const Eigen::Index width = tileWidth(N);
    const int rowTiles = int((T + kTileRows - 1) / kTileRows);
    const int colTiles = int((N + width - 1) / width);
    parallelFor(rowTiles * colTiles, [&](int item) {
        const Eigen::Index r = Eigen::Index(item / colTiles) * kTileRows;
        const Eigen::Index c = Eigen::Index(item % colTiles) * width;
        const Eigen::Index rows = std::min(kTileRows, T - r), cols = std::min(width, N - c);
        thread_local std::vector<float> gateRows, upRows; // dequantized, when in blocks
        auto g = y.block(r, c, rows, cols);
        g.noalias() = x.middleRows(r, rows) * gateWeight.rowsOf(c, cols, gateRows).transpose();
        Matrix u = x.middleRows(r, rows) * upWeight.rowsOf(c, cols, upRows).transpose();
        if (gateBias.data)
            g.rowwise() += gateBias.row().segment(c, cols);
        if (upBias.data)
            u.rowwise() += upBias.row().segment(c, cols);
        // silu(g)·u as siluMultiply, while both tiles are in cache.
        g.array() = g.array() / (1.0f + (-g.array()).exp()) * u.array();
    });
}

} // namespace attn
