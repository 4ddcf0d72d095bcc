// A Qwen2.5-0.5B-sized model (bench/qwenfolder.h: 24 layers, hidden 896, 14 query heads over
// 2 K/V heads, head_dim 64, SwiGLU of 4864, vocabulary 151936, tied embeddings; random BF16
// weights written to a folder at bench time in Hugging Face's layout and opened as the app
// opens it, the BF16 converted once) at T tokens, textbook formula: BM_QwenForward/T. As
// BM_Gpt2Forward, the forward to the final norm's hidden states: the logits over the 151936
// tokens are made on demand for the rows shown (logitsOf), not in the forward. Counters as
// BM_Gpt2Forward's: x_sgemm_limit (wall time), x_sgemm_limit_cpu (CPU time).
#include "models/families.h"
#include "qwenfolder.h"
#include "sgemmlimit.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

namespace {

using attn::bench::processCpuSeconds;
using attn::bench::sgemmSeconds;

std::shared_ptr<const attn::LanguageModel> qwenSized()
{
    static const std::shared_ptr<const attn::LanguageModel> model = [] {
        namespace fs = std::filesystem;
        const fs::path folder =
            fs::temp_directory_path() / ("attnscope-bench-qwen-" + std::to_string(::getpid()));
        attn::bench::writeQwenFolder(folder, fs::path(ATTN_LLAMA_DATA_DIR) / "qwen2-f32" /
                                                 "tokenizer.json");
        auto opened = attn::openModel(folder);
        fs::remove_all(folder); // the converted weights stay in memory
        return opened;
    }();
    return model;
}

void BM_QwenForward(benchmark::State& state)
{
    const int T = int(state.range(0));
    const attn::bench::QwenShape shape;
    const auto model = qwenSized();
    std::vector<int> ids(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t)
        ids[std::size_t(t)] = (t * 7919) % shape.vocabulary;
    const attn::ModelSwitches textbook;
    const double flops = attn::bench::qwenFlops(shape, T);
    (void)sgemmSeconds(flops); // the products' first touch of their memory
    (void)attn::bench::kernelSeconds(flops);
    double seconds = 0, limit = 0, cpu = 0, cpuLimit = 0, kernelLimit = 0;
    // The run shown while the next is made, as the model window holds it: its attention
    // is let go after the next forward, and its memory recycled by the one after. Two runs
    // first, untimed, as a window has made before its first switch: the opening run and
    // one more, whose predecessor's block is the spare the timed runs take in turn (the
    // first run at a new length pays for fresh memory; every switch after it does not).
    attn::Forward shown = model->forward(ids, textbook);
    shown = model->forward(ids, textbook);
    for (auto _ : state) {
        const double cpuStart = processCpuSeconds();
        const auto start = std::chrono::steady_clock::now();
        attn::Forward out = model->forward(ids, textbook);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        cpu += processCpuSeconds() - cpuStart;
        benchmark::DoNotOptimize(out.hidden.data());
        state.SetIterationTime(s);
        seconds += s;
        state.PauseTiming();
        shown = std::move(out);
        limit += sgemmSeconds(flops, &cpuLimit);
        kernelLimit += attn::bench::kernelSeconds(flops);
        state.ResumeTiming();
    }
    state.counters["FLOPS"] =
        benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["x_sgemm_limit"] = seconds / limit;
    state.counters["x_sgemm_limit_cpu"] = cpu / cpuLimit;
    state.counters["sgemm_GFLOPS"] = flops * double(state.iterations()) / limit / 1e9;
    state.counters["x_kernel_limit"] = seconds / kernelLimit;
    state.counters["kernel_GFLOPS"] = flops * double(state.iterations()) / kernelLimit / 1e9;
    // The machine's best 1024³ multiply: OpenBLAS's or the kernel's, whichever was faster.
    state.counters["x_best_limit"] = seconds / std::min(limit, kernelLimit);
}

} // namespace

BENCHMARK(BM_QwenForward)->Arg(128)->MinTime(3)->UseManualTime()->Unit(benchmark::kMillisecond);
