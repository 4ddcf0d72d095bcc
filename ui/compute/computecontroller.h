// Runs the engine on a worker thread. A newer request supersedes an older one: a running
// one is cancelled between steps, and none is reported once a newer one was submitted
// (not even one whose outcome was already on its way to the GUI thread).
#pragma once

#include "engine/engine.h"
#include "latestworker.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <functional>

Q_DECLARE_METATYPE(attn::Result)
Q_DECLARE_METATYPE(attn::Request)

namespace attn::ui {

class ComputeController : public QObject {
    Q_OBJECT

public:
    explicit ComputeController(QObject* parent = nullptr);
    ~ComputeController() override;

    // Queues `request`, replacing any queued one and cancelling a running one.
    void submit(const Request& request);

    // True from submit() until its result or failure has been reported.
    [[nodiscard]] bool busy() const { return busy_; }

    // Waits (for tests and for the command line) until nothing is queued or running.
    void waitForIdle();

signals:
    // The newest request's weights (stages up to the softmax), before the rest.
    void weightsReady(const attn::Result& partial);
    // The newest request's complete result, delivered on the GUI thread.
    void resultReady(const attn::Result& result);
    // The newest request was refused; ui::refusalText() words it.
    void failed(const attn::InputError& refusal, const attn::Request& request);
    void busyChanged(bool busy);

private:
    // A request and the number of its submit(): the same request submitted twice is two
    // tickets, so an outcome of the first that is still on its way is told from the second's.
    struct Ticket {
        Request request;
        std::uint64_t number = 0;
    };

    std::function<void()> run(const Ticket& ticket, const std::atomic<bool>& cancel);

    AttentionEngine engine_;      // used only by the worker thread
    bool busy_ = false;           // GUI thread only
    std::uint64_t newest_ = 0;    // GUI thread only: the last ticket's number
    LatestWorker<Ticket> worker_; // last: its thread uses everything above
};

} // namespace attn::ui
