#include "models/shardindex.h"

#include "base/jsonread.h"
#include "models/languagemodel.h"

#include <algorithm>

namespace attn {
namespace {

// A shard's name is a file name of the index's own folder, nothing else.
bool isPlainFileName(const std::string& name)
{
    return !name.empty() && name != "." && name.find('/') == std::string::npos &&
           name.find('\\') == std::string::npos && name.find("..") == std::string::npos &&
           name.find('\0') == std::string::npos;
}

} // namespace

ShardIndex parseShardIndex(std::string_view json, const std::filesystem::path& where)
{
    JsonValue root;
    try {
        root = parseJson(json);
    } catch (const JsonParseError& error) {
        throw ModelError(where, std::string("not JSON: ") + error.what());
    }
    if (!root.isObject())
        throw ModelError(where, "not a JSON object");
    const JsonValue* map = root.find("weight_map");
    if (!map)
        throw ModelError(where, "the field weight_map is missing");
    if (!map->isObject())
        throw ModelError(where, "weight_map is not an object");
    if (map->members().empty())
        throw ModelError(where, "weight_map names no tensor");
    ShardIndex index;
    for (const auto& [tensor, shard] : map->members()) {
        if (!shard.isString())
            throw ModelError(where, "the shard of " + tensor + " is not a string");
        if (!isPlainFileName(shard.text()))
            throw ModelError(where, "the shard \"" + shard.text() + "\" of " + tensor +
                                        " is not a file name of the model's folder");
        index.shardOf[tensor] = shard.text();
        if (std::ranges::find(index.shards, shard.text()) == index.shards.end())
            index.shards.push_back(shard.text());
    }
    return index;
}

} // namespace attn
