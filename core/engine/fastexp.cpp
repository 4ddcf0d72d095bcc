#include "engine/fastexp.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ATTN_HAVE_AVX2_EXP 1
#endif

namespace attn {
namespace {

using RowArray = Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>>;
using ConstRowArray = Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>>;

void clampedShiftedExpEigen(const float* l, float shift, Eigen::Index n, float* p)
{
    RowArray(p, n) = (ConstRowArray(l, n) - shift).max(-87.0f).exp();
}

#ifdef ATTN_HAVE_AVX2_EXP
// Eigen's pexp_float for eight floats: exp(x) = 2^m · exp(r), x = m·ln 2 + r, with
// exp(r) a degree-6 polynomial. x ∈ [−87, 0] here, so 2^m is a normal float built from
// its exponent bits. Returns how many values it did (a multiple of eight).
__attribute__((target("avx2,fma"))) Eigen::Index clampedShiftedExpAvx2(const float* l, float shift,
                                                                       Eigen::Index n, float* p)
{
    const __m256 vshift = _mm256_set1_ps(shift);
    const __m256 lowest = _mm256_set1_ps(-87.0f);
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256 log2e = _mm256_set1_ps(1.44269504088896341f);
    const __m256 c1 = _mm256_set1_ps(-0.693359375f);
    const __m256 c2 = _mm256_set1_ps(2.12194440e-4f);
    const __m256 p0 = _mm256_set1_ps(1.9875691500E-4f);
    const __m256 p1 = _mm256_set1_ps(1.3981999507E-3f);
    const __m256 p2 = _mm256_set1_ps(8.3334519073E-3f);
    const __m256 p3 = _mm256_set1_ps(4.1665795894E-2f);
    const __m256 p4 = _mm256_set1_ps(1.6666665459E-1f);
    const __m256 p5 = _mm256_set1_ps(5.0000001201E-1f);
    const __m256i bias = _mm256_set1_epi32(127);
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 x = _mm256_max_ps(_mm256_sub_ps(_mm256_loadu_ps(l + j), vshift), lowest);
        // 1. m = floor(x / ln 2 + 1/2), r = x − m·ln 2 in two parts for accuracy.
        const __m256 m = _mm256_floor_ps(_mm256_fmadd_ps(x, log2e, half));
        __m256 r = _mm256_fmadd_ps(m, c1, x);
        r = _mm256_fmadd_ps(m, c2, r);
        const __m256 r2 = _mm256_mul_ps(r, r);
        const __m256 r3 = _mm256_mul_ps(r2, r);
        // 2. The polynomial, in Eigen's order.
        __m256 y = _mm256_fmadd_ps(p0, r, p1);
        __m256 y1 = _mm256_fmadd_ps(p3, r, p4);
        const __m256 y2 = _mm256_add_ps(r, one);
        y = _mm256_fmadd_ps(y, r, p2);
        y1 = _mm256_fmadd_ps(y1, r, p5);
        y = _mm256_fmadd_ps(y, r3, y1);
        y = _mm256_fmadd_ps(y, r2, y2);
        // 3. Times 2^m.
        const __m256i exponent =
            _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(m), bias), 23);
        _mm256_storeu_ps(p + j, _mm256_mul_ps(y, _mm256_castsi256_ps(exponent)));
    }
    return j;
}

// clampedShiftedExpAvx2 with its sum, smallest argument and NaN check in the same pass.
__attribute__((target("avx2,fma"))) Eigen::Index
clampedShiftedExpSumAvx2(const float* l, float shift, Eigen::Index n, float* p, float& sum,
                         float& lowest, bool& nan)
{
    const Eigen::Index whole = n - n % 8;
    const __m256 vshift = _mm256_set1_ps(shift);
    __m256 total = _mm256_setzero_ps();
    __m256 smallest = _mm256_set1_ps(std::numeric_limits<float>::infinity());
    __m256 unordered = _mm256_setzero_ps();
    // Blocks of 64 values: exp through clampedShiftedExpAvx2 (the one polynomial, so
    // both give the same bits), then the block's figures while it is in L1.
    for (Eigen::Index j = 0; j < whole; j += 64) {
        const Eigen::Index count = std::min<Eigen::Index>(64, whole - j);
        clampedShiftedExpAvx2(l + j, shift, count, p + j);
        for (Eigen::Index k = j; k < j + count; k += 8) {
            const __m256 x = _mm256_sub_ps(_mm256_loadu_ps(l + k), vshift);
            smallest = _mm256_min_ps(smallest, x);
            unordered = _mm256_or_ps(unordered, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
            total = _mm256_add_ps(total, _mm256_loadu_ps(p + k));
        }
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, total);
    sum = ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) +
          ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]));
    _mm256_store_ps(lanes, smallest);
    lowest = *std::min_element(lanes, lanes + 8);
    nan = _mm256_movemask_ps(unordered) != 0;
    return whole;
}

__attribute__((target("avx2"))) Eigen::Index
scaleRowAvx2(const float* s, Eigen::Index n, float scale, float tau, float* l, float& max)
{
    const __m256 vscale = _mm256_set1_ps(scale), vtau = _mm256_set1_ps(tau);
    __m256 largest = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
    Eigen::Index j = 0;
    if (tau == 1.0f) {
        // x / 1 is x, NaN included: the division (a quarter of the pass's time) is left out.
        for (; j + 8 <= n; j += 8) {
            const __m256 x = _mm256_mul_ps(_mm256_loadu_ps(s + j), vscale);
            _mm256_storeu_ps(l + j, x);
            largest = _mm256_max_ps(x, largest);
        }
    }
    for (; j + 8 <= n; j += 8) {
        const __m256 x = _mm256_div_ps(_mm256_mul_ps(_mm256_loadu_ps(s + j), vscale), vtau);
        _mm256_storeu_ps(l + j, x);
        largest = _mm256_max_ps(x, largest); // a NaN x keeps `largest`
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, largest);
    max = *std::max_element(lanes, lanes + 8);
    return j;
}

__attribute__((target("avx2"))) Eigen::Index scaleRowInPlaceAvx2(float* p, Eigen::Index n,
                                                                 float factor)
{
    const __m256 f = _mm256_set1_ps(factor);
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8)
        _mm256_storeu_ps(p + j, _mm256_mul_ps(_mm256_loadu_ps(p + j), f));
    return j;
}

bool hasAvx2()
{
    // ATTN_NO_AVX2=1 takes the SSE2 path a CPU without AVX2 takes (the tests run both).
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                            std::getenv("ATTN_NO_AVX2") == nullptr;
    return has;
}
#endif

} // namespace

void clampedShiftedExp(const float* l, float shift, Eigen::Index n, float* p)
{
    Eigen::Index done = 0;
#ifdef ATTN_HAVE_AVX2_EXP
    if (hasAvx2())
        done = clampedShiftedExpAvx2(l, shift, n, p);
#endif
    clampedShiftedExpEigen(l + done, shift, n - done, p + done);
}

float clampedShiftedExpSum(const float* l, float shift, Eigen::Index n, float* p, float& lowest)
{
    Eigen::Index done = 0;
    float sum = 0;
    bool nan = false;
    lowest = std::numeric_limits<float>::infinity();
#ifdef ATTN_HAVE_AVX2_EXP
    if (hasAvx2())
        done = clampedShiftedExpSumAvx2(l, shift, n, p, sum, lowest, nan);
#endif
    if (done < n) {
        // The rest (a row's last values, or all on SSE2). A NaN sum of the logits also
        // flags +inf next to −inf, which only sends the row through the careful loop.
        const ConstRowArray logits(l + done, n - done);
        clampedShiftedExpEigen(l + done, shift, n - done, p + done);
        sum += ConstRowArray(p + done, n - done).sum();
        lowest = std::min(lowest, logits.minCoeff() - shift);
        nan = nan || std::isnan(logits.sum());
    }
    if (nan)
        lowest = std::numeric_limits<float>::quiet_NaN();
    return sum;
}

float scaleRow(const float* s, Eigen::Index n, float scale, float tau, float* l)
{
    Eigen::Index done = 0;
    float max = -std::numeric_limits<float>::infinity();
#ifdef ATTN_HAVE_AVX2_EXP
    if (hasAvx2())
        done = scaleRowAvx2(s, n, scale, tau, l, max);
#endif
    if (tau == 1.0f)
        RowArray(l + done, n - done) = ConstRowArray(s + done, n - done) * scale;
    else
        RowArray(l + done, n - done) = (ConstRowArray(s + done, n - done) * scale) / tau;
    for (Eigen::Index j = done; j < n; ++j)
        max = l[j] > max ? l[j] : max;
    return max;
}

float normalizeRow(float* p, Eigen::Index n, float sum)
{
    const float reciprocal = 1 / sum;
    Eigen::Index done = 0;
#ifdef ATTN_HAVE_AVX2_EXP
    if (hasAvx2())
        done = scaleRowInPlaceAvx2(p, n, reciprocal);
#endif
    RowArray(p + done, n - done) *= reciprocal;
    return reciprocal;
}

bool rowPassesUseAvx2()
{
#ifdef ATTN_HAVE_AVX2_EXP
    return hasAvx2();
#else
    return false;
#endif
}

} // namespace attn
