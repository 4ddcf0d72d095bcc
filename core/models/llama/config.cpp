#include "models/llama/config.h"

#include "models/configfields.h"
#include "models/languagemodel.h"

namespace attn {
namespace {

// Whether config.json's model_type is this reader's.
bool isLlamaFamily(std::string_view modelType)
{
    return modelType == "qwen2" || modelType == "qwen3" || modelType == "llama" ||
           modelType == "mistral";
}

// A factor rope scaling needs: a finite number > 0; "rope_scaling's factor is missing".
double ropeFactor(const JsonValue& rope, std::string_view object, std::string_view name,
                  const std::filesystem::path& file)
{
    if (!rope.find(name))
        throw ModelError(file, std::string(object) + "'s " + std::string(name) + " is missing");
    return realField(rope, name, 1.0, file, true);
}

// rope_scaling (older configs) or rope_parameters (newer): the default rotary embedding,
// or its linear or Llama 3 scaling (RopeScaling); other types are refused.
void readRopeScaling(const JsonValue& config, std::string_view name, RopeScaling& scaling,
                     const std::filesystem::path& file)
{
    const JsonValue* rope = config.find(name);
    if (!rope || rope->isNull())
        return;
    if (!rope->isObject())
        throw ModelError(file, std::string(name) + " is not an object");
    std::string type = stringField(*rope, "rope_type", "", file);
    if (type.empty())
        type = stringField(*rope, "type", "default", file);
    if (type == "default")
        return;
    if (type == "linear") {
        scaling.type = RopeScaling::Type::Linear;
        scaling.factor = ropeFactor(*rope, name, "factor", file);
    } else if (type == "llama3") {
        scaling.type = RopeScaling::Type::Llama3;
        scaling.factor = ropeFactor(*rope, name, "factor", file);
        scaling.lowFreqFactor = ropeFactor(*rope, name, "low_freq_factor", file);
        scaling.highFreqFactor = ropeFactor(*rope, name, "high_freq_factor", file);
        scaling.originalPositions =
            ropeFactor(*rope, name, "original_max_position_embeddings", file);
        if (scaling.highFreqFactor <= scaling.lowFreqFactor)
            throw ModelError(file, std::string(name) + "'s high_freq_factor must exceed its "
                                                       "low_freq_factor");
    } else {
        throw ModelError(file, std::string(name) + "'s rope type \"" + type +
                                   "\" is not supported (this version runs \"default\", "
                                   "\"linear\" and \"llama3\")");
    }
}

} // namespace

LlamaConfig parseLlamaConfig(const JsonValue& config, const std::filesystem::path& file)
{
    // 1. Which family.
    LlamaConfig c;
    if (!config.find("model_type"))
        throw ModelError(file, "the field model_type is missing");
    c.modelType = stringField(config, "model_type", "", file);
    if (!isLlamaFamily(c.modelType))
        throw ModelError(file, "model_type \"" + c.modelType +
                                   "\" is not supported (this reader runs \"qwen2\", \"qwen3\", "
                                   "\"llama\" and \"mistral\")");

    // 2. The sizes.
    static_cast<HfSizes&>(c) = requiredHfSizes(config, file);
    c.kvHeads = sizeField(config, "num_key_value_heads", file, true).value_or(c.heads);
    if (c.heads % c.kvHeads != 0)
        throw ModelError(file, "num_attention_heads " + std::to_string(c.heads) +
                                   " is not divisible by num_key_value_heads " +
                                   std::to_string(c.kvHeads));
    if (const std::optional<int> headDim = sizeField(config, "head_dim", file, true)) {
        c.headDim = *headDim;
    } else {
        if (c.dModel % c.heads != 0)
            throw ModelError(file, "hidden_size " + std::to_string(c.dModel) +
                                       " is not divisible by num_attention_heads " +
                                       std::to_string(c.heads));
        c.headDim = c.dModel / c.heads;
    }
    if (c.headDim % 2 != 0)
        throw ModelError(file, "head_dim " + std::to_string(c.headDim) +
                                   " is odd: the rotary embedding turns pairs of its halves");

    // 3. The numerics: RMSNorm's ε, the rotary embedding's base, the activation.
    c.epsilon = realField(config, "rms_norm_eps", 1e-6, file);
    readRopeScaling(config, "rope_scaling", c.ropeScaling, file);
    readRopeScaling(config, "rope_parameters", c.ropeScaling, file); // newer: it wins
    c.ropeTheta = realField(config, "rope_theta", 10000.0, file, true);
    if (const JsonValue* parameters = config.find("rope_parameters");
        parameters && parameters->isObject())
        c.ropeTheta = realField(*parameters, "rope_theta", c.ropeTheta, file, true);
    const std::string activation = stringField(config, "hidden_act", "silu", file);
    if (activation != "silu")
        throw ModelError(file, "hidden_act \"" + activation +
                                   "\" is not supported (this family uses \"silu\")");
    // Mistral's sliding window (null: none); Qwen2's is off unless use_sliding_window.
    if (c.modelType == "mistral")
        c.slidingWindow = sizeField(config, "sliding_window", file, true).value_or(0);
    if (boolField(config, "use_sliding_window", false, file))
        throw ModelError(file, "use_sliding_window true is not supported (every layer here "
                               "attends to the whole text)");

    // 4. Which tensors exist.
    c.tiedEmbeddings = boolField(config, "tie_word_embeddings", false, file);
    const bool attentionBias = boolField(config, "attention_bias", false, file);
    c.qkvBias = c.modelType == "qwen2" || attentionBias;
    c.outputBias = c.modelType != "qwen2" && attentionBias;
    c.mlpBias = c.modelType == "llama" && boolField(config, "mlp_bias", false, file);
    c.qkNorm = c.modelType == "qwen3";
    return c;
}

} // namespace attn
