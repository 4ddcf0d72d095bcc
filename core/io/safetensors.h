// The .safetensors format: 8 bytes (little-endian) giving the header's length N, N bytes
// of JSON header, then the tensors' bytes. The header maps each tensor's name to
// {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, offsets relative to
// the first byte after the header; "__metadata__" maps names to strings. No Qt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace attn {

inline constexpr std::uint64_t kMaxSafetensorsHeaderBytes = 100'000'000; // 100 MB

struct SafetensorsTensor {
    std::string name;
    std::string dtype; // "F32", "BF16", … as written
    int elementBytes = 0;
    std::vector<std::int64_t> shape;
    std::span<const std::byte> data; // exactly its bytes, inside the file
};

struct SafetensorsFile {
    std::vector<SafetensorsTensor> tensors; // in the header's order
    std::map<std::string, std::string> metadata;
};

// Parses the whole file `bytes`; `where` names it in messages. Throws InputError for:
// a header length past the end of the file or over kMaxSafetensorsHeaderBytes; a header
// that is not strict JSON or lacks a field; an unknown dtype; a shape whose byte count
// overflows or differs from its offsets; offsets past the end of the data or
// overlapping another tensor's.
[[nodiscard]] SafetensorsFile parseSafetensors(std::span<const std::byte> bytes,
                                               const std::string& where);

} // namespace attn
