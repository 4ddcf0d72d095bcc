// GPT-2's tokenizer: BM_Gpt2Load (vocab.json and merges.txt of tests/data/gpt2 read and
// checked) and BM_Gpt2Encode/bytes (a long mixed text: English, numbers, code, Chinese,
// emoji), fresh (BM_Gpt2EncodeCold: a new tokenizer, so every piece is merged) and with the
// cache of merged pieces warm, as when the user types.
#include "text/gpt2tokenizer.h"

#include <benchmark/benchmark.h>

#include <optional>
#include <string>

namespace {

const std::filesystem::path kGpt2Dir = ATTN_GPT2_DATA_DIR;

// A made-up word for `n`, from syllables: words BPE has never seen, so that a cold
// cache has work to do.
std::string madeUpWord(unsigned n)
{
    static const char* const syllables[] = {"ka",  "lo", "mi",  "ne",  "su", "tar", "vel", "qui",
                                            "dra", "po", "zen", "ith", "or", "bu",  "fle", "gy"};
    std::string word = " ";
    for (int k = 0; k < 4; ++k, n /= 16)
        word += syllables[n % 16];
    return word;
}

// About `bytes` bytes of text: paragraphs that differ in their numbers and made-up
// words, so that the pieces do not all repeat.
std::string longText(std::size_t bytes)
{
    static const char* const paragraph =
        "The attention weights of head %d in layer %d sum to 1.0 over the keys; it's what "
        "softmax(QK^T / sqrt(d_k)) gives. 注意力机制让模型关注句子中的相关词语。 "
        "for (int t = 0; t < T; ++t) { y[t] += w[t] * v[t]; }  \U0001F600 café naïve\n\n";
    std::string text;
    for (unsigned n = 0; text.size() < bytes; ++n) {
        std::string p = paragraph;
        p.replace(p.find("%d"), 2, std::to_string(n % 144));
        p.replace(p.find("%d"), 2, std::to_string(n * 7919 % 100003));
        text += p;
        text += madeUpWord(n * 2654435761u % 65536);
    }
    return text;
}

void BM_Gpt2Load(benchmark::State& state)
{
    for (auto _ : state)
        benchmark::DoNotOptimize(attn::Gpt2Tokenizer::fromFolder(kGpt2Dir));
}

void BM_Gpt2Encode(benchmark::State& state)
{
    const auto tokenizer = attn::Gpt2Tokenizer::fromFolder(kGpt2Dir);
    const std::string text = longText(static_cast<std::size_t>(state.range(0)));
    std::size_t tokens = tokenizer.encode(text).ids.size(); // fills the cache
    for (auto _ : state)
        tokens = tokenizer.encode(text).ids.size();
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["tokens"] = static_cast<double>(tokens);
}

void BM_Gpt2EncodeCold(benchmark::State& state)
{
    const std::string text = longText(static_cast<std::size_t>(state.range(0)));
    std::optional<attn::Gpt2Tokenizer> tokenizer;
    std::size_t tokens = 0;
    for (auto _ : state) {
        state.PauseTiming();
        tokenizer.emplace(attn::Gpt2Tokenizer::fromFolder(kGpt2Dir)); // an empty cache
        state.ResumeTiming();
        tokens = tokenizer->encode(text).ids.size();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
    state.counters["tokens"] = static_cast<double>(tokens);
}

} // namespace

BENCHMARK(BM_Gpt2Load)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gpt2Encode)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gpt2EncodeCold)->Arg(1 << 20)->Unit(benchmark::kMillisecond);
