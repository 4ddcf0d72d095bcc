// One GGUF model opened and run once, as the window does: the time to open it, the time of a
// forward over T ids (textbook formula, every layer's attention kept), and the process's
// peak resident size (VmHWM) against the file plus that attention; then, for comparison, the
// time to dequantize every tensor of the file once, row by row, single-threaded (what
// converting the weights a layer at a time before each product would cost on one core; the
// forward does the same work, a tile at a time, on every core). bench/gguf_memory.py
// writes Qwen2.5-0.5B-shaped files and runs this on each.
//   build/bench/attnscope_ggufrun FILE.gguf [T]
#include "io/gguf.h"
#include "io/mappedfile.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "residentmemory.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using attn::bench::peakResidentBytes;

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: attnscope_ggufrun FILE.gguf [T]\n");
        return 2;
    }
    const std::filesystem::path file = argv[1];
    const int T = argc > 2 ? std::atoi(argv[2]) : 128;
    try {
        auto start = std::chrono::steady_clock::now();
        const auto model = attn::openModel(file);
        const double open = secondsSince(start);
        const attn::ModelInfo& info = model->info();
        std::vector<int> ids(static_cast<std::size_t>(T));
        for (int t = 0; t < T; ++t)
            ids[std::size_t(t)] = (t * 7919) % info.vocabulary;
        double first = 0, second = 0;
        for (double* seconds : {&first, &second}) {
            start = std::chrono::steady_clock::now();
            const attn::ModelRun run = model->runIds(ids, attn::ModelSwitches{});
            *seconds = secondsSince(start);
        }
        const double attention = double(info.layers) * info.heads * T * T * sizeof(float);
        const double size = double(std::filesystem::file_size(file));
        const double peak = peakResidentBytes();
        // Every tensor dequantized once, after the peak was read.
        const auto mapped = attn::MappedFile::open(file.string());
        const attn::GgufFile gguf = attn::parseGguf(mapped->bytes(), file.string());
        start = std::chrono::steady_clock::now();
        std::vector<float> row;
        for (const attn::GgufTensor& t : gguf.tensors) {
            const std::int64_t n = t.ne.empty() ? 1 : t.ne[0];
            const std::uint64_t rowBytes = *attn::ggmlRowBytes(t.type, n);
            row.resize(std::size_t(n));
            for (std::int64_t r = 0; r < t.rows(); ++r)
                attn::dequantizeRow(t.type, t.data.data() + std::size_t(r) * rowBytes, row.data(),
                                    n);
        }
        const double dequantize = secondsSince(start);
        std::printf("%s: %s, %.0f MB; open %.2f s, forward at T = %d %.2f s (first %.2f s), every "
                    "tensor dequantized once on one core %.2f s; peak %.0f MB = %.2f x (file + "
                    "attention %.0f MB)\n",
                    file.filename().c_str(), info.weightType.c_str(), size / 1e6, open, T, second,
                    first, dequantize, peak / 1e6, peak / (size + attention), attention / 1e6);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
    return 0;
}
