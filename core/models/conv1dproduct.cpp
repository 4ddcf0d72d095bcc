#include "models/conv1dproduct.h"

#include "base/platform.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ATTN_HAVE_AVX512_CONV1D 1
#endif

namespace attn {
namespace {

using Index = Eigen::Index;

// The register block: kRows rows of y by up to kVectors × 16 columns, 24 accumulators of
// the 32 zmm registers, the rest for the row of W and the broadcast x.
constexpr int kRows = 8, kVectors = 3, kWidth = 16 * kVectors;
static_assert(kWidth == kConv1dBand);
// The depth of a chunk: its 256 × 48 floats of W (48 KB) are read from memory once and then
// from the caches by every block of rows (measured on Zen 5 at GPT-2 small's shapes, T = 128,
// one core: 128 → 166 GFLOP/s, 256 → 173, 384 → 170, the whole depth 161; OpenBLAS 102).
constexpr Index kDepth = 256;

bool cpuHasAvx512()
{
#ifdef ATTN_HAVE_AVX512_CONV1D
    return __builtin_cpu_supports("avx512f");
#else
    return false;
#endif
}

// On where the CPU has AVX-512 unless ATTN_CONV1D=blas; then as setConv1dAvx512 says.
std::atomic<bool>& avx512Enabled()
{
    static std::atomic<bool> enabled{[] {
        const char* choice = std::getenv("ATTN_CONV1D");
        return cpuHasAvx512() && !(choice && std::strcmp(choice, "blas") == 0);
    }()};
    return enabled;
}

#ifdef ATTN_HAVE_AVX512_CONV1D
// One register block: y[0..R, 0..16V) (=|+=) x[0..R, 0..depth)·w[0..depth, 0..16V)
// (+ bias), the last vector's columns those of `tail`. x, w, y row-major with strides.
template <int R, int V>
__attribute__((target("avx512f"))) void block(Index depth, const float* x, Index ldx,
                                              const float* w, Index ldw, float* y, Index ldy,
                                              __mmask16 tail, bool load, const float* bias)
{
    __m512 acc[R][V];
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 3
        for (int v = 0; v < V; ++v)
            acc[i][v] = load ? _mm512_maskz_loadu_ps(v == V - 1 ? tail : __mmask16(0xFFFF),
                                                     y + i * ldy + 16 * v)
                             : _mm512_setzero_ps();
    for (Index k = 0; k < depth; ++k) {
        __m512 b[V];
#pragma GCC unroll 3
        for (int v = 0; v < V; ++v)
            b[v] =
                _mm512_maskz_loadu_ps(v == V - 1 ? tail : __mmask16(0xFFFF), w + k * ldw + 16 * v);
#pragma GCC unroll 8
        for (int i = 0; i < R; ++i) {
            const __m512 a = _mm512_set1_ps(x[i * ldx + k]);
#pragma GCC unroll 3
            for (int v = 0; v < V; ++v)
                acc[i][v] = _mm512_fmadd_ps(a, b[v], acc[i][v]);
        }
    }
    if (bias) {
#pragma GCC unroll 3
        for (int v = 0; v < V; ++v) {
            const __m512 b =
                _mm512_maskz_loadu_ps(v == V - 1 ? tail : __mmask16(0xFFFF), bias + 16 * v);
#pragma GCC unroll 8
            for (int i = 0; i < R; ++i)
                acc[i][v] = _mm512_add_ps(acc[i][v], b);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 3
        for (int v = 0; v < V; ++v)
            _mm512_mask_storeu_ps(y + i * ldy + 16 * v, v == V - 1 ? tail : __mmask16(0xFFFF),
                                  acc[i][v]);
}

using Block = void (*)(Index, const float*, Index, const float*, Index, float*, Index, __mmask16,
                       bool, const float*);

template <int R> constexpr Block blockOf(int vectors)
{
    return vectors == 1 ? block<R, 1> : vectors == 2 ? block<R, 2> : block<R, 3>;
}

// blocks[rows − 1][vectors − 1]
constexpr Block kBlocks[kRows][kVectors] = {
    {blockOf<1>(1), blockOf<1>(2), blockOf<1>(3)}, {blockOf<2>(1), blockOf<2>(2), blockOf<2>(3)},
    {blockOf<3>(1), blockOf<3>(2), blockOf<3>(3)}, {blockOf<4>(1), blockOf<4>(2), blockOf<4>(3)},
    {blockOf<5>(1), blockOf<5>(2), blockOf<5>(3)}, {blockOf<6>(1), blockOf<6>(2), blockOf<6>(3)},
    {blockOf<7>(1), blockOf<7>(2), blockOf<7>(3)}, {blockOf<8>(1), blockOf<8>(2), blockOf<8>(3)},
};
#endif

} // namespace

Index conv1dBandFloats(Index in, Index out)
{
    return (out + kWidth - 1) / kWidth * kWidth * in;
}

void packConv1dBands(const float* w, Index in, Index out, Index rowStride, Index colStride,
                     float* bands)
{
    for (Index c = 0; c < out; c += kWidth) {
        const Index width = std::min<Index>(kWidth, out - c);
        for (Index k = 0; k < in; ++k, bands += kWidth) {
            const float* from = w + k * rowStride + c * colStride;
            if (colStride == 1)
                std::memcpy(bands, from, std::size_t(width) * sizeof(float));
            else
                for (Index j = 0; j < width; ++j)
                    bands[j] = from[j * colStride];
            std::fill(bands + width, bands + kWidth, 0.0f);
        }
    }
}

std::shared_ptr<float[]> allocateConv1dBands(std::size_t floats)
{
    constexpr std::size_t kHugePage = std::size_t(2) << 20;
    const std::size_t bytes = std::max<std::size_t>(
        (floats * sizeof(float) + kHugePage - 1) / kHugePage * kHugePage, kHugePage);
    void* memory = std::aligned_alloc(kHugePage, bytes);
    if (!memory)
        throw std::bad_alloc();
    platform::adviseHugePages(memory, bytes); // advice: without it, 4 KB pages
    return {static_cast<float*>(memory), [](float* p) { std::free(p); }};
}

bool conv1dUsesAvx512()
{
    return avx512Enabled().load(std::memory_order_relaxed);
}

bool setConv1dAvx512(bool enabled)
{
    return avx512Enabled().exchange(enabled && cpuHasAvx512());
}

void conv1dTileAvx512(const float* x, Index ldx, const float* w, Index ldw, const float* bias,
                      float* y, Index ldy, Index rows, Index cols, Index depth, bool accumulate)
{
    conv1dTileAvx512(x, ldx, w, ldw, kWidth, bias, y, ldy, rows, cols, depth, accumulate);
}

void conv1dTileAvx512(const float* x, Index ldx, const float* w, Index ldw, Index bandStride,
                      const float* bias, float* y, Index ldy, Index rows, Index cols, Index depth,
                      bool accumulate)
{
#ifdef ATTN_HAVE_AVX512_CONV1D
    // For each band of 48 columns, chunk by chunk of the depth, every block of eight rows:
    // the chunk of W is read from memory by the first block and from the caches by the
    // others. (W copied into a contiguous panel on each call, as sgemm packs, ran 7 % slower;
    // packed once at load, packConv1dBands, about 10 % faster.)
    for (Index c = 0; c < cols; c += kWidth) {
        const Index width = std::min<Index>(kWidth, cols - c);
        const int vectors = int((width + 15) / 16);
        const auto tail = __mmask16((1u << (width - 16 * (vectors - 1))) - 1u);
        for (Index k = 0; k < depth || k == 0; k += kDepth) {
            const Index chunk = std::min(kDepth, depth - k);
            const bool load = accumulate || k > 0;
            const float* b = k + chunk >= depth && bias ? bias + c : nullptr;
            for (Index r = 0; r < rows; r += kRows) {
                const int height = int(std::min<Index>(kRows, rows - r));
                kBlocks[height - 1][vectors - 1](chunk, x + r * ldx + k, ldx,
                                                 w + (c / kWidth) * bandStride + k * ldw, ldw,
                                                 y + r * ldy + c, ldy, tail, load, b);
            }
        }
    }
#else
    (void)x, (void)ldx, (void)w, (void)ldw, (void)bandStride, (void)bias, (void)y, (void)ldy,
        (void)rows, (void)cols, (void)depth, (void)accumulate;
#endif
}

} // namespace attn
