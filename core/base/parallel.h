// A minimal parallel loop over independent items (heads, sequences, row blocks).
#pragma once

#include "base/blas.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace attn {

// The threads a parallel loop runs on: this machine's cores (at least one).
[[nodiscard]] inline int coreCount()
{
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

namespace detail {

// Threads that stay for the life of the process, so that a parallel loop costs a wake-up
// (microseconds) rather than starting and joining threads (tens of microseconds, as much
// as a small head's whole softmax). On a virtual machine even a wake-up through the
// kernel takes tens of microseconds, and a forward at T = 128 runs a handful of loops of
// about a hundred each: so a worker that finished watches for the next loop for a short
// while before it sleeps, and the caller watches for its workers to finish, as OpenMP's
// and OpenBLAS's threads do (T = 128: 1.1 → 0.8 ms a forward).
class WorkerPool {
public:
    static WorkerPool& instance()
    {
        static WorkerPool pool;
        return pool;
    }

    [[nodiscard]] int workers() const { return static_cast<int>(threads_.size()); }

    // Runs `work` on every worker and on this thread and returns when all have returned;
    // returns false at once, running nothing, while the pool serves another loop (one
    // nested in it, or one from another thread).
    bool tryRun(const std::function<void()>& work)
    {
        // A loop nested in one this thread runs for the pool must not lock busy_ again.
        static thread_local bool serving = false;
        if (serving)
            return false;
        std::unique_lock busy(busy_, std::try_to_lock);
        if (!busy.owns_lock())
            return false;
        serving = true;
        {
            std::lock_guard lock(mutex_);
            work_ = &work;
            running_ = workers();
            ++generation_;
        }
        wake_.notify_all();
        work(); // catches what fn throws
        serving = false;
        spinUntil([this] { return running_.load(std::memory_order_acquire) == 0; });
        std::unique_lock lock(mutex_);
        done_.wait(lock, [this] { return running_ == 0; });
        work_ = nullptr;
        return true;
    }

    // Wakes the workers now, ahead of a loop this thread will start within `within`, and
    // has them watch for it until then instead of sleeping: the wake-up through the kernel
    // (tens of microseconds on a virtual machine) then overlaps the serial work before the
    // loop.
    void wakeAhead(std::chrono::microseconds within)
    {
        const auto until = std::chrono::steady_clock::now() + within;
        {
            std::lock_guard lock(mutex_);
            aheadUntil_ = std::max(aheadUntil_, until);
            ++ahead_;
        }
        wake_.notify_all();
    }

    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    ~WorkerPool()
    {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            ++generation_;
        }
        wake_.notify_all();
        for (auto& t : threads_)
            t.join();
    }

private:
    WorkerPool()
    {
        // Every loop may multiply matrices on every thread at once.
        useOneBlasThreadPerCall();
        for (int w = 1; w < coreCount(); ++w)
            threads_.emplace_back([this] { serve(); });
    }

    // Asks `done` in a tight loop for up to kSpin; whether it became true. The caller
    // then sleeps on its condition variable as before (which asks again under the lock).
    template <typename Done> static bool spinUntil(Done&& done)
    {
        constexpr std::chrono::microseconds kSpin{200};
        return spinUntil(std::forward<Done>(done), std::chrono::steady_clock::now() + kSpin);
    }
    template <typename Done>
    static bool spinUntil(Done&& done, std::chrono::steady_clock::time_point until)
    {
        for (int round = 0;; ++round) {
            if (done())
                return true;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
            if (round % 64 == 63 && std::chrono::steady_clock::now() > until)
                return false;
        }
    }

    void serve()
    {
        std::uint64_t seen = 0, aheadSeen = 0;
        for (;;) {
            const std::function<void()>* work = nullptr;
            auto loopCame = [&] { return generation_.load(std::memory_order_acquire) != seen; };
            spinUntil(loopCame);
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return generation_ != seen || ahead_ != aheadSeen; });
                if (generation_ == seen) { // woken ahead of a loop: watch for it
                    aheadSeen = ahead_;
                    const auto until = aheadUntil_;
                    lock.unlock();
                    spinUntil(loopCame, until);
                    continue;
                }
                aheadSeen = ahead_;
                seen = generation_;
                if (stopping_)
                    return;
                work = work_;
            }
            (*work)();
            std::lock_guard lock(mutex_);
            if (--running_ == 0)
                done_.notify_one();
        }
    }

    std::mutex busy_; // held by the loop the pool serves
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void()>* work_ = nullptr;
    // Changed under mutex_ (the condition variables' predicates read them there), and
    // read without it while a thread spins.
    std::atomic<int> running_{0};
    std::atomic<std::uint64_t> generation_{0};
    bool stopping_ = false;
    std::uint64_t ahead_ = 0; // wakeAhead's calls, under mutex_
    std::chrono::steady_clock::time_point aheadUntil_{};
    std::vector<std::thread> threads_;
};

} // namespace detail

// Wakes the workers of parallelFor now, for a loop this thread will start within
// `within`; they watch for it until then. For a loop that follows serial work of less
// than a millisecond or so: the workers' wake-up then overlaps that work instead of
// delaying the loop, at the price of a core watching meanwhile.
inline void wakeWorkersAhead(std::chrono::microseconds within)
{
    if (coreCount() > 1)
        detail::WorkerPool::instance().wakeAhead(within);
}

// Calls fn(i) for i in [0, count) on up to hardware_concurrency threads. Items are
// handed out one at a time, so uneven items still balance. The first exception a
// worker throws is rethrown here after all workers stop.
template <typename Fn> void parallelFor(int count, Fn&& fn)
{
    const int workers = std::min(count, coreCount());
    if (workers <= 1) {
        for (int i = 0; i < count; ++i)
            fn(i);
        return;
    }
    std::atomic<int> nextItem{0};
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    const std::function<void()> work = [&] {
        for (int i = nextItem++; i < count && !failed; i = nextItem++) {
            try {
                fn(i);
            } catch (...) {
                if (!failed.exchange(true))
                    failure = std::current_exception();
            }
        }
    };
    // The pool's threads; while they serve another loop, threads of this loop's own.
    if (!detail::WorkerPool::instance().tryRun(work)) {
        std::vector<std::thread> threads;
        threads.reserve(static_cast<std::size_t>(workers - 1));
        for (int w = 1; w < workers; ++w)
            threads.emplace_back(work);
        work();
        for (auto& t : threads)
            t.join();
    }
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace attn
