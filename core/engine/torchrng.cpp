// PyTorch 1.13's CPU generator, bit for bit (TORCH_PARITY.md).
//
// Legend: n = number of values drawn; a "block" is 16 floats, transformed as two
// halves of 8 (the AVX2 kernel's two registers): d[i..i+8) are u1, d[i+8..i+16) are u2.
//
// This file is compiled with -ffp-contract=off: the only fused multiply-adds are the
// std::fmaf calls below, which are exactly the ones GCC fuses in torch's build.
#include "engine/torchrng.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <numbers>

namespace attn {
namespace {

constexpr int kStateSize = 624;
constexpr int kShift = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
constexpr std::uint32_t kUpperMask = 0x80000000U;
constexpr std::uint32_t kLowerMask = 0x7fffffffU;

constexpr int kBlock = 16;
constexpr int kHalfBlock = kBlock / 2;

// randn() is standard normal; torch still applies value * std + mean, which turns a
// negative zero into +0, so the transform is kept rather than assumed to be the identity.
constexpr float kMeanF = 0.0f;
constexpr float kStdF = 1.0f;
constexpr double kMean = 0.0;
constexpr double kStd = 1.0;

// The helpers below are inlined into a portable and an FMA build of the loops that use
// them (the same bits: std::fmaf is exact either way; with FMA it is one instruction
// instead of a call).
#define ATTN_RNG_INLINE [[gnu::always_inline]] inline

// Cephes single-precision log (avx_mathfun.h log256_ps) for x in (0, 1], one lane.
// Shape: float -> float.
ATTN_RNG_INLINE float cephesLog(float x)
{
    constexpr float kMinNormPos = 1.17549435e-38f;
    constexpr float kSqrtHalf = 0.707106781186547524f;
    constexpr float kP[] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                            -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                            2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
    constexpr float kQ1 = -2.12194440e-4f;
    constexpr float kQ2 = 0.693359375f;

    // 1. Split x = m · 2^e with m in [0.5, 1); denormals are cut off as the kernel does.
    x = x > kMinNormPos ? x : kMinNormPos; // max_ps: NaN gives the second operand too
    const auto bits = std::bit_cast<std::uint32_t>(x);
    float e = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 0x7f);
    e = e + 1.0f;
    const float m = std::bit_cast<float>((bits & ~0x7f800000U) | 0x3f000000U);

    // 2. Centre the mantissa on 1: below √½ use 2m and one less in the exponent.
    // (Selects rather than a branch, as the kernel's masks: a loop of them vectorises.)
    const bool small = m < kSqrtHalf;
    e = small ? e - 1.0f : e;
    float t = small ? (m - 1.0f) + m : m - 1.0f;

    // 3. log(1 + t) by the degree-9 polynomial; each Horner step is one fused mul-add.
    const float z = t * t;
    float y = kP[0];
#pragma GCC unroll 8
    for (int k = 1; k < 9; ++k)
        y = std::fmaf(y, t, kP[k]);
    y = y * t;
    y = std::fmaf(y, z, e * kQ1);
    y = y - z * 0.5f;

    // 4. Add e·ln 2 in two parts (q1 above, q2 here) to keep the low bits.
    t = t + y;
    return std::fmaf(e, kQ2, t);
}

struct SinCos {
    float sin;
    float cos;
};

// Cephes single-precision sincos (avx_mathfun.h sincos256_ps), one lane.
// Shape: float -> (sin, cos).
ATTN_RNG_INLINE SinCos cephesSinCos(float x)
{
    constexpr float kFourOverPi = 1.27323954473516f;
    constexpr float kDP1 = -0.78515625f;
    constexpr float kDP2 = -2.4187564849853515625e-4f;
    constexpr float kDP3 = -3.77489497744594108e-8f;
    constexpr float kCos[] = {2.443315711809948E-5f, -1.388731625493765E-3f, 4.166664568298827E-2f};
    constexpr float kSin[] = {-1.9515295891E-4f, 8.3321608736E-3f, -1.6666654611E-1f};
    constexpr std::uint32_t kSignBit = 0x80000000U;

    // 1. Work on |x|; the sine takes x's sign back at the end.
    std::uint32_t sinSign = std::bit_cast<std::uint32_t>(x) & kSignBit;
    x = std::fabs(x);

    // 2. Octant j of x, rounded up to even (Cephes), and x reduced by j·π/4 in three
    //    parts (extended-precision modular arithmetic).
    auto j = static_cast<std::int32_t>(x * kFourOverPi); // truncates, as cvttps does
    j = (j + 1) & ~1;
    const auto octant = static_cast<float>(j);
    x = std::fmaf(octant, kDP1, x);
    x = std::fmaf(octant, kDP2, x);
    x = std::fmaf(octant, kDP3, x);

    // 3. Signs: the sine flips in octants 4..7, the cosine in 2..5.
    sinSign ^= (static_cast<std::uint32_t>(j) & 4U) << 29;
    const std::uint32_t cosSign = (~static_cast<std::uint32_t>(j - 2) & 4U) << 29;

    // 4. Both polynomials on [0, π/4].
    const float z = x * x;
    float yc = kCos[0];
    yc = std::fmaf(yc, z, kCos[1]);
    yc = std::fmaf(yc, z, kCos[2]);
    yc = yc * z;
    yc = std::fmaf(yc, z, -(z * 0.5f));
    yc = yc + 1.0f;

    float ys = kSin[0];
    ys = std::fmaf(ys, z, kSin[1]);
    ys = std::fmaf(ys, z, kSin[2]);
    ys = ys * z;
    ys = std::fmaf(ys, x, x);

    // 5. Pick per octant. The kernel selects with masks and adds the other polynomial's
    //    zeroed lane, so "+ 0.0f" reproduces what it does to a negative zero.
    const bool sinIsSinPoly = (j & 2) == 0;
    const float sinValue = (sinIsSinPoly ? ys : yc) + 0.0f;
    const float cosValue = (sinIsSinPoly ? yc : ys) + 0.0f;
    return {std::bit_cast<float>(std::bit_cast<std::uint32_t>(sinValue) ^ sinSign),
            std::bit_cast<float>(std::bit_cast<std::uint32_t>(cosValue) ^ cosSign)};
}

// normal_fill_16_AVX2: Box–Muller in float on one block of uniforms, in place.
// Shape: d (16) uniforms in [0, 1) -> d (16) normals.
ATTN_RNG_INLINE void boxMullerBlock(float* d)
{
    // 2π is rounded to float before the multiply, as the kernel's set1_ps does.
    const auto twoPi = static_cast<float>(2.0 * std::numbers::pi);
    for (int k = 0; k < kHalfBlock; ++k) {
        // 1. u1 = 1 − d keeps the log argument in (0, 1].
        const float u1 = 1.0f - d[k];
        const float u2 = d[k + kHalfBlock];
        // 2. Radius and angle.
        const float radius = std::sqrt(-2.0f * cephesLog(u1));
        const float theta = twoPi * u2;
        const SinCos sc = cephesSinCos(theta);
        // 3. Cosine half first, sine half second; then value · std + mean, fused.
        d[k] = std::fmaf(radius * sc.cos, kStdF, kMeanF);
        d[k + kHalfBlock] = std::fmaf(radius * sc.sin, kStdF, kMeanF);
    }
}

// Every whole block of out[0, n) through Box–Muller.
ATTN_RNG_INLINE void boxMullerBlocksInline(float* out, std::size_t n)
{
    for (std::size_t i = 0; i + kBlock <= n; i += kBlock)
        boxMullerBlock(out + i);
}

// MT19937's tempering of one state word into an output.
ATTN_RNG_INLINE std::uint32_t temper(std::uint32_t y)
{
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

// An output as a float in [0, 1): its low 24 bits times 2⁻²⁴ (exact).
ATTN_RNG_INLINE float unitFloat(std::uint32_t word)
{
    return static_cast<float>(word & 0xFFFFFFU) * 0x1.0p-24f;
}

// The state words w[0, n) tempered into uniforms, as uniformFloat() makes them, or
// with · range + lo in one fused multiply-add, as uniform_ does.
template <bool scaled>
ATTN_RNG_INLINE void uniformsInline(const std::uint32_t* w, std::size_t n, float range, float lo,
                                    float* out)
{
    for (std::size_t i = 0; i < n; ++i) {
        const float u = unitFloat(temper(w[i]));
        out[i] = scaled ? std::fmaf(u, range, lo) : u;
    }
}

void boxMullerBlocksPortable(float* out, std::size_t n)
{
    boxMullerBlocksInline(out, n);
}

template <bool scaled>
void uniformsPortable(const std::uint32_t* w, std::size_t n, float range, float lo, float* out)
{
    uniformsInline<scaled>(w, n, range, lo, out);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ATTN_RNG_FMA 1
__attribute__((target("avx2,fma"))) void boxMullerBlocksFma(float* out, std::size_t n)
{
    boxMullerBlocksInline(out, n);
}

template <bool scaled>
__attribute__((target("avx2,fma"))) void uniformsFma(const std::uint32_t* w, std::size_t n,
                                                     float range, float lo, float* out)
{
    uniformsInline<scaled>(w, n, range, lo, out);
}

bool hasFma()
{
    // ATTN_NO_AVX2=1 takes the portable path, as for the softmax's row passes.
    static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                            std::getenv("ATTN_NO_AVX2") == nullptr;
    return has;
}
#endif

void boxMullerBlocks(float* out, std::size_t n)
{
#ifdef ATTN_RNG_FMA
    if (hasFma())
        return boxMullerBlocksFma(out, n);
#endif
    boxMullerBlocksPortable(out, n);
}

template <bool scaled>
void uniforms(const std::uint32_t* w, std::size_t n, float range, float lo, float* out)
{
#ifdef ATTN_RNG_FMA
    if (hasFma())
        return uniformsFma<scaled>(w, n, range, lo, out);
#endif
    uniformsPortable<scaled>(w, n, range, lo, out);
}

} // namespace

void TorchGenerator::manualSeed(std::uint64_t seed)
{
    // Shape: seed -> state_ (624).
    // 1. Knuth's initialisation from the low 32 bits (torch truncates the 64-bit seed).
    state_[0] = static_cast<std::uint32_t>(seed & 0xffffffffU);
    for (int j = 1; j < kStateSize; ++j) {
        const std::uint32_t prev = state_[j - 1];
        state_[j] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<std::uint32_t>(j);
    }
    // 2. left = 1 makes the first draw regenerate the whole state.
    left_ = 1;
    next_ = 0;
    cachedNormal_.reset();
}

void TorchGenerator::twist()
{
    // Shape: state_ (624) -> state_ (624), the standard MT19937 recurrence.
    const auto mix = [](std::uint32_t upper, std::uint32_t lower) {
        const std::uint32_t y = (upper & kUpperMask) | (lower & kLowerMask);
        return (y >> 1) ^ ((lower & 1U) ? kMatrixA : 0U);
    };
    // In three runs, so that no index wraps: k + 397 is in the state's old half first,
    // then k − 227 in the part already renewed; the last word pairs with the new first.
    int k = 0;
    for (; k < kStateSize - kShift; ++k)
        state_[k] = state_[k + kShift] ^ mix(state_[k], state_[k + 1]);
    for (; k < kStateSize - 1; ++k)
        state_[k] = state_[k + kShift - kStateSize] ^ mix(state_[k], state_[k + 1]);
    state_[k] = state_[kShift - 1] ^ mix(state_[k], state_[0]);
    left_ = kStateSize;
    next_ = 0;
}

std::uint32_t TorchGenerator::random()
{
    // 1. Refill when the current state is used up (at once after seeding).
    if (--left_ <= 0)
        twist();
    // 2. Temper one state word.
    return temper(state_[next_++]);
}

template <bool scaled>
void TorchGenerator::fillUniforms(float* out, std::size_t n, float range, float lo)
{
    // What n calls of random() would draw, a run of state words at a time: a call takes
    // one (left_ counts down to the twist), the call that twists takes the new first.
    std::size_t i = 0;
    while (i < n) {
        if (left_ <= 1) {
            twist();
            left_ = kStateSize + 1; // the twisting call's own decrement
        }
        const std::size_t run = std::min(n - i, static_cast<std::size_t>(left_ - 1));
        uniforms<scaled>(state_.data() + next_, run, range, lo, out + i);
        next_ += static_cast<int>(run);
        left_ -= static_cast<int>(run);
        i += run;
    }
}

std::uint64_t TorchGenerator::random64()
{
    const std::uint64_t first = random();
    const std::uint64_t second = random();
    return (first << 32) | second;
}

float TorchGenerator::uniformFloat()
{
    // 24 bits fill a float mantissa exactly, so the product is exact.
    return unitFloat(random());
}

double TorchGenerator::uniformDouble()
{
    return static_cast<double>(random64() & ((std::uint64_t{1} << 53) - 1)) * 0x1.0p-53;
}

void TorchGenerator::randn(float* out, std::size_t n)
{
    // Shape: out (n), standard normal float32.
    if (n < kBlock) {
        // 1. Short tensors: double Box–Muller, one value at a time, with torch's cached
        //    second sample (it outlives this call; the block path never touches it).
        for (std::size_t i = 0; i < n; ++i) {
            if (cachedNormal_) {
                out[i] = static_cast<float>(*cachedNormal_ * kStd + kMean);
                cachedNormal_.reset();
                continue;
            }
            const double u1 = uniformDouble();
            const double u2 = uniformDouble();
            const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
            const double theta = 2.0 * std::numbers::pi * u1;
            cachedNormal_ = r * std::sin(theta);
            out[i] = static_cast<float>(r * std::cos(theta) * kStd + kMean);
        }
        return;
    }

    // 2. Sixteen or more: all n uniforms first, then every full block in place.
    fillUniforms<false>(out, n, 1.0f, 0.0f);
    boxMullerBlocks(out, n);

    // 3. A ragged tail: torch redraws the last 16 values from fresh uniforms (overwriting
    //    normals already made) and transforms them as one block, so n + 16 draws are used.
    if (n % kBlock != 0) {
        float* tail = out + (n - kBlock);
        fillUniforms<false>(tail, kBlock, 1.0f, 0.0f);
        boxMullerBlocks(tail, kBlock);
    }
}

void TorchGenerator::uniform(float* out, std::size_t n, double from, double to)
{
    // Shape: out (n) in [from, to), float32.
    // 1. Bounds and range in float, as uniform_ on a float tensor computes them.
    const auto lo = static_cast<float>(from);
    const auto hi = static_cast<float>(to);
    const float range = hi - lo;
    // 2. One fused multiply-add per value: a separate multiply and add differ by an ulp.
    fillUniforms<true>(out, n, range, lo);
}

Linear TorchGenerator::linear(int in, int out)
{
    // Shape: weight (out, in) row-major, bias (out).
    assert(in >= 0 && out >= 0);
    Linear layer;
    layer.weight.resize(out, in);
    layer.bias.resize(out);
    const double fanIn = in;

    // 1. Weight: kaiming_uniform_(a = √5), in torch's double arithmetic and order
    //    (std = gain / √fan_in first, then bound = √3 · std). An empty weight draws nothing.
    if (layer.weight.size() > 0) {
        const double a = std::sqrt(5.0);
        const double gain = std::sqrt(2.0 / (1.0 + a * a));
        const double weightBound = std::sqrt(3.0) * (gain / std::sqrt(fanIn));
        uniform(layer.weight.data(), static_cast<std::size_t>(layer.weight.size()), -weightBound,
                weightBound);
    }

    // 2. Bias: uniform(−1/√fan_in, 1/√fan_in), or (−0, 0) when fan_in is zero.
    const double biasBound = in > 0 ? 1.0 / std::sqrt(fanIn) : 0.0;
    uniform(layer.bias.data(), static_cast<std::size_t>(layer.bias.size()), -biasBound, biasBound);
    return layer;
}

} // namespace attn
