#include "engine/formula.h"

#include <algorithm>
#include <cmath>

namespace attn {

FormulaPart axisPart(SoftmaxAxis axis)
{
    switch (axis) {
    case SoftmaxAxis::Queries:
        return FormulaPart::AxisQueries;
    case SoftmaxAxis::Batch:
        return FormulaPart::AxisBatch;
    case SoftmaxAxis::Keys:
        break;
    }
    return FormulaPart::AxisKeys;
}

Formula formulaOf(const Config& config, bool hasPadding)
{
    Formula f;
    f.masked = config.mask == MaskKind::Causal || (config.paddingMask && hasPadding);
    f.maskAfter = f.masked && config.maskStage == MaskStage::AfterSoftmax;
    // τ as qFuzzyCompare(τ, 1) judges it, so that 1 ± a rounding is the textbook's.
    f.temperature = !(std::abs(config.temperature - 1.0f) * 100000.f <=
                      std::min(std::abs(config.temperature), 1.0f));
    // With one head, view(B, 1, T, C) is the correct split anyway.
    f.viewSplit = config.headSplit == HeadSplit::View && config.heads > 1;
    f.paddingAttended = hasPadding && !config.paddingMask;
    f.sharedKeys = config.kvHeadCount() != config.heads;
    const bool window = config.window > 0;
    f.masked = f.masked || window;
    f.maskAfter = f.masked && config.maskStage == MaskStage::AfterSoftmax;

    // 1. The logits: QKᵀ (its Q and K normed, rotated), the scaling, the temperature,
    // ALiBi's bias, all under the cap; the sink's logit beside them.
    auto& t = f.terms;
    t.push_back({FormulaPart::Open, false});
    if (config.sink)
        t.push_back({FormulaPart::SinkOpen, true});
    const bool cap = config.softcap > 0;
    if (cap)
        t.push_back({FormulaPart::CapOpen, true});
    if (cap && config.alibi)
        t.push_back({FormulaPart::GroupOpen, true});
    const bool rope = config.positional == Positional::Rope;
    if (config.qkNorm && rope)
        t.push_back({FormulaPart::ScoresNormedRotated, true});
    else if (config.qkNorm)
        t.push_back({FormulaPart::ScoresNormed, true});
    else if (rope)
        t.push_back({FormulaPart::ScoresRotated, true});
    else
        t.push_back({FormulaPart::Scores, false});
    switch (config.scale) {
    case ScaleMode::SqrtDk:
        t.push_back({FormulaPart::ScaleSqrtDk, false});
        break;
    case ScaleMode::None:
        t.push_back({FormulaPart::NoScale, true});
        break;
    case ScaleMode::SqrtDModel:
        t.push_back({FormulaPart::ScaleSqrtDModel, true});
        break;
    }
    if (f.temperature)
        t.push_back({FormulaPart::Temperature, true});
    if (config.alibi)
        t.push_back({FormulaPart::Alibi, true});
    if (cap && config.alibi)
        t.push_back({FormulaPart::GroupClose, true});
    if (cap)
        t.push_back({FormulaPart::CapClose, true});

    // 2. The mask added to the logits (a sliding window's, M_W), the sink's logit, and the
    // axis of the softmax: the keys of each query (dim=-1) in the textbook.
    if (f.masked && !f.maskAfter)
        t.push_back({window ? FormulaPart::AddWindowMask : FormulaPart::AddMask, window});
    if (config.sink)
        t.push_back({FormulaPart::SinkClose, true});
    t.push_back({axisPart(config.axis), config.axis != SoftmaxAxis::Keys});
    t.push_back({FormulaPart::Close, false});

    // 3. Or the mask multiplied into the weights after the softmax (the bug).
    if (f.maskAfter)
        t.push_back({FormulaPart::MaskAfter, true});
    t.push_back({FormulaPart::TimesV, false});
    return f;
}

} // namespace attn
