// The multiply limit the model benchmarks measure against (bench_gpt2.cpp, bench_qwen.cpp):
// how long a number of FLOPs takes at this machine's float multiply rate on every core, on
// OpenBLAS's sgemm and on AttnScope's own product kernel (core/models/linearproduct.h); the
// forwards are measured against the faster of the two (bestLimit).
#pragma once

#include "base/parallel.h"
#include "base/tensor.h"
#include "models/modelkernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>

namespace attn::bench {

// The CPU time of every thread of this process so far, in seconds: beside the wall time,
// a figure the machine's other load barely moves (the threads' waits and spins count).
inline double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

namespace detail {

// How long `flops` take as 1024³ products, each made by `product(a, b, c, row, end)` for
// the rows [row, end) of c = a·b, the rows split over the cores; `cpuSeconds`, when given,
// gains the same in CPU time.
template <typename Product>
double productSeconds(double flops, double* cpuSeconds, Product&& product)
{
    const Eigen::Index N = 1024;
    static const Matrix a = Matrix::Random(N, N), b = Matrix::Random(N, N);
    static Matrix c(N, N);
    const int blocks = coreCount();
    const double perProduct = 2.0 * N * N * N;
    const int products = std::max(1, int(std::ceil(flops / perProduct)));
    const double cpuStart = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < products; ++k)
        parallelFor(blocks, [&](int block) {
            product(a, b, c, N * block / blocks, N * (block + 1) / blocks);
        });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (cpuSeconds)
        *cpuSeconds += (processCpuSeconds() - cpuStart) * flops / (products * perProduct);
    return seconds * flops / (products * perProduct);
}

} // namespace detail

// How long `flops` take at this machine's float multiply rate on every core: BM_Sgemm's
// product (N = 1024, its rows split over the cores) run as many times as make that many
// FLOPs. Measured right after each forward, so that the machine's other load weighs on
// both alike. `cpuSeconds`, when given, gains the same in CPU time.
inline double sgemmSeconds(double flops, double* cpuSeconds = nullptr)
{
    return detail::productSeconds(
        flops, cpuSeconds,
        [](const Matrix& a, const Matrix& b, Matrix& c, Eigen::Index row, Eigen::Index end) {
            c.middleRows(row, end - row).noalias() = a.middleRows(row, end - row) * b;
        });
}

// The same at the rate of AttnScope's product kernel on the same 1024³ product, as the models
// call it (linear: y = x·Wᵀ, x packed once, tiles over every core), on the path productPath()
// chose for this CPU: where OpenBLAS runs 256-bit kernels on a CPU with AVX-512, or multiplies
// faster than the kernel, the honest limit is the faster of the two.
inline double kernelSeconds(double flops, double* cpuSeconds = nullptr)
{
    const Eigen::Index N = 1024;
    static const Matrix a = Matrix::Random(N, N), b = Matrix::Random(N, N);
    static Matrix c(N, N);
    const WeightView w{b.data(), N, N}, none;
    const double perProduct = 2.0 * N * N * N;
    const int products = std::max(1, int(std::ceil(flops / perProduct)));
    const double cpuStart = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < products; ++k)
        linear(a, w, none, c);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (cpuSeconds)
        *cpuSeconds += (processCpuSeconds() - cpuStart) * flops / (products * perProduct);
    return seconds * flops / (products * perProduct);
}

} // namespace attn::bench
