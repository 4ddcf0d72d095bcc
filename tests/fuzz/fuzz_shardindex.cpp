// libFuzzer target: a sharded checkpoint's model.safetensors.index.json reader
// (models/shardindex) on arbitrary bytes. It either refuses them with a ModelError naming the
// index and a fault, or returns an index whose every tensor names one of its shards, each
// shard a plain file name of the model's folder.
#include "models/languagemodel.h"
#include "models/shardindex.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    attn::ShardIndex index;
    try {
        index = attn::parseShardIndex(text, attn::kShardIndexFile);
    } catch (const attn::ModelError& error) {
        if (error.file() != attn::kShardIndexFile || error.fault().empty())
            std::abort();
        return 0;
    }
    if (index.shardOf.empty() || index.shards.empty())
        std::abort();
    for (const std::string& shard : index.shards)
        if (shard.empty() || shard.find('/') != std::string::npos ||
            shard.find("..") != std::string::npos)
            std::abort();
    for (const auto& [tensor, shard] : index.shardOf)
        if (std::ranges::find(index.shards, shard) == index.shards.end())
            std::abort();
    return 0;
}
