// The passes over a row of logits a softmax makes (scale, exp, sum, divide), on the widest
// vectors this CPU has: AVX2 and FMA when present, chosen at run time, so the build stays
// portable; else Eigen's SSE2 code.
#pragma once

#include <Eigen/Core>

namespace attn {

// Whether the passes below run on AVX2 and FMA here: the CPU has them and ATTN_NO_AVX2
// is not set in the environment (which makes them take the SSE2 path, as the tests do).
[[nodiscard]] bool rowPassesUseAvx2();

// p[j] = exp(max(l[j] − shift, −87)) for j in [0, n): the arguments of a softmax row, kept
// where exp is a normal float. Eigen's Cephes polynomial; on a CPU with AVX2 and FMA
// (chosen at run time, so the build stays portable) eight values at a time, whose
// results may differ from the SSE2 ones in the last bit. NaN in gives an unspecified
// value out: the caller patches NaN itself.
void clampedShiftedExp(const float* l, float shift, Eigen::Index n, float* p);

// The same in the one pass a softmax row needs: writes p as clampedShiftedExp does and
// returns Σ p[j]; `lowest` gets the smallest l[j] − shift, or NaN when any is NaN (then,
// or when it is below −87, the caller patches p and sums again). The sum's order is the
// vectors' own, so it may differ from Eigen's sum in the last bits.
[[nodiscard]] float clampedShiftedExpSum(const float* l, float shift, Eigen::Index n, float* p,
                                         float& lowest);

// l[j] = s[j]·scale/τ for j in [0, n) (a multiplication, then a division, as Eigen's
// expression does them); returns the largest l[j], NaN left out (−inf when n is 0 or every
// value is NaN).
[[nodiscard]] float scaleRow(const float* s, Eigen::Index n, float scale, float tau, float* l);

// p[j] *= 1 / sum for j in [0, n), returning 1 / sum: the softmax's normalisation as
// torch's softmax over the last dimension makes it (the reciprocal once, then a
// multiplication, each exact as the scalar one).
float normalizeRow(float* p, Eigen::Index n, float sum);

} // namespace attn
