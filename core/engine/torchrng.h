// PyTorch's CPU random number generator (1.13, x86-64 with AVX2), reproduced bit for bit.
//
// See TORCH_PARITY.md: MT19937 seeded as torch.manual_seed does, randn with its two
// paths (Box–Muller in double below 16 elements; 16-wide blocks of float Box–Muller
// with Cephes log/sincos and a redrawn tail at 16 or more), uniform_ with one FMA,
// and nn.Linear's kaiming-uniform initialisation.
#pragma once

#include "base/tensor.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace attn {

class TorchGenerator {
public:
    explicit TorchGenerator(std::uint64_t seed = 67280421310721ULL) { manualSeed(seed); }

    // torch.manual_seed(seed): reseeds the engine and clears the cached normal.
    void manualSeed(std::uint64_t seed);

    [[nodiscard]] std::uint32_t random();   // one 32-bit output
    [[nodiscard]] std::uint64_t random64(); // (first << 32) | second
    [[nodiscard]] float uniformFloat();     // [0, 1), 24 bits
    [[nodiscard]] double uniformDouble();   // [0, 1), 53 bits

    // torch.randn(n) into out[0..n), float32, contiguous.
    void randn(float* out, std::size_t n);
    // tensor.uniform_(from, to) on n float32 values.
    void uniform(float* out, std::size_t n, double from, double to);
    // nn.Linear(in, out): weight (out × in) first, then bias (out).
    [[nodiscard]] Linear linear(int in, int out);

private:
    void twist();
    // n uniforms from n draws, as uniformFloat() makes them, or with · range + lo fused.
    template <bool scaled> void fillUniforms(float* out, std::size_t n, float range, float lo);

    std::array<std::uint32_t, 624> state_{};
    int next_ = 0;
    int left_ = 1;
    std::optional<double> cachedNormal_;
};

} // namespace attn
