// libFuzzer target: the .npz reader through libzip (stored members mapped, deflated ones inflated
// up to a limit, tokens) on arbitrary bytes, then every part of the stack a window reads
// (fuzz_attentionfile.h).
#include "fuzz_attentionfile.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    attn::fuzz::exerciseAttentionFile(data, size, "fuzz.npz");
    return 0;
}
