// The models already on the user's disk, in the folders where the tools that download them
// keep them, for File → Open Model…'s list and `attnscope models`. Nothing here downloads
// anything, and nothing is opened: each model is listed from its folder's small files. No Qt.
//
//   Hugging Face  <hub>/models--ORG--NAME/snapshots/<commit>/ (models/hfcache)
//   ModelScope    $MODELSCOPE_CACHE, else ~/.cache/modelscope/hub:
//                 models/ORG/NAME/ (newer) or ORG/NAME/ (older), each a folder with
//                 config.json (or the same under hub/, as a newer ModelScope keeps it under
//                 its MODELSCOPE_CACHE); a "." of the name is "___" in the folder's name
//   Ollama        $OLLAMA_MODELS, else ~/.ollama/models and the Linux service's
//                 /usr/share/ollama/.ollama/models: manifests/<registry>/<namespace>/<model>/<tag>
//                 (an OCI manifest) whose model layer is the GGUF file blobs/sha256-<hex>
//   LM Studio     ~/.lmstudio/models and the older ~/.cache/lm-studio/models:
//                 <publisher>/<repo>/<file>.gguf, or <publisher>/<repo>/ with config.json
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// The tool that downloaded a model, in the order the lists show them.
enum class ModelSource { HuggingFace, ModelScope, Ollama, LmStudio };

// The tool's name as it spells it: "Hugging Face", "ModelScope", "Ollama", "LM Studio".
[[nodiscard]] std::string_view modelSourceName(ModelSource source);

// One model on disk.
struct DiskModel {
    ModelSource source = ModelSource::HuggingFace;
    std::string name;           // as the tool shows it: "Qwen/Qwen2.5-0.5B", "qwen2.5:0.5b"
    std::filesystem::path path; // what openModel opens: a model folder or a GGUF file
    std::string family;         // config.json's model_type or Ollama's model_family; "" unknown
    std::uint64_t bytes = 0;    // the weights on disk: the safetensors files, the GGUF file
    std::string quantization;   // "BF16", "F16", "Q4_K_M", "IQ4_XS", "GPTQ"; "" unknown
    std::string revision;       // a Hugging Face snapshot's commit, an Ollama blob's digest
    bool missing = false;       // an Ollama manifest whose model blob is not on disk
    bool operator==(const DiskModel&) const = default;
};

// A folder where a tool keeps its models.
struct ModelCacheFolder {
    ModelSource source = ModelSource::HuggingFace;
    std::filesystem::path folder;
    bool operator==(const ModelCacheFolder&) const = default;
};

// Every folder the environment names for every tool (whether it exists or not), by tool:
// HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME, MODELSCOPE_CACHE, OLLAMA_MODELS and HOME.
[[nodiscard]] std::vector<ModelCacheFolder> modelCacheFolders();

// The models in one tool's folder, by name. A missing or unreadable folder gives none; a
// file that cannot be read is skipped, or listed with what could be read (opening it says
// what is wrong).
[[nodiscard]] std::vector<DiskModel> findModelsIn(const ModelCacheFolder& cache);

// The models in every folder of `caches`, by tool then name; a folder named twice lists once.
[[nodiscard]] std::vector<DiskModel> findDiskModels(const std::vector<ModelCacheFolder>& caches);

// A safetensors dtype of config.json's torch_dtype (or dtype): "bfloat16" → "BF16",
// "float16" → "F16", "float32" → "F32"; another text upper-cased; "" for none.
[[nodiscard]] std::string dtypeName(std::string_view torchDtype);

// The quantization a GGUF file's name carries, as LM Studio shows it: "Q4_K_M" of
// "qwen2.5-0.5b-instruct-q4_k_m.gguf", "IQ4_XS", "Q8_0", "F16", "BF16"; "" for none.
[[nodiscard]] std::string quantizationOfFileName(std::string_view fileName);

// An Ollama manifest's name as `ollama list` shows it, from its path's last four parts:
// "qwen2.5:0.5b" (registry.ollama.ai/library/qwen2.5/0.5b), "user/model:tag" (another
// namespace), "host/ns/model:tag" (another registry).
[[nodiscard]] std::string ollamaModelName(std::string_view registry, std::string_view space,
                                          std::string_view model, std::string_view tag);

// A ModelScope folder's name with each "___" turned back into the "." it stands for.
[[nodiscard]] std::string modelScopeName(std::string_view folderName);

} // namespace attn
