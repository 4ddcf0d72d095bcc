// ModelWindow's sequence: its thumbnails and head patterns, computed at once for a small
// stack and on the worker thread for a large one, so that the grid never waits on the GUI
// thread for a file of gigabytes (modelwindow.cpp builds the window and wires it).
#include "modelwindow.h"

#include "fileheaddialog.h"
#include "headpatternsmodel.h"
#include "modelgrid.h"

#include "engine/engine.h"

#include <QHeaderView>
#include <QTableView>

namespace attn::ui {
namespace {

// The thumbnails' largest side in cells: a head of up to 32 tokens shows every weight,
// a longer one the largest of each block (level of detail).
constexpr int kThumbnailCells = 32;
// Up to this many weights in a sequence the thumbnails are computed at once, so that a
// small file's first paint holds its grid (2^25 weights take about 30 ms at the 0.38 s for
// 400 M weights that bench_attention measures); beyond, on the worker.
constexpr std::int64_t kInlineThumbnailWeights = std::int64_t(1) << 25;
// Likewise the head patterns, which take longer a weight (a logarithm each): up to 2^24
// weights at once, beyond on the worker after the thumbnails, so that the grid shows
// first.
constexpr std::int64_t kInlinePatternWeights = std::int64_t(1) << 24;

} // namespace

void ModelWindow::showSequence()
{
    const StackShape& s = stack_->shape();
    const QPoint current = grid_->current();
    const std::int64_t weights = std::int64_t(s.layers) * s.heads * s.queries * s.keys;
    SequenceJob job{stack_, sequence_, weights > kInlineThumbnailWeights,
                    weights > kInlinePatternWeights, ++newestJob_};
    if (job.thumbnails)
        grid_->setComputing(s.layers, s.heads);
    else
        grid_->setThumbnails(stack_->thumbnails(sequence_, kThumbnailCells), s.layers, s.heads);
    showHover(hovered_.x(), hovered_.y()); // this sequence's largest weight, or none yet
    if (job.patterns) {
        patterns_->setPatterns({}, s.heads, s.keys);
        patternsPending_ = true;
        retranslateUi();
    } else {
        showPatterns(stackPatterns(*stack_, sequence_));
    }
    // Replaces the older sequence's job, cancelling it if it runs.
    if (job.thumbnails || job.patterns)
        worker_.submit(std::move(job));
    if (current.x() >= 0) {
        grid_->setCurrent(-1, -1);
        setCurrentHead(current.x(), current.y());
    }
    if (headDialog_ && headDialog_->isVisible()) {
        if (headDialog_->head() < 0)
            openMean(headDialog_->layer());
        else
            openHead(headDialog_->layer(), headDialog_->head());
    }
}

// On the worker thread. What it computes is posted to the window, where newestJob_ lives:
// a job's outcome posted just before a newer job was submitted is dropped there. The
// window's destructor joins this thread, so `this` is alive while a call is posted.
std::function<void()> ModelWindow::run(const SequenceJob& job, const std::atomic<bool>& cancel)
{
    const std::uint64_t number = job.number;
    try {
        if (job.thumbnails) {
            std::vector<Thumbnail> thumbnails =
                job.stack->thumbnails(job.sequence, kThumbnailCells, &cancel);
            worker_.unlessSuperseded([this, &thumbnails, number] {
                QMetaObject::invokeMethod(
                    this,
                    [this, thumbnails = std::move(thumbnails), number]() mutable {
                        if (number == newestJob_)
                            showThumbnails(std::move(thumbnails));
                    },
                    Qt::QueuedConnection);
            });
        }
        if (!job.patterns)
            return {};
        std::vector<HeadPatterns> patterns = stackPatterns(*job.stack, job.sequence, &cancel);
        return [this, patterns = std::move(patterns), number]() mutable {
            QMetaObject::invokeMethod(
                this,
                [this, patterns = std::move(patterns), number]() mutable {
                    if (number == newestJob_)
                        showPatterns(std::move(patterns));
                },
                Qt::QueuedConnection);
        };
    } catch (const Cancelled&) {
        return {}; // a newer sequence, or the window closed
    }
}

void ModelWindow::showThumbnails(std::vector<Thumbnail> thumbnails)
{
    grid_->setThumbnails(std::move(thumbnails), stack_->shape().layers, stack_->shape().heads);
    showHover(hovered_.x(), hovered_.y()); // now with its largest weight
}

void ModelWindow::showPatterns(std::vector<HeadPatterns> patterns)
{
    patterns_->setPatterns(std::move(patterns), stack_->shape().heads, stack_->shape().keys);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    patternsPending_ = false;
    selectTableRow(layer(), head());
    retranslateUi();
}

} // namespace attn::ui
