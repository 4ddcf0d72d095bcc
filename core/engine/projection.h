// The stages of the pipeline that reshape or project whole sequences: nn.Linear over
// every sequence and the split into heads.
#pragma once

#include "base/tensor.h"
#include "engine/options.h"

#include <initializer_list>
#include <vector>

namespace attn {

// One nn.Linear to apply and where its output goes; with `heads`, also split into H heads
// as view + transpose splits them (head h: columns [h·d_k, (h+1)·d_k)), each block of
// rows copied while it is in cache.
struct LinearJob {
    const Linear* layer;
    std::vector<Matrix>* y;
    HeadStack* heads = nullptr;
    int H = 0;
};

// y = x·Wᵀ + b for every job, every sequence, the rows split in blocks so that both cores
// work even on one sentence. x: B × (T, C_in) → y: B × (T, C_out), written into y's
// existing matrices where their sizes fit.
void applyLinear(const std::vector<Matrix>& x, std::initializer_list<LinearJob> jobs);

// One tensor to split into heads and where its heads go.
struct SplitJob {
    const std::vector<Matrix>* t;
    HeadStack* heads;
};

// (B, T, C) → (B, H, T, d_k) for each job, into its `heads`: Q, K and V in one parallel
// loop (at T = 128 a loop's wake-up costs as much as its copies).
void splitHeads(std::initializer_list<SplitJob> jobs, int H, HeadSplit mode);

} // namespace attn
