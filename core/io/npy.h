// NumPy's .npy format (versions 1, 2 and 3), read from bytes already in memory: a whole
// file (mapped) or a member of an .npz. No copy of the data is made. No Qt.
//
// The format: the magic "\x93NUMPY", the version (major, minor), the header's length
// (2 bytes little-endian in version 1, 4 in versions 2 and 3), the header (a Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }: ASCII in version
// 1 and 2, UTF-8 in 3), then the elements.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace attn {

// Larger headers are refused (numpy's own reader refuses above 10 000 bytes unless told).
inline constexpr std::size_t kMaxNpyHeaderBytes = std::size_t(1) << 20;

struct NpyArray {
    std::string descr;      // as written: '<f4', '>f8', '<U7', '|S3' …
    char kind = 0;          // 'f' float, 'U' unicode, 'S' bytes, … (descr's letter)
    int itemSize = 0;       // bytes per element
    bool bigEndian = false; // '>' in descr
    bool fortranOrder = false;
    std::vector<std::int64_t> shape;
    std::span<const std::byte> data; // exactly the elements' bytes
};

// Parses `bytes` as one .npy file. `where` names it in messages ("a.npy", "b.npz: member
// attentions.npy"). Throws InputError for a bad magic, version or header, a shape whose
// byte count overflows, or data shorter ("truncated") or longer than the shape.
[[nodiscard]] NpyArray parseNpy(std::span<const std::byte> bytes, const std::string& where);

// The strings of a unicode ('<U…', UTF-32) or bytes ('|S…', UTF-8) array of one or two
// dimensions, as UTF-8, row by row, the padding NULs removed. Throws InputError naming
// `where` for another dtype or shape, or an invalid code point or UTF-8.
[[nodiscard]] std::vector<std::vector<std::string>> npyStrings(const NpyArray& array,
                                                               const std::string& where);

} // namespace attn
