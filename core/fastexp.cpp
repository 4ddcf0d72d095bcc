#include "fastexp.h"

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

bool hasAvx2()
{
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
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

} // namespace attn
