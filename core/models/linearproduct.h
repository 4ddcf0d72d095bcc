// AttnScope's one product kernel for the layers of every family: y = x·Wᵀ, W as nn.Linear
// stores it (outputs × inputs), in float32, whether W is floats (in place, or GPT-2's Conv1D
// packed once at load) or a GGUF file's ggml blocks (F16, BF16, Q4_0 … Q6_K, Q8_0, IQ4),
// dequantized inside the kernel a few rows and 256 inputs at a time, so that the weights stay
// as small in memory as in the file and are read once for every token of a tile.
//
// x is packed in panels of 16 tokens (each input's 16 values side by side); a register block
// holds R outputs × 16·V tokens, each weight broadcast to the tokens' lanes. Three paths,
// chosen at run time for the CPU: AVX-512 (R = 8, V = 3: 24 of 32 zmm registers), AVX2 + FMA
// (R = 6, V = 1: 12 of 16 ymm) and a portable one (R = 3, V = 1, in vectors of 4 floats: SSE2
// on every x86-64). Each y[t, n] is one chain of fused multiply-adds over k in order on
// AVX2 and AVX-512 (the same bits on both); the portable path rounds each product then each sum.
// No Qt.
#pragma once

#include "io/ggml.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace attn {

enum class ProductPath { Portable, Avx2, Avx512 };

// "portable", "AVX2+FMA", "AVX-512".
[[nodiscard]] std::string_view productPathName(ProductPath path);

// Whether this CPU (and this build) can run `path`: Portable always; Avx2 with AVX2, FMA and
// F16C; Avx512 with AVX-512F and the AVX2 path's features.
[[nodiscard]] bool productPathSupported(ProductPath path);

// The path the products run on: the widest this CPU has, or the one ATTN_PRODUCT names
// (portable, avx2, avx512) where the CPU has it; portable where ATTN_NO_AVX2 is set (as the
// row passes of the softmax).
[[nodiscard]] ProductPath productPath();

// Makes every thread's products run on `path` (which must be supported): the tests run every
// path on one machine. Returns the path in use before.
ProductPath setProductPath(ProductPath path);

// The tokens of a product's x (T × K) in panels of 16: panel p holds tokens 16p … 16p + 15,
// input k's 16 values at data[(p·K + k)·16 …], the last panel's missing tokens zero.
struct PackedTokens {
    std::vector<float> data;
    Eigen::Index tokens = 0;
    Eigen::Index depth = 0;

    [[nodiscard]] Eigen::Index panels() const { return (tokens + 15) / 16; }
    [[nodiscard]] const float* panel(Eigen::Index p) const { return data.data() + p * depth * 16; }
};
inline constexpr Eigen::Index kTokenPanel = 16;

// Packs x (T × K, row r at x + r·ldx) as above, in bands of panels on every core.
void packTokens(const float* x, Eigen::Index ldx, Eigen::Index tokens, Eigen::Index depth,
                PackedTokens& out);

// dst[j·ldd + i] = src[i·lds + j] for i, j < 16, on the current path's vectors (packTokens'
// blocks; a tile made transposed written into y).
void transposeBlock16(const float* src, Eigen::Index lds, float* dst, Eigen::Index ldd);

// W as the kernel reads it: row n (output n) over the inputs k, either floats, W[n, k] at
// floats[n·rowStride + k·depthStride] (nn.Linear in place: (K, 1); a Conv1D's [in, out] in
// place: (1, N)), or ggml blocks: row n's at blocks + order(n)·rowBytes.
struct ProductWeight {
    Eigen::Index outputs = 0;
    Eigen::Index depth = 0;
    const float* floats = nullptr;
    Eigen::Index rowStride = 0;
    Eigen::Index depthStride = 1;
    const std::byte* blocks = nullptr;
    GgmlType type = GgmlType::F32;
    std::size_t rowBytes = 0;
    const std::int32_t* rowOrder = nullptr; // stored row of row n (null: n)
};

// yt[n·ldt + 16i + j] = Σₖ x[16(firstPanel + i) + j, k]·W[firstOutput + n, k] for n < outputs,
// i < panels, j < 16 (the product transposed: a tile of outputs × tokens), on this thread.
// The sum over k runs in chunks of 256 inputs; W's rows for a chunk are read (or dequantized)
// once and used for every token of the tile.
void productTile(const PackedTokens& x, Eigen::Index firstPanel, Eigen::Index panels,
                 const ProductWeight& w, Eigen::Index firstOutput, Eigen::Index outputs, float* yt,
                 Eigen::Index ldt);

// Dequantizes W's row n, inputs [first, first + count) (first and count multiples of the type's
// block; count may end at the row's end), into out: as dequantizeRow, the same bits, on the
// current path's vector instructions where it has them for the type.
void productWeightRow(const ProductWeight& w, Eigen::Index n, Eigen::Index first,
                      Eigen::Index count, float* out);

} // namespace attn
