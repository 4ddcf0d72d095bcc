#include "modelscommand.h"

#include "clicommands.h"
#include "formats/commandline.h"
#include "io/atomicwrite.h"
#include "models/modelcaches.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace attn::cli {

std::string bytesText(std::uint64_t bytes)
{
    static constexpr std::array units{"B", "KB", "MB", "GB", "TB"};
    double value = double(bytes);
    std::size_t unit = 0;
    while (value >= 1000 && unit + 1 < units.size()) {
        value /= 1000;
        ++unit;
    }
    char text[32];
    // One decimal under 10 ("1.1 GB"), none above ("397 MB") or for bytes.
    std::snprintf(text, sizeof text, unit > 0 && value < 10 ? "%.1f %s" : "%.0f %s", value,
                  units[unit]);
    return text;
}

int modelsCommand(const std::vector<std::string>& args)
{
    try {
        applyOptions(args, {});
    } catch (const InputError& error) {
        std::fprintf(stderr, "attnscope: %s\n", error.what());
        return kExitUsage;
    }
    const std::vector<ModelCacheFolder> caches = modelCacheFolders();
    const std::vector<DiskModel> models = findDiskModels(caches);
    std::string out;
    if (models.empty()) {
        out = "No models on this computer. Looked in:\n";
        for (const ModelCacheFolder& cache : caches)
            out += "  " + std::string(modelSourceName(cache.source)) + ": " +
                   cache.folder.string() + "\n";
    } else {
        // 1. The rows' cells, the header first; 2. each column as wide as its widest cell.
        std::vector<std::array<std::string, 5>> rows{
            {"NAME", "SOURCE", "SIZE", "QUANTIZATION", "PATH"}};
        for (const DiskModel& model : models)
            rows.push_back({model.name, std::string(modelSourceName(model.source)),
                            bytesText(model.bytes),
                            model.quantization.empty() ? "-" : model.quantization,
                            model.path.string() + (model.missing ? " (missing)" : "")});
        std::array<std::size_t, 5> width{};
        for (const auto& row : rows)
            for (std::size_t c = 0; c < row.size(); ++c)
                width[c] = std::max(width[c], row[c].size());
        for (const auto& row : rows) {
            for (std::size_t c = 0; c + 1 < row.size(); ++c)
                out += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
            out += row.back() + "\n";
        }
    }
    if (const std::string problem = writeFileAtomically("-", out); !problem.empty()) {
        std::fprintf(stderr, "attnscope: %s\n", problem.c_str());
        return kExitWriteFailed;
    }
    return kExitOk;
}

} // namespace attn::cli
