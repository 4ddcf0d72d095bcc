// The element-wise stages of one head: scale and mask (stage 6), softmax over the keys
// (stage 7), and both in one pass over the rows.
#pragma once

#include "tensor.h"

#include <optional>

namespace attn {

// (T_q, T_k) logits = scores·scale/τ, then masked_fill(mask, *fill) when `fill` is set.
// torch multiplies by float(scale), then divides by float(τ); so does this.
void scaleAndMask(const Matrix& scores, const MaskMatrix& mask, float scale, float tau,
                  std::optional<float> fill, Matrix& logits);

// (T_q, T_k) weights = softmax(logits, dim=-1), each row over its keys.
void softmaxOverKeys(const Matrix& logits, Matrix& weights);

// Both of the above in one pass over the rows, each row still in cache for its softmax;
// the same numbers as scaleAndMask followed by softmaxOverKeys.
void scaleMaskSoftmaxOverKeys(const Matrix& scores, const MaskMatrix& mask, float scale, float tau,
                              std::optional<float> fill, Matrix& logits, Matrix& weights);

} // namespace attn
