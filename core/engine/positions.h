// How today's models give attention its positions and its scale, on one head's rows: the
// rotary embedding (RoPE, Llama and Qwen), ALiBi's slopes (BLOOM, MPT) and QK-norm (Qwen3,
// OLMo 2). The lab's switches (options.h) and the models' layers share them. No Qt.
#pragma once

#include "base/tensor.h"
#include "engine/options.h"

#include <vector>

namespace attn {

// The rotary position embedding of T positions for heads of d_k values (HF's
// RotaryEmbedding, the rotate-half layout): angle(t, i) = t · θ^(−2(i mod d_k/2)/d_k), as
// emb = cat(freqs, freqs); cos and sin (T, d_k) in float.
struct RotaryTable {
    Matrix cos, sin;
};

// A config's rope scaling (rope_scaling, or rope_parameters), as Hugging Face's
// modeling_rope_utils computes the inverse frequencies inv_freq = θ^(−2i/d):
//   Default  as they are;
//   Linear   inv_freq / factor (position interpolation);
//   Llama3   Llama 3.1's: wavelength λ = 2π / inv_freq; λ < L_orig / high_freq_factor kept,
//            λ > L_orig / low_freq_factor divided by factor, between them smoothed:
//            (1 − s)·inv_freq / factor + s·inv_freq, s = (L_orig / λ − low) / (high − low)
//            (_compute_llama3_parameters; L_orig = original_max_position_embeddings).
struct RopeScaling {
    enum class Type { Default, Linear, Llama3 };
    Type type = Type::Default;
    double factor = 1;
    double lowFreqFactor = 1;
    double highFreqFactor = 4;
    double originalPositions = 8192;
    // llama.cpp's rope_freqs (a GGUF of Llama 3.1/3.2): each inv_freq_i divided by its own
    // factor, the llama3 scaling computed once by the converter. Empty: none.
    std::vector<float> frequencyFactors;
    bool operator==(const RopeScaling&) const = default;
};

[[nodiscard]] RotaryTable rotaryTable(int T, int headDim, double theta,
                                      const RopeScaling& scaling = {});

// x = x·cos + rotate_half(x)·sin on one head's (T, d_k) rows, row t at position t, where
// rotate_half(x) = cat(−x₂, x₁) of x's halves.
void applyRotary(Matrix& x, const RotaryTable& table);

// QK-norm with a unit weight: every row of x (T, d_k) divided by its root mean square,
// x·rsqrt(mean(x²) + ε) (modeling_qwen3's q_norm and k_norm, the weight all ones).
void rmsNormRowsUnit(Matrix& x, double epsilon);

// ALiBi's slope m_h of head h of H, as BLOOM's build_alibi_tensor: 2^(−8(h+1)/H) for H a
// power of two; otherwise the closest power of two n below H gives the first n heads, and
// the odd powers of 2^(−4/n) the rest (their interpolation). In float, as torch.pow.
[[nodiscard]] float alibiSlope(int h, int H);

// Whether stage 4 does more than split: QK-norm, RoPE or fewer K/V heads than query heads.
[[nodiscard]] bool transformsHeads(const Config& config);

// Stage 4's transforms of the heads after the split, as the switches say: every row of Q_h
// and K_h normed (QK-norm), then rotated by its position (RoPE; query rows at 0…T_q − 1,
// key rows at 0…T_k − 1). `k` may have fewer heads than `q` (the K/V heads).
void transformHeads(const Config& config, HeadStack& q, HeadStack& k);

// HF's repeat_kv: (B, K, T, d_k) → (B, H, T, d_k), query head h given K/V head
// ⌊h / (H/K)⌋.
void repeatKvHeads(const HeadStack& kv, int H, HeadStack& out);

// Stage 4 one step at a time for one head, as Step by Step draws it: head `head` of
// `heads` split from one sequence's projection (T, heads·d_k) as config.headSplit splits
// it, then normed (QK-norm) and rotated (RoPE) as transformHeads does, the same bits.
struct HeadTransformSteps {
    Matrix split;   // (T, d_k) as split, before any transform
    Matrix normed;  // after QK-norm; empty without it
    Matrix rotated; // after RoPE (of the normed rows with QK-norm); empty without it
};
[[nodiscard]] HeadTransformSteps headTransformSteps(const Config& config, const Matrix& projected,
                                                    int heads, int head);

} // namespace attn
