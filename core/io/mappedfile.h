// A file mapped read-only into memory (POSIX mmap), so that a file of gigabytes "opens"
// at once and its pages are read when first touched. No Qt.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

namespace attn {

class MappedFile {
public:
    // Maps `path`; throws InputError ("<path>: <what failed> (<the system's reason>)") when it
    // cannot. An empty file maps to an empty span.
    static std::shared_ptr<const MappedFile> open(const std::string& path);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    [[nodiscard]] std::span<const std::byte> bytes() const { return {data_, size_}; }
    [[nodiscard]] const std::string& path() const { return path_; }

    // Whether `p` points into the mapping.
    [[nodiscard]] bool holds(const void* p) const;
    // Lets go of the pages wholly inside [begin, begin + bytes) of the mapping (madvise
    // MADV_DONTNEED): the mapping is read-only, so they only leave this process's resident
    // set (the page cache keeps the file) and are read again if touched. For a tensor
    // converted or packed into memory of its own, whose file pages would otherwise stay
    // resident beside the copy.
    void release(const void* begin, std::size_t bytes) const;

private:
    MappedFile() = default;
    const std::byte* data_ = nullptr;
    std::size_t size_ = 0;
    std::string path_;
};

} // namespace attn
