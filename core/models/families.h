// The families AttnScope runs, in one table, and opening a model folder through it.
//
// A model folder in Hugging Face's layout holds config.json, model.safetensors (or a bigger
// model's shards, model-00001-of-00002.safetensors …, and model.safetensors.index.json) and
// the tokenizer's files. openModel reads config.json once, finds the family whose row lists its
// model_type, and hands the folder and the parsed config to that family's open. Adding a
// family is one folder (core/models/<family>/: config, weights, model) and one row here
// (docs/architecture.md, "Adding a model family"). No Qt.
#pragma once

#include "base/jsonread.h"
#include "models/languagemodel.h"
#include "text/gpt2files.h"

#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

class ModelTokenizer;

// A model folder being opened: its path and its config.json, read and parsed once.
struct ModelFolder {
    std::filesystem::path path;
    std::filesystem::path configFile; // path / "config.json"
    JsonValue config;                 // a JSON object
    std::string modelType;            // config's model_type

    // The folder's file `name`.
    [[nodiscard]] std::filesystem::path file(std::string_view name) const { return path / name; }
    // What every family's ModelInfo begins with: the family (model_type), the folder and
    // its name (modelName).
    [[nodiscard]] ModelInfo info() const;
    // Throws ModelError naming `tokenizerFile` when the tokenizer has ids beyond
    // config.json's vocab_size (`vocabulary`).
    static void checkVocabulary(const ModelTokenizer& tokenizer, int vocabulary,
                                const std::filesystem::path& tokenizerFile);
};

// What `read` (a tokenizer's reader) returns; a TokenizerFileError it throws becomes a
// ModelError naming the same file and fault, as every family's open reports it.
template <class Read> auto readTokenizer(Read&& read) -> decltype(read())
{
    try {
        return read();
    } catch (const TokenizerFileError& error) {
        throw ModelError(error.file(), error.fault());
    }
}

// One row of the table: a family.
struct ModelFamily {
    std::string_view name;                    // "GPT-2", "Qwen/Llama/Mistral", "BERT"
    std::vector<std::string_view> modelTypes; // config.json's model_type values it runs
    std::string_view files;                   // the files a folder of it holds besides config.json
    // Opens the folder: the family's config, its tokenizer, then its weights. Throws
    // ModelError naming the file and the fault.
    std::shared_ptr<const LanguageModel> (*open)(const ModelFolder& folder);
    // What its config.json says (ModelInfo's sizes, family, folder), without the tokenizer
    // or the weights. Throws ModelError naming config.json as open does.
    ModelInfo (*describe)(const ModelFolder& folder);
};

// Every family, in the order the interface lists them.
[[nodiscard]] std::span<const ModelFamily> modelFamilies();

// The family that runs `modelType`, or null.
[[nodiscard]] const ModelFamily* familyOf(std::string_view modelType);

// Every model_type the table runs, quoted and joined: "\"gpt2\", \"qwen2\", … and \"bert\"".
[[nodiscard]] std::string supportedModelTypes();

// A ModelFolder of config.json's text `json` (in `folder`, "" for none): parsed, its
// model_type read. Throws ModelError naming config.json: not JSON, not an object, no
// model_type, a model_type not a string.
[[nodiscard]] ModelFolder readModelConfig(std::string_view json,
                                          const std::filesystem::path& folder = {});

// Opens the model folder `folder` (config.json, model.safetensors or its shards, and the
// tokenizer's files) after config.json's model_type, or a GGUF file (gguf/ggufmodel.h).
// Throws ModelError naming the file and the fault: not a folder, a missing file, a config
// that is not JSON or lacks a field, a model_type no
// family runs (naming those that are), sizes that do not fit together, a tensor missing or
// of the wrong shape, a truncated weights file, an unknown dtype.
[[nodiscard]] std::shared_ptr<const LanguageModel> openModel(const std::filesystem::path& folder);

} // namespace attn
