// The matrix-multiply library under Eigen, and how the engine's threads may call it.
#pragma once

#include <string>

namespace attn {

// The engine runs its products on its own threads (heads and row blocks over the cores),
// and the compare dialog runs two engines at once, so the library must let several
// threads call it at the same time, each product running on its caller's thread alone.
// Debian's serial OpenBLAS does not allow that: now and then two concurrent products came
// out wrong. The pthread flavour does, once told to use one thread per call, which this
// does (once per process; cheap afterwards). Without OpenBLAS it does nothing.
void useOneBlasThreadPerCall();

// "OpenBLAS 0.3.21 … (1 thread per call)" or "Eigen's own kernels": for --version and
// the benchmark's context.
[[nodiscard]] std::string matrixProductLibrary();

// The kernel set OpenBLAS multiplies with ("SkylakeX", "Haswell", "Prescott", …), and
// the best one this CPU can run ("SkylakeX" with AVX-512, "Haswell" with AVX2 + FMA).
// When OpenBLAS does not know the CPU's model it picks SSE3 kernels at load time, and on
// an AMD Zen 4 or 5 its AVX2 ones; blas.cpp then makes it choose the CPU's own before main()
// runs (unless OPENBLAS_CORETYPE says otherwise). Both are "" without OpenBLAS; the second
// is "" on a CPU without AVX2.
[[nodiscard]] std::string blasKernels();
[[nodiscard]] std::string blasKernelsForThisCpu();
// Whether `kernels` names one of OpenBLAS's AVX2 or AVX-512 kernel sets.
[[nodiscard]] bool areVectorKernels(const std::string& kernels);
// Whether OpenBLAS, having chosen the kernel set `chosen`, should be made to choose `best`
// (blasKernelsForThisCpu()): `chosen` has no vector kernels, or 256-bit ones where the CPU
// has AVX-512.
[[nodiscard]] bool shouldChooseKernelsAgain(const std::string& chosen, const std::string& best);

} // namespace attn
