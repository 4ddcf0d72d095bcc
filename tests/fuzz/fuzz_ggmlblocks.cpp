// libFuzzer target: ggml's row dequantizers (core/io/ggml) on arbitrary blocks. The first byte
// picks one of the 15 types read (and is looked up as any ggml type id); the rest, from an odd
// address, is that type's blocks. Only whole blocks are dequantized, once as one row and once
// block by block: neither may read past the input (AddressSanitizer watches the bytes' end)
// and both must give the same bits, whatever the scales (infinities and NaNs included).
#include "io/ggml.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

constexpr attn::GgmlType kReadTypes[] = {
    attn::GgmlType::F32,  attn::GgmlType::F16,    attn::GgmlType::BF16,   attn::GgmlType::Q4_0,
    attn::GgmlType::Q4_1, attn::GgmlType::Q5_0,   attn::GgmlType::Q5_1,   attn::GgmlType::Q8_0,
    attn::GgmlType::Q2_K, attn::GgmlType::Q3_K,   attn::GgmlType::Q4_K,   attn::GgmlType::Q5_K,
    attn::GgmlType::Q6_K, attn::GgmlType::IQ4_NL, attn::GgmlType::IQ4_XS,
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    // 1. The type: the first byte as an id (any answer will do), and as one of the read types.
    (void)attn::ggmlTypeInfo(data[0]);
    const attn::GgmlType type = kReadTypes[data[0] % std::size(kReadTypes)];
    const auto info = attn::ggmlTypeInfo(std::uint32_t(type));
    if (!info || !info->dequantizable)
        __builtin_trap();

    // 2. The whole blocks in the rest of the input.
    const auto* blocks = reinterpret_cast<const std::byte*>(data + 1);
    const auto blockCount = std::int64_t((size - 1) / std::size_t(info->blockBytes));
    const std::int64_t n = blockCount * info->blockElements;
    if (attn::ggmlRowBytes(type, n) != std::uint64_t(blockCount * info->blockBytes))
        __builtin_trap();

    // 3. One row of them, then each block alone: the same bits.
    std::vector<float> row(static_cast<std::size_t>(n));
    std::vector<float> block(static_cast<std::size_t>(info->blockElements));
    attn::dequantizeRow(type, blocks, row.data(), n);
    for (std::int64_t b = 0; b < blockCount; ++b) {
        attn::dequantizeRow(type, blocks + b * info->blockBytes, block.data(), info->blockElements);
        if (std::memcmp(block.data(), row.data() + b * info->blockElements,
                        block.size() * sizeof(float)) != 0)
            __builtin_trap();
    }
    return 0;
}
