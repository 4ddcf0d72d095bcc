#include "models/modelcaches.h"

#include "base/jsonread.h"
#include "models/gguf/ggufmodel.h"
#include "models/hfcache.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>
#include <tuple>

namespace attn {
namespace {

namespace fs = std::filesystem;

// Small files only (a config.json, a manifest, Ollama's config blob): a folder's list must
// not read a model's weights by mistake.
constexpr std::uintmax_t kMaxSmallFile = 4 << 20;

DiskModel listed(ModelSource source, std::string name, fs::path path)
{
    DiskModel model;
    model.source = source;
    model.name = std::move(name);
    model.path = std::move(path);
    return model;
}

const char* variable(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value ? value : nullptr;
}

// The JSON object in `file`, or null when it is missing, too big, not JSON or not an object.
JsonValue readJsonObject(const fs::path& file)
{
    std::error_code error;
    const std::uintmax_t size = fs::file_size(file, error);
    if (error || size > kMaxSmallFile)
        return {};
    std::ifstream in(file, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    try {
        JsonValue json = parseJson(text);
        return json.isObject() ? json : JsonValue();
    } catch (const JsonParseError&) {
        return {};
    }
}

std::string textField(const JsonValue& object, std::string_view name)
{
    const JsonValue* field = object.isObject() ? object.find(name) : nullptr;
    return field && field->isString() ? field->text() : std::string();
}

std::string upper(std::string text)
{
    for (char& c : text)
        c = char(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

// The sum of the sizes of the folder's *.safetensors files (a symlink counts as its target,
// as in Hugging Face's snapshots): a model's weights, one file or its shards.
std::uint64_t weightsBytes(const fs::path& folder)
{
    std::uint64_t bytes = 0;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error))
        if (entry.path().extension() == ".safetensors" && fs::is_regular_file(entry.path(), error))
            bytes += fs::file_size(entry.path(), error);
    return bytes;
}

std::vector<fs::path> subfolders(const fs::path& folder)
{
    std::vector<fs::path> found;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder, error))
        if (entry.is_directory(error) && !entry.path().filename().string().starts_with('.'))
            found.push_back(entry.path());
    std::ranges::sort(found);
    return found;
}

// A model folder in Hugging Face's layout: its family, weights' size and dtype from the
// folder's own files. A quantized checkpoint says how (GPTQ, AWQ…) rather than its dtype.
DiskModel folderModel(ModelSource source, std::string name, const fs::path& folder)
{
    DiskModel model = listed(source, std::move(name), folder);
    const JsonValue config = readJsonObject(folder / "config.json");
    model.family = textField(config, "model_type");
    std::string dtype = textField(config, "torch_dtype");
    model.quantization = dtypeName(dtype.empty() ? textField(config, "dtype") : dtype);
    if (const JsonValue* quantized =
            config.isObject() ? config.find("quantization_config") : nullptr)
        if (const std::string method = textField(*quantized, "quant_method"); !method.empty())
            model.quantization = upper(method);
    model.bytes = weightsBytes(folder);
    return model;
}

std::vector<DiskModel> huggingFaceModels(const fs::path& hub)
{
    std::vector<DiskModel> models;
    for (const CachedModel& cached : findCachedModels(hub)) {
        DiskModel model = folderModel(ModelSource::HuggingFace, cached.name, cached.folder);
        model.revision = cached.snapshot;
        models.push_back(std::move(model));
    }
    return models;
}

// ModelScope: <root>/models/ORG/NAME (newer) and <root>/ORG/NAME (older), each with
// config.json; and the same under <root>/hub, where a newer ModelScope's MODELSCOPE_CACHE
// (the cache's root, not its hub) puts them.
std::vector<DiskModel> modelScopeModels(const fs::path& root)
{
    std::vector<DiskModel> models;
    std::error_code error;
    for (const fs::path& hub : {root, root / "hub"})
        for (const bool newer : {true, false})
            for (const fs::path& org : subfolders(newer ? hub / "models" : hub)) {
                const fs::path kind = org.filename();
                if (!newer && (kind == "models" || kind == "datasets" || kind == "hub"))
                    continue;
                for (const fs::path& folder : subfolders(org))
                    if (fs::is_regular_file(folder / "config.json", error))
                        models.push_back(folderModel(ModelSource::ModelScope,
                                                     kind.string() + '/' +
                                                         modelScopeName(folder.filename().string()),
                                                     folder));
            }
    return models;
}

// A GGUF file's family and quantization from its header, where the model has none yet.
void fillFromHeader(DiskModel& model)
{
    const std::optional<GgufSummary> summary = ggufSummary(model.path);
    if (!summary)
        return;
    if (model.family.empty())
        model.family = summary->architecture;
    if (model.quantization.empty())
        model.quantization = summary->fileType;
}

// One Ollama manifest: its model layer's blob (a GGUF file) and what the config blob says.
// Nothing for a manifest that is not one or has no model layer (an adapter, a projector).
bool ollamaModel(const fs::path& root, const fs::path& manifest, DiskModel& model)
{
    const JsonValue json = readJsonObject(manifest);
    const JsonValue* layers = json.isObject() ? json.find("layers") : nullptr;
    if (!layers || !layers->isArray())
        return false;
    const auto blobOf = [&](const std::string& digest) {
        // "sha256:<hex>" names the file blobs/sha256-<hex>.
        const std::size_t colon = digest.find(':');
        if (colon == std::string::npos || digest.find_first_of("/\\.") != std::string::npos)
            return fs::path();
        return root / "blobs" / (digest.substr(0, colon) + '-' + digest.substr(colon + 1));
    };
    for (const JsonValue& layer : layers->items()) {
        if (textField(layer, "mediaType") != "application/vnd.ollama.image.model")
            continue;
        model.revision = textField(layer, "digest");
        model.path = blobOf(model.revision);
        if (model.path.empty())
            return false;
        std::error_code error;
        model.missing = !fs::is_regular_file(model.path, error);
        if (const JsonValue* size = layer.find("size"); size && size->asUnsigned())
            model.bytes = *size->asUnsigned();
        if (!model.missing)
            model.bytes = fs::file_size(model.path, error);
        const JsonValue* config = json.find("config");
        const fs::path configBlob =
            config && config->isObject() ? blobOf(textField(*config, "digest")) : fs::path();
        if (!configBlob.empty()) {
            const JsonValue about = readJsonObject(configBlob);
            model.family = textField(about, "model_family");
            model.quantization = textField(about, "file_type");
        }
        if (!model.missing && (model.family.empty() || model.quantization.empty()))
            fillFromHeader(model);
        return true;
    }
    return false;
}

std::vector<DiskModel> ollamaModels(const fs::path& root)
{
    std::vector<DiskModel> models;
    std::error_code error;
    for (const fs::path& registry : subfolders(root / "manifests"))
        for (const fs::path& space : subfolders(registry))
            for (const fs::path& model : subfolders(space))
                for (const fs::directory_entry& tag : fs::directory_iterator(model, error)) {
                    DiskModel found = listed(
                        ModelSource::Ollama,
                        ollamaModelName(registry.filename().string(), space.filename().string(),
                                        model.filename().string(), tag.path().filename().string()),
                        {});
                    if (tag.is_regular_file(error) && ollamaModel(root, tag.path(), found))
                        models.push_back(std::move(found));
                }
    return models;
}

// LM Studio: <root>/PUBLISHER/REPO/*.gguf, or REPO a folder with config.json.
std::vector<DiskModel> lmStudioModels(const fs::path& root)
{
    std::vector<DiskModel> models;
    std::error_code error;
    for (const fs::path& publisher : subfolders(root))
        for (const fs::path& repository : subfolders(publisher)) {
            const std::string name =
                publisher.filename().string() + '/' + repository.filename().string();
            if (fs::is_regular_file(repository / "config.json", error))
                models.push_back(folderModel(ModelSource::LmStudio, name, repository));
            for (const fs::directory_entry& file : fs::directory_iterator(repository, error)) {
                const std::string fileName = file.path().filename().string();
                if (file.path().extension() != ".gguf" || !file.is_regular_file(error))
                    continue;
                DiskModel model = listed(ModelSource::LmStudio, name + '/' + fileName, file.path());
                model.bytes = file.file_size(error);
                fillFromHeader(model);
                if (model.quantization.empty())
                    model.quantization = quantizationOfFileName(fileName);
                models.push_back(std::move(model));
            }
        }
    return models;
}

} // namespace

std::string_view modelSourceName(ModelSource source)
{
    switch (source) {
    case ModelSource::HuggingFace:
        return "Hugging Face";
    case ModelSource::ModelScope:
        return "ModelScope";
    case ModelSource::Ollama:
        return "Ollama";
    case ModelSource::LmStudio:
        return "LM Studio";
    }
    return {};
}

std::vector<ModelCacheFolder> modelCacheFolders()
{
    std::vector<ModelCacheFolder> folders;
    const auto add = [&](ModelSource source, const fs::path& folder) {
        if (!folder.empty())
            folders.push_back({source, folder});
    };
    const char* home = variable("HOME");
    const fs::path homePath = home ? fs::path(home) : fs::path();
    add(ModelSource::HuggingFace, huggingFaceHubDirectory());
    if (const char* cache = variable("MODELSCOPE_CACHE"))
        add(ModelSource::ModelScope, cache);
    else if (home)
        add(ModelSource::ModelScope, homePath / ".cache" / "modelscope" / "hub");
    if (const char* ollama = variable("OLLAMA_MODELS")) {
        add(ModelSource::Ollama, ollama);
    } else {
        if (home)
            add(ModelSource::Ollama, homePath / ".ollama" / "models");
        add(ModelSource::Ollama, "/usr/share/ollama/.ollama/models"); // the Linux service's
    }
    if (home) {
        add(ModelSource::LmStudio, homePath / ".lmstudio" / "models");
        add(ModelSource::LmStudio, homePath / ".cache" / "lm-studio" / "models");
    }
    return folders;
}

std::vector<DiskModel> findModelsIn(const ModelCacheFolder& cache)
{
    std::error_code error;
    if (cache.folder.empty() || !fs::is_directory(cache.folder, error))
        return {};
    std::vector<DiskModel> models;
    switch (cache.source) {
    case ModelSource::HuggingFace:
        models = huggingFaceModels(cache.folder);
        break;
    case ModelSource::ModelScope:
        models = modelScopeModels(cache.folder);
        break;
    case ModelSource::Ollama:
        models = ollamaModels(cache.folder);
        break;
    case ModelSource::LmStudio:
        models = lmStudioModels(cache.folder);
        break;
    }
    std::ranges::stable_sort(models, {}, &DiskModel::name);
    return models;
}

std::vector<DiskModel> findDiskModels(const std::vector<ModelCacheFolder>& caches)
{
    std::vector<DiskModel> models;
    std::set<fs::path> seen; // a folder named twice (a HOME of /usr/share/ollama) lists once
    for (const ModelCacheFolder& cache : caches) {
        std::error_code error;
        const fs::path canonical = fs::weakly_canonical(cache.folder, error);
        if (!seen.insert(error ? cache.folder : canonical).second)
            continue;
        for (DiskModel& model : findModelsIn(cache))
            models.push_back(std::move(model));
    }
    std::ranges::stable_sort(models, [](const DiskModel& a, const DiskModel& b) {
        return std::tie(a.source, a.name) < std::tie(b.source, b.name);
    });
    return models;
}

std::string dtypeName(std::string_view torchDtype)
{
    std::string name(torchDtype);
    if (name.starts_with("torch."))
        name.erase(0, 6);
    if (name == "bfloat16")
        return "BF16";
    if (name == "float16" || name == "half")
        return "F16";
    if (name == "float32" || name == "float")
        return "F32";
    return upper(name);
}

std::string quantizationOfFileName(std::string_view fileName)
{
    std::string stem(fileName);
    if (stem.size() > 5 && upper(stem.substr(stem.size() - 5)) == ".GGUF")
        stem.erase(stem.size() - 5);
    // The last part between "-" and "." that names a quantization: Q4_K_M, IQ4_XS, Q8_0,
    // F16, BF16, F32.
    std::string found;
    std::size_t begin = 0;
    while (begin <= stem.size()) {
        const std::size_t end = std::min(stem.find_first_of("-.", begin), stem.size());
        const std::string part = upper(stem.substr(begin, end - begin));
        const std::size_t digit = part.starts_with("IQ") ? 2 : part.starts_with('Q') ? 1 : 0;
        const bool quant = digit > 0 && part.size() > digit &&
                           std::isdigit(static_cast<unsigned char>(part[digit]));
        if (quant || part == "F16" || part == "BF16" || part == "F32" || part == "FP16")
            found = part == "FP16" ? "F16" : part;
        begin = end + 1;
    }
    return found;
}

std::string ollamaModelName(std::string_view registry, std::string_view space,
                            std::string_view model, std::string_view tag)
{
    std::string name;
    if (registry != "registry.ollama.ai")
        name = std::string(registry) + '/' + std::string(space) + '/';
    else if (space != "library")
        name = std::string(space) + '/';
    return name + std::string(model) + ':' + std::string(tag);
}

std::string modelScopeName(std::string_view folderName)
{
    std::string name;
    for (std::size_t i = 0; i < folderName.size();) {
        const bool dot = folderName.substr(i, 3) == "___";
        name += dot ? '.' : folderName[i];
        i += dot ? 3 : 1;
    }
    return name;
}

} // namespace attn
