// NumPy's .npz format, as np.savez and np.savez_compressed write it: a zip archive (zip64
// extensions included) of .npy members, stored or deflated, read through libzip. No Qt.
//
// A stored member is used in place: its bytes are the archive's own (mapped) bytes, not
// a copy. A deflated member is inflated into memory, at most `inflateLimit` bytes, so
// that a member claiming gigabytes (a zip bomb) is refused before anything is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace attn {

// The default limit for one inflated member: 2 GiB. A larger stack can be written with
// np.savez (stored members are mapped, never inflated).
inline constexpr std::uint64_t kDefaultInflateLimit = std::uint64_t(2) << 30;

// One member's bytes, and what keeps them alive (null when they are the archive's own).
struct ZipMemberBytes {
    std::span<const std::byte> bytes;
    std::shared_ptr<const void> owner;
    bool inflated = false;
};

class NpzReader {
public:
    // Opens the zip archive in `archive` (which must outlive the reader and the spans it
    // gives for stored members). `where` names the file in messages. Throws InputError
    // when it is not a zip archive libzip accepts.
    NpzReader(std::span<const std::byte> archive, std::string where,
              std::uint64_t inflateLimit = kDefaultInflateLimit);
    ~NpzReader();
    NpzReader(const NpzReader&) = delete;
    NpzReader& operator=(const NpzReader&) = delete;

    // The members' names, as in the archive ("attentions.npy", "tokens.npy").
    [[nodiscard]] const std::vector<std::string>& names() const { return names_; }
    // The bytes of member `name`, nothing when there is none. Throws InputError for an
    // encrypted member, one over the inflate limit, or one libzip cannot read (a bad CRC,
    // a truncated stream).
    [[nodiscard]] std::optional<ZipMemberBytes> read(const std::string& name);

private:
    struct Source;
    std::span<const std::byte> archive_;
    std::string where_;
    std::uint64_t inflateLimit_;
    std::unique_ptr<Source> source_;
    void* zip_ = nullptr; // zip_t
    std::vector<std::string> names_;
    std::vector<std::uint64_t> indices_; // each name's index in the archive
};

} // namespace attn
