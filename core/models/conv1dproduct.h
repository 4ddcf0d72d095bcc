// GPT-2's Conv1D products on AVX-512: y = x·W (+ b), W stored [in, out] as the checkpoint
// has it, read either in place or packed once at load in bands of 48 columns (a loaded
// model's are; see packConv1dBands). Where the CPU has AVX-512F (Zen 4 and 5, Intel since
// Skylake-SP) conv1d runs on it: on a Zen 5 core at GPT-2 small's shapes, T = 128, 170
// GFLOP/s with W in place against OpenBLAS's 102 on its 256-bit Haswell kernels and 164 on
// its AVX-512 ones, which pack every weight each call; about 10 % more with W packed.
// Elsewhere conv1d stays on OpenBLAS (modelkernels.cpp). No Qt.
#pragma once

#include <Eigen/Core>

#include <memory>

namespace attn {

// Whether conv1d, conv1dGelu and conv1dAdd run on conv1dTileAvx512: this CPU has AVX-512F
// and it has not been turned off (setConv1dAvx512, or ATTN_CONV1D=blas in the environment).
[[nodiscard]] bool conv1dUsesAvx512();

// Turns the AVX-512 products on (where the CPU has them, whatever ATTN_CONV1D says) or off,
// for every thread: the tests run both paths on one machine. Returns whether they were on.
bool setConv1dAvx512(bool enabled);

// One tile of a Conv1D on this thread: y[i, j] = Σₖ x[i, k]·w[k, j] (+ bias[j]), or y[i, j] +=
// the same when `accumulate`, for i < rows, j < cols, k < depth; each matrix row-major with
// its own row stride (ld…, in floats); bias null for none. Only where conv1dUsesAvx512().
// The sum runs over k in chunks of 256 (their part of W, read from memory for the first
// eight rows, comes from the caches for the others), in order, each chunk's partial sums
// added to y's: the same sum as sgemm's, rounded in another order.
void conv1dTileAvx512(const float* x, Eigen::Index ldx, const float* w, Eigen::Index ldw,
                      const float* bias, float* y, Eigen::Index ldy, Eigen::Index rows,
                      Eigen::Index cols, Eigen::Index depth, bool accumulate);

// The width of the kernel's register block and of the bands W is packed in: a tile's first
// column is a multiple of it.
inline constexpr Eigen::Index kConv1dBand = 48;

// Conv1D weights packed for conv1dTileAvx512: W (in × out) in bands of 48 columns, band b
// its `in` rows of columns 48b … 48b + 47 one after another (the last band's missing columns
// zero). Read in place, each band of W is `in` runs of 192 bytes a whole row of W apart;
// packed, it is one stream (GPT-2 small's forward at T = 128 on both cores of a Zen 5: 84–88
// → 78–80 ms, interleaved runs of bench_gpt2). W[k, j] is read at w[k·rowStride +
// j·colStride]: a row-major W is (out, 1); the attention packs K_hᵀ from K_h's rows (1, ld).
[[nodiscard]] Eigen::Index conv1dBandFloats(Eigen::Index in, Eigen::Index out);
void packConv1dBands(const float* w, Eigen::Index in, Eigen::Index out, Eigen::Index rowStride,
                     Eigen::Index colStride, float* bands);

// Room for `floats` packed floats: one allocation aligned to 2 MB, on huge pages where the
// system offers them (fewer TLB misses for a stream of hundreds of megabytes).
[[nodiscard]] std::shared_ptr<float[]> allocateConv1dBands(std::size_t floats);

// The same with W in bands of 48 columns `bandStride` floats apart, each band's rows `ldw`
// apart: W in place is (ldw = N, bandStride = 48); packed by packConv1dBands (ldw = 48,
// bandStride = 48·depth).
void conv1dTileAvx512(const float* x, Eigen::Index ldx, const float* w, Eigen::Index ldw,
                      Eigen::Index bandStride, const float* bias, float* y, Eigen::Index ldy,
                      Eigen::Index rows, Eigen::Index cols, Eigen::Index depth, bool accumulate);

} // namespace attn
