// The element-wise stages of one head: scale and mask (stage 6), softmax over the keys
// (stage 7), and both in one pass over the rows.
#pragma once

#include "options.h"
#include "tensor.h"

#include <optional>

namespace attn {

// How stage 6 turns a score into a logit: l = s·scale/τ (torch multiplies by
// float(scale), then divides by float(τ); so does this), then the fill where the mask
// hides the key, when the mask comes before the softmax.
struct LogitRule {
    float scale = 1.0f;
    float tau = 1.0f;
    std::optional<float> fill; // set when the mask comes before the softmax

    [[nodiscard]] float operator()(float score, bool masked) const
    {
        return masked && fill ? *fill : (score * scale) / tau;
    }
    bool operator==(const LogitRule&) const = default;
};

// The rule of a configuration's scaling, τ, fill and mask stage.
[[nodiscard]] LogitRule logitRule(const Config& config);

// (T_q, T_k) logits = the rule applied to every score.
void scaleAndMask(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                  Matrix& logits);

// (T_q, T_k) weights = softmax(logits, dim=-1), each row over its keys.
void softmaxOverKeys(const Matrix& logits, Matrix& weights);

// Both of the above in one pass over the rows, without storing the logits: each row's
// logits live in a buffer in cache for its softmax, and the scores of a tail of keys the
// mask fills are not read at all. The same numbers as scaleAndMask followed by
// softmaxOverKeys.
void scaleMaskSoftmaxOverKeys(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                              Matrix& weights);
// The same for `rows` rows from `firstRow` on, into weights already of the scores' shape.
void scaleMaskSoftmaxOverKeys(const Matrix& scores, const MaskMatrix& mask, const LogitRule& rule,
                              Matrix& weights, Eigen::Index firstRow, Eigen::Index rows);

} // namespace attn
