#include "models/hfcache.h"

#include "base/jsonread.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>
#include <tuple>

namespace attn {
namespace {

namespace fs = std::filesystem;

// An environment variable that is set and not empty.
const char* variable(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value ? value : nullptr;
}

// config.json's model_type, or empty: the list only shows it, opening checks it.
std::string modelType(const fs::path& config)
{
    std::ifstream in(config, std::ios::binary);
    if (!in)
        return {};
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    try {
        const JsonValue json = parseJson(text);
        const JsonValue* type = json.isObject() ? json.find("model_type") : nullptr;
        return type && type->isString() ? type->text() : std::string();
    } catch (const JsonParseError&) {
        return {};
    }
}

} // namespace

fs::path huggingFaceHubDirectory()
{
    if (const char* hub = variable("HF_HUB_CACHE"))
        return fs::path(hub);
    if (const char* home = variable("HF_HOME"))
        return fs::path(home) / "hub";
    if (const char* cache = variable("XDG_CACHE_HOME"))
        return fs::path(cache) / "huggingface" / "hub";
    if (const char* home = variable("HOME"))
        return fs::path(home) / ".cache" / "huggingface" / "hub";
    return {};
}

std::string hubModelName(const std::string& cacheFolderName)
{
    static constexpr std::string_view prefix = "models--";
    if (!cacheFolderName.starts_with(prefix) || cacheFolderName.size() == prefix.size())
        return {};
    const std::string name = cacheFolderName.substr(prefix.size());
    // "ORG--NAME" → "ORG/NAME"; the hub allows no "--" inside a name.
    const std::size_t dash = name.find("--");
    if (dash == std::string::npos)
        return name;
    return name.substr(0, dash) + '/' + name.substr(dash + 2);
}

std::vector<CachedModel> findCachedModels(const fs::path& hub)
{
    std::vector<CachedModel> models;
    std::error_code error;
    if (hub.empty() || !fs::is_directory(hub, error))
        return models;
    for (const fs::directory_entry& repository : fs::directory_iterator(hub, error)) {
        const std::string name = hubModelName(repository.path().filename().string());
        const fs::path snapshots = repository.path() / "snapshots";
        if (name.empty() || !fs::is_directory(snapshots, error))
            continue;
        for (const fs::directory_entry& snapshot : fs::directory_iterator(snapshots, error)) {
            const fs::path config = snapshot.path() / "config.json";
            if (!fs::is_regular_file(config, error)) // a symlink into blobs/ counts
                continue;
            models.push_back(
                {name, modelType(config), snapshot.path().filename().string(), snapshot.path()});
        }
    }
    std::ranges::sort(models, [](const CachedModel& a, const CachedModel& b) {
        return std::tie(a.name, a.snapshot) < std::tie(b.name, b.snapshot);
    });
    return models;
}

} // namespace attn
