// One worker thread that runs only the newest job. A job submitted while another runs
// raises that one's cancel flag and replaces any job still queued, so a user dragging a
// slider never waits for the positions they have already left.
//
// ComputeController (the engine) and SweepRunner (the d_k sweep) share it; what they do
// with a job and how they report it stays theirs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace attn::ui {

template <typename Job> class LatestWorker {
public:
    // Runs one job on the worker thread and returns what reports it, or nothing when
    // there is nothing to report (a cancelled job). The report is called only when no
    // newer job was queued meanwhile, with the queue's lock held: it must post its work
    // (QMetaObject::invokeMethod) rather than call back into this worker.
    using Run = std::function<std::function<void()>(Job& job, const std::atomic<bool>& cancel)>;

    explicit LatestWorker(Run run) : run_(std::move(run))
    {
        thread_ = std::thread([this] { loop(); });
    }

    ~LatestWorker()
    {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
            pending_.reset();
        }
        cancel_ = true;
        wake_.notify_all();
        thread_.join();
    }

    LatestWorker(const LatestWorker&) = delete;
    LatestWorker& operator=(const LatestWorker&) = delete;

    // Queues `job`, replacing any queued one and cancelling a running one.
    void submit(Job job)
    {
        {
            std::lock_guard lock(mutex_);
            pending_ = std::move(job);
            if (running_)
                cancel_ = true; // the running one is stale now
        }
        wake_.notify_one();
    }

    // Nothing is queued or running.
    [[nodiscard]] bool idle()
    {
        std::lock_guard lock(mutex_);
        return !pending_ && !running_;
    }

    // Calls `post` (under the queue's lock, so it must only post) unless a newer job is
    // queued: the running job's partial results are stale once one is.
    void unlessSuperseded(const std::function<void()>& post)
    {
        std::lock_guard lock(mutex_);
        if (!pending_)
            post();
    }

    // Blocks until nothing is queued or running (tests, the command line).
    void waitForIdle()
    {
        std::unique_lock lock(mutex_);
        idle_.wait(lock, [this] { return !pending_ && !running_; });
    }

private:
    void loop()
    {
        for (;;) {
            Job job;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
                if (stopping_)
                    return;
                job = std::move(*pending_);
                pending_.reset();
                running_ = true;
                cancel_ = false;
            }
            const std::function<void()> report = run_(job, cancel_);
            std::lock_guard lock(mutex_);
            running_ = false;
            const bool newest = !pending_.has_value();
            if (newest && report)
                report();
            if (newest)
                idle_.notify_all();
        }
    }

    Run run_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::optional<Job> pending_;
    bool running_ = false;
    bool stopping_ = false;
    std::atomic<bool> cancel_{false};
    std::thread thread_; // last: it starts once everything above exists
};

} // namespace attn::ui
