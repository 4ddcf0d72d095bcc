// The models already in the user's Hugging Face cache, for File → Open Model…'s list.
//
// huggingface_hub keeps a download of ORG/NAME as
//   <hub>/models--ORG--NAME/snapshots/<commit>/config.json, model.safetensors, …
// where <hub> is $HF_HUB_CACHE, else $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub,
// else ~/.cache/huggingface/hub. Nothing here downloads anything. No Qt.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace attn {

// One snapshot of a cached model that holds a config.json.
struct CachedModel {
    std::string name;     // the hub's name: "gpt2", "openai-community/gpt2"
    std::string family;   // config.json's model_type, or empty when it cannot be read
    std::string snapshot; // the snapshot folder's name (a commit hash)
    std::filesystem::path folder;
    bool operator==(const CachedModel&) const = default;
};

// The hub cache folder the environment names (whether it exists or not); empty when
// neither HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME nor HOME is set.
[[nodiscard]] std::filesystem::path huggingFaceHubDirectory();

// The hub's name of a cache folder "models--ORG--NAME" ("ORG/NAME"); empty for a folder
// of another kind ("datasets--…", ".locks").
[[nodiscard]] std::string hubModelName(const std::string& cacheFolderName);

// Every snapshot under `hub` with a config.json, by name then snapshot. A missing or
// unreadable folder gives none; a config.json that is not JSON still lists its snapshot
// (with an empty family): opening it says what is wrong.
[[nodiscard]] std::vector<CachedModel> findCachedModels(const std::filesystem::path& hub);

} // namespace attn
