#include "base/tensor.h"

#include <mutex>

namespace attn {
namespace {

struct Spare {
    std::mutex mutex;
    void* block = nullptr;
    std::size_t bytes = 0;
    int inUse = 0; // large blocks handed out and not given back
};

Spare& spare()
{
    static Spare* const s = new Spare; // never destroyed: vectors may free after exit starts
    return *s;
}

} // namespace

namespace detail {

void* takeBlock(std::size_t bytes)
{
    Spare& s = spare();
    void* old = nullptr;
    {
        const std::lock_guard lock(s.mutex);
        ++s.inUse;
        if (s.block && s.bytes == bytes) {
            void* block = s.block;
            s.block = nullptr;
            return block;
        }
        // A spare of another size: freed before the new block is mapped, so that the two
        // are never held at once.
        old = s.block;
        s.block = nullptr;
    }
    ::operator delete(old);
    try {
        return ::operator new(bytes);
    } catch (...) {
        const std::lock_guard lock(s.mutex);
        --s.inUse;
        throw;
    }
}

void giveBlock(void* block, std::size_t bytes) noexcept
{
    Spare& s = spare();
    void* old = nullptr;
    {
        const std::lock_guard lock(s.mutex);
        old = s.block;
        if (--s.inUse > 0) {
            s.block = block;
            s.bytes = bytes;
        } else { // nothing in use any more: no run is coming soon
            s.block = nullptr;
            ::operator delete(block);
        }
    }
    ::operator delete(old);
}

} // namespace detail

std::size_t spareBufferBytes() noexcept
{
    Spare& s = spare();
    const std::lock_guard lock(s.mutex);
    return s.block ? s.bytes : 0;
}

} // namespace attn
