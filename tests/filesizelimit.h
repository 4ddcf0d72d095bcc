// A limit on the size of the files this process writes, for the length of a scope: a write
// past it fails with EFBIG, its signal (SIGXFSZ) ignored meanwhile. The tests' one call of
// the system's resource limits, so that a port touches this header alone.
#pragma once

#include <csignal>

#include <sys/resource.h>

namespace attn::test {

class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        if (getrlimit(RLIMIT_FSIZE, &old_) != 0)
            return;
        rlimit limited = old_;
        limited.rlim_cur = bytes;
        oldHandler_ = std::signal(SIGXFSZ, SIG_IGN); // EFBIG instead of a kill
        active_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit()
    {
        if (!active_)
            return;
        setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, oldHandler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

    // The limit is in force.
    [[nodiscard]] bool active() const { return active_; }

private:
    rlimit old_{};
    void (*oldHandler_)(int) = SIG_DFL;
    bool active_ = false;
};

} // namespace attn::test
