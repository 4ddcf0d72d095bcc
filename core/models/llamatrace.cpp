// LlamaModel::trace: the forward up to one layer (forward() with a capture, so that the
// numbers are the run's own), then that layer's stages for one query head. Kept apart
// from the forward in llamamodel.cpp, which stays the fast path.
//
// The stages for the Qwen/Llama family: X is the layer's input_layernorm output; Q_h is
// head h of q_proj's output after Qwen3's q_norm and the rotary positions (when the RoPE
// switch leaves them on); K_h and V_h are those of the K/V head h shares, h / (H / H_kv)
// (K after k_norm and the rotation); S = Q_h K_hᵀ, P the run's weights, O_h = P·V_h, the
// heads side by side, and o_proj's output.
#include "engine/engine.h"
#include "models/llamamodel.h"
#include "models/modelattention.h"
#include "models/modelrun.h"

#include <stdexcept>

namespace attn {

HeadTrace LlamaModel::trace(const std::string& text, const ModelSwitches& switches, int layer,
                            int head, const std::atomic<bool>* cancel) const
{
    const LlamaConfig& c = config_;
    const int H = c.heads, dK = c.headDim;
    // The formula's d_model is H·d_k, the width the heads are split from (the hidden size C
    // where head_dim is C / H).
    HeadTrace trace = beginTrace(*this, text, switches, layer, head, H * dK);

    LlamaLayerCapture capture;
    capture.layer = layer;
    const LlamaForward forwarded = forward(trace.ids, switches, cancel, &capture);

    const int kv = info_.kvHeadOf(head);
    trace.input = std::move(capture.input);
    trace.queries = std::move(capture.queries.at(0, head));
    trace.keys = std::move(capture.keys.at(0, kv));
    trace.values = std::move(capture.values.at(0, kv));
    endTrace(trace, forwarded.weights, std::move(capture.merged), std::move(capture.projected));
    return trace;
}

} // namespace attn
