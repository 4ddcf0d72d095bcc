// Gpt2Model::trace: the forward up to one layer (forward() with a capture, so that the
// numbers are the run's own), then that layer's stages for one head. Kept apart from the
// forward in gpt2model.cpp, which stays the fast path.
#include "engine/engine.h"
#include "models/gpt2model.h"
#include "models/modelattention.h"
#include "models/modelrun.h"

#include <stdexcept>

namespace attn {

HeadTrace Gpt2Model::trace(const std::string& text, const ModelSwitches& switches, int layer,
                           int head, const std::atomic<bool>* cancel) const
{
    const int C = config_.dModel;
    HeadTrace trace = beginTrace(*this, text, switches, layer, head, C);

    Gpt2LayerCapture capture;
    capture.layer = layer;
    const Gpt2Forward forwarded = forward(trace.ids, switches, cancel, &capture);

    // X, and Q_h, K_h, V_h split from c_attn's columns as the layer split them.
    trace.input = std::move(capture.input);
    splitTraceHeads(trace, capture.qkv.leftCols(C), capture.qkv.middleCols(C, C),
                    capture.qkv.rightCols(C));
    endTrace(trace, forwarded.weights, std::move(capture.merged), std::move(capture.projected));
    return trace;
}

} // namespace attn
