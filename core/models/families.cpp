#include "models/families.h"

#include "models/bert/model.h"
#include "models/configfields.h"
#include "models/gguf/ggufmodel.h"
#include "models/gpt2/model.h"
#include "models/llama/model.h"
#include "text/gpt2files.h"
#include "text/modeltokenizer.h"

namespace attn {

std::span<const ModelFamily> modelFamilies()
{
    // The table: one row a family.
    static const ModelFamily kFamilies[] = {
        {"GPT-2",
         {"gpt2"},
         "model.safetensors (or its shards), vocab.json, merges.txt",
         &Gpt2Model::open,
         &Gpt2Model::describe},
        {"Qwen/Llama/Mistral",
         {"qwen2", "qwen3", "llama", "mistral"},
         "model.safetensors (or its shards), tokenizer.json",
         &LlamaModel::open,
         &LlamaModel::describe},
        {"BERT",
         {"bert"},
         "model.safetensors (or its shards), vocab.txt",
         &BertModel::open,
         &BertModel::describe},
    };
    return kFamilies;
}

const ModelFamily* familyOf(std::string_view modelType)
{
    for (const ModelFamily& family : modelFamilies())
        for (const std::string_view type : family.modelTypes)
            if (type == modelType)
                return &family;
    return nullptr;
}

std::string supportedModelTypes()
{
    std::vector<std::string_view> types;
    for (const ModelFamily& family : modelFamilies())
        types.insert(types.end(), family.modelTypes.begin(), family.modelTypes.end());
    std::string out;
    for (std::size_t i = 0; i < types.size(); ++i) {
        if (i > 0)
            out += i + 1 == types.size() ? " and " : ", ";
        out += "\"" + std::string(types[i]) + "\"";
    }
    return out;
}

ModelInfo ModelFolder::info() const
{
    ModelInfo info;
    info.family = modelType;
    info.folder = path;
    info.name = modelName(path);
    // eos_token_id: a number, or a list of them (Llama 3, Qwen's chat models).
    if (const JsonValue* eos = config.find("eos_token_id")) {
        const auto add = [&](const JsonValue& value) {
            if (const auto id = value.asUnsigned(); id && *id < (1u << 31))
                info.endTokens.push_back(int(*id));
        };
        if (eos->isArray())
            for (const JsonValue& item : eos->items())
                add(item);
        else
            add(*eos);
    }
    return info;
}

void ModelFolder::checkVocabulary(const ModelTokenizer& tokenizer, int vocabulary,
                                  const std::filesystem::path& tokenizerFile)
{
    if (tokenizer.vocabularySize() > vocabulary)
        throw ModelError(tokenizerFile, "the vocabulary has ids up to " +
                                            std::to_string(tokenizer.vocabularySize() - 1) +
                                            ", more than config.json's vocab_size " +
                                            std::to_string(vocabulary));
}

ModelFolder readModelConfig(std::string_view json, const std::filesystem::path& folder)
{
    ModelFolder read;
    read.path = folder;
    read.configFile = folder / "config.json";
    read.config = parseConfigObject(json, read.configFile);
    if (!read.config.find("model_type"))
        throw ModelError(read.configFile, "the field model_type is missing");
    read.modelType = stringField(read.config, "model_type", "", read.configFile);
    return read;
}

std::shared_ptr<const LanguageModel> openModel(const std::filesystem::path& folder)
{
    // A GGUF file (llama.cpp's, Ollama's blob, LM Studio's): its own reader.
    if (isGgufFile(folder))
        return openGgufModel(folder);
    if (std::filesystem::is_regular_file(folder))
        throw ModelError(folder, "neither a model folder nor a GGUF file (it does not begin "
                                 "with \"GGUF\")");
    if (!std::filesystem::is_directory(folder))
        throw ModelError(folder, "not a folder");
    const std::filesystem::path configFile = folder / "config.json";
    if (!std::filesystem::exists(configFile))
        throw ModelError(configFile, "missing: a model folder holds config.json, "
                                     "model.safetensors (or its shards and "
                                     "model.safetensors.index.json) and the tokenizer's files");
    // 1. config.json, read once.
    std::string text;
    try {
        text = readTokenizerFile(configFile);
    } catch (const TokenizerFileError& error) {
        throw ModelError(configFile, error.fault());
    }
    const ModelFolder opened = readModelConfig(text, folder);
    // 2. Its model_type picks the family.
    const ModelFamily* family = familyOf(opened.modelType);
    if (!family)
        throw ModelError(opened.configFile, "model_type \"" + opened.modelType +
                                                "\" is not supported (this version runs " +
                                                supportedModelTypes() + ")");
    // 3. The family opens the rest.
    return family->open(opened);
}

} // namespace attn
