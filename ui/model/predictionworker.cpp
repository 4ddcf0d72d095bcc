#include "predictionworker.h"

#include <exception>
#include <utility>

namespace attn::ui {

PredictionWorker::PredictionWorker(QObject* parent)
    : QObject(parent), worker_([this](Job& job, const std::atomic<bool>&) { return compute(job); })
{}

PredictionWorker::~PredictionWorker() = default;

void PredictionWorker::setRun(std::shared_ptr<const ModelRun> run,
                              std::map<int, std::vector<Prediction>> made)
{
    run_ = std::move(run);
    made_ = std::move(made);
    wanted_ = -1;
}

const std::vector<Prediction>* PredictionWorker::made(int position) const
{
    const auto found = made_.find(position);
    return found == made_.end() ? nullptr : &found->second;
}

void PredictionWorker::request(int position)
{
    wanted_ = position;
    if (const std::vector<Prediction>* done = made(position)) {
        emit ready(position, *done);
        return;
    }
    if (run_ && position >= 0 && position < int(run_->ids.size()))
        worker_.submit({run_, position});
}

// On the worker thread. The job holds its run, so the window may show another one (or
// close) meanwhile; what comes back for a run no longer shown is dropped.
std::function<void()> PredictionWorker::compute(const Job& job)
{
    std::shared_ptr<std::vector<Prediction>> predictions;
    try {
        predictions =
            std::make_shared<std::vector<Prediction>>(job.run->predictions(job.position, kTop));
    } catch (const std::exception&) { // out of memory: the panel keeps what it shows
        return {};
    }
    return [this, run = job.run, position = job.position, predictions] {
        QMetaObject::invokeMethod(
            this,
            [this, run, position, predictions] {
                if (run != run_)
                    return;
                made_[position] = *predictions;
                if (position == wanted_)
                    emit ready(position, made_[position]);
            },
            Qt::QueuedConnection);
    };
}

} // namespace attn::ui
