// BertModel::trace: the forward up to one layer (forward() with a capture, so that the
// numbers are the run's own), then that layer's stages for one head. Kept apart from the
// forward in bertmodel.cpp, which stays the fast path.
#include "engine/engine.h"
#include "models/bertmodel.h"
#include "models/modelattention.h"
#include "models/modelrun.h"

namespace attn {

HeadTrace BertModel::trace(const std::string& text, const ModelSwitches& switches, int layer,
                           int head, const std::atomic<bool>* cancel) const
{
    refuseBlankText(text);
    HeadTrace trace = beginTrace(*this, text, switches, layer, head, config_.dModel);

    BertLayerCapture capture;
    capture.layer = layer;
    const BertForward forwarded = forward(trace.ids, switches, cancel, &capture);

    // X, and Q_h, K_h, V_h cut from query, key and value as the layer cut them.
    trace.input = std::move(capture.input);
    splitTraceHeads(trace, std::move(capture.queries), std::move(capture.keys),
                    std::move(capture.values));
    endTrace(trace, forwarded.weights, std::move(capture.merged), std::move(capture.projected));
    return trace;
}

} // namespace attn
