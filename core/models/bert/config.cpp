#include "models/bert/config.h"

#include "models/configfields.h"
#include "models/languagemodel.h"

namespace attn {
namespace {

// Whether config.json's model_type is this reader's.
bool isBertFamily(std::string_view modelType)
{
    return modelType == "bert";
}

} // namespace

BertConfig parseBertConfig(const JsonValue& config, const std::filesystem::path& file)
{
    // 1. Which family.
    if (!config.find("model_type"))
        throw ModelError(file, "the field model_type is missing");
    const std::string type = stringField(config, "model_type", "", file);
    if (!isBertFamily(type))
        throw ModelError(file, "model_type \"" + type +
                                   "\" is not supported (this reader runs \"bert\")");

    // 2. The sizes.
    BertConfig c;
    static_cast<HfSizes&>(c) = requiredHfSizes(config, file);
    c.tokenTypes = sizeField(config, "type_vocab_size", file).value_or(2);
    if (c.dModel % c.heads != 0)
        throw ModelError(file, "hidden_size " + std::to_string(c.dModel) +
                                   " is not divisible by num_attention_heads " +
                                   std::to_string(c.heads));
    c.headDim = c.dModel / c.heads;

    // 3. The numerics: LayerNorm's ε, the activation, the kind of positions.
    c.epsilon = realField(config, "layer_norm_eps", 1e-12, file, true);
    const std::string activation = stringField(config, "hidden_act", "gelu", file);
    if (activation != "gelu")
        throw ModelError(file, "hidden_act \"" + activation +
                                   "\" is not supported (this family runs \"gelu\", the erf form)");
    const std::string positions = stringField(config, "position_embedding_type", "absolute", file);
    if (positions != "absolute")
        throw ModelError(file, "position_embedding_type \"" + positions +
                                   "\" is not supported (this family runs \"absolute\")");
    return c;
}

} // namespace attn
