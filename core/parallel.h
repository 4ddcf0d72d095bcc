// A minimal parallel loop over independent items (heads, sequences).
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace attn {

// Calls fn(i) for i in [0, count) on up to hardware_concurrency threads. Items are
// handed out one at a time, so uneven items still balance. The first exception a
// worker throws is rethrown here after all workers stop.
template <typename Fn> void parallelFor(int count, Fn&& fn)
{
    const int workers =
        std::min(count, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    if (workers <= 1) {
        for (int i = 0; i < count; ++i)
            fn(i);
        return;
    }
    std::atomic<int> nextItem{0};
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    auto work = [&] {
        for (int i = nextItem++; i < count && !failed; i = nextItem++) {
            try {
                fn(i);
            } catch (...) {
                if (!failed.exchange(true))
                    failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(static_cast<std::size_t>(workers - 1));
    for (int w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work();
    for (auto& t : threads)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace attn
