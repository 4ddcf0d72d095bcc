// What ggml.cpp (the type table, fp16, bf16 and the 32-element blocks) and ggmlkquants.cpp (the
// 256-element K-quant and IQ4_XS super-blocks) share: reading a block's bytes, ggml's half to
// float, and the super-blocks' dequantizers. Internal to io/; the API is ggml.h. No Qt.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attn::ggmlblocks {

// A block's bytes, copied out of the row: GGUF aligns a tensor, not the rows and blocks inside
// it, so no field is read through a pointer cast.
template <std::size_t N> std::array<std::uint8_t, N> load(const std::byte* src)
{
    std::array<std::uint8_t, N> bytes;
    std::memcpy(bytes.data(), src, N);
    return bytes;
}

// The little-endian 16-bit field at bytes[at].
template <std::size_t N>
std::uint16_t u16At(const std::array<std::uint8_t, N>& bytes, std::size_t at)
{
    return std::uint16_t(bytes[at] | (bytes[at + 1] << 8));
}

// An IEEE half's exact value as a float, as ggml's GGML_FP16_TO_FP32 gives it (every half is a
// float: subnormals, infinities and NaNs included; a signalling NaN comes out quiet, as from
// ggml's portable conversion and from F16C's).
float halfToFloat(std::uint16_t half);

template <std::size_t N> float halfAt(const std::array<std::uint8_t, N>& bytes, std::size_t at)
{
    return halfToFloat(u16At(bytes, at));
}

// IQ4_NL's and IQ4_XS's 16 levels (ggml-common.h's kvalues_iq4nl).
inline constexpr std::array<std::int8_t, 16> kIq4nlValues = {
    -127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

// The super-block dequantizers: `blocks` blocks of 256 elements from src into y.
void dequantizeQ2K(const std::byte* src, float* y, std::int64_t blocks);
void dequantizeQ3K(const std::byte* src, float* y, std::int64_t blocks);
void dequantizeQ4K(const std::byte* src, float* y, std::int64_t blocks);
void dequantizeQ5K(const std::byte* src, float* y, std::int64_t blocks);
void dequantizeQ6K(const std::byte* src, float* y, std::int64_t blocks);
void dequantizeIq4Xs(const std::byte* src, float* y, std::int64_t blocks);

} // namespace attn::ggmlblocks
