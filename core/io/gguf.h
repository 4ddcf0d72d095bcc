// The GGUF format of ggml and llama.cpp (ggml's docs/gguf.md), versions 2 and 3, as Ollama,
// LM Studio and llama.cpp keep models: little-endian throughout,
//   "GGUF", version (u32), tensor count (u64), metadata count (u64),
//   metadata: key (string), value type (u32), value — of 13 types, arrays of any of them,
//   tensor infos: name (string), dimensions (u32, at most 4), ne[0…] (u64, ne[0] the fastest),
//                 ggml type (u32), offset (u64, from the data's start, aligned),
//   padding to general.alignment (32 when absent), then the tensors' data.
// A string is its length (u64) and that many bytes, not NUL-terminated. Every view here
// points into the parsed bytes (a mapped file): nothing is copied, so the 150,000 tokens of
// a vocabulary cost no memory of their own. No Qt.
#pragma once

#include "io/ggml.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// The value types of GGUF's metadata.
enum class GgufValueType : std::uint32_t {
    UInt8 = 0,
    Int8 = 1,
    UInt16 = 2,
    Int16 = 3,
    UInt32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    UInt64 = 10,
    Int64 = 11,
    Float64 = 12,
};

// The name of a value type as messages spell it: "uint32", "string", "array".
[[nodiscard]] std::string_view ggufTypeName(GgufValueType type);

// One metadata value. A scalar holds its number (or text); an array its element type,
// its count and its elements' bytes, read when asked for.
class GgufValue {
public:
    GgufValueType type = GgufValueType::UInt8;
    GgufValueType elementType = GgufValueType::UInt8; // an array's
    std::uint64_t count = 0;                          // an array's element count
    std::span<const std::byte> bytes; // a scalar's or string's bytes; an array's elements

    // An integer of any width that is ≥ 0 (a bool as 0 or 1), or nullopt.
    [[nodiscard]] std::optional<std::uint64_t> asUnsigned() const;
    // An integer of any width, or nullopt.
    [[nodiscard]] std::optional<std::int64_t> asInteger() const;
    // A number of any type (integers and floats), or nullopt.
    [[nodiscard]] std::optional<double> asNumber() const;
    // A bool, or nullopt.
    [[nodiscard]] std::optional<bool> asBool() const;
    // A string, or nullopt.
    [[nodiscard]] std::optional<std::string_view> asString() const;

    // An array of strings: each element, or nullopt for another value.
    [[nodiscard]] std::optional<std::vector<std::string_view>> strings() const;
    // An array of numbers (integers or floats, not strings or arrays), each as a double
    // (exact for float32 and integers below 2⁵³), or nullopt for another value.
    [[nodiscard]] std::optional<std::vector<double>> numbers() const;
};

// One tensor's info and its bytes.
struct GgufTensor {
    std::string_view name;
    std::vector<std::int64_t> ne; // ggml's order: ne[0] the row's length (fastest)
    std::uint32_t typeId = 0;     // ggml's type id, as written
    GgmlType type = GgmlType::F32;
    std::uint64_t offset = 0;        // from the data's start
    std::span<const std::byte> data; // exactly its bytes
    [[nodiscard]] std::int64_t elements() const;
    // The rows of ne[0] elements: the product of ne[1…] (1 for a vector or a scalar).
    [[nodiscard]] std::int64_t rows() const;
};

struct GgufFile {
    std::uint32_t version = 0;
    std::uint64_t alignment = 32;
    std::vector<std::pair<std::string_view, GgufValue>> metadata; // in the file's order
    std::vector<GgufTensor> tensors;                              // in the file's order

    // The value of `key`, or null.
    [[nodiscard]] const GgufValue* find(std::string_view key) const;
    // The tensor `name`, or null.
    [[nodiscard]] const GgufTensor* tensor(std::string_view name) const;

    std::map<std::string_view, std::size_t> byKey, byName; // indexes into the vectors
};

inline constexpr std::uint32_t kGgufMaxDimensions = 4; // GGML_MAX_DIMS

// Whether `bytes` begins with GGUF's magic.
[[nodiscard]] bool looksLikeGguf(std::span<const std::byte> bytes);

// Parses the whole file `bytes`; `where` names it in messages. Throws InputError
// ("<where>: <fault>") for: fewer bytes than the header, a wrong magic, a version other than
// 2 and 3 (a big-endian file named as such), a count or a string's length beyond the file,
// a value type that does not exist, arrays nested deeper than 4, a duplicate key or tensor
// name, general.alignment not a power of two as uint32, a tensor of more than 4 dimensions
// or a negative, zero-free overflowing shape, a ggml type id that does not exist, a row
// length that is not a multiple of its type's block, an offset not aligned or data past the
// end of the file.
[[nodiscard]] GgufFile parseGguf(std::span<const std::byte> bytes, const std::string& where);

} // namespace attn
