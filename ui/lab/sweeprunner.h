// Runs the d_k sweep on a worker thread. A newer request cancels an older one that is
// still running (through the engine's cancel flag) and only the newest is reported.
#pragma once

#include "lab/sweep.h"
#include "latestworker.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <functional>
#include <vector>

namespace attn::ui {

// What was asked for and what came of it.
struct SweepRun {
    Request base;
    int from = 0;
    int to = 0;
    std::vector<SweepPoint> points; // empty until computed
};

class SweepRunner : public QObject {
    Q_OBJECT

public:
    explicit SweepRunner(QObject* parent = nullptr);
    ~SweepRunner() override;

    // Queues the sweep of `base` over d_k = from … to, replacing a queued one and
    // cancelling a running one.
    void submit(const Request& base, int from, int to);

    // True from submit() until its points or its failure have been reported.
    [[nodiscard]] bool busy() const { return busy_; }

    // Waits (for tests) until nothing is queued or running; the reports still go through
    // the event loop.
    void waitForIdle();

signals:
    // `done` of `total` points of the newest sweep, on the GUI thread.
    void progress(int done, int total);
    // The newest sweep's points, on the GUI thread.
    void finished(const attn::ui::SweepRun& run);
    // The newest sweep failed; `message` is one line in the interface language.
    void failed(const QString& message);
    void busyChanged(bool busy);

private:
    std::function<void()> run(SweepRun& run, const std::atomic<bool>& cancel);

    bool busy_ = false;             // GUI thread only
    LatestWorker<SweepRun> worker_; // last: its thread uses everything above
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::ui::SweepRun)
