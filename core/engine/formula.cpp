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

    // 1. The logits: QKᵀ, the scaling, the temperature.
    auto& t = f.terms;
    t.push_back({FormulaPart::Open, false});
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

    // 2. The mask added to the logits, and the axis of the softmax: the keys of each
    // query (dim=-1) in the textbook.
    if (f.masked && !f.maskAfter)
        t.push_back({FormulaPart::AddMask, false});
    t.push_back({axisPart(config.axis), config.axis != SoftmaxAxis::Keys});
    t.push_back({FormulaPart::Close, false});

    // 3. Or the mask multiplied into the weights after the softmax (the bug).
    if (f.maskAfter)
        t.push_back({FormulaPart::MaskAfter, true});
    t.push_back({FormulaPart::TimesV, false});
    return f;
}

} // namespace attn
