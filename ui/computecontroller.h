// Runs the engine on a worker thread. A newer request supersedes an older one that
// is still running: the old one is cancelled between steps and never reported.
#pragma once

#include "engine.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

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
    // The newest request was invalid; `message` is one line in English from the core.
    void failed(const attn::InputError& refusal, const attn::Request& request);
    void busyChanged(bool busy);

private:
    void workerLoop();

    AttentionEngine engine_; // used only by the worker thread
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable idle_;
    std::optional<Request> pending_;
    bool running_ = false;
    bool stopping_ = false;
    std::atomic<bool> cancel_{false};
    bool busy_ = false; // GUI thread only
    std::thread worker_;
};

} // namespace attn::ui
