// A fake home holding a few models in every tool's folder (core/models/modelcaches), as the
// tests of the list, of File → Open Model… and of `attnscope models` need them: small files
// only, weights of a few bytes and GGUF files that are only their magic.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace diskmodels {

inline void write(const std::filesystem::path& path, const std::string& bytes)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

// A GGUF file of `bytes` bytes: the magic, then zeros.
inline std::string gguf(std::size_t bytes)
{
    std::string file = "GGUF";
    file.resize(bytes, '\0');
    return file;
}

// What writeModelCaches writes, as the list shows it: source, name, family, bytes,
// quantization, missing, each model once.
struct Expected {
    std::string source, name, family;
    unsigned long long bytes;
    std::string quantization;
    bool missing = false;
};

// Writes under `home` (the fake HOME, no other variable set) a model or two in each tool's
// folder; returns them in the list's order (by tool, then name).
inline std::vector<Expected> writeModelCaches(const std::filesystem::path& home)
{
    namespace fs = std::filesystem;
    // 1. Hugging Face: one file, and a sharded snapshot.
    const fs::path hub = home / ".cache/huggingface/hub";
    const fs::path qwen = hub / "models--Qwen--Qwen2.5-0.5B/snapshots/a1b2c3d4e5f6";
    write(qwen / "config.json", R"({"model_type": "qwen2", "torch_dtype": "bfloat16"})");
    write(qwen / "model.safetensors", std::string(100, 'w'));
    const fs::path big = hub / "models--HuggingFaceTB--SmolLM2-360M/snapshots/0123456789";
    write(big / "config.json", R"({"model_type": "llama", "torch_dtype": "float32"})");
    write(big / "model-00001-of-00002.safetensors", std::string(30, 'w'));
    write(big / "model-00002-of-00002.safetensors", std::string(12, 'w'));
    write(big / "model.safetensors.index.json", R"({"weight_map": {}})");
    // 2. ModelScope, the newer layout and the older, "." kept as "___".
    const fs::path scope = home / ".cache/modelscope/hub";
    write(scope / "models/Qwen/Qwen2___5-0___5B-Instruct/config.json",
          R"({"model_type": "qwen2", "torch_dtype": "float16"})");
    write(scope / "models/Qwen/Qwen2___5-0___5B-Instruct/model.safetensors", std::string(64, 'w'));
    write(scope / "AI-ModelScope/gpt2/config.json", R"({"model_type": "gpt2"})");
    write(scope / "AI-ModelScope/gpt2/model.safetensors", std::string(20, 'w'));
    // 3. Ollama: the library's model, another registry's, and one whose blob is gone.
    const fs::path ollama = home / ".ollama/models";
    const std::string model = std::string(64, 'a'), config = std::string(64, 'c'),
                      gone = std::string(64, 'd'), other = std::string(64, 'e');
    const auto manifest = [](const std::string& configDigest, const std::string& modelDigest,
                             int size) {
        return R"({"schemaVersion": 2, "mediaType": "application/vnd.docker.distribution.manifest.v2+json",
 "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "digest": "sha256:)" +
               configDigest + R"(", "size": 90},
 "layers": [{"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:)" +
               modelDigest + R"(", "size": )" + std::to_string(size) +
               R"(},
  {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:ffff", "size": 9}]})";
    };
    write(ollama / "manifests/registry.ollama.ai/library/qwen2.5/0.5b",
          manifest(config, model, 48));
    write(ollama / "manifests/registry.ollama.ai/someone/tiny/latest",
          manifest(config, gone, 4096));
    write(ollama / "manifests/hf.co/bartowski/SmolLM2-135M-GGUF/Q8_0", manifest(config, other, 40));
    write(ollama / "manifests/registry.ollama.ai/library/broken/latest", "not a manifest");
    write(ollama / ("blobs/sha256-" + model), gguf(48));
    write(ollama / ("blobs/sha256-" + other), gguf(40));
    write(ollama / ("blobs/sha256-" + config),
          R"({"model_format": "gguf", "model_family": "qwen2", "file_type": "Q4_K_M"})");
    // 4. LM Studio: GGUF files in both of its folders, and a folder in Hugging Face's layout.
    write(home / ".lmstudio/models/lmstudio-community/Qwen2.5-0.5B-Instruct-GGUF/"
                 "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf",
          gguf(36));
    write(home / ".lmstudio/models/mlx-community/SmolLM2-135M/config.json",
          R"({"model_type": "llama", "torch_dtype": "bfloat16"})");
    write(home / ".lmstudio/models/mlx-community/SmolLM2-135M/model.safetensors",
          std::string(16, 'w'));
    write(home / ".cache/lm-studio/models/TheBloke/TinyLlama-GGUF/tinyllama.IQ4_XS.gguf", gguf(24));
    return {
        {"Hugging Face", "HuggingFaceTB/SmolLM2-360M", "llama", 42, "F32"},
        {"Hugging Face", "Qwen/Qwen2.5-0.5B", "qwen2", 100, "BF16"},
        {"ModelScope", "AI-ModelScope/gpt2", "gpt2", 20, ""},
        {"ModelScope", "Qwen/Qwen2.5-0.5B-Instruct", "qwen2", 64, "F16"},
        {"Ollama", "hf.co/bartowski/SmolLM2-135M-GGUF:Q8_0", "qwen2", 40, "Q4_K_M"},
        {"Ollama", "qwen2.5:0.5b", "qwen2", 48, "Q4_K_M"},
        {"Ollama", "someone/tiny:latest", "qwen2", 4096, "Q4_K_M", true},
        {"LM Studio", "TheBloke/TinyLlama-GGUF/tinyllama.IQ4_XS.gguf", "", 24, "IQ4_XS"},
        {"LM Studio",
         "lmstudio-community/Qwen2.5-0.5B-Instruct-GGUF/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf", "", 36,
         "Q4_K_M"},
        {"LM Studio", "mlx-community/SmolLM2-135M", "llama", 16, "BF16"},
    };
}

} // namespace diskmodels
