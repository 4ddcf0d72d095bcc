#include "models/productkernels.h"

#include <array>
#include <cstring>
#include <utility>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define ATTN_HAVE_X86_PRODUCTS 1
#endif

namespace attn::productkernels {

#ifdef ATTN_HAVE_X86_PRODUCTS
namespace {

// Each function carries its own target: this file is compiled for baseline x86-64, and only
// what productPath() chose for this CPU is called.
#define ATTN_AVX2 __attribute__((target("avx2,fma,f16c")))
#define ATTN_AVX512 __attribute__((target("avx512f,avx2,fma,f16c")))

// ---- AVX-512: 8 outputs × 3 panels of 16 tokens, 24 accumulators of 32 registers ----------
template <int R, int V>
ATTN_AVX512 void block512(Index depth, const float* w, Index ldw, const float* xp,
                          Index panelStride, float* yt, Index ldt, bool accumulate)
{
    __m512 acc[R][V];
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v)
            acc[i][v] = accumulate ? _mm512_loadu_ps(yt + i * ldt + 16 * v) : _mm512_setzero_ps();
    for (Index k = 0; k < depth; ++k) {
        __m512 x[V];
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v)
            x[v] = _mm512_loadu_ps(xp + v * panelStride + 16 * k);
#pragma GCC unroll 8
        for (int i = 0; i < R; ++i) {
            const __m512 b = _mm512_set1_ps(w[i * ldw + k]);
#pragma GCC unroll 8
            for (int v = 0; v < V; ++v)
                acc[i][v] = _mm512_fmadd_ps(b, x[v], acc[i][v]);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 8
        for (int v = 0; v < V; ++v)
            _mm512_storeu_ps(yt + i * ldt + 16 * v, acc[i][v]);
}

// ---- AVX2 + FMA: 6 outputs × 1 panel (two ymm of 8 tokens), 12 accumulators of 16 ---------
template <int R, int V>
ATTN_AVX2 void block256(Index depth, const float* w, Index ldw, const float* xp, Index panelStride,
                        float* yt, Index ldt, bool accumulate)
{
    constexpr int kHalves = 2 * V;
    __m256 acc[R][kHalves];
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 8
        for (int h = 0; h < kHalves; ++h)
            acc[i][h] = accumulate ? _mm256_loadu_ps(yt + i * ldt + 8 * h) : _mm256_setzero_ps();
    for (Index k = 0; k < depth; ++k) {
        __m256 x[kHalves];
#pragma GCC unroll 8
        for (int h = 0; h < kHalves; ++h)
            x[h] = _mm256_loadu_ps(xp + (h / 2) * panelStride + 16 * k + 8 * (h % 2));
#pragma GCC unroll 8
        for (int i = 0; i < R; ++i) {
            const __m256 b = _mm256_broadcast_ss(w + i * ldw + k);
#pragma GCC unroll 8
            for (int h = 0; h < kHalves; ++h)
                acc[i][h] = _mm256_fmadd_ps(b, x[h], acc[i][h]);
        }
    }
#pragma GCC unroll 8
    for (int i = 0; i < R; ++i)
#pragma GCC unroll 8
        for (int h = 0; h < kHalves; ++h)
            _mm256_storeu_ps(yt + i * ldt + 8 * h, acc[i][h]);
}

using Fixed = void (*)(Index, const float*, Index, const float*, Index, float*, Index, bool);

// Every (rows, panels) block of a path, rows 1 … R and panels 1 … V: the remainders of a tile
// run the same chain of fused multiply-adds as its full blocks.
template <int V, std::size_t... I>
constexpr std::array<Fixed, sizeof...(I)> table512(std::index_sequence<I...>)
{
    return {&block512<int(I / V) + 1, int(I % V) + 1>...};
}
template <int V, std::size_t... I>
constexpr std::array<Fixed, sizeof...(I)> table256(std::index_sequence<I...>)
{
    return {&block256<int(I / V) + 1, int(I % V) + 1>...};
}
constexpr int kRows512 = 8, kPanels512 = 3, kRows256 = 6, kPanels256 = 1;
constexpr auto kBlocks512 =
    table512<kPanels512>(std::make_index_sequence<std::size_t(kRows512* kPanels512)>());
constexpr auto kBlocks256 =
    table256<kPanels256>(std::make_index_sequence<std::size_t(kRows256* kPanels256)>());

void run512(int rows, int panels, Index depth, const float* w, Index ldw, const float* xp,
            Index panelStride, float* yt, Index ldt, bool accumulate)
{
    kBlocks512[std::size_t((rows - 1) * kPanels512 + panels - 1)](depth, w, ldw, xp, panelStride,
                                                                  yt, ldt, accumulate);
}

void run256(int rows, int panels, Index depth, const float* w, Index ldw, const float* xp,
            Index panelStride, float* yt, Index ldt, bool accumulate)
{
    kBlocks256[std::size_t((rows - 1) * kPanels256 + panels - 1)](depth, w, ldw, xp, panelStride,
                                                                  yt, ldt, accumulate);
}

// ---- dequantizers on AVX2 + F16C: the bits of core/io's scalar ones ------------------------
// Each computes what ggml-quants.c writes, in its order (an integer converted, then the scale's
// product, then the min's difference), with separate multiplies and subtractions: no fused
// multiply-add, which would round once where ggml rounds twice.

ATTN_AVX2 float half(const std::byte* at)
{
    std::uint16_t h;
    std::memcpy(&h, at, 2);
    return _cvtsh_ss(h);
}

// Eight bytes at p as eight int32 lanes, unsigned or signed.
ATTN_AVX2 __m256i bytes8(const std::uint8_t* p)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}
ATTN_AVX2 __m256i signedBytes8(const std::uint8_t* p)
{
    return _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
}

ATTN_AVX2 void storeScaled(float* y, __m256i q, __m256 d)
{
    _mm256_storeu_ps(y, _mm256_mul_ps(_mm256_cvtepi32_ps(q), d));
}

ATTN_AVX2 void q8_0(const std::uint8_t* b, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, b += 34, y += 32) {
        const __m256 d = _mm256_set1_ps(half(reinterpret_cast<const std::byte*>(b)));
        for (int g = 0; g < 4; ++g)
            storeScaled(y + 8 * g, signedBytes8(b + 2 + 8 * g), d);
    }
}

ATTN_AVX2 void q4_0(const std::uint8_t* b, float* y, std::int64_t blocks)
{
    const __m256i low = _mm256_set1_epi32(0x0F), eight = _mm256_set1_epi32(8);
    for (std::int64_t i = 0; i < blocks; ++i, b += 18, y += 32) {
        const __m256 d = _mm256_set1_ps(half(reinterpret_cast<const std::byte*>(b)));
        for (int g = 0; g < 2; ++g) {
            const __m256i q = bytes8(b + 2 + 8 * g);
            storeScaled(y + 8 * g, _mm256_sub_epi32(_mm256_and_si256(q, low), eight), d);
            storeScaled(y + 16 + 8 * g, _mm256_sub_epi32(_mm256_srli_epi32(q, 4), eight), d);
        }
    }
}

ATTN_AVX2 void q5_0(const std::uint8_t* b, float* y, std::int64_t blocks)
{
    const __m256i low = _mm256_set1_epi32(0x0F), one = _mm256_set1_epi32(1);
    const __m256i sixteen = _mm256_set1_epi32(16),
                  lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (std::int64_t i = 0; i < blocks; ++i, b += 22, y += 32) {
        const __m256 d = _mm256_set1_ps(half(reinterpret_cast<const std::byte*>(b)));
        std::uint32_t qh;
        std::memcpy(&qh, b + 2, 4); // little-endian: bit e is element e's fifth bit
        const __m256i bits = _mm256_set1_epi32(int(qh));
        for (int g = 0; g < 2; ++g) {
            const __m256i q = bytes8(b + 6 + 8 * g);
            const __m256i e0 = _mm256_add_epi32(lanes, _mm256_set1_epi32(8 * g));
            const __m256i e1 = _mm256_add_epi32(e0, sixteen);
            const __m256i h0 =
                _mm256_slli_epi32(_mm256_and_si256(_mm256_srlv_epi32(bits, e0), one), 4);
            const __m256i h1 =
                _mm256_slli_epi32(_mm256_and_si256(_mm256_srlv_epi32(bits, e1), one), 4);
            const __m256i v0 = _mm256_or_si256(_mm256_and_si256(q, low), h0);
            const __m256i v1 = _mm256_or_si256(_mm256_srli_epi32(q, 4), h1);
            storeScaled(y + 8 * g, _mm256_sub_epi32(v0, sixteen), d);
            storeScaled(y + 16 + 8 * g, _mm256_sub_epi32(v1, sixteen), d);
        }
    }
}

// Q4_K's 6-bit scale and min of sub-block j (ggml's get_scale_min_k4).
std::pair<int, int> scaleMinK4(int j, const std::uint8_t* q)
{
    if (j < 4)
        return {q[j] & 63, q[j + 4] & 63};
    return {(q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4), (q[j + 4] >> 4) | ((q[j] >> 6) << 4)};
}

ATTN_AVX2 void q4_K(const std::uint8_t* b, float* y, std::int64_t blocks)
{
    const __m256i low = _mm256_set1_epi32(0x0F);
    for (std::int64_t i = 0; i < blocks; ++i, b += 144) {
        const float d = half(reinterpret_cast<const std::byte*>(b));
        const float dmin = half(reinterpret_cast<const std::byte*>(b + 2));
        for (int c = 0; c < 4; ++c, y += 64) {
            const std::uint8_t* q = b + 16 + 32 * c;
            const auto [scale1, min1] = scaleMinK4(2 * c, b + 4);
            const auto [scale2, min2] = scaleMinK4(2 * c + 1, b + 4);
            const __m256 d1 = _mm256_set1_ps(d * float(scale1)),
                         m1 = _mm256_set1_ps(dmin * float(min1));
            const __m256 d2 = _mm256_set1_ps(d * float(scale2)),
                         m2 = _mm256_set1_ps(dmin * float(min2));
            for (int g = 0; g < 4; ++g) {
                const __m256i v = bytes8(q + 8 * g);
                const __m256 lo = _mm256_cvtepi32_ps(_mm256_and_si256(v, low));
                const __m256 hi = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 4));
                _mm256_storeu_ps(y + 8 * g, _mm256_sub_ps(_mm256_mul_ps(d1, lo), m1));
                _mm256_storeu_ps(y + 32 + 8 * g, _mm256_sub_ps(_mm256_mul_ps(d2, hi), m2));
            }
        }
    }
}

// Q6_K's two high bits of each element at `shift` in its byte of qh, moved to bits 4 and 5.
ATTN_AVX2 __m256i sixthBits(__m256i qh, int shift)
{
    return _mm256_slli_epi32(_mm256_and_si256(_mm256_srli_epi32(qh, shift), _mm256_set1_epi32(3)),
                             4);
}

ATTN_AVX2 void q6_K(const std::uint8_t* b, float* y, std::int64_t blocks)
{
    const __m256i low = _mm256_set1_epi32(0x0F);
    const __m256i offset = _mm256_set1_epi32(32);
    for (std::int64_t i = 0; i < blocks; ++i, b += 210) {
        const float d = half(reinterpret_cast<const std::byte*>(b + 208));
        for (int h = 0; h < 2; ++h, y += 128) {
            const std::uint8_t* ql = b + 64 * h;
            const std::uint8_t* qh = b + 128 + 32 * h;
            const auto* sc = reinterpret_cast<const std::int8_t*>(b + 192 + 8 * h);
            for (int g = 0; g < 4; ++g) {
                const int is = g / 2, l = 8 * g;
                const __m256i a = bytes8(ql + l), c = bytes8(ql + l + 32), hb = bytes8(qh + l);
                const __m256i q1 = _mm256_or_si256(_mm256_and_si256(a, low), sixthBits(hb, 0));
                const __m256i q2 = _mm256_or_si256(_mm256_and_si256(c, low), sixthBits(hb, 2));
                const __m256i q3 = _mm256_or_si256(_mm256_srli_epi32(a, 4), sixthBits(hb, 4));
                const __m256i q4 = _mm256_or_si256(_mm256_srli_epi32(c, 4), sixthBits(hb, 6));
                storeScaled(y + l, _mm256_sub_epi32(q1, offset), _mm256_set1_ps(d * float(sc[is])));
                storeScaled(y + l + 32, _mm256_sub_epi32(q2, offset),
                            _mm256_set1_ps(d * float(sc[is + 2])));
                storeScaled(y + l + 64, _mm256_sub_epi32(q3, offset),
                            _mm256_set1_ps(d * float(sc[is + 4])));
                storeScaled(y + l + 96, _mm256_sub_epi32(q4, offset),
                            _mm256_set1_ps(d * float(sc[is + 6])));
            }
        }
    }
}

ATTN_AVX2 std::int64_t f16(const std::uint8_t* b, float* y, std::int64_t n)
{
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(
            y + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 * i))));
    return i;
}

ATTN_AVX2 std::int64_t bf16(const std::uint8_t* b, float* y, std::int64_t n)
{
    std::int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i h =
            _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 2 * i)));
        _mm256_storeu_ps(y + i, _mm256_castsi256_ps(_mm256_slli_epi32(h, 16)));
    }
    return i;
}

// An 8 × 8 block transposed in registers (unpack, shuffle, swap of 128-bit halves).
ATTN_AVX2 void transpose8(const float* src, Index lds, float* dst, Index ldd)
{
    __m256 r[8];
    for (int i = 0; i < 8; ++i)
        r[i] = _mm256_loadu_ps(src + i * lds);
    __m256 t[8];
    for (int i = 0; i < 8; i += 2) {
        t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    __m256 u[8];
    for (int i = 0; i < 8; i += 4) {
        u[i] = _mm256_shuffle_ps(t[i], t[i + 2], 0x44);
        u[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], 0xEE);
        u[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        u[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int i = 0; i < 4; ++i) {
        _mm256_storeu_ps(dst + i * ldd, _mm256_permute2f128_ps(u[i], u[i + 4], 0x20));
        _mm256_storeu_ps(dst + (i + 4) * ldd, _mm256_permute2f128_ps(u[i], u[i + 4], 0x31));
    }
}

ATTN_AVX2 void transpose16(const float* src, Index lds, float* dst, Index ldd)
{
    transpose8(src, lds, dst, ldd);
    transpose8(src + 8, lds, dst + 8 * ldd, ldd);
    transpose8(src + 8 * lds, lds, dst + 8, ldd);
    transpose8(src + 8 * lds + 8, lds, dst + 8 * ldd + 8, ldd);
}

bool dequantizeAvx2(GgmlType type, const std::byte* src, float* dst, std::int64_t n)
{
    const auto* b = reinterpret_cast<const std::uint8_t*>(src);
    switch (type) {
    case GgmlType::Q8_0:
        q8_0(b, dst, n / 32);
        return true;
    case GgmlType::Q4_0:
        q4_0(b, dst, n / 32);
        return true;
    case GgmlType::Q5_0:
        q5_0(b, dst, n / 32);
        return true;
    case GgmlType::Q4_K:
        q4_K(b, dst, n / 256);
        return true;
    case GgmlType::Q6_K:
        q6_K(b, dst, n / 256);
        return true;
    case GgmlType::F16:
    case GgmlType::BF16: {
        const std::int64_t done = type == GgmlType::F16 ? f16(b, dst, n) : bf16(b, dst, n);
        if (done < n)
            dequantizeRow(type, src + 2 * done, dst + done, n - done);
        return true;
    }
    default:
        return false;
    }
}

} // namespace

bool cpuHasAvx2()
{
    // F16C from CPUID leaf 1 (ECX bit 29): clang's __builtin_cpu_supports does not know it.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    const bool f16c = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
    return f16c && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

bool cpuHasAvx512()
{
    return cpuHasAvx2() && __builtin_cpu_supports("avx512f");
}

Path avx2Path()
{
    return {kRows256, kPanels256, &run256, &dequantizeAvx2, &transpose16};
}

Path avx512Path()
{
    return {kRows512, kPanels512, &run512, &dequantizeAvx2, &transpose16};
}

#else

bool cpuHasAvx2()
{
    return false;
}

bool cpuHasAvx512()
{
    return false;
}

Path avx2Path()
{
    return portablePath();
}

Path avx512Path()
{
    return portablePath();
}

#endif

} // namespace attn::productkernels
