// Gpt2Model::trace: the forward up to one layer (forward() with a capture, so that the
// numbers are the run's own), then that layer's stages for one head. Kept apart from the
// forward in gpt2model.cpp, which stays the fast path.
#include "engine.h"
#include "gpt2model.h"
#include "modelattention.h"
#include "modelrun.h"
#include "projection.h"

#include <stdexcept>

namespace attn {

HeadTrace Gpt2Model::trace(const std::string& text, const ModelSwitches& switches, int layer,
                           int head, const std::atomic<bool>* cancel) const
{
    const int C = config_.dModel, H = config_.heads, dK = C / H;
    HeadTrace trace = beginTrace(*this, text, switches, layer, head, C);
    const int T = int(trace.ids.size());

    Gpt2LayerCapture capture;
    capture.layer = layer;
    const Gpt2Forward forwarded = forward(trace.ids, switches, cancel, &capture);

    // X, and Q_h, K_h, V_h split from c_attn's columns as the layer split them.
    trace.input = std::move(capture.input);
    const std::vector<Matrix> q{capture.qkv.leftCols(C)}, k{capture.qkv.middleCols(C, C)},
        v{capture.qkv.rightCols(C)};
    HeadStack heads[3];
    splitHeads({{&q, &heads[0]}, {&k, &heads[1]}, {&v, &heads[2]}}, H, trace.formula.headSplit);
    trace.queries = std::move(heads[0].at(0, head));
    trace.keys = std::move(heads[1].at(0, head));
    trace.values = std::move(heads[2].at(0, head));
    // S in full (the forward skips the products a causal mask hides at long T), the mask,
    // and P as the run wrote it.
    trace.scores.noalias() = trace.queries * trace.keys.transpose();
    trace.mask = attentionMask(trace.formula, T);
    const std::size_t headSize = std::size_t(T) * std::size_t(T);
    trace.weights = Eigen::Map<const Matrix>(
        forwarded.weights.data() +
            (std::size_t(layer) * std::size_t(H) + std::size_t(head)) * headSize,
        T, T);
    // O_h is head h's block of the concatenation, as the layer made it.
    trace.headOutput = capture.merged.middleCols(head * dK, dK);
    trace.merged = std::move(capture.merged);
    trace.output = std::move(capture.projected);
    return trace;
}

} // namespace attn
