#include "computecontroller.h"

#include <QMetaObject>

namespace attn::ui {

ComputeController::ComputeController(QObject* parent)
    : QObject(parent), worker_([this](Ticket& ticket, const std::atomic<bool>& cancel) {
          return run(ticket, cancel);
      })
{
    qRegisterMetaType<attn::Result>();
    qRegisterMetaType<attn::Request>();
    // The grid needs the heads' overview with every result; a switch's softmax makes it in
    // its own pass (set before the first request reaches the worker thread).
    engine_.setMakesOverviews(true);
}

ComputeController::~ComputeController() = default;

void ComputeController::submit(const Request& request)
{
    worker_.submit({request, ++newest_});
    if (!busy_) {
        busy_ = true;
        emit busyChanged(true);
    }
}

void ComputeController::waitForIdle()
{
    worker_.waitForIdle();
}

// On the worker thread. Only the newest request is reported, through the GUI thread's
// event loop, where busy_ and newest_ live: an outcome posted just before a newer request
// was submitted is dropped there (the window would show it, and hold its tensors, while
// the newer one computes), even when the newer one asks for the same.
std::function<void()> ComputeController::run(const Ticket& ticket, const std::atomic<bool>& cancel)
{
    const Request& request = ticket.request;
    const std::uint64_t number = ticket.number;
    std::optional<Result> result;
    std::optional<InputError> failure;
    try {
        // 1. The heatmaps first: a switch of the formula shows at once…
        Result weights = engine_.compute(request, &cancel, Stage::Normalize);
        // The grid's colour scale and mean tile read every head: made here, off the GUI
        // thread (at T = 2048, H = 16 that is 268 MB to read), when the softmax did not
        // make them in its own pass.
        addOverviews(weights, &cancel);
        worker_.unlessSuperseded([this, &weights, number] {
            QMetaObject::invokeMethod(
                this,
                [this, weights, number] {
                    if (number == newest_)
                        emit weightsReady(weights);
                },
                Qt::QueuedConnection);
        });
        // 2. …then the output and the statistics.
        result = engine_.compute(request, &cancel);
        if (result->weights == weights.weights)
            result->overviews = weights.overviews;
    } catch (const Cancelled&) {
        return {};
    } catch (const InputError& error) {
        failure = error;
    } catch (const std::bad_alloc&) {
        failure = InputError("not enough memory for this configuration", Refusal::OutOfMemory);
    }
    return [this, result = std::move(result), failure = std::move(failure), request, number] {
        QMetaObject::invokeMethod(
            this,
            [this, result, failure, request, number] {
                // Superseded after it was posted: the newer request's outcome follows.
                if (number == newest_) {
                    if (result)
                        emit resultReady(*result);
                    else
                        emit failed(*failure, request);
                }
                // Idle once the newest request's outcome is out. Not on an older one's, even
                // with the worker idle: a handler may just have submitted another (the
                // window asking for a result back after a refusal), whose outcome, made in no
                // time, may already wait in the event queue behind this one.
                if (busy_ && number == newest_ && worker_.idle()) {
                    busy_ = false;
                    emit busyChanged(false);
                }
            },
            Qt::QueuedConnection);
    };
}

} // namespace attn::ui
