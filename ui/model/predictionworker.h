// The predictions at the query row the mouse points at, made off the GUI thread: one
// position's logits are V × C products (15 ms for GPT-2 small), too slow for a mouse move.
// A worker that runs only the newest request (LatestWorker) makes the top 10 at the
// position asked last; the positions of the run shown that are done are kept, so pointing
// at a row again shows it at once. A new run forgets them.
#pragma once

#include "latestworker.h"
#include "models/languagemodel.h"

#include <QObject>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace attn::ui {

class PredictionWorker : public QObject {
    Q_OBJECT

public:
    // How many next tokens a position shows.
    static constexpr int kTop = 10;

    explicit PredictionWorker(QObject* parent = nullptr);
    ~PredictionWorker() override;

    // The run whose predictions request() makes from now on, with those already made
    // (position → its top kTop, e.g. the last position's, made beside the run).
    void setRun(std::shared_ptr<const ModelRun> run,
                std::map<int, std::vector<Prediction>> made = {});
    // Asks for the predictions after `position` (0 … T−1): ready() comes at once when they
    // are made, else from the worker, unless a newer request came meanwhile.
    void request(int position);
    // The predictions after `position` when made; else null.
    [[nodiscard]] const std::vector<Prediction>* made(int position) const;
    // Nothing is queued or running (tests).
    [[nodiscard]] bool idle() { return worker_.idle(); }

signals:
    // The predictions after `position` of the run set last.
    void ready(int position, const std::vector<Prediction>& predictions);

private:
    struct Job {
        std::shared_ptr<const ModelRun> run;
        int position = 0;
    };
    // On the worker thread.
    std::function<void()> compute(const Job& job);

    std::shared_ptr<const ModelRun> run_;
    std::map<int, std::vector<Prediction>> made_; // GUI thread only
    int wanted_ = -1;                             // the position asked last
    // Last: destroyed first, it joins its thread before anything a job reports to goes.
    LatestWorker<Job> worker_;
};

} // namespace attn::ui
