#include "models/modelkernels.h"

#include "base/parallel.h"
#include "engine/fastexp.h"
#include "models/linearproduct.h"

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

// A tile's tokens: 8 panels of 16 (128 tokens), whose chunk of x (128 KB) stays in L2 while
// the tile's rows of W go by; W's rows are read (or dequantized) once for all of them.
constexpr Eigen::Index kTilePanels = 8;

// The width of a product's column tiles for N output columns: at most about 384, in a count
// that is a multiple of the cores (Qwen's 896 columns in 384s left one core a third of the
// last tile alone), a multiple of 16 (two of AVX-512's register blocks of 8 outputs; AVX2's 6
// leave a remainder block). Multiples of 48 made Qwen's 4864 13 tiles of up to 384, one core
// a tile more than the other.
Eigen::Index tileWidth(Eigen::Index N)
{
    return std::min(N, tileWidth(N, 384, 16));
}

// nn.Linear's W (outputs × inputs) as the product kernel reads it: floats in place or blocks.
ProductWeight linearWeight(const WeightView& v)
{
    ProductWeight w;
    w.outputs = v.rows;
    w.depth = v.cols;
    if (v.inBlocks()) {
        w.blocks = v.blocks;
        w.type = v.type;
        w.rowBytes = v.rowBytes;
        w.rowOrder = v.rowOrder;
    } else {
        w.floats = v.data;
        w.rowStride = v.cols;
    }
    return w;
}

// A Conv1D's W stored [in, out]: its rows packed at load as nn.Linear's (WeightView::packed),
// or read along the stored columns.
ProductWeight conv1dWeight(const WeightView& v)
{
    ProductWeight w;
    w.outputs = v.cols;
    w.depth = v.rows;
    w.floats = v.packed ? v.packed : v.data;
    w.rowStride = v.packed ? v.rows : 1;
    w.depthStride = v.packed ? 1 : v.cols;
    return w;
}

struct Output {
    ProductWeight weight;
    const WeightView* bias;
    Matrix* y;
};

// yt[n·ldt + t] += bias[n]: a tile made transposed gets its bias along its rows.
void addBias(float* yt, Eigen::Index ldt, Eigen::Index cols, const float* bias)
{
    Eigen::Map<Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> tile(yt, cols,
                                                                                           ldt);
    tile.colwise() += Eigen::Map<const Eigen::VectorXf>(bias, cols);
}

// y[r + i, c + n] = yt[n·ldt + i] (or += it: the residual's sum) for i < rows, n < cols: a tile
// made transposed written into y in blocks of 16 tokens × 16 outputs transposed in registers
// (one value at a time, the writes took 7 % of GPT-2's forward at T = 128).
void storeTransposed(const float* yt, Eigen::Index ldt, Eigen::Index cols, Eigen::Index rows,
                     Matrix& y, Eigen::Index r, Eigen::Index c, bool add)
{
    constexpr Eigen::Index B = kTokenPanel;
    alignas(64) float block[B * B];
    for (Eigen::Index i0 = 0; i0 < rows; i0 += B) {
        const Eigen::Index count = std::min(B, rows - i0);
        Eigen::Index n0 = 0;
        if (count == B)
            for (; n0 + B <= cols; n0 += B) {
                // 16 outputs × 16 tokens transposed in registers, then 16 runs of y's rows.
                transposeBlock16(yt + n0 * ldt + i0, ldt, block, B);
                for (Eigen::Index j = 0; j < B; ++j) {
                    float* out = y.row(r + i0 + j).data() + c + n0;
                    const float* in = block + j * B;
                    if (add)
                        for (Eigen::Index n = 0; n < B; ++n)
                            out[n] += in[n];
                    else
                        std::copy(in, in + B, out);
                }
            }
        for (Eigen::Index j = 0; j < count; ++j) {
            float* out = y.row(r + i0 + j).data() + c;
            for (Eigen::Index n = n0; n < cols; ++n)
                out[n] = add ? out[n] + yt[n * ldt + i0 + j] : yt[n * ldt + i0 + j];
        }
    }
}

// The tiles of one or more products of the same x over every core: x packed once, each tile
// (outputs × up to 128 tokens) made transposed by productTile, then written into y with its
// bias (=, or += for the residual's sum), and GELU while it is in cache.
void productTiles(const Matrix& x, const std::vector<Output>& outputs, Epilogue epilogue)
{
    const Eigen::Index T = x.rows();
    // This (the forward's) thread's packed x, read by every core: a reference, as a thread_local
    // named in the loop's body would be each worker's own.
    thread_local PackedTokens ownPacked;
    PackedTokens& packed = ownPacked;
    packTokens(x.data(), x.outerStride(), T, x.cols(), packed);
    const Eigen::Index panels = packed.panels();
    const int rowTiles = int((panels + kTilePanels - 1) / kTilePanels);
    struct Tiles {
        const Output* out;
        Eigen::Index width;
        int first, colTiles;
    };
    std::vector<Tiles> tiles;
    int count = 0;
    for (const Output& out : outputs) {
        const Eigen::Index N = out.weight.outputs, width = tileWidth(N);
        if (epilogue != Epilogue::AddToOutput)
            out.y->resize(T, N);
        const int colTiles = int((N + width - 1) / width);
        tiles.push_back({&out, width, count, colTiles});
        count += rowTiles * colTiles;
    }
    parallelFor(count, [&](int item) {
        std::size_t o = 0;
        while (o + 1 < tiles.size() && item >= tiles[o + 1].first)
            ++o;
        const Tiles& t = tiles[o];
        const int local = item - t.first;
        const Eigen::Index N = t.out->weight.outputs;
        const Eigen::Index p = Eigen::Index(local / t.colTiles) * kTilePanels;
        const Eigen::Index c = Eigen::Index(local % t.colTiles) * t.width;
        const Eigen::Index tilePanels = std::min(kTilePanels, panels - p);
        const Eigen::Index cols = std::min(t.width, N - c), ldt = tilePanels * kTokenPanel;
        const Eigen::Index r = p * kTokenPanel, rows = std::min(ldt, T - r);
        thread_local std::vector<float> yt;
        yt.resize(std::size_t(cols * ldt));
        productTile(packed, p, tilePanels, t.out->weight, c, cols, yt.data(), ldt);
        if (t.out->bias && t.out->bias->data)
            addBias(yt.data(), ldt, cols, t.out->bias->data + c);
        if (epilogue == Epilogue::BiasGelu)
            gelu(yt.data(), cols * ldt);
        storeTransposed(yt.data(), ldt, cols, rows, *t.out->y, r, c,
                        epilogue == Epilogue::AddToOutput);
    });
}

void conv1dTiles(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y,
                 Epilogue epilogue)
{
    productTiles(x, {Output{conv1dWeight(weight), &bias, &y}}, epilogue);
}

void linearTiles(const Matrix& x, std::initializer_list<LinearOutput> outputs, Epilogue epilogue)
{
    std::vector<Output> products;
    for (const LinearOutput& out : outputs)
        products.push_back({linearWeight(*out.weight), out.bias, out.y});
    productTiles(x, products, epilogue);
}

} // namespace

Eigen::Map<const Matrix> WeightView::rowsOf(Eigen::Index first, Eigen::Index count,
                                            std::vector<float>& scratch) const
{
    if (!inBlocks())
        return {data + first * cols, count, cols};
    // On the product kernel's vector dequantizers (the bits of dequantizeRow): the logits over
    // a vocabulary of 151,936 rows dequantize all of them for every token written.
    scratch.resize(std::size_t(count * cols));
    const ProductWeight w = linearWeight(*this);
    for (Eigen::Index r = 0; r < count; ++r)
        productWeightRow(w, first + r, 0, cols, scratch.data() + r * cols);
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
    linearTiles(x, outputs, Epilogue::Bias);
}

void linearAdd(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    linearTiles(x, {LinearOutput{&weight, &bias, &y}}, Epilogue::AddToOutput);
}

void linearGelu(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    linearTiles(x, {LinearOutput{&weight, &bias, &y}}, Epilogue::BiasGelu);
}

void linearSwiGlu(const Matrix& x, const WeightView& gateWeight, const WeightView& gateBias,
                  const WeightView& upWeight, const WeightView& upBias, Matrix& y)
{
    // x: (T, C), gate and up: (I, C) → y: (T, I)
    const Eigen::Index T = x.rows(), N = gateWeight.rows;
    y.resize(T, N);
    thread_local PackedTokens ownPacked; // as productTiles'
    PackedTokens& packed = ownPacked;
    packTokens(x.data(), x.outerStride(), T, x.cols(), packed);
    const ProductWeight gate = linearWeight(gateWeight), up = linearWeight(upWeight);
    const Eigen::Index panels = packed.panels(), width = tileWidth(N);
    const int rowTiles = int((panels + kTilePanels - 1) / kTilePanels);
    const int colTiles = int((N + width - 1) / width);
    parallelFor(rowTiles * colTiles, [&](int item) {
        const Eigen::Index p = Eigen::Index(item / colTiles) * kTilePanels;
        const Eigen::Index c = Eigen::Index(item % colTiles) * width;
        const Eigen::Index tilePanels = std::min(kTilePanels, panels - p);
        const Eigen::Index cols = std::min(width, N - c), ldt = tilePanels * kTokenPanel;
        const Eigen::Index r = p * kTokenPanel, rows = std::min(ldt, T - r);
        thread_local std::vector<float> gt, ut;
        gt.resize(std::size_t(cols * ldt));
        ut.resize(std::size_t(cols * ldt));
        productTile(packed, p, tilePanels, gate, c, cols, gt.data(), ldt);
        productTile(packed, p, tilePanels, up, c, cols, ut.data(), ldt);
        if (gateBias.data)
            addBias(gt.data(), ldt, cols, gateBias.data + c);
        if (upBias.data)
            addBias(ut.data(), ldt, cols, upBias.data + c);
        // silu(g)·u as siluMultiply, on both tiles while they are in cache, then written.
        auto g = Eigen::Map<Eigen::ArrayXf>(gt.data(), cols * ldt);
        g = g / (1.0f + (-g).exp()) * Eigen::Map<const Eigen::ArrayXf>(ut.data(), cols * ldt);
        storeTransposed(gt.data(), ldt, cols, rows, y, r, c, false);
    });
}

} // namespace attn
