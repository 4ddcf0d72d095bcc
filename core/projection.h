// The stages of the pipeline that reshape or project whole sequences: nn.Linear over
// every sequence and the split into heads.
#pragma once

#include "options.h"
#include "tensor.h"

#include <initializer_list>
#include <vector>

namespace attn {

// One nn.Linear to apply: its bias, its weight already transposed (C_in, C_out), and
// where its output goes.
struct LinearJob {
    const Linear* layer;
    const Matrix* weightT; // layer->weight transposed
    std::vector<Matrix>* y;
};

// Wᵀ of a layer, kept beside it: x·Wᵀ with both row-major would reach OpenBLAS as a "TN"
// product, and OpenBLAS 0.3.21's small-matrix TN kernel (AVX-512 CPUs) is not
// thread-safe: two threads in it get wrong sums now and then. x·(Wᵀ) is an "NN" one.
[[nodiscard]] Matrix transposedWeight(const Linear& layer);

// y = x·Wᵀ + b for every job, every sequence, the rows split in blocks so that both cores
// work even on one sentence. x: B × (T, C_in) → y: B × (T, C_out), written into y's
// existing matrices where their sizes fit.
void applyLinear(const std::vector<Matrix>& x, std::initializer_list<LinearJob> jobs);

// (B, T, C) → (B, H, T, d_k), into `heads`.
void splitHeads(const std::vector<Matrix>& t, int H, HeadSplit mode, HeadStack& heads);

} // namespace attn
