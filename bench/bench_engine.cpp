// Benchmarks of the engine. Names carry the shape: BM_Forward/T/C/H.
#include "engine.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

// A text of `tokens` space-separated words, so that T is exact.
std::string words(int tokens)
{
    std::string text;
    for (int t = 0; t < tokens; ++t)
        text += "w" + std::to_string(t % 97) + " ";
    return text;
}

attn::Request request(const benchmark::State& state)
{
    attn::Request r;
    r.text = words(static_cast<int>(state.range(0)));
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = static_cast<int>(state.range(1));
    r.config.heads = static_cast<int>(state.range(2));
    r.config.mask = attn::MaskKind::Causal;
    return r;
}

// The whole pipeline, from the text to the statistics.
void BM_Forward(benchmark::State& state)
{
    const attn::Request r = request(state);
    for (auto _ : state) {
        attn::AttentionEngine engine;
        benchmark::DoNotOptimize(engine.compute(r));
    }
}

// A switch of the formula (the scaling, here) recomputes from stage 6 only.
void BM_Switch(benchmark::State& state)
{
    attn::Request r = request(state);
    attn::AttentionEngine engine;
    (void)engine.compute(r);
    for (auto _ : state) {
        r.config.scale = r.config.scale == attn::ScaleMode::SqrtDk ? attn::ScaleMode::None
                                                                   : attn::ScaleMode::SqrtDk;
        benchmark::DoNotOptimize(engine.compute(r));
    }
}

} // namespace

BENCHMARK(BM_Forward)->Args({128, 256, 4})->Args({512, 768, 12})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Switch)->Args({128, 256, 4})->Args({512, 768, 12})->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
