// The element-wise stages: scale and mask (stage 6), the softmax over each axis (stage 7),
// and both in one pass over the rows.
#pragma once

#include "base/tensor.h"
#include "engine/options.h"

#include <cmath>
#include <optional>
#include <span>
#include <vector>

namespace attn {

struct HeadsOverview;

// How stage 6 turns the score of query i and key j into a logit: l = s·scale/τ (torch
// multiplies by float(scale), then divides by float(τ); so does this); ALiBi's
// l −= m_h·|i − j|; soft-capping's l = c·tanh(l/c); then the fill where the mask hides the
// key, when the mask comes before the softmax. And what the softmax over the keys adds: a
// sink's logit.
struct LogitRule {
    float scale = 1.0f;
    float tau = 1.0f;
    std::optional<float> fill; // set when the mask comes before the softmax
    float slope = 0;           // ALiBi's m_h of the rule's head; 0: none
    float cap = 0;             // soft-capping's c; 0: none
    std::optional<float> sink; // one more logit in each row's softmax, dropped after it

    // Whether a logit is more than s·scale/τ: its place or a cap changes it.
    [[nodiscard]] bool shifts() const { return slope != 0 || cap > 0; }
    // ALiBi and the cap on l = s·scale/τ of query i and key j.
    [[nodiscard]] float shift(float l, Eigen::Index i, Eigen::Index j) const
    {
        if (slope != 0)
            l -= slope * static_cast<float>(i > j ? i - j : j - i);
        if (cap > 0)
            l = cap * std::tanh(l / cap);
        return l;
    }
    [[nodiscard]] float operator()(float score, bool masked, Eigen::Index i, Eigen::Index j) const
    {
        return masked && fill ? *fill : shift((score * scale) / tau, i, j);
    }
    bool operator==(const LogitRule&) const = default;
};

// The rule of a configuration's scaling, τ, fill and mask stage, ALiBi's slope of head
// `head`, the cap and the sink.
[[nodiscard]] LogitRule logitRule(const Config& config, int head);
// Every head's: rules[h] = logitRule(config, h).
[[nodiscard]] std::vector<LogitRule> headRules(const Config& config);

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

// One row of n keys, as scaleMaskSoftmaxOverKeys does each: weights[0, n) = the softmax of
// the rule applied to scores[0, n) and the row's mask, the row being query `row` (ALiBi's
// distances), with the rule's sink among the keys when it has one. The logits are made in `scratch`
// (n floats) before any weight is written, so `scores` and `weights` may be the same
// memory; the scores of a tail of filled keys are not read.
void scaleMaskSoftmaxRow(const float* scores, const bool* mask, Eigen::Index n, Eigen::Index row,
                         const LogitRule& rule, float* scratch, float* weights);

// The weight the rule's sink takes in a row of logits l[0, n) (masked and filled as the
// softmax saw them): exp(s − m) / (exp(s − m) + Σ exp(l − m)), m the largest of all; 0
// without a sink.
[[nodiscard]] double sinkWeight(const float* logits, Eigen::Index n, const LogitRule& rule);

// How many keys a block of P's rows needs in P·V (the engine's stage 8 and every model
// layer's attention): a causal mask leaves each row's future keys a weight of exactly 0
// (the fill's exp, or the 0 written after the softmax) where the switches keep it so, and
// one cell a row tells, P(i, i + 1); then the block of rows [first, first + rows) reads only
// the keys up to its last row. `block` is the block's first row (row i of the block at
// block + i·stride), `keys` the row length T_k; a NaN row, or any nonzero future cell, keeps
// all T_k.
[[nodiscard]] Eigen::Index causalKeys(const float* block, Eigen::Index stride, Eigen::Index first,
                                      Eigen::Index rows, Eigen::Index keys);

// One head's P = softmax(L, dim=-2), each column j over the queries i, L made in `weights`.
void scaleMaskSoftmaxOverQueries(const Matrix& scores, const MaskMatrix& mask,
                                 const LogitRule& rule, Matrix& weights);

// Head h of every sequence: P = softmax(L, dim=0), each (h, i, j) over the sequences b, L
// made in `weights`. Every sequence's mask is `masks`' of its index.
void scaleMaskSoftmaxOverBatch(const HeadStack& scores, const std::vector<MaskMatrix>& masks,
                               const LogitRule& rule, int h, HeadStack& weights);

// Stage 7 over the keys of every head (rules[h] head h's) with the heads' overview
// (overviewOfHeads, the same bits) made in the same pass: bands of rows of every head, about 1 MB
// of P a band (a core's L2), each through its softmax (and the mask after it, when `maskAfter`),
// then into the mean and the maxima while still in cache, instead of a second pass reading every
// head from memory. `overviews` is a recycled one of an earlier switch (its means' memory kept) or
// new.
void softmaxWithOverviews(const HeadStack& scores, const std::vector<MaskMatrix>& masks,
                          std::span<const LogitRule> rules, bool maskAfter, HeadStack& weights,
                          std::vector<HeadsOverview>& overviews);

} // namespace attn
