// libFuzzer target: the .npy reader (magic, version, header dict, dtype, shape, Fortran order, byte
// order) on arbitrary bytes, then every part of the stack a window reads (fuzz_attentionfile.h).
#include "fuzz_attentionfile.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    attn::fuzz::exerciseAttentionFile(data, size, "fuzz.npy");
    return 0;
}
