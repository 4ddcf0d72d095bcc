// exp over a row of logits, on the widest vectors this CPU has.
#pragma once

#include <Eigen/Core>

namespace attn {

// p[j] = exp(max(l[j] − shift, −87)) for j in [0, n): the arguments of a softmax row, kept
// where exp is a normal float. Eigen's Cephes polynomial; on a CPU with AVX2 and FMA
// (chosen at run time, so the build stays portable) eight values at a time, whose
// results may differ from the SSE2 ones in the last bit. NaN in gives an unspecified
// value out: the caller patches NaN itself.
void clampedShiftedExp(const float* l, float shift, Eigen::Index n, float* p);

} // namespace attn
