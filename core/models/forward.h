// What every family's forward pass does the same way, written once: the ids checked, the
// room for every layer's attention, the two formulas a layer may run (the switches' or the
// textbook one) with their masks, the cancel check between layers, the capture of a layer
// for trace(), the logits of an output embedding. A family's model.cpp calls these in the
// order its forward reads top to bottom. No Qt.
#pragma once

#include "engine/softmax.h"
#include "models/languagemodel.h"
#include "models/modelkernels.h"

#include <vector>

namespace attn {

// Throws std::out_of_range naming the family: no ids, more than info.maxPositions, or an
// id outside 0 … V−1.
void checkIds(const std::vector<int>& ids, const ModelInfo& info);

// Room for every layer's attention of a run, (L, 1, H, T, T), its values unwritten (the
// forward writes each one) and, above a few MB, its pages already mapped: the kernel maps
// and zeroes them now, a share on each core (MADV_POPULATE_WRITE, Linux 5.14 on), instead
// of 150 000 page faults one at a time on the thread that first writes them (600 MB at
// T = 1024 in GPT-2 small).
[[nodiscard]] FloatBuffer attentionBuffer(int layers, int heads, int tokens);

// The mask of T tokens (true = hidden): the causal mask (key j after query i) as the
// formula's mask kind says, and its sliding window W > 0 (key j with i − j ≥ W, as HF's
// modeling_mistral.py, and without the causal mask also j − i ≥ W).
[[nodiscard]] MaskMatrix attentionMask(const Config& formula, int T);

// The formula one layer runs: the switches' (in every layer, or in switches.onlyLayer's)
// or the textbook one the model was trained with, sized to the model (heads H, dModel
// H·d_k, √d_model dividing by the hidden size C), with its logit rule and its mask.
struct LayerFormula {
    Config config;
    LogitRule rule;
    MaskMatrix mask;
    bool switched = false; // the switches' formula (and the RoPE switch's choice)
};

class LayerFormulas {
public:
    LayerFormulas(const ModelInfo& info, const ModelSwitches& switches, int T);
    [[nodiscard]] const LayerFormula& operator[](int layer) const
    {
        return onlyLayer_ < 0 || onlyLayer_ == layer ? switched_ : textbook_;
    }
    // Whether layer `layer` rotates Q and K (a rotary model, unless the RoPE switch takes
    // the rotation away in a switched layer).
    [[nodiscard]] bool rope(int layer) const { return !(*this)[layer].switched || rope_; }

private:
    LayerFormula switched_, textbook_;
    int onlyLayer_ = -1;
    bool rope_ = true;
};

// What a forward begins with: the ids and the knock-outs checked (checkIds,
// checkKnockOuts), each layer's formula (LayerFormulas), and its result's room for every
// layer's attention (attentionBuffer); and what it does between the steps of a layer.
struct ForwardFrame {
    // With hooks.cache, the frame of the positions after the cache's (past … T − 1): the
    // cache checked (kvCacheUsable, room for T, past < T), `rows` the new positions, and
    // out.weights (L, 1, H, rows, T). Throws std::out_of_range for a cache that cannot
    // serve, or one given with a resumed forward.
    ForwardFrame(const ModelInfo& info, const std::vector<int>& ids, const ModelSwitches& switches,
                 const ForwardHooks& hooks = {});
    int T = 0;              // tokens
    int past = 0;           // positions a KV cache already holds (0 without one)
    int rows = 0;           // the positions this forward runs: T − past
    LayerFormulas formulas; // formulas[l]: layer l's
    Forward out;            // out.weights (L, 1, H, T, T), out.hidden after the final norm
    // Where layer `layer`'s P of every head goes: (H, rows, T) of out.weights.
    [[nodiscard]] float* weightsOf(int layer)
    {
        return out.weights.data() + std::size_t(layer) * layerSize_;
    }
    // Layer `layer`'s heads' outputs (T, H·d_k) just before the output projection: the
    // switches' knocked-out heads replaced (knockOutHeads), then hooks.headOutputs.
    void headOutputs(int layer, Matrix& merged, const ForwardHooks& hooks) const;
    // The residual stream after block `layer`: hooks.residual.
    static void residual(int layer, const Matrix& x, const ForwardHooks& hooks);
    // The first block to run: 0, or hooks.startLayer with `x` set to hooks.startResidual
    // (a resumed forward: the caller skips its embedding). Throws std::out_of_range for a
    // start outside the model or a residual of another shape.
    [[nodiscard]] int resume(const ForwardHooks& hooks, Matrix& x) const;

    // Layer `layer`'s mask rows of the positions this forward runs, (rows, T).
    [[nodiscard]] MaskMatrix maskRows(int layer) const
    {
        return formulas[layer].mask.bottomRows(rows);
    }
    // The cache's positions of the new rows appended: past becomes T (after the last layer).
    void advance(const ForwardHooks& hooks) const;

private:
    const ModelSwitches& switches_;
    int heads_ = 0, layers_ = 0, dModel_ = 0;
    std::size_t layerSize_ = 0;
};

// Throws Cancelled when hooks.cancel has become true: called before each layer.
void checkCancel(const ForwardHooks& hooks);

// Whether the forward keeps layer `layer` for trace() (and stops after its attention).
[[nodiscard]] inline bool capturing(const ForwardHooks& hooks, int layer)
{
    return hooks.capture && hooks.capture->layer == layer;
}

// The capture of a layer whose heads each have their own K and V (GPT-2, BERT): X, and
// q, k, v (T, H·d_k) split as the formula splits heads (transpose, or the view bug).
void captureHeads(LayerCapture& capture, const Matrix& input, Matrix q, Matrix k, Matrix v,
                  const Config& formula);

// logits = h · Eᵀ for an output embedding E (V, C) and a hidden row h (C values).
[[nodiscard]] std::vector<float> embeddingLogits(const WeightView& embedding,
                                                 const float* hiddenRow);

} // namespace attn
