// The register blocks and vector dequantizers behind linearproduct.h, one set a path:
// productkernels.cpp the portable one, productkernels_x86.cpp AVX2 + FMA and AVX-512 (compiled
// for baseline x86-64, each function with its own target, called only where the CPU has it).
// Internal to core/models; the API is linearproduct.h. No Qt.
#pragma once

#include "io/ggml.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>

namespace attn::productkernels {

using Index = Eigen::Index;

// One register block of a tile: for i < rows, v < panels, j < 16,
//   yt[i·ldt + 16v + j] (= 0 or yt's value, as `accumulate`) + Σ_{k < depth} w[i·ldw + k]·
//   xp[v·panelStride + 16k + j],
// the sum a chain over k in order. rows ≤ the path's R, panels ≤ its V.
using Block = void (*)(int rows, int panels, Index depth, const float* w, Index ldw,
                       const float* xp, Index panelStride, float* yt, Index ldt, bool accumulate);

// A vector dequantizer: n elements of `type` from src into dst, the bits of dequantizeRow; false
// (nothing written) for a type it has no vector form of.
using Dequantize = bool (*)(GgmlType type, const std::byte* src, float* dst, std::int64_t n);

// dst[j·ldd + i] = src[i·lds + j] for i, j < 16: a block of 16 × 16 floats transposed (x's
// rows into panels of tokens; a tile made transposed into y's rows).
using Transpose16 = void (*)(const float* src, Index lds, float* dst, Index ldd);

struct Path {
    int rows;   // R: outputs per register block
    int panels; // V: panels of 16 tokens per register block
    Block block;
    Dequantize dequantize;
    Transpose16 transpose16;
};

// The portable path (plain C++) and, where this build targets x86-64, AVX2 + FMA + F16C and
// AVX-512F; cpuHas… say whether this CPU runs them.
[[nodiscard]] Path portablePath();
[[nodiscard]] bool cpuHasAvx2();
[[nodiscard]] bool cpuHasAvx512();
[[nodiscard]] Path avx2Path();
[[nodiscard]] Path avx512Path();

} // namespace attn::productkernels
