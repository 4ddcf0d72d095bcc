#include "computecontroller.h"

#include <QMetaObject>

namespace attn::ui {

ComputeController::ComputeController(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<attn::Result>();
    qRegisterMetaType<attn::Request>();
    worker_ = std::thread([this] { workerLoop(); });
}

ComputeController::~ComputeController()
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

void ComputeController::submit(const Request& request)
{
    {
        std::lock_guard lock(mutex_);
        pending_ = request;
        if (running_)
            cancel_ = true; // the running one is stale now
    }
    wake_.notify_one();
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
}

void ComputeController::waitForIdle()
{
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return !pending_ && !running_; });
}

void ComputeController::workerLoop()
{
    for (;;) {
        Request request;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || pending_.has_value(); });
            if (stopping_)
                return;
            request = std::move(*pending_);
            pending_.reset();
            running_ = true;
            cancel_ = false;
        }

        // Report only what is still the newest request; everything is delivered
        // through the GUI thread's event loop, where busy_ lives.
        std::optional<Result> result;
        std::optional<InputError> failure;
        try {
            // 1. The heatmaps first: a switch of the formula shows at once…
            const Result weights = engine_.compute(request, &cancel_, Stage::Normalize);
            {
                std::lock_guard lock(mutex_);
                if (!pending_)
                    QMetaObject::invokeMethod(
                        this, [this, weights] { emit weightsReady(weights); },
                        Qt::QueuedConnection);
            }
            // 2. …then the output and the statistics.
            result = engine_.compute(request, &cancel_);
        } catch (const Cancelled&) {
        } catch (const InputError& error) {
            failure = error;
        } catch (const std::bad_alloc&) {
            failure = InputError("not enough memory for this configuration", Refusal::OutOfMemory);
        }

        std::lock_guard lock(mutex_);
        running_ = false;
        const bool newest = !pending_.has_value();
        if (newest && (result || failure)) {
            QMetaObject::invokeMethod(
                this,
                [this, result = std::move(result), failure = std::move(failure), request] {
                    if (result)
                        emit resultReady(*result);
                    else
                        emit failed(*failure, request);
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
        if (newest)
            idle_.notify_all();
    }
}

} // namespace attn::ui
