#include "engine/rowfigures.h"

#include "engine/fastexp.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ATTN_HAVE_AVX2_ROWS 1
#endif

namespace attn {
namespace {

using ConstRowArray = Eigen::Map<const Eigen::Array<float, 1, Eigen::Dynamic>>;
using RowArray = Eigen::Map<Eigen::Array<float, 1, Eigen::Dynamic>>;
using DoubleRow = Eigen::Map<Eigen::Array<double, 1, Eigen::Dynamic>>;

// Values a portable pass takes at once, in cache.
constexpr Eigen::Index kBlock = 64;

// The masked keys among n mask values (each 0 or 1), eight at a time.
int countMasked(const bool* masked, Eigen::Index n)
{
    int count = 0;
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8) {
        std::uint64_t eight = 0;
        std::memcpy(&eight, masked + j, 8);
        count += __builtin_popcountll(eight); // one bit per true byte
    }
    for (; j < n; ++j)
        count += masked[j] ? 1 : 0;
    return count;
}

#ifdef ATTN_HAVE_AVX2_ROWS
__attribute__((target("avx2,fma"))) double sumOfLanes(__m256d v)
{
    alignas(32) double lanes[4];
    _mm256_store_pd(lanes, v);
    return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3]);
}

__attribute__((target("avx2,fma"))) __m256d lowHalf(__m256 v)
{
    return _mm256_cvtps_pd(_mm256_castps256_ps128(v));
}

__attribute__((target("avx2,fma"))) __m256d highHalf(__m256 v)
{
    return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1));
}

// One pass over s and its logits l: Σ (s − meanS) and Σ (l − meanL), or with `squares`
// the sums of their squares (the means 0 for the first pass: the plain sums).
template <bool squares>
__attribute__((target("avx2,fma"))) __m256d accumulate(__m256d total, __m256d value, __m256d mean)
{
    const __m256d d = _mm256_sub_pd(value, mean);
    return squares ? _mm256_fmadd_pd(d, d, total) : _mm256_add_pd(total, d);
}

// scorePass over the row's whole eights; returns how many values that was.
template <bool squares>
__attribute__((target("avx2,fma"))) Eigen::Index
scorePassAvx2(const float* s, Eigen::Index n, float scale, float tau, double meanS, double meanL,
              double& totalS, double& totalL)
{
    const __m256 vscale = _mm256_set1_ps(scale), vtau = _mm256_set1_ps(tau);
    const __m256d ms = _mm256_set1_pd(meanS), ml = _mm256_set1_pd(meanL);
    __m256d s0 = _mm256_setzero_pd(), s1 = s0, l0 = s0, l1 = s0;
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 x = _mm256_loadu_ps(s + j);
        const __m256 l = _mm256_div_ps(_mm256_mul_ps(x, vscale), vtau);
        s0 = accumulate<squares>(s0, lowHalf(x), ms);
        s1 = accumulate<squares>(s1, highHalf(x), ms);
        l0 = accumulate<squares>(l0, lowHalf(l), ml);
        l1 = accumulate<squares>(l1, highHalf(l), ml);
    }
    totalS = sumOfLanes(_mm256_add_pd(s0, s1));
    totalL = sumOfLanes(_mm256_add_pd(l0, l1));
    return j;
}

// ln x of eight floats > 0: Eigen's plog_float (Cephes) as its AVX code runs it — the
// mantissa m in [√½, √2) and the exponent e, ln m a degree-8 polynomial, plus e·ln 2.
// Values below the smallest normal float are taken as it; 0 and below are the caller's.
__attribute__((target("avx2,fma"))) __m256 logAvx2(__m256 x)
{
    const __m256 one = _mm256_set1_ps(1.0f);
    x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));
    // 1. x = m·2^e with m in [½, 1) (frexp), then m in [√½, √2) and shifted by −1.
    const __m256i bits = _mm256_castps_si256(x);
    __m256 e =
        _mm256_cvtepi32_ps(_mm256_sub_epi32(_mm256_srli_epi32(bits, 23), _mm256_set1_epi32(126)));
    x = _mm256_castsi256_ps(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi32(0x807fffff)),
                                            _mm256_set1_epi32(0x3f000000)));
    const __m256 small = _mm256_cmp_ps(x, _mm256_set1_ps(0.707106781186547524f), _CMP_LT_OQ);
    const __m256 tmp = _mm256_and_ps(x, small);
    x = _mm256_sub_ps(x, one);
    e = _mm256_sub_ps(e, _mm256_and_ps(one, small));
    x = _mm256_add_ps(x, tmp);
    // 2. The polynomial, in Eigen's three parts and order.
    const __m256 x2 = _mm256_mul_ps(x, x);
    const __m256 x3 = _mm256_mul_ps(x2, x);
    __m256 y =
        _mm256_fmadd_ps(_mm256_set1_ps(7.0376836292E-2f), x, _mm256_set1_ps(-1.1514610310E-1f));
    __m256 y1 =
        _mm256_fmadd_ps(_mm256_set1_ps(-1.2420140846E-1f), x, _mm256_set1_ps(1.4249322787E-1f));
    __m256 y2 =
        _mm256_fmadd_ps(_mm256_set1_ps(2.0000714765E-1f), x, _mm256_set1_ps(-2.4999993993E-1f));
    y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.1676998740E-1f));
    y1 = _mm256_fmadd_ps(y1, x, _mm256_set1_ps(-1.6668057665E-1f));
    y2 = _mm256_fmadd_ps(y2, x, _mm256_set1_ps(3.3333331174E-1f));
    y = _mm256_fmadd_ps(y, x3, y1);
    y = _mm256_fmadd_ps(y, x3, y2);
    y = _mm256_mul_ps(y, x3);
    y = _mm256_fmadd_ps(_mm256_set1_ps(-0.5f), x2, y);
    x = _mm256_add_ps(x, y);
    // 3. Plus e·ln 2.
    return _mm256_fmadd_ps(e, _mm256_set1_ps(0.693147180559945309417232121458f), x);
}

// weightRowFigures over the row's whole eights, adding into `f` (its max included);
// returns how many values that was.
__attribute__((target("avx2,fma"))) Eigen::Index weightFiguresAvx2(const float* p,
                                                                   const bool* masked,
                                                                   Eigen::Index n, double* colSums,
                                                                   WeightRowFigures& f)
{
    const __m256 zero = _mm256_setzero_ps();
    __m256d sum0 = _mm256_setzero_pd(), sum1 = sum0, sq0 = sum0, sq1 = sum0, cube0 = sum0,
            cube1 = sum0, plnp0 = sum0, plnp1 = sum0;
    __m256 largest = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
    __m256 unordered = zero;
    __m128i maskedKeys = _mm_setzero_si128();
    Eigen::Index j = 0;
    for (; j + 8 <= n; j += 8) {
        const __m256 x = _mm256_loadu_ps(p + j);
        // x − x is NaN exactly when x is NaN or ±inf.
        const __m256 d = _mm256_sub_ps(x, x);
        unordered = _mm256_or_ps(unordered, _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
        largest = _mm256_max_ps(largest, x);
        const __m256d lo = lowHalf(x), hi = highHalf(x);
        sum0 = _mm256_add_pd(sum0, lo);
        sum1 = _mm256_add_pd(sum1, hi);
        const __m256d lo2 = _mm256_mul_pd(lo, lo), hi2 = _mm256_mul_pd(hi, hi);
        sq0 = _mm256_add_pd(sq0, lo2);
        sq1 = _mm256_add_pd(sq1, hi2);
        cube0 = _mm256_fmadd_pd(lo2, lo, cube0);
        cube1 = _mm256_fmadd_pd(hi2, hi, cube1);
        // p·ln p where p > 0, else 0 (0·log 0 = 0).
        const __m256 product =
            _mm256_and_ps(_mm256_mul_ps(x, logAvx2(x)), _mm256_cmp_ps(x, zero, _CMP_GT_OQ));
        plnp0 = _mm256_add_pd(plnp0, lowHalf(product));
        plnp1 = _mm256_add_pd(plnp1, highHalf(product));
        _mm256_storeu_pd(colSums + j, _mm256_add_pd(_mm256_loadu_pd(colSums + j), lo));
        _mm256_storeu_pd(colSums + j + 4, _mm256_add_pd(_mm256_loadu_pd(colSums + j + 4), hi));
        if (masked) {
            const __m128i eight = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(masked + j));
            maskedKeys = _mm_add_epi64(maskedKeys, _mm_sad_epu8(eight, _mm_setzero_si128()));
        }
    }
    f.sum += sumOfLanes(_mm256_add_pd(sum0, sum1));
    f.sum2 += sumOfLanes(_mm256_add_pd(sq0, sq1));
    f.sum3 += sumOfLanes(_mm256_add_pd(cube0, cube1));
    f.plnp += sumOfLanes(_mm256_add_pd(plnp0, plnp1));
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, largest);
    f.max = std::max(f.max, *std::max_element(lanes, lanes + 8));
    f.masked += static_cast<int>(_mm_cvtsi128_si64(maskedKeys));
    f.finite = f.finite && _mm256_movemask_ps(unordered) == 0;
    return j;
}
#endif

// Σ (s − meanS) and Σ (l − meanL) over the row, l = s·scale/τ in float, or with `squares`
// the sums of their squares: vector eights where AVX2 is, then the rest in blocks of
// doubles that Eigen's vectorised sums take.
template <bool squares>
void scorePass(const float* s, Eigen::Index n, float scale, float tau, double meanS, double meanL,
               double& totalS, double& totalL)
{
    totalS = totalL = 0;
    Eigen::Index done = 0;
#ifdef ATTN_HAVE_AVX2_ROWS
    if (rowPassesUseAvx2())
        done = scorePassAvx2<squares>(s, n, scale, tau, meanS, meanL, totalS, totalL);
#endif
    double valuesS[kBlock], valuesL[kBlock];
    for (Eigen::Index j = done; j < n; j += kBlock) {
        const Eigen::Index count = std::min(kBlock, n - j);
        const ConstRowArray x(s + j, count);
        DoubleRow ds(valuesS, count), dl(valuesL, count);
        ds = x.cast<double>() - meanS;
        dl = ((x * scale) / tau).cast<double>() - meanL;
        totalS += squares ? ds.square().sum() : ds.sum();
        totalL += squares ? dl.square().sum() : dl.sum();
    }
}

} // namespace

ScoreRowMoments scoreRowMoments(const float* s, Eigen::Index n, float scale, float tau)
{
    ScoreRowMoments out;
    out.scores.n = out.logits.n = static_cast<double>(n);
    if (n == 0)
        return out;
    // 1. The means. 2. The squared deviations, the row now in cache.
    double sumS = 0, sumL = 0;
    scorePass<false>(s, n, scale, tau, 0.0, 0.0, sumS, sumL);
    out.scores.mean = sumS / static_cast<double>(n);
    out.logits.mean = sumL / static_cast<double>(n);
    scorePass<true>(s, n, scale, tau, out.scores.mean, out.logits.mean, out.scores.m2,
                    out.logits.m2);
    return out;
}

WeightRowFigures weightRowFigures(const float* p, const bool* masked, Eigen::Index n,
                                  double* colSums)
{
    WeightRowFigures f;
    f.max = -std::numeric_limits<float>::infinity();
    Eigen::Index done = 0;
#ifdef ATTN_HAVE_AVX2_ROWS
    if (rowPassesUseAvx2())
        done = weightFiguresAvx2(p, masked, n, colSums, f);
#endif
    // The rest (a row's last values, or all of it without AVX2), in blocks: their
    // logarithms through Eigen's vectorised log, then the figures value by value (faster
    // here than Eigen's expressions, which cast to double one value at a time).
    float logarithms[kBlock];
    for (Eigen::Index j = done; j < n; j += kBlock) {
        const Eigen::Index count = std::min(kBlock, n - j);
        RowArray(logarithms, count) =
            ConstRowArray(p + j, count).max(std::numeric_limits<float>::min()).log();
        for (Eigen::Index k = 0; k < count; ++k) {
            const float x = p[j + k];
            const double v = static_cast<double>(x);
            f.finite = f.finite && std::isfinite(x);
            f.max = std::max(f.max, x);
            f.sum += v;
            f.sum2 += v * v;
            f.sum3 += v * v * v;
            if (x > 0.0f)
                f.plnp += static_cast<double>(x * logarithms[k]);
            colSums[j + k] += v;
        }
    }
    if (masked && done < n)
        f.masked += countMasked(masked + done, n - done);
    return f;
}

} // namespace attn
