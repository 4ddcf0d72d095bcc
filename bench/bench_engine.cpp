// Benchmarks of AttnScope. Names carry their shape: BM_Forward/T/C/H (and BM_ForwardCold),
// BM_Typing/T/C/H, BM_Switch/T/C/H (and BM_SwitchInView, BM_SwitchStatistics), BM_Render/T/H,
// BM_RenderLevelOfDetail/T/H/px, BM_Sgemm/N, BM_Memcpy/bytes. bench/compare_torch.py turns one run
// into the table of ratios in the README.
#include "base/blas.h"
#include "base/parallel.h"
#include "engine/engine.h"
#include "engine/statistics.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <QScrollBar>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace {

// A text of `tokens` space-separated words, so that T is exact.
std::string words(int tokens)
{
    std::string text;
    for (int t = 0; t < tokens; ++t)
        text += "w" + std::to_string(t % 997) + " ";
    return text;
}

// The reference program of ARCHITECTURE.md with a causal mask, one sequence.
attn::Request request(int T, int C, int H)
{
    attn::Request r;
    r.text = words(T);
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = C;
    r.config.heads = H;
    r.config.mask = attn::MaskKind::Causal;
    return r;
}

double forwardFlops(double T, double C)
{
    // Q, K, V and W_o: 4 · 2TC²; QKᵀ and P·V: 2 · 2T²C (summed over heads).
    return 8 * T * C * C + 4 * T * T * C;
}

// Stages 3–8 of the last compute, what torch's forward does, in seconds.
double forwardSeconds(const attn::AttentionEngine& engine)
{
    double ms = 0;
    for (int s = int(attn::Stage::Project); s <= int(attn::Stage::Aggregate); ++s)
        ms += engine.lastMilliseconds(attn::Stage(s));
    return ms / 1000;
}

// Stages 1–7 of the reference program at T tokens, H heads of d_k = 64: what the
// heatmaps show.
attn::Result heatmapsOf(int T, int H)
{
    attn::AttentionEngine engine;
    return engine.compute(request(T, 64 * H, H), nullptr, attn::Stage::Normalize);
}

// Head 0 in a head's dialog of its default size, over the head's own colour scale.
void showFirstHead(attn::ui::HeadDialog& dialog, const attn::Result& result)
{
    attn::ui::HeatmapStyle style;
    style.vmax = attn::finiteMax(result.weights->at(0, 0));
    dialog.setHeatmap(attn::ui::headHeatmap(result, 0, 0), style);
    dialog.resize(820, 760);
}

// What torch's forward does: the projections, QKᵀ, scale and mask, softmax, P·V and
// W_o (stages 3–8). The text is made once; x and the layers are drawn outside the
// timing (stage 2). One engine serves every iteration, as one serves the window: each
// iteration changes the seed, so stages 3–8 run anew into the buffers of the iteration
// before, which nobody holds any more.
void BM_Forward(benchmark::State& state)
{
    const int T = int(state.range(0)), C = int(state.range(1)), H = int(state.range(2));
    attn::Request r = request(T, C, H);
    attn::AttentionEngine engine;
    // Two computes before the timing: the current result and one spare set of buffers,
    // as after the window's first two sentences (T=2048 runs only a few iterations).
    for (const std::uint64_t seed : {43, 42}) {
        r.config.seed = seed;
        (void)engine.compute(r, nullptr, attn::Stage::Aggregate);
    }
    for (auto _ : state) {
        r.config.seed = r.config.seed == 42 ? 43 : 42;
        benchmark::DoNotOptimize(engine.compute(r, nullptr, attn::Stage::Aggregate));
        state.SetIterationTime(forwardSeconds(engine));
    }
    state.counters["FLOP"] = forwardFlops(T, C);
}

// The same in a new engine every time: every buffer is fresh memory, which the kernel
// zeroes page by page on first touch (the first compute after start or after a change of
// shape).
void BM_ForwardCold(benchmark::State& state)
{
    const int T = int(state.range(0)), C = int(state.range(1)), H = int(state.range(2));
    const attn::Request r = request(T, C, H);
    for (auto _ : state) {
        attn::AttentionEngine engine;
        benchmark::DoNotOptimize(engine.compute(r, nullptr, attn::Stage::Aggregate));
        state.SetIterationTime(forwardSeconds(engine));
    }
    state.counters["FLOP"] = forwardFlops(T, C);
}

// Typing at long T: each iteration adds a token to the sentence and computes the
// heatmaps (stages 1–7) while the previous result is still held, as the window shows it.
// Every (B, H, T, T) buffer then changes size; `same_size_ms` is a new seed at the same
// T in the same run (the buffers recycled as they are), for the ratio.
void BM_Typing(benchmark::State& state)
{
    const int T = int(state.range(0)), C = int(state.range(1)), H = int(state.range(2));
    attn::Request r = request(T, C, H);
    attn::AttentionEngine engine;
    attn::Result shown;
    auto timed = [&] {
        const auto start = std::chrono::steady_clock::now();
        attn::Result next = engine.compute(r, nullptr, attn::Stage::Normalize);
        const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
        shown = std::move(next);
        return took.count();
    };
    for (const std::uint64_t seed : {43, 42}) { // a result shown and a spare, as in the window
        r.config.seed = seed;
        timed();
    }
    int tokens = T;
    double sameSize = 0;
    // One token more, then two new seeds (the first brings the other set of buffers to
    // this T, the second is `same_size_ms`). Three rounds untimed first: the heap's own
    // blocks (x, the mask, Q, K, V) settle in them.
    auto round = [&](benchmark::State* timing) {
        r.text = words(++tokens);
        const double typed = timed();
        if (timing) {
            timing->SetIterationTime(typed);
            timing->PauseTiming();
        }
        for (int k = 0; k < 2; ++k) {
            r.config.seed = r.config.seed == 42 ? 43 : 42;
            const double seconds = timed();
            sameSize += timing && k == 1 ? seconds : 0.0;
        }
        if (timing)
            timing->ResumeTiming();
    };
    for (int k = 0; k < 3; ++k)
        round(nullptr);
    for (auto _ : state)
        round(&state);
    state.counters["same_size_ms"] =
        benchmark::Counter(1000 * sameSize / double(state.iterations()));
}

// A switch of the formula (the scaling) until the heatmaps are drawn again, as the
// window does it: stages 6–7 (the heads' overview made in the softmax's pass, as the
// window's engine makes it), then the grid of heatmaps takes the result (each head's
// labels and views of the result's matrices, the colour scale, the mean tile) and
// paints its tiles (cells through level of detail, token labels, titles, colorbars). The
// grid sits in a viewport of the size the window's heatmap area has (1100 × 560 px:
// tiles of 544 px, 2 a row, at T = 512); the statistics follow later, as in the window.
// `inView` paints only what that viewport shows, as the window's scroll area does;
// otherwise every tile, the ones scrolled out of sight too.
void switchAndPaint(benchmark::State& state, bool inView)
{
    const int T = int(state.range(0)), C = int(state.range(1)), H = int(state.range(2));
    attn::Request r = request(T, C, H);
    attn::AttentionEngine engine;
    engine.setMakesOverviews(true); // as the window's engine
    QWidget viewport;
    viewport.resize(1100, 560);
    auto* grid = new attn::ui::HeatmapGrid(&viewport);
    const attn::ui::ViewOptions view;
    grid->setResult(engine.compute(r, nullptr, attn::Stage::Normalize), view);
    grid->resize(viewport.width(), grid->heightForWidth(viewport.width()));
    const QRect painted(QPoint(0, 0), inView ? viewport.size() : grid->size());
    QImage canvas(painted.size(), QImage::Format_RGB32);
    // Where the time goes, per switch: the engine (stages 6–7), the grid taking the
    // result, the painting.
    using Clock = std::chrono::steady_clock;
    double computing = 0, taking = 0, painting = 0;
    auto since = [](Clock::time_point& mark) {
        const Clock::time_point now = Clock::now();
        const double ms = std::chrono::duration<double, std::milli>(now - mark).count();
        mark = now;
        return ms;
    };
    auto switchScaling = [&r] {
        r.config.scale = r.config.scale == attn::ScaleMode::SqrtDk ? attn::ScaleMode::None
                                                                   : attn::ScaleMode::SqrtDk;
    };
    // Two switches before the timing, as a window that has switched before: both P
    // buffers exist (at T=2048 a fresh one costs 268 MB of first-touch page faults).
    for (int k = 0; k < 2; ++k) {
        switchScaling();
        grid->setResult(engine.compute(r, nullptr, attn::Stage::Normalize), view);
    }
    for (auto _ : state) {
        switchScaling();
        Clock::time_point mark = Clock::now();
        attn::Result result = engine.compute(r, nullptr, attn::Stage::Normalize);
        attn::addOverviews(result); // as the window's worker (the softmax made them here)
        computing += since(mark);
        grid->setResult(result, view);
        taking += since(mark);
        QPainter painter(&canvas);
        grid->render(&painter, QPoint(), QRegion(painted));
        painter.end();
        painting += since(mark);
    }
    const double n = double(std::max<benchmark::IterationCount>(state.iterations(), 1));
    state.counters["compute_ms"] = computing / n;
    state.counters["take_ms"] = taking / n;
    state.counters["paint_ms"] = painting / n;
    int shown = 0;
    for (int k = 0; k < grid->count(); ++k)
        shown += grid->view(k)->geometry().intersects(painted) ? 1 : 0;
    state.counters["tiles"] = grid->count();
    state.counters["tiles_painted"] = shown;
    state.counters["tile_px"] = grid->view(0)->width();
}

void BM_Switch(benchmark::State& state)
{
    switchAndPaint(state, false);
}

// The first row of two tiles and the top of the next at T = 512; the others make their
// images when scrolled to.
void BM_SwitchInView(benchmark::State& state)
{
    switchAndPaint(state, true);
}

// The same switch through to the statistics panel's figures and warnings: stages 6–9
// (the softmax, P·V and W_o, the statistics of every head), as the window's worker runs
// them, the heatmaps first; `stats_ms` is stage 9 alone.
void BM_SwitchStatistics(benchmark::State& state)
{
    const int T = int(state.range(0)), C = int(state.range(1)), H = int(state.range(2));
    attn::Request r = request(T, C, H);
    attn::AttentionEngine engine;
    engine.setMakesOverviews(true); // as the window's engine
    double statistics = 0;
    for (int k = 0; k < 3; ++k) { // warm, as the switch cases start
        r.config.scale = k % 2 ? attn::ScaleMode::None : attn::ScaleMode::SqrtDk;
        benchmark::DoNotOptimize(engine.compute(r));
    }
    for (auto _ : state) {
        r.config.scale = r.config.scale == attn::ScaleMode::SqrtDk ? attn::ScaleMode::None
                                                                   : attn::ScaleMode::SqrtDk;
        benchmark::DoNotOptimize(engine.compute(r));
        statistics += engine.lastMilliseconds(attn::Stage::Statistics);
    }
    state.counters["stats_ms"] =
        statistics / double(std::max<benchmark::IterationCount>(state.iterations(), 1));
}

// Head h of sequence 0 as the grid shows it, one view of the result's P and mask each.
std::vector<attn::ui::HeatmapData> headViews(const attn::Result& result)
{
    std::vector<attn::ui::HeatmapData> heads(static_cast<std::size_t>(result.heads()));
    for (int h = 0; h < result.heads(); ++h) {
        heads[std::size_t(h)].weights =
            attn::ui::SharedWeights(result.weights, result.weights->at(0, h));
        heads[std::size_t(h)].masked = attn::ui::SharedMask(result.mask, (*result.mask)[0]);
    }
    return heads;
}

// Weights of every head to colormapped images, one pixel per cell.
void BM_Render(benchmark::State& state)
{
    const int T = int(state.range(0)), H = int(state.range(1));
    const attn::Result result = heatmapsOf(T, H);
    const std::vector<attn::ui::HeatmapData> heads = headViews(result);
    attn::ui::HeatmapStyle style;
    for (auto _ : state)
        for (const auto& data : heads)
            benchmark::DoNotOptimize(attn::ui::cellImage(data, style));
    // Read 4 bytes of weight and 1 of mask, write 4 bytes of pixel, per cell.
    state.SetBytesProcessed(state.iterations() * std::int64_t(H) * T * T * 9);
}

// The same weights shrunk to a tile's cell area by level of detail (each pixel the
// largest weight of its block of cells), as the window draws a head with more cells than
// pixels: 512 tokens on the 456 px a 544 px tile leaves them, 2048 on 456.
void BM_RenderLevelOfDetail(benchmark::State& state)
{
    const int T = int(state.range(0)), H = int(state.range(1)), pixels = int(state.range(2));
    const attn::Result result = heatmapsOf(T, H);
    const std::vector<attn::ui::HeatmapData> heads = headViews(result);
    attn::ui::HeatmapStyle style;
    std::vector<QImage> images(heads.size());
    for (auto _ : state)
        for (std::size_t h = 0; h < heads.size(); ++h)
            images[h] =
                attn::ui::cellImage(heads[h], style, QSize(pixels, pixels), std::move(images[h]));
    state.SetItemsProcessed(state.iterations() * std::int64_t(H) * pixels * pixels);
}

// The window at T = 2048, H = 16 (C = 1024), what a person does with it: each iteration
// one step and the repaint it causes, so each must stay well inside a 16 ms frame.
// Hovering: the pointer moves to another cell of the first head's tile (its row and
// column outlined, the status text made with the cell's weight, logit and score), and
// the tile is painted again.
void BM_Hover(benchmark::State& state)
{
    const int T = int(state.range(0)), H = int(state.range(1));
    QWidget viewport;
    viewport.resize(1100, 560);
    auto* grid = new attn::ui::HeatmapGrid(&viewport);
    grid->setResult(heatmapsOf(T, H), attn::ui::ViewOptions());
    grid->resize(viewport.width(), grid->heightForWidth(viewport.width()));
    QString status;
    QObject::connect(grid, &attn::ui::HeatmapGrid::hovered,
                     [&status](const QString& text) { status = text; });
    attn::ui::HeatmapView* tile = grid->view(0);
    QImage canvas(tile->size(), QImage::Format_RGB32);
    QPainter painter(&canvas);
    tile->render(&painter); // the cell image, made once
    const QPointF centre(tile->width() / 2.0, tile->height() / 2.0);
    int step = 0;
    for (auto _ : state) {
        const QPointF at = centre + QPointF(step % 7, step % 5) * 9.0;
        ++step;
        QMouseEvent move(QEvent::MouseMove, at, tile->mapToGlobal(at), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(tile, &move);
        tile->render(&painter);
    }
    if (status.isEmpty())
        state.SkipWithError("no hover text");
    state.counters["cell_images"] = tile->cellImageRenders(); // made once, not per hover
}

// Zooming in the large view of one head: one step of Ctrl + wheel (×1.25 a cell), from the
// whole head on 400 px (level of detail) to 8 px a cell (full detail, 16 k px wide, of
// which the dialog shows a part) and back, and the dialog painted.
void BM_Zoom(benchmark::State& state)
{
    const int T = int(state.range(0)), H = int(state.range(1));
    const attn::Result result = heatmapsOf(T, H);
    attn::ui::HeadDialog dialog;
    showFirstHead(dialog, result);
    QImage canvas(dialog.size(), QImage::Format_RGB32);
    QPainter painter(&canvas);
    const double smallest = 400.0 / T, largest = 8.0;
    dialog.setCellSize(smallest);
    dialog.render(&painter);
    bool in = true;
    for (auto _ : state) {
        in ? dialog.zoomIn() : dialog.zoomOut();
        if (dialog.cellSize() >= largest)
            in = false;
        else if (dialog.cellSize() <= smallest)
            in = true;
        dialog.render(&painter);
    }
    state.counters["view_px"] = dialog.findChild<QScrollArea*>()->viewport()->width();
}

// Scrolling the large view at 8 px a cell: the view moves by a wheel step (120 px) and the
// dialog is painted.
void BM_Scroll(benchmark::State& state)
{
    const int T = int(state.range(0)), H = int(state.range(1));
    const attn::Result result = heatmapsOf(T, H);
    attn::ui::HeadDialog dialog;
    showFirstHead(dialog, result);
    dialog.setCellSize(8);
    auto* scroll = dialog.findChild<QScrollArea*>();
    QImage canvas(dialog.size(), QImage::Format_RGB32);
    QPainter painter(&canvas);
    dialog.render(&painter);
    QScrollBar* bar = scroll->verticalScrollBar();
    int direction = 1;
    for (auto _ : state) {
        if (bar->value() + 120 > bar->maximum())
            direction = -1;
        else if (bar->value() - 120 < 0)
            direction = 1;
        bar->setValue(bar->value() + direction * 120);
        dialog.render(&painter);
    }
}

// The multiply limit: Eigen's float product (over OpenBLAS when built so), N × N × N,
// its rows split over every core as the engine splits its products.
void BM_Sgemm(benchmark::State& state)
{
    const auto N = Eigen::Index(state.range(0));
    const attn::Matrix a = attn::Matrix::Random(N, N), b = attn::Matrix::Random(N, N);
    attn::Matrix c(N, N);
    const int blocks = attn::coreCount();
    for (auto _ : state) {
        attn::parallelFor(blocks, [&](int k) {
            const Eigen::Index row = N * k / blocks, end = N * (k + 1) / blocks;
            c.middleRows(row, end - row).noalias() = a.middleRows(row, end - row) * b;
        });
        benchmark::DoNotOptimize(c.data());
    }
    state.counters["FLOPS"] =
        benchmark::Counter(2.0 * N * N * N, benchmark::Counter::kIsIterationInvariantRate);
}

// The memory bandwidth limit: memcpy of the bytes BM_Render touches.
void BM_Memcpy(benchmark::State& state)
{
    const auto bytes = std::size_t(state.range(0));
    std::vector<char> from(bytes, 1), to(bytes);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), bytes);
        benchmark::DoNotOptimize(to.data());
    }
    state.SetBytesProcessed(state.iterations() * std::int64_t(bytes));
}

} // namespace

BENCHMARK(BM_Forward)
    ->Args({128, 256, 4})
    ->Args({512, 768, 12})
    ->Args({2048, 512, 8})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ForwardCold)->Args({512, 768, 12})->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Typing)
    ->Args({2048, 1024, 16})
    ->Args({3072, 512, 8})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Switch)
    ->Args({128, 256, 4})
    ->Args({512, 768, 12})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SwitchInView)
    ->Args({128, 256, 4})
    ->Args({512, 768, 12})
    ->Args({2048, 1024, 16})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SwitchStatistics)
    ->Args({128, 256, 4})
    ->Args({512, 768, 12})
    ->Args({2048, 1024, 16})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Render)->Args({512, 12})->Args({2048, 16})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RenderLevelOfDetail)
    ->Args({512, 12, 456})
    ->Args({2048, 16, 456})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Hover)->Args({2048, 16})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Zoom)->Args({2048, 16})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Scroll)->Args({2048, 16})->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Sgemm)->Arg(1024)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Memcpy)
    ->Arg(512 * 512 * 12 * 9)
    ->Arg(2048 * 2048 * 16 * 9)
    ->Unit(benchmark::kMillisecond);

// Google Benchmark's main, inside an application on the offscreen platform: BM_Switch
// draws real widgets.
int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    // Which kernels multiplied: compare_torch.py gives PyTorch's OpenBLAS the same ones.
    benchmark::AddCustomContext("matrix_products", attn::matrixProductLibrary());
    benchmark::AddCustomContext("blas_kernels", attn::blasKernels());
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
