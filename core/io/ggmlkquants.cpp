// The 256-element super-blocks: the K-quants (Q2_K … Q6_K) and IQ4_XS, each as ggml-quants.c's
// dequantize_row_* computes it, element for element and rounding for rounding (an int times a
// float scale, times or minus the next, in its order; no fused multiply-add: core/CMakeLists.txt
// compiles this file without contraction). The element order inside a super-block is ggml's:
// the comments say which byte and bit each element's quant comes from.
#include "io/ggmlblocks.h"

namespace attn::ggmlblocks {
namespace {

// Q4_K's and Q5_K's eight 6-bit scales and mins, packed in 12 bytes (get_scale_min_k4): the
// first four in the low 6 bits of bytes 0–3 (scales) and 4–7 (mins), the last four split
// between the nibbles of bytes 8–11 and the top 2 bits of bytes 0–7.
struct ScaleMin {
    int scale;
    int min;
};

ScaleMin scaleMinK4(int j, const std::uint8_t* q)
{
    if (j < 4)
        return {q[j] & 63, q[j + 4] & 63};
    return {(q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4), (q[j + 4] >> 4) | ((q[j] >> 6) << 4)};
}

// Q3_K's sixteen 6-bit scales in 12 bytes: the low nibbles of bytes 0–7 are scales 0–7, their
// high nibbles 8–15, and bytes 8–11 give each its top 2 bits (ggml's kmask1/kmask2 shuffle of
// three little-endian words, written byte by byte).
std::array<int, 16> scalesQ3K(const std::uint8_t* s)
{
    std::array<int, 16> scales{};
    for (int k = 0; k < 4; ++k) {
        scales[k] = (s[k] & 0xF) | ((s[8 + k] >> 0) & 3) << 4;
        scales[4 + k] = (s[4 + k] & 0xF) | ((s[8 + k] >> 2) & 3) << 4;
        scales[8 + k] = (s[k] >> 4) | ((s[8 + k] >> 4) & 3) << 4;
        scales[12 + k] = (s[4 + k] >> 4) | ((s[8 + k] >> 6) & 3) << 4;
    }
    return scales;
}

} // namespace

// Q2_K (84 bytes): scales[16] (low nibble scale, high nibble min) at 0, qs[64] at 16, half d at
// 80, half dmin at 82. Element 128h + 32j + 16k + l has the 2 bits at 2j of qs[32h + 16k + l]
// and scale byte 8h + 2j + k; x = (d·scale)·q - dmin·min.
void dequantizeQ2K(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 84) {
        const auto b = load<84>(src);
        const float d = halfAt(b, 80);
        const float dmin = halfAt(b, 82);
        for (int h = 0; h < 2; ++h) {
            const std::uint8_t* q = &b[16 + 32 * h];
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 2; ++k) {
                    const std::uint8_t sc = b[8 * h + 2 * j + k];
                    const float dl = d * float(sc & 0xF);
                    const float ml = dmin * float(sc >> 4);
                    for (int l = 0; l < 16; ++l)
                        *y++ = dl * float((q[16 * k + l] >> (2 * j)) & 3) - ml;
                }
        }
    }
}

// Q3_K (110 bytes): hmask[32] at 0, qs[64] at 32, scales[12] at 96, half d at 108. Element
// 128h + 32j + 16k + l has the 2 bits at 2j of qs[32h + 16k + l], less 4 where bit 4h + j of
// hmask[16k + l] is clear, and scale 8h + 2j + k; x = (d·(scale - 32))·q.
void dequantizeQ3K(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 110) {
        const auto b = load<110>(src);
        const float d = halfAt(b, 108);
        const auto scales = scalesQ3K(&b[96]);
        for (int h = 0; h < 2; ++h) {
            const std::uint8_t* q = &b[32 + 32 * h];
            for (int j = 0; j < 4; ++j) {
                const int highBit = 1 << (4 * h + j);
                for (int k = 0; k < 2; ++k) {
                    const float dl = d * float(scales[std::size_t(8 * h + 2 * j + k)] - 32);
                    for (int l = 0; l < 16; ++l) {
                        const int low = (q[16 * k + l] >> (2 * j)) & 3;
                        *y++ = dl * float(low - ((b[16 * k + l] & highBit) ? 0 : 4));
                    }
                }
            }
        }
    }
}

// Q4_K (144 bytes): half d at 0, half dmin at 2, scales[12] at 4, qs[128] at 16. Elements
// 64c + l and 64c + 32 + l are the low and high nibble of qs[32c + l], with scales and mins
// 2c and 2c + 1; x = (d·scale)·q - dmin·min.
void dequantizeQ4K(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 144) {
        const auto b = load<144>(src);
        const float d = halfAt(b, 0);
        const float dmin = halfAt(b, 2);
        for (int c = 0; c < 4; ++c, y += 64) {
            const std::uint8_t* q = &b[16 + 32 * c];
            const auto [scale1, min1] = scaleMinK4(2 * c, &b[4]);
            const auto [scale2, min2] = scaleMinK4(2 * c + 1, &b[4]);
            const float d1 = d * float(scale1), m1 = dmin * float(min1);
            const float d2 = d * float(scale2), m2 = dmin * float(min2);
            for (int l = 0; l < 32; ++l)
                y[l] = d1 * float(q[l] & 0xF) - m1;
            for (int l = 0; l < 32; ++l)
                y[32 + l] = d2 * float(q[l] >> 4) - m2;
        }
    }
}

// Q5_K (176 bytes): Q4_K's layout with qh[32] at 16 and qs[128] at 48: element 64c + l adds 16
// where bit 2c of qh[l] is set, element 64c + 32 + l where bit 2c + 1 is.
void dequantizeQ5K(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 176) {
        const auto b = load<176>(src);
        const float d = halfAt(b, 0);
        const float dmin = halfAt(b, 2);
        const std::uint8_t* qh = &b[16];
        for (int c = 0; c < 4; ++c, y += 64) {
            const std::uint8_t* q = &b[48 + 32 * c];
            const auto [scale1, min1] = scaleMinK4(2 * c, &b[4]);
            const auto [scale2, min2] = scaleMinK4(2 * c + 1, &b[4]);
            const float d1 = d * float(scale1), m1 = dmin * float(min1);
            const float d2 = d * float(scale2), m2 = dmin * float(min2);
            const int bit1 = 1 << (2 * c), bit2 = 2 << (2 * c);
            for (int l = 0; l < 32; ++l)
                y[l] = d1 * float((q[l] & 0xF) + ((qh[l] & bit1) ? 16 : 0)) - m1;
            for (int l = 0; l < 32; ++l)
                y[32 + l] = d2 * float((q[l] >> 4) + ((qh[l] & bit2) ? 16 : 0)) - m2;
        }
    }
}

// Q6_K (210 bytes): ql[128] at 0, qh[64] at 128, signed scales[16] at 192, half d at 208. In
// half h, element 128h + 32g + l takes the nibble 4·(g / 2) of ql[64h + 32·(g % 2) + l], the
// 2 bits at 2g of qh[32h + l] above it, less 32, and scale 8h + l / 16 + 2g; x = (d·scale)·q.
void dequantizeQ6K(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 210) {
        const auto b = load<210>(src);
        const float d = halfAt(b, 208);
        for (int h = 0; h < 2; ++h, y += 128) {
            const std::uint8_t* ql = &b[64 * h];
            const std::uint8_t* qh = &b[128 + 32 * h];
            const std::uint8_t* sc = &b[192 + 8 * h];
            for (int l = 0; l < 32; ++l) {
                const int is = l / 16;
                const int q1 = ((ql[l] & 0xF) | ((qh[l] >> 0) & 3) << 4) - 32;
                const int q2 = ((ql[l + 32] & 0xF) | ((qh[l] >> 2) & 3) << 4) - 32;
                const int q3 = ((ql[l] >> 4) | ((qh[l] >> 4) & 3) << 4) - 32;
                const int q4 = ((ql[l + 32] >> 4) | ((qh[l] >> 6) & 3) << 4) - 32;
                y[l] = d * float(std::int8_t(sc[is])) * float(q1);
                y[l + 32] = d * float(std::int8_t(sc[is + 2])) * float(q2);
                y[l + 64] = d * float(std::int8_t(sc[is + 4])) * float(q3);
                y[l + 96] = d * float(std::int8_t(sc[is + 6])) * float(q4);
            }
        }
    }
}

// IQ4_XS (136 bytes): half d at 0, scales_h (16 bits) at 2, scales_l[4] at 4, qs[128] at 8.
// Sub-block ib's 6-bit scale is nibble ib % 2 of scales_l[ib / 2] under bits 2ib of scales_h;
// its 32 elements are IQ4_NL's levels, low nibbles first; x = (d·(scale - 32))·level.
void dequantizeIq4Xs(const std::byte* src, float* y, std::int64_t blocks)
{
    for (std::int64_t i = 0; i < blocks; ++i, src += 136) {
        const auto b = load<136>(src);
        const float d = halfAt(b, 0);
        const std::uint16_t scalesHigh = u16At(b, 2);
        for (int ib = 0; ib < 8; ++ib, y += 32) {
            const int scale = ((b[4 + ib / 2] >> 4 * (ib % 2)) & 0xF) | ((scalesHigh >> 2 * ib) & 3)
                                                                            << 4;
            const float dl = d * float(scale - 32);
            const std::uint8_t* qs = &b[8 + 16 * ib];
            for (int j = 0; j < 16; ++j) {
                y[j] = dl * float(kIq4nlValues[qs[j] & 0xF]);
                y[j + 16] = dl * float(kIq4nlValues[qs[j] >> 4]);
            }
        }
    }
}

} // namespace attn::ggmlblocks
