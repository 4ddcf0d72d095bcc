// libFuzzer target: the .safetensors reader (header length, strict JSON header, dtypes, shapes,
// offsets, per-layer tensors, token metadata) on arbitrary bytes, then every part of the stack a
// window reads (fuzz_attentionfile.h).
#include "base/jsonread.h"
#include "fuzz_attentionfile.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    attn::fuzz::exerciseAttentionFile(data, size, "fuzz.safetensors");
    // The strict JSON reader alone, on the same bytes.
    try {
        (void)attn::parseJson(std::string_view(reinterpret_cast<const char*>(data), size));
    } catch (const attn::JsonParseError&) {
    }
    return 0;
}
