#include "io/ggml.h"

#include "io/ggmlblocks.h"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace attn {
namespace {

struct TypeRow {
    GgmlType type;
    GgmlTypeInfo info;
};

// ggml.c's type_traits (blck_size, sizeof the block) in ggml.h's order; gguf-py's
// GGML_QUANT_SIZES agrees but for Q8_1, where it says 40 bytes and ggml's block_q8_1 has 36.
constexpr TypeRow kTypes[] = {
    {GgmlType::F32, {"F32", 1, 4, true}},
    {GgmlType::F16, {"F16", 1, 2, true}},
    {GgmlType::Q4_0, {"Q4_0", 32, 18, true}},
    {GgmlType::Q4_1, {"Q4_1", 32, 20, true}},
    {GgmlType::Q5_0, {"Q5_0", 32, 22, true}},
    {GgmlType::Q5_1, {"Q5_1", 32, 24, true}},
    {GgmlType::Q8_0, {"Q8_0", 32, 34, true}},
    {GgmlType::Q8_1, {"Q8_1", 32, 36, false}},
    {GgmlType::Q2_K, {"Q2_K", 256, 84, true}},
    {GgmlType::Q3_K, {"Q3_K", 256, 110, true}},
    {GgmlType::Q4_K, {"Q4_K", 256, 144, true}},
    {GgmlType::Q5_K, {"Q5_K", 256, 176, true}},
    {GgmlType::Q6_K, {"Q6_K", 256, 210, true}},
    {GgmlType::Q8_K, {"Q8_K", 256, 292, false}},
    {GgmlType::IQ2_XXS, {"IQ2_XXS", 256, 66, false}},
    {GgmlType::IQ2_XS, {"IQ2_XS", 256, 74, false}},
    {GgmlType::IQ3_XXS, {"IQ3_XXS", 256, 98, false}},
    {GgmlType::IQ1_S, {"IQ1_S", 256, 50, false}},
    {GgmlType::IQ4_NL, {"IQ4_NL", 32, 18, true}},
    {GgmlType::IQ3_S, {"IQ3_S", 256, 110, false}},
    {GgmlType::IQ2_S, {"IQ2_S", 256, 82, false}},
    {GgmlType::IQ4_XS, {"IQ4_XS", 256, 136, true}},
    {GgmlType::I8, {"I8", 1, 1, false}},
    {GgmlType::I16, {"I16", 1, 2, false}},
    {GgmlType::I32, {"I32", 1, 4, false}},
    {GgmlType::I64, {"I64", 1, 8, false}},
    {GgmlType::F64, {"F64", 1, 8, false}},
    {GgmlType::IQ1_M, {"IQ1_M", 256, 56, false}},
    {GgmlType::BF16, {"BF16", 1, 2, true}},
    {GgmlType::TQ1_0, {"TQ1_0", 256, 54, false}},
    {GgmlType::TQ2_0, {"TQ2_0", 256, 66, false}},
    {GgmlType::MXFP4, {"MXFP4", 32, 17, false}},
    {GgmlType::NVFP4, {"NVFP4", 64, 36, false}},
    {GgmlType::Q1_0, {"Q1_0", 128, 18, false}},
    {GgmlType::Q2_0, {"Q2_0", 64, 18, false}},
};

// llama.h's enum llama_ftype, named as llama-quantize's table names them (its 0, ALL_F32, is
// "F32"). The values llama.cpp removed (4 to 6, 33 to 35) are unknown.
constexpr std::pair<std::uint32_t, std::string_view> kFileTypes[] = {
    {0, "F32"},      {1, "F16"},      {2, "Q4_0"},       {3, "Q4_1"},    {7, "Q8_0"},
    {8, "Q5_0"},     {9, "Q5_1"},     {10, "Q2_K"},      {11, "Q3_K_S"}, {12, "Q3_K_M"},
    {13, "Q3_K_L"},  {14, "Q4_K_S"},  {15, "Q4_K_M"},    {16, "Q5_K_S"}, {17, "Q5_K_M"},
    {18, "Q6_K"},    {19, "IQ2_XXS"}, {20, "IQ2_XS"},    {21, "Q2_K_S"}, {22, "IQ3_XS"},
    {23, "IQ3_XXS"}, {24, "IQ1_S"},   {25, "IQ4_NL"},    {26, "IQ3_S"},  {27, "IQ3_M"},
    {28, "IQ2_S"},   {29, "IQ2_M"},   {30, "IQ4_XS"},    {31, "IQ1_M"},  {32, "BF16"},
    {36, "TQ1_0"},   {37, "TQ2_0"},   {38, "MXFP4_MOE"}, {39, "NVFP4"},  {40, "Q1_0"},
    {41, "Q2_0"},
};

float floatOfBits(std::uint32_t bits)
{
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
}

// The 32-element blocks, one function a type: `blocks` blocks from src into y. Each element is
// computed as ggml-quants.c writes it (an int times the float scale, then plus the min), so
// that nothing but the same roundings happens (and without contraction into fused
// multiply-adds: core/CMakeLists.txt).

// Q4_0 (18 bytes): half d, 16 bytes of nibbles; x = (q - 8)·d. Low nibbles are elements 0–15.
void dequantizeQ4_0(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 18, y += 32) {
        const auto b = ggmlblocks::load<18>(src);
        const float d = ggmlblocks::halfAt(b, 0);
        for (int j = 0; j < 16; ++j) {
            y[j] = float((b[2 + j] & 0x0F) - 8) * d;
            y[j + 16] = float((b[2 + j] >> 4) - 8) * d;
        }
    }
}

// Q4_1 (20 bytes): half d, half m, 16 bytes of nibbles; x = q·d + m.
void dequantizeQ4_1(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 20, y += 32) {
        const auto b = ggmlblocks::load<20>(src);
        const float d = ggmlblocks::halfAt(b, 0);
        const float m = ggmlblocks::halfAt(b, 2);
        for (int j = 0; j < 16; ++j) {
            y[j] = float(b[4 + j] & 0x0F) * d + m;
            y[j + 16] = float(b[4 + j] >> 4) * d + m;
        }
    }
}

// The fifth bits of Q5_0 and Q5_1: bit e of the little-endian word qh is element e's.
std::uint32_t fifthBits(const std::uint8_t* qh)
{
    return std::uint32_t(qh[0]) | std::uint32_t(qh[1]) << 8 | std::uint32_t(qh[2]) << 16 |
           std::uint32_t(qh[3]) << 24;
}

// Q5_0 (22 bytes): half d, 4 bytes of fifth bits, 16 bytes of nibbles; x = (q - 16)·d.
void dequantizeQ5_0(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 22, y += 32) {
        const auto b = ggmlblocks::load<22>(src);
        const float d = ggmlblocks::halfAt(b, 0);
        const std::uint32_t qh = fifthBits(&b[2]);
        for (int j = 0; j < 16; ++j) {
            const int high0 = int((qh >> j) & 1) << 4;
            const int high1 = int((qh >> (j + 16)) & 1) << 4;
            y[j] = float(((b[6 + j] & 0x0F) | high0) - 16) * d;
            y[j + 16] = float(((b[6 + j] >> 4) | high1) - 16) * d;
        }
    }
}

// Q5_1 (24 bytes): half d, half m, 4 bytes of fifth bits, 16 bytes of nibbles; x = q·d + m.
void dequantizeQ5_1(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 24, y += 32) {
        const auto b = ggmlblocks::load<24>(src);
        const float d = ggmlblocks::halfAt(b, 0);
        const float m = ggmlblocks::halfAt(b, 2);
        const std::uint32_t qh = fifthBits(&b[4]);
        for (int j = 0; j < 16; ++j) {
            const int high0 = int((qh >> j) & 1) << 4;
            const int high1 = int((qh >> (j + 16)) & 1) << 4;
            y[j] = float((b[8 + j] & 0x0F) | high0) * d + m;
            y[j + 16] = float((b[8 + j] >> 4) | high1) * d + m;
        }
    }
}

// Q8_0 (34 bytes): half d, 32 signed bytes; x = q·d.
void dequantizeQ8_0(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 34, y += 32) {
        const auto b = ggmlblocks::load<34>(src);
        const float d = ggmlblocks::halfAt(b, 0);
        for (int j = 0; j < 32; ++j)
            y[j] = float(std::int8_t(b[2 + j])) * d;
    }
}

// IQ4_NL (18 bytes): half d, 16 bytes of nibbles indexing the 16 non-linear levels; x = d·level.
void dequantizeIq4Nl(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 18, y += 32) {
        const auto b = ggmlblocks::load<18>(src);
        const float d = ggmlblocks::halfAt(b, 0);
        for (int j = 0; j < 16; ++j) {
            y[j] = d * float(ggmlblocks::kIq4nlValues[b[2 + j] & 0x0F]);
            y[j + 16] = d * float(ggmlblocks::kIq4nlValues[b[2 + j] >> 4]);
        }
    }
}

void convertF32(const std::byte* src, float* y, std::int64_t n)
{
    if (n > 0) // an empty row may come with null pointers, which memcpy must not be given
        std::memcpy(y, src, std::size_t(n) * 4);
}

void convertF16(const std::byte* src, float* y, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i, src += 2) {
        std::uint16_t half;
        std::memcpy(&half, src, 2);
        y[i] = ggmlblocks::halfToFloat(half);
    }
}

// bf16 is a float's upper half: its bits shifted up are the float (NaNs keep their payload).
void convertBf16(const std::byte* src, float* y, std::int64_t n)
{
    for (std::int64_t i = 0; i < n; ++i, src += 2) {
        std::uint16_t bf16;
        std::memcpy(&bf16, src, 2);
        y[i] = floatOfBits(std::uint32_t(bf16) << 16);
    }
}

} // namespace

float ggmlblocks::halfToFloat(std::uint16_t half)
{
    // 1. Split the half: sign, 5 bits of exponent (bias 15), 10 of mantissa.
    const std::uint32_t sign = std::uint32_t(half & 0x8000) << 16;
    const std::uint32_t exponent = (half >> 10) & 0x1F;
    const std::uint32_t mantissa = half & 0x03FF;
    // 2. Infinities and NaNs: the float's all-ones exponent, the mantissa's bits on top, and a
    // NaN's quiet bit set, as the float multiply in ggml's portable conversion sets it.
    if (exponent == 0x1F)
        return floatOfBits(sign | 0x7F800000 | mantissa << 13 | (mantissa ? 0x00400000 : 0));
    // 3. Zeros and subnormals: mantissa · 2^-24, exact in float (ten bits, and 2^-24 normal).
    if (exponent == 0) {
        std::uint32_t magnitude;
        const float value = float(mantissa) * 0x1p-24f;
        std::memcpy(&magnitude, &value, 4);
        return floatOfBits(sign | magnitude);
    }
    // 4. Normal numbers: rebias the exponent (127 - 15 = 112), widen the mantissa.
    return floatOfBits(sign | (exponent + 112) << 23 | mantissa << 13);
}

std::optional<GgmlTypeInfo> ggmlTypeInfo(std::uint32_t id)
{
    for (const auto& row : kTypes)
        if (std::uint32_t(row.type) == id)
            return row.info;
    return std::nullopt;
}

std::optional<std::uint64_t> ggmlRowBytes(GgmlType type, std::int64_t n)
{
    const auto info = ggmlTypeInfo(std::uint32_t(type));
    if (!info || n < 0 || n % info->blockElements != 0)
        return std::nullopt;
    const auto blocks = std::uint64_t(n / info->blockElements);
    const auto blockBytes = std::uint64_t(info->blockBytes);
    if (blocks > std::numeric_limits<std::uint64_t>::max() / blockBytes)
        return std::nullopt;
    return blocks * blockBytes;
}

void dequantizeRow(GgmlType type, const std::byte* src, float* dst, std::int64_t n)
{
    // 1. The contract: a type read here, whole blocks.
    const auto info = ggmlTypeInfo(std::uint32_t(type));
    if (!info || !info->dequantizable)
        throw std::invalid_argument("dequantizeRow: ggml type " +
                                    std::to_string(std::uint32_t(type)) + " is not read");
    if (n < 0 || n % info->blockElements != 0)
        throw std::invalid_argument("dequantizeRow: " + std::to_string(n) + " elements of " +
                                    std::string(info->name) + " are not whole blocks");
    // 2. One loop over the row's blocks, in the type's own function.
    const std::int64_t blocks = n / info->blockElements;
    switch (type) {
    case GgmlType::F32:
        convertF32(src, dst, n);
        break;
    case GgmlType::F16:
        convertF16(src, dst, n);
        break;
    case GgmlType::BF16:
        convertBf16(src, dst, n);
        break;
    case GgmlType::Q4_0:
        dequantizeQ4_0(src, dst, blocks);
        break;
    case GgmlType::Q4_1:
        dequantizeQ4_1(src, dst, blocks);
        break;
    case GgmlType::Q5_0:
        dequantizeQ5_0(src, dst, blocks);
        break;
    case GgmlType::Q5_1:
        dequantizeQ5_1(src, dst, blocks);
        break;
    case GgmlType::Q8_0:
        dequantizeQ8_0(src, dst, blocks);
        break;
    case GgmlType::IQ4_NL:
        dequantizeIq4Nl(src, dst, blocks);
        break;
    case GgmlType::Q2_K:
        ggmlblocks::dequantizeQ2K(src, dst, blocks);
        break;
    case GgmlType::Q3_K:
        ggmlblocks::dequantizeQ3K(src, dst, blocks);
        break;
    case GgmlType::Q4_K:
        ggmlblocks::dequantizeQ4K(src, dst, blocks);
        break;
    case GgmlType::Q5_K:
        ggmlblocks::dequantizeQ5K(src, dst, blocks);
        break;
    case GgmlType::Q6_K:
        ggmlblocks::dequantizeQ6K(src, dst, blocks);
        break;
    case GgmlType::IQ4_XS:
        ggmlblocks::dequantizeIq4Xs(src, dst, blocks);
        break;
    default:
        break; // not dequantizable: refused above
    }
}

std::string_view ggmlFileTypeName(std::uint32_t fileType)
{
    for (const auto& [value, name] : kFileTypes)
        if (value == fileType)
            return name;
    return {};
}

} // namespace attn
