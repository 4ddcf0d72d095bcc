#include "models/productkernels.h"

#include <array>
#include <utility>

namespace attn::productkernels {
namespace {

// 4 outputs × 1 panel of 16 tokens in plain C++: 64 sums the compiler keeps in 16 SSE2
// registers. Each product rounded, then each sum (no fused multiply-add on baseline x86-64).
template <int R>
void blockPortable(Index depth, const float* w, Index ldw, const float* xp, float* yt, Index ldt,
                   bool accumulate)
{
    float acc[R][16];
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < 16; ++j)
            acc[i][j] = accumulate ? yt[i * ldt + j] : 0.0f;
    for (Index k = 0; k < depth; ++k) {
        const float* x = xp + 16 * k;
        for (int i = 0; i < R; ++i) {
            const float b = w[i * ldw + k];
            for (int j = 0; j < 16; ++j)
                acc[i][j] += b * x[j];
        }
    }
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < 16; ++j)
            yt[i * ldt + j] = acc[i][j];
}

constexpr int kRows = 4;

void runPortable(int rows, int panels, Index depth, const float* w, Index ldw, const float* xp,
                 Index panelStride, float* yt, Index ldt, bool accumulate)
{
    using Fixed = void (*)(Index, const float*, Index, const float*, float*, Index, bool);
    static constexpr std::array<Fixed, kRows> blocks = {&blockPortable<1>, &blockPortable<2>,
                                                        &blockPortable<3>, &blockPortable<4>};
    for (int v = 0; v < panels; ++v)
        blocks[std::size_t(rows - 1)](depth, w, ldw, xp + v * panelStride, yt + 16 * v, ldt,
                                      accumulate);
}

bool noVectorDequantizer(GgmlType, const std::byte*, float*, std::int64_t)
{
    return false;
}

} // namespace

Path portablePath()
{
    return {kRows, 1, &runPortable, &noVectorDequantizer};
}

} // namespace attn::productkernels
