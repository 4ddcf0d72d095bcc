#include "models/gpt2/config.h"

#include "models/configfields.h"
#include "models/languagemodel.h"

#include <cmath>
#include <cstdlib>
#include <optional>

namespace attn {

Gpt2Config parseGpt2Config(const JsonValue& config, const std::filesystem::path& file)
{
    // 1. Which family: the field is required, since every family reads other fields.
    Gpt2Config c;
    const JsonValue* type = config.find("model_type");
    if (!type)
        throw ModelError(file, "the field model_type is missing");
    c.modelType = stringField(config, "model_type", "", file);
    if (c.modelType != "gpt2")
        throw ModelError(file, "model_type \"" + c.modelType +
                                   "\" is not supported (this reader runs \"gpt2\")");

    // 2. The sizes.
    c.layers = requiredSize(config, "n_layer", file);
    c.heads = requiredSize(config, "n_head", file);
    c.dModel = requiredSize(config, "n_embd", file);
    c.vocabulary = requiredSize(config, "vocab_size", file);
    std::optional<int> positions = sizeField(config, "n_positions", file);
    if (!positions)
        positions = sizeField(config, "n_ctx", file);
    if (!positions)
        throw ModelError(file, "the field n_positions is missing");
    c.positions = *positions;
    if (c.dModel % c.heads != 0)
        throw ModelError(file, "n_embd " + std::to_string(c.dModel) +
                                   " is not divisible by n_head " + std::to_string(c.heads));
    const JsonValue* inner = config.find("n_inner");
    c.inner = inner && !inner->isNull() ? requiredSize(config, "n_inner", file) : 4 * c.dModel;

    // 3. The numerics: LayerNorm's ε and the MLP's activation.
    if (const JsonValue* epsilon = config.find("layer_norm_epsilon")) {
        if (!epsilon->isNumber())
            throw ModelError(file, "layer_norm_epsilon is not a number");
        c.epsilon = std::strtod(epsilon->text().c_str(), nullptr);
        if (!std::isfinite(c.epsilon) || c.epsilon < 0)
            throw ModelError(file, "layer_norm_epsilon " + epsilon->text() +
                                       " is not a finite number ≥ 0");
    }
    const std::string activation = stringField(config, "activation_function", "gelu_new", file);
    if (activation != "gelu_new")
        throw ModelError(file, "activation_function \"" + activation +
                                   "\" is not supported (GPT-2 uses \"gelu_new\")");
    return c;
}

} // namespace attn
