// Attention files: opening one, and the model view's thumbnails of every head, each
// against a plain read() of the same bytes (the counter vs_read: 1 = as fast as reading
// the file once from the page cache).
//
// The file is a (L, 1, H, T, T) float32 .npy made in /tmp on first use and removed at
// exit: L = 24, H = 16, T = 1024 by default (1.6 GB), or ATTN_BENCH_ATTENTION=L,H,T
// (e.g. 4,8,512 for 32 MB).
#include "attention/attentionfile.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

struct BenchFile {
    int layers = 24, heads = 16, tokens = 1024;
    std::string path;
    std::size_t bytes = 0;

    BenchFile()
    {
        if (const char* size = std::getenv("ATTN_BENCH_ATTENTION"))
            std::sscanf(size, "%d,%d,%d", &layers, &heads, &tokens);
        path = "/tmp/attnscope-bench-" + std::to_string(getpid()) + ".npy";
        // 1. The header, padded to 64 bytes, then one head's rows again and again: causal
        // rows that sum to 1, so the thumbnails see real weights.
        std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                             std::to_string(layers) + ", 1, " + std::to_string(heads) + ", " +
                             std::to_string(tokens) + ", " + std::to_string(tokens) + "), }";
        while ((10 + header.size() + 1) % 64)
            header += ' ';
        header += '\n';
        std::ofstream out(path, std::ios::binary);
        out.write("\x93NUMPY\x01\x00", 8);
        const char length[2] = {char(header.size() & 0xFF), char(header.size() >> 8)};
        out.write(length, 2);
        out << header;
        std::vector<float> head(std::size_t(tokens) * std::size_t(tokens), 0.0f);
        for (int i = 0; i < tokens; ++i)
            for (int j = 0; j <= i; ++j)
                head[std::size_t(i) * std::size_t(tokens) + std::size_t(j)] = 1.0f / float(i + 1);
        for (int k = 0; k < layers * heads; ++k)
            out.write(reinterpret_cast<const char*>(head.data()),
                      std::streamsize(head.size() * sizeof(float)));
        out.close();
        bytes = 10 + header.size() + std::size_t(layers) * std::size_t(heads) * head.size() * 4;
    }
    ~BenchFile() { std::remove(path.c_str()); }
};

const BenchFile& benchFile()
{
    static const BenchFile file;
    return file;
}

// Seconds to read() the whole file into one buffer (from the page cache once warm).
double plainReadSeconds(const BenchFile& file)
{
    static std::vector<char> buffer;
    buffer.resize(file.bytes);
    const auto start = std::chrono::steady_clock::now();
    const int fd = ::open(file.path.c_str(), O_RDONLY);
    std::size_t done = 0;
    while (done < file.bytes) {
        const ssize_t n = ::read(fd, buffer.data() + done, file.bytes - done);
        if (n <= 0)
            break;
        done += std::size_t(n);
    }
    ::close(fd);
    benchmark::DoNotOptimize(buffer.data());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void setCounters(benchmark::State& state, const BenchFile& file, double seconds, double reading)
{
    state.counters["MB"] = double(file.bytes) / 1e6;
    state.counters["vs_read"] = seconds / reading;
}

// The plain read alone: this machine's limit for touching every byte once.
void BM_AttentionPlainRead(benchmark::State& state)
{
    const BenchFile& file = benchFile();
    for (auto _ : state)
        state.SetIterationTime(plainReadSeconds(file));
    state.counters["MB"] = double(file.bytes) / 1e6;
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(file.bytes));
}

// Opening: map the file and parse its header (nothing of the data is read).
void BM_AttentionOpen(benchmark::State& state)
{
    const BenchFile& file = benchFile();
    double seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const auto stack = attn::openAttentionFile(file.path);
        benchmark::DoNotOptimize(stack.get());
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.SetIterationTime(t);
        seconds += t;
    }
    setCounters(state, file, seconds / double(state.iterations()), plainReadSeconds(file));
}

// The model view: open, then a size × size thumbnail of every one of the L × H heads.
void BM_AttentionThumbnails(benchmark::State& state)
{
    const BenchFile& file = benchFile();
    const int size = int(state.range(0));
    double seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const auto stack = attn::openAttentionFile(file.path);
        const std::vector<attn::Thumbnail> all = stack->thumbnails(0, size);
        benchmark::DoNotOptimize(all.data());
        const double t =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        state.SetIterationTime(t);
        seconds += t;
    }
    setCounters(state, file, seconds / double(state.iterations()), plainReadSeconds(file));
    state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(file.bytes));
}

// One head shown: converted to float (T, T).
void BM_AttentionHead(benchmark::State& state)
{
    const BenchFile& file = benchFile();
    const auto stack = attn::openAttentionFile(file.path);
    int k = 0;
    for (auto _ : state) {
        const attn::Matrix m = stack->head(k % file.layers, 0, k % file.heads);
        benchmark::DoNotOptimize(m.data());
        ++k;
    }
}

} // namespace

BENCHMARK(BM_AttentionPlainRead)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AttentionOpen)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AttentionThumbnails)->Arg(32)->Arg(12)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_AttentionHead)->Unit(benchmark::kMillisecond);
