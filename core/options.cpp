#include "options.h"

#include <cmath>

namespace attn {

std::string validate(const Config& config)
{
    if (config.dModel < kMinDModel || config.dModel > kMaxDModel)
        return "d_model must be between " + std::to_string(kMinDModel) + " and " +
               std::to_string(kMaxDModel) + ", not " + std::to_string(config.dModel);
    if (config.heads < 1 || config.heads > config.dModel)
        return "heads must be between 1 and d_model (" + std::to_string(config.dModel) + "), not " +
               std::to_string(config.heads);
    if (config.dModel % config.heads != 0)
        return "heads (" + std::to_string(config.heads) + ") must divide d_model (" +
               std::to_string(config.dModel) + ")";
    if (!(config.temperature > 0.0f) || !std::isfinite(config.temperature))
        return "temperature must be a positive number";
    if (config.temperature < kMinTemperature || config.temperature > kMaxTemperature)
        return "temperature must be between 1e-06 and 1e+06";
    if (config.attention == AttentionKind::Cross && config.mask == MaskKind::Causal)
        return "a causal mask has no meaning in cross-attention: the keys come from the other "
               "text, so none of them is in a query's future";
    return {};
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
