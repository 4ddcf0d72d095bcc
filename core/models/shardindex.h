// A sharded checkpoint's model.safetensors.index.json: which shard holds each tensor.
//
// Hugging Face splits a bigger model's weights into model-00001-of-00002.safetensors, …
// beside an index {"metadata": {...}, "weight_map": {"tensor.name": "<shard file>", …}}.
// The shards are files of the same folder: a name with a path separator or ".." is refused,
// so that an index cannot point outside its folder. No Qt.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

inline constexpr std::string_view kShardIndexFile = "model.safetensors.index.json";

struct ShardIndex {
    std::map<std::string, std::string> shardOf; // tensor name → shard file name
    std::vector<std::string> shards;            // each shard once, in the order first named
};

// The index of the JSON text `json` (the file `where`, named in messages). Throws ModelError
// naming `where`: not JSON, not an object, no weight_map or not an object, an empty
// weight_map, a shard name that is not a string, empty, or holds a path separator or "..".
[[nodiscard]] ShardIndex parseShardIndex(std::string_view json, const std::filesystem::path& where);

} // namespace attn
