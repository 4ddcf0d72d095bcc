#include "io/atomicwrite.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attn {

std::optional<WriteFailure> writeAtomically(const std::string& path, std::string_view content)
{
    if (path == "-") {
        if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() ||
            std::fflush(stdout) != 0)
            return WriteFailure{path, errno};
        return std::nullopt;
    }
    // 1. Write a temporary file beside the target, so the rename stays on one file system.
    // A link is written through: the file it points to is replaced, the link stays.
    std::string target = path;
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
        if (char* resolved = ::realpath(path.c_str(), nullptr)) {
            target = resolved;
            std::free(resolved);
        }
    std::string temporary = target + ".XXXXXX";
    const int fd = mkstemp(temporary.data());
    if (fd < 0)
        return WriteFailure{path, errno};
    const auto fail = [&](int code) {
        ::unlink(temporary.c_str());
        return WriteFailure{path, code};
    };
    const char* data = content.data();
    std::size_t left = content.size();
    while (left > 0) {
        const ssize_t written = ::write(fd, data, left);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            const int code = errno;
            ::close(fd);
            return fail(code);
        }
        data += written;
        left -= static_cast<std::size_t>(written);
    }
    // 2. mkstemp makes the file private: give it the permissions of the file it replaces,
    // or the usual ones of a new file.
    struct stat existing {};
    if (::stat(target.c_str(), &existing) == 0) {
        ::fchmod(fd, existing.st_mode & 07777);
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, 0666 & ~mask);
    }
    // 3. Flush to disk, then replace the target in one step.
    if (::fsync(fd) != 0) {
        const int code = errno;
        ::close(fd);
        return fail(code);
    }
    if (::close(fd) != 0 || ::rename(temporary.c_str(), target.c_str()) != 0)
        return fail(errno);
    return std::nullopt;
}

std::string failureMessage(const WriteFailure& failure)
{
    if (failure.path == "-")
        return "cannot write to standard output";
    return "cannot write " + failure.path + ": " + std::strerror(failure.code);
}

std::string writeFileAtomically(const std::string& path, const std::string& content)
{
    const std::optional<WriteFailure> failure = writeAtomically(path, content);
    return failure ? failureMessage(*failure) : std::string();
}

} // namespace attn
