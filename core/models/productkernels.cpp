#include "models/productkernels.h"

#include <array>
#include <cstring>
#include <utility>

namespace attn::productkernels {
namespace {

// 3 outputs × 1 panel of 16 tokens: 12 vectors of 4 floats, the width every x86-64 has (SSE2),
// written with GCC's and Clang's vector extensions, which any target compiles (elsewhere, plain
// loops over arrays). Each product rounded, then each sum (no fused multiply-add on baseline
// x86-64).
#if defined(__GNUC__) || defined(__clang__)
using Vector4 = float __attribute__((vector_size(16)));

Vector4 load4(const float* p)
{
    Vector4 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <int R>
void blockPortable(Index depth, const float* w, Index ldw, const float* xp, float* yt, Index ldt,
                   bool accumulate)
{
    Vector4 acc[R][4];
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < 4; ++j)
            acc[i][j] = accumulate ? load4(yt + i * ldt + 4 * j) : Vector4{};
    for (Index k = 0; k < depth; ++k) {
        const Vector4 x[4] = {load4(xp + 16 * k), load4(xp + 16 * k + 4), load4(xp + 16 * k + 8),
                              load4(xp + 16 * k + 12)};
#pragma GCC unroll 4
        for (int i = 0; i < R; ++i) {
            const float b = w[i * ldw + k];
            const Vector4 bv = {b, b, b, b};
#pragma GCC unroll 4
            for (int j = 0; j < 4; ++j)
                acc[i][j] += bv * x[j];
        }
    }
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < 4; ++j)
            std::memcpy(yt + i * ldt + 4 * j, &acc[i][j], sizeof(Vector4));
}
#else
template <int R>
void blockPortable(Index depth, const float* w, Index ldw, const float* xp, float* yt, Index ldt,
                   bool accumulate)
{
    float acc[R][16];
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < 16; ++j)
            acc[i][j] = accumulate ? yt[i * ldt + j] : 0.0f;
    for (Index k = 0; k < depth; ++k)
        for (int i = 0; i < R; ++i)
            for (int j = 0; j < 16; ++j)
                acc[i][j] += w[i * ldw + k] * xp[16 * k + j];
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < 16; ++j)
            yt[i * ldt + j] = acc[i][j];
}
#endif

// 3 outputs: 12 sums and 4 vectors of x fill SSE2's 16 registers (4 outputs spilled: 11.6
// against 31.7 GFLOP/s on one core).
constexpr int kRows = 3;

void runPortable(int rows, int panels, Index depth, const float* w, Index ldw, const float* xp,
                 Index panelStride, float* yt, Index ldt, bool accumulate)
{
    using Fixed = void (*)(Index, const float*, Index, const float*, float*, Index, bool);
    static constexpr std::array<Fixed, kRows> blocks = {&blockPortable<1>, &blockPortable<2>,
                                                        &blockPortable<3>};
    for (int v = 0; v < panels; ++v)
        blocks[std::size_t(rows - 1)](depth, w, ldw, xp + v * panelStride, yt + 16 * v, ldt,
                                      accumulate);
}

bool noVectorDequantizer(GgmlType, const std::byte*, float*, std::int64_t)
{
    return false;
}

void transposePortable(const float* src, Index lds, float* dst, Index ldd)
{
    for (Index i = 0; i < 16; ++i)
        for (Index j = 0; j < 16; ++j)
            dst[j * ldd + i] = src[i * lds + j];
}

} // namespace

Path portablePath()
{
    return {kRows, 1, &runPortable, &noVectorDequantizer, &transposePortable};
}

} // namespace attn::productkernels
