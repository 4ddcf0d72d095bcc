#include "sweeprunner.h"

#include "labels.h"

#include <QMetaObject>

namespace attn::ui {

SweepRunner::SweepRunner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<attn::ui::SweepRun>();
    worker_ = std::thread([this] { workerLoop(); });
}

SweepRunner::~SweepRunner()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        pending_.reset();
    }
    cancel_ = true;
    wake_.notify_all();
    worker_.join();
}

void SweepRunner::submit(const Request& base, int from, int to)
{
    {
        std::lock_guard lock(mutex_);
        pending_ = SweepRun{base, from, to, {}};
        if (running_)
            cancel_ = true; // the running one is stale now
    }
    wake_.notify_one();
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
}

void SweepRunner::waitForIdle()
{
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return !pending_ && !running_; });
}

void SweepRunner::workerLoop()
{
    for (;;) {
        SweepRun run;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
            if (stopping_)
                return;
            run = std::move(*pending_);
            pending_.reset();
            running_ = true;
            cancel_ = false;
        }

        std::optional<QString> failure;
        bool computed = false;
        try {
            // Progress of a sweep that a newer one replaces is not shown.
            run.points = sweepDk(run.base, run.from, run.to, &cancel_, [this](int done, int total) {
                std::lock_guard lock(mutex_);
                if (!pending_)
                    QMetaObject::invokeMethod(
                        this, [this, done, total] { emit progress(done, total); },
                        Qt::QueuedConnection);
            });
            computed = true;
        } catch (const Cancelled&) {
        } catch (const InputError& error) {
            failure = refusalText(error); // QCoreApplication::translate is thread-safe
        } catch (const std::bad_alloc&) {
            failure = tr("not enough memory for this sweep");
        }

        std::lock_guard lock(mutex_);
        running_ = false;
        const bool newest = !pending_.has_value();
        if (newest && (computed || failure))
            report(computed ? std::optional(std::move(run)) : std::nullopt, std::move(failure));
        if (newest)
            idle_.notify_all();
    }
}

// Called with mutex_ held; the signals go out on the GUI thread, where busy_ lives.
void SweepRunner::report(std::optional<SweepRun> run, std::optional<QString> failure)
{
    QMetaObject::invokeMethod(
        this,
        [this, run = std::move(run), failure = std::move(failure)] {
            if (run)
                emit finished(*run);
            else
                emit failed(*failure);
            bool idle = false;
            {
                std::lock_guard lock(mutex_);
                idle = !pending_ && !running_;
            }
            if (idle && busy_) {
                busy_ = false;
                emit busyChanged(false);
            }
        },
        Qt::QueuedConnection);
}

} // namespace attn::ui
