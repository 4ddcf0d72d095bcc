#include "sweeprunner.h"

#include "labels.h"

#include <QMetaObject>

namespace attn::ui {

SweepRunner::SweepRunner(QObject* parent)
    : QObject(parent),
      worker_([this](SweepRun& job, const std::atomic<bool>& cancel) { return run(job, cancel); })
{
    qRegisterMetaType<attn::ui::SweepRun>();
}

SweepRunner::~SweepRunner() = default;

void SweepRunner::submit(const Request& base, int from, int to)
{
    worker_.submit(SweepRun{base, from, to, {}});
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
}

void SweepRunner::waitForIdle()
{
    worker_.waitForIdle();
}

// On the worker thread. Only the newest sweep is reported, through the GUI thread's
// event loop, where busy_ lives.
std::function<void()> SweepRunner::run(SweepRun& job, const std::atomic<bool>& cancel)
{
    std::optional<QString> failure;
    try {
        // Progress of a sweep that a newer one replaces is not shown.
        job.points = sweepDk(job.base, job.from, job.to, &cancel, [this](int done, int total) {
            worker_.unlessSuperseded([this, done, total] {
                QMetaObject::invokeMethod(
                    this, [this, done, total] { emit progress(done, total); },
                    Qt::QueuedConnection);
            });
        });
    } catch (const Cancelled&) {
        return {};
    } catch (const InputError& error) {
        failure = refusalText(error); // QCoreApplication::translate is thread-safe
    } catch (const std::bad_alloc&) {
        failure = tr("not enough memory for this sweep");
    }
    std::optional<SweepRun> done;
    if (!failure)
        done = std::move(job);
    return [this, done = std::move(done), failure = std::move(failure)] {
        QMetaObject::invokeMethod(
            this,
            [this, done, failure] {
                if (done)
                    emit finished(*done);
                else
                    emit failed(*failure);
                if (busy_ && worker_.idle()) {
                    busy_ = false;
                    emit busyChanged(false);
                }
            },
            Qt::QueuedConnection);
    };
}

} // namespace attn::ui
