// Reading config.json's fields, shared by every family's config reader (gpt2config,
// llamaconfig): each refusal a ModelError naming the file, the field and the fault. No Qt.
#pragma once

#include "base/jsonread.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace attn {

// The largest size a field may have: far above gpt2-xl (48 layers, C 1600, V 50257) and
// Qwen's vocabulary (151936), low enough that the products of sizes fit in 64 bits.
inline constexpr int kMaxConfigSize = 1 << 20;

// config.json's text as a JSON object. Throws ModelError: not JSON, not an object.
[[nodiscard]] JsonValue parseConfigObject(std::string_view json, const std::filesystem::path& file);

// A whole-number field from 1 to kMaxConfigSize; nothing when absent (or null, with
// `nullIsAbsent`). Throws ModelError for any other value.
[[nodiscard]] std::optional<int> sizeField(const JsonValue& config, std::string_view name,
                                           const std::filesystem::path& file,
                                           bool nullIsAbsent = false);
// The same, required: throws ModelError "the field … is missing".
[[nodiscard]] int requiredSize(const JsonValue& config, std::string_view name,
                               const std::filesystem::path& file);
// A string field, or `fallback` when absent.
[[nodiscard]] std::string stringField(const JsonValue& config, std::string_view name,
                                      std::string fallback, const std::filesystem::path& file);
// A finite number ≥ 0 (`positive`: > 0), or `fallback` when absent.
[[nodiscard]] double realField(const JsonValue& config, std::string_view name, double fallback,
                               const std::filesystem::path& file, bool positive = false);
// true or false, or `fallback` when absent or null.
[[nodiscard]] bool boolField(const JsonValue& config, std::string_view name, bool fallback,
                             const std::filesystem::path& file);

// The sizes most Hugging Face configs name as BERT's does (Llama, Qwen, Mistral, BERT):
// num_hidden_layers, num_attention_heads, hidden_size, intermediate_size, vocab_size,
// max_position_embeddings, each required (requiredSize).
struct HfSizes {
    int layers = 0;
    int heads = 0;
    int dModel = 0;
    int inner = 0;
    int vocabulary = 0;
    int positions = 0;
};
[[nodiscard]] HfSizes requiredHfSizes(const JsonValue& config, const std::filesystem::path& file);

} // namespace attn
