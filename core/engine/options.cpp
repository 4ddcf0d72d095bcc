#include "engine/options.h"

#include <cmath>

namespace attn {

std::optional<InputError> checkConfig(const Config& config)
{
    const auto number = [](auto value) { return std::to_string(value); };
    if (config.dModel < kMinDModel || config.dModel > kMaxDModel)
        return InputError("d_model must be between " + number(kMinDModel) + " and " +
                              number(kMaxDModel) + ", not " + number(config.dModel),
                          Refusal::DModelRange,
                          {number(kMinDModel), number(kMaxDModel), number(config.dModel)});
    if (config.heads < 1 || config.heads > config.dModel)
        return InputError("heads must be between 1 and d_model (" + number(config.dModel) +
                              "), not " + number(config.heads),
                          Refusal::HeadsRange, {number(config.dModel), number(config.heads)});
    if (config.dModel % config.heads != 0)
        return InputError("heads (" + number(config.heads) + ") must divide d_model (" +
                              number(config.dModel) + ")",
                          Refusal::HeadsDivide, {number(config.heads), number(config.dModel)});
    if (!(config.temperature > 0.0f) || !std::isfinite(config.temperature))
        return InputError("temperature must be a positive number", Refusal::TemperatureNaN);
    if (config.temperature < kMinTemperature || config.temperature > kMaxTemperature)
        return InputError("temperature must be between 1e-06 and 1e+06", Refusal::TemperatureRange);
    if (config.attention == AttentionKind::Cross && config.mask == MaskKind::Causal)
        return InputError("a causal mask has no meaning in cross-attention: the keys come from "
                          "the other text, so none of them is in a query's future",
                          Refusal::CausalCross);
    const int K = config.kvHeadCount();
    if (K < 1 || K > config.heads || config.heads % K != 0)
        return InputError("the K/V heads (" + number(K) + ") must divide the heads (" +
                              number(config.heads) + ")",
                          Refusal::KvHeadsDivide, {number(K), number(config.heads)});
    if (config.positional == Positional::Rope && config.dK() % 2 != 0)
        return InputError("RoPE rotates pairs of features: d_k (" + number(config.dK()) +
                              ") must be even",
                          Refusal::RopeOddDk, {number(config.dK())});
    if (!(config.ropeTheta > 0.0f) || !std::isfinite(config.ropeTheta))
        return InputError("the RoPE base θ must be a positive number", Refusal::RopeTheta);
    if (config.softcap < 0.0f || !std::isfinite(config.softcap))
        return InputError("the soft-capping c must be a positive number", Refusal::Softcap);
    if (config.window < 0 || config.window > kMaxTokens)
        return InputError("the window must be between 1 and " + number(kMaxTokens) + " keys",
                          Refusal::Window);
    if (config.sink && !std::isfinite(*config.sink))
        return InputError("the sink logit must be a finite number", Refusal::SinkValue);
    if (config.sink && config.axis != SoftmaxAxis::Keys)
        return InputError("a sink is one more key in each row: it needs the softmax over the keys",
                          Refusal::SinkAxis);
    return std::nullopt;
}

std::string validate(const Config& config)
{
    const std::optional<InputError> problem = checkConfig(config);
    return problem ? problem->what() : std::string();
}

double scaleFactor(const Config& config)
{
    switch (config.scale) {
    case ScaleMode::SqrtDk:
        return 1.0 / std::sqrt(static_cast<double>(config.dK()));
    case ScaleMode::None:
        return 1.0;
    case ScaleMode::SqrtDModel:
        return 1.0 / std::sqrt(static_cast<double>(config.dModel));
    }
    return 1.0;
}

} // namespace attn
