// Stage outputs that no snapshot holds any more, kept for the next compute.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

namespace attn {

// A result's stages are immutable shared objects that the window may hold long after the
// engine has moved on, so the engine never writes into one that anybody else holds.
// Allocating every (B, H, T, T) tensor afresh, though, costs more than computing it: the
// kernel zeroes each new page on first touch. A Recycler hands out an object that only
// the Recycler itself still holds (its contents stale, its buffers warm), or a new one.
template <typename T> class Recycler {
public:
    // An object for the caller to fill and share; every other idle one is dropped, so at
    // most one spare stays beside the ones in use.
    [[nodiscard]] std::shared_ptr<T> take()
    {
        std::shared_ptr<T> found;
        for (auto it = items_.begin(); it != items_.end();) {
            if (it->use_count() != 1) {
                ++it;
            } else if (!found) {
                found = *it;
                ++it;
            } else {
                it = items_.erase(it);
            }
        }
        if (found) {
            // Another thread's last release happened before use_count() read 1; make its
            // reads of the old contents happen before our writes.
            std::atomic_thread_fence(std::memory_order_acquire);
            return found;
        }
        return items_.emplace_back(std::make_shared<T>());
    }

    // Whether `item` is one of this Recycler's objects (it then holds one reference to it).
    [[nodiscard]] bool holds(const T* item) const
    {
        for (const std::shared_ptr<T>& it : items_)
            if (it.get() == item)
                return true;
        return false;
    }

private:
    std::vector<std::shared_ptr<T>> items_;
};

} // namespace attn
