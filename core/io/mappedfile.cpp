#include "io/mappedfile.h"

#include "engine/options.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attn {

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path)
{
    const auto fail = [&path](const char* what, int error) {
        throw InputError(path + ": " + what + " (" + std::strerror(error) + ")");
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail("cannot open the file", errno);
    struct stat info {};
    if (::fstat(fd, &info) != 0) {
        const int error = errno;
        ::close(fd);
        fail("cannot read the file's size", error);
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd);
        throw InputError(path + ": not a regular file");
    }
    std::shared_ptr<MappedFile> file(new MappedFile);
    file->path_ = path;
    file->size_ = static_cast<std::size_t>(info.st_size);
    if (file->size_ > 0) {
        // MAP_PRIVATE: a file changed by someone else while it is open does not change
        // what was read already (pages read later may still show the change).
        void* data = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            const int error = errno;
            ::close(fd);
            fail("cannot map the file", error);
        }
        file->data_ = static_cast<const std::byte*>(data);
    }
    ::close(fd); // the mapping keeps the file
    return file;
}

bool MappedFile::holds(const void* p) const
{
    const auto* b = static_cast<const std::byte*>(p);
    return data_ && b >= data_ && b < data_ + size_;
}

void MappedFile::release(const void* begin, std::size_t bytes) const
{
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    const auto from = reinterpret_cast<std::uintptr_t>(begin);
    const std::uintptr_t first = (from + page - 1) / page * page,
                         last = (from + bytes) / page * page;
    if (!holds(begin) || !holds(static_cast<const std::byte*>(begin) + bytes - 1) || last <= first)
        return;
    // Advice only: where the system declines, the pages merely stay.
    (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

MappedFile::~MappedFile()
{
    if (data_)
        ::munmap(const_cast<std::byte*>(data_), size_);
}

} // namespace attn
