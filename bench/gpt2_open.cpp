// Opening a GPT-2-small-sized folder, to its first complete run, and the peak memory of
// it: the folder is written here (config.json; GPT-2's own vocab.json and merges.txt from
// tests/data/gpt2; a model.safetensors of random F32 weights in Hugging Face's layout,
// 12 layers, C 768, 12 heads, V 50257, 1024 positions: 498 MB), then
//   core   (default) openModel, run() of the window's first text, its top 10 at the last
//          position, as the window's opener does on its worker;
//   window the window's own path: ModelOpener::open until the model window is shown and
//          painted;
// then a run at `--tokens N` more (the longest text the model reads is 1024 tokens) for
// the memory of a long attention (offscreen unless QT_QPA_PLATFORM says otherwise). Each line gives
// the time, the process's peak resident size (VmHWM, reset before opening) and that over the
// weights file plus the attention shown (L·H·T² floats).
//   build/bench/attnscope_gpt2open [--window] [--cold] [--tokens N] [--keep DIR]
//   build/bench/attnscope_gpt2open --qwen [--cold] [--tokens N] [--keep DIR]
// --qwen opens a Qwen2.5-0.5B-sized folder instead (bench/qwenfolder.h: random BF16
// weights, 988 MB, converted to float once at opening), runs 128 token ids (or N) and
// measures the peak against the float weights (4 bytes a weight: 1976 MB) plus the
// activations (the attention shown, L·H·T² floats, and the forward's (T, ·) buffers).
// --cold drops the weights file from the page cache first (posix_fadvise), as after a
// reboot; without it the file is in the cache, as after a download or an earlier opening.
#include "languagemodelwindow.h"
#include "modelopener.h"
#include "models/families.h"
#include "models/gpt2/model.h"
#include "models/languagemodel.h"
#include "qwenfolder.h"
#include "residentmemory.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QWidget>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

using attn::bench::peakResidentBytes;

constexpr int kLayers = 12, kDModel = 768, kHeads = 12, kVocabulary = 50257, kPositions = 1024;

// The reset of the peak resident set (Linux 4.0 on: "5" to clear_refs).
void resetPeakResident()
{
    std::ofstream("/proc/self/clear_refs") << "5";
}

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Tensor {
    std::string name;
    std::vector<long> shape;
    float std; // normal-ish values of this spread around `mean`
    float mean;
};

std::vector<Tensor> gpt2SmallTensors()
{
    const long C = kDModel;
    std::vector<Tensor> t{{"wte.weight", {kVocabulary, C}, 0.02f, 0},
                          {"wpe.weight", {kPositions, C}, 0.01f, 0}};
    for (int l = 0; l < kLayers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".";
        t.push_back({h + "ln_1.weight", {C}, 0.1f, 1});
        t.push_back({h + "ln_1.bias", {C}, 0.02f, 0});
        t.push_back({h + "attn.c_attn.weight", {C, 3 * C}, 0.02f, 0});
        t.push_back({h + "attn.c_attn.bias", {3 * C}, 0.02f, 0});
        t.push_back({h + "attn.c_proj.weight", {C, C}, 0.02f, 0});
        t.push_back({h + "attn.c_proj.bias", {C}, 0.02f, 0});
        t.push_back({h + "ln_2.weight", {C}, 0.1f, 1});
        t.push_back({h + "ln_2.bias", {C}, 0.02f, 0});
        t.push_back({h + "mlp.c_fc.weight", {C, 4 * C}, 0.02f, 0});
        t.push_back({h + "mlp.c_fc.bias", {4 * C}, 0.02f, 0});
        t.push_back({h + "mlp.c_proj.weight", {4 * C, C}, 0.02f, 0});
        t.push_back({h + "mlp.c_proj.bias", {C}, 0.02f, 0});
    }
    t.push_back({"ln_f.weight", {C}, 0.1f, 1});
    t.push_back({"ln_f.bias", {C}, 0.02f, 0});
    return t;
}

// model.safetensors of random F32 weights, written in blocks of 1 MB (so that writing it
// leaves no mark on the peak memory measured after). Returns its size in bytes.
std::uintmax_t writeWeights(const fs::path& file)
{
    const std::vector<Tensor> tensors = gpt2SmallTensors();
    std::string header = "{";
    std::size_t offset = 0;
    for (const Tensor& t : tensors) {
        std::size_t count = 1;
        std::string shape;
        for (long d : t.shape) {
            count *= std::size_t(d);
            shape += (shape.empty() ? "" : ",") + std::to_string(d);
        }
        header += (header.size() > 1 ? "," : "") + ("\"" + t.name + "\":{\"dtype\":\"F32\",") +
                  "\"shape\":[" + shape + "],\"data_offsets\":[" + std::to_string(offset) + "," +
                  std::to_string(offset + 4 * count) + "]}";
        offset += 4 * count;
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');
    std::ofstream out(file, std::ios::binary);
    const std::uint64_t length = header.size();
    out.write(reinterpret_cast<const char*>(&length), 8);
    out << header;
    std::uint32_t state = 42;
    std::vector<float> block(1 << 18);
    for (const Tensor& t : tensors) {
        std::size_t count = 1;
        for (long d : t.shape)
            count *= std::size_t(d);
        for (std::size_t done = 0; done < count; done += block.size()) {
            const std::size_t n = std::min(block.size(), count - done);
            for (std::size_t i = 0; i < n; ++i) { // uniform with the spread of N(mean, std)
                state = state * 1664525u + 1013904223u;
                block[i] = t.mean + t.std * 3.4641f * (float(state >> 8) / 16777216.0f - 0.5f);
            }
            out.write(reinterpret_cast<const char*>(block.data()), std::streamsize(4 * n));
        }
    }
    out.close();
    return fs::file_size(file);
}

void writeFolder(const fs::path& folder)
{
    fs::create_directories(folder);
    std::ofstream(folder / "config.json")
        << "{\"model_type\": \"gpt2\", \"n_layer\": " << kLayers << ", \"n_head\": " << kHeads
        << ", \"n_embd\": " << kDModel << ", \"vocab_size\": " << kVocabulary
        << ", \"n_positions\": " << kPositions << ", \"layer_norm_epsilon\": 1e-05}\n";
    const fs::path data = ATTN_GPT2_DATA_DIR;
    for (const char* name : {"vocab.json", "merges.txt"})
        fs::copy_file(data / name, folder / name, fs::copy_options::overwrite_existing);
}

// Drops `file` from the page cache (its pages written out first).
void dropFromCache(const fs::path& file)
{
    const int fd = ::open(file.c_str(), O_RDONLY);
    if (fd < 0)
        return;
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
}

// A text of `tokens` GPT-2 tokens: " w" + a letter repeats as one token each.
std::string textOf(int tokens)
{
    std::string text;
    for (int t = 0; t < tokens; ++t)
        text += t % 2 ? " the" : " cat";
    return text;
}

// The CPU time of every thread of this process so far, in seconds: on a busy machine the
// wall time stretches with the other load, this far less.
double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void report(const char* what, double seconds, double cpuSeconds, std::uintmax_t fileBytes,
            double attentionBytes)
{
    const double peak = peakResidentBytes();
    std::printf("%s: %.0f ms (CPU %.0f ms), peak %.0f MB = %.2fx (weights file %.0f MB + "
                "attention %.1f MB)\n",
                what, seconds * 1e3, cpuSeconds * 1e3, peak / 1e6,
                peak / (double(fileBytes) + attentionBytes), double(fileBytes) / 1e6,
                attentionBytes / 1e6);
}

} // namespace

// --qwen: the Qwen2.5-0.5B-sized folder, opened, and a run of `tokens` ids.
int openQwen(const fs::path& folder, bool cold, int tokens)
{
    const attn::bench::QwenShape shape;
    const fs::path weights = folder / "model.safetensors";
    std::uintmax_t fileBytes = 0;
    if (fs::exists(weights) && fs::exists(folder / "tokenizer.json"))
        fileBytes = fs::file_size(weights);
    else
        fileBytes = attn::bench::writeQwenFolder(
            folder, fs::path(ATTN_LLAMA_DATA_DIR) / "qwen2-f32" / "tokenizer.json", shape);
    if (cold)
        dropFromCache(weights);
    const double floatBytes = 2.0 * double(fileBytes); // BF16 → float
    std::printf("Qwen2.5-0.5B-sized, BF16 %s, %.0f MB; as floats %.0f MB\n",
                cold ? "(dropped from the page cache)" : "(in the page cache)",
                double(fileBytes) / 1e6, floatBytes / 1e6);
    resetPeakResident();
    const double cpuStart = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    const std::shared_ptr<const attn::LanguageModel> model = attn::openModel(folder);
    const double opened = secondsSince(start);
    std::printf("opened (config, tokenizer, weights mapped and converted to float): %.0f ms "
                "(CPU %.0f ms), peak %.0f MB = %.2fx the float weights\n",
                opened * 1e3, (processCpuSeconds() - cpuStart) * 1e3, peakResidentBytes() / 1e6,
                peakResidentBytes() / floatBytes);
    const int T = std::max(1, tokens);
    std::vector<int> ids(static_cast<std::size_t>(T));
    for (int t = 0; t < T; ++t)
        ids[std::size_t(t)] = (t * 7) % 256; // ids the tiny tokenizer can label
    const double cpuRun = processCpuSeconds();
    const auto again = std::chrono::steady_clock::now();
    const attn::ModelRun run = model->runIds(ids, attn::ModelSwitches{});
    const std::vector<float> logits = run.logits(T - 1); // over the 151936 tokens
    // The activations: the attention shown and the forward's largest (T, ·) buffers (the
    // stream, the normed copy, q, k, v, merged, SwiGLU's two (T, I)), and the last row's logits.
    const double attention = 4.0 * shape.layers * shape.heads * double(T) * T;
    const double buffers =
        4.0 * T * (6.0 * shape.dModel + 2.0 * shape.inner) + 4.0 * shape.vocabulary;
    const double peak = peakResidentBytes();
    std::printf("then a run at T = %d and %zu logits: %.0f ms (CPU %.0f ms), peak %.0f MB = "
                "%.2fx (float weights %.0f MB + attention %.1f MB + buffers %.1f MB)\n",
                T, logits.size(), secondsSince(again) * 1e3, (processCpuSeconds() - cpuRun) * 1e3,
                peak / 1e6, peak / (floatBytes + attention + buffers), floatBytes / 1e6,
                attention / 1e6, buffers / 1e6);
    return 0;
}

int main(int argc, char** argv)
{
    bool window = false, cold = false, qwen = false;
    int tokens = -1; // GPT-2: 1024, Qwen: 128
    std::string keep;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--window")
            window = true;
        else if (a == "--cold")
            cold = true;
        else if (a == "--tokens" && i + 1 < argc)
            tokens = std::atoi(argv[++i]);
        else if (a == "--keep" && i + 1 < argc)
            keep = argv[++i];
        else if (a == "--qwen")
            qwen = true;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir temporary;
    const fs::path folder =
        keep.empty() ? fs::path(temporary.path().toStdString()) : fs::path(keep);
    if (qwen)
        return openQwen(folder, cold, tokens < 0 ? 128 : tokens);
    if (tokens < 0)
        tokens = 1024;
    const fs::path weights = folder / "model.safetensors";
    std::uintmax_t fileBytes = 0;
    if (fs::exists(weights) && fs::exists(folder / "merges.txt")) {
        fileBytes = fs::file_size(weights);
    } else {
        writeFolder(folder);
        fileBytes = writeWeights(weights);
    }
    if (cold)
        dropFromCache(weights);
    const double shownFirst = 4.0 * kLayers * kHeads * 5 * 5; // "The cat sat on the"
    std::printf("GPT-2 small, F32 %s: %s\n",
                cold ? "(dropped from the page cache)" : "(in the page cache)",
                window ? "the window's opener" : "openModel and run");

    resetPeakResident();
    const double cpuStart = processCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    std::shared_ptr<const attn::LanguageModel> model;
    if (!window) {
        model = attn::openModel(folder);
        const double opened = secondsSince(start);
        const attn::ModelRun run =
            model->run(attn::ui::LanguageModelWindow::kFirstText, attn::ModelSwitches{});
        const auto top = run.predictions(int(run.ids.size()) - 1, 10);
        std::printf("opened (config, tokenizer, weights mapped): %.0f ms; first run with its "
                    "top %zu: %.0f ms\n",
                    opened * 1e3, top.size(), (secondsSince(start) - opened) * 1e3);
        report("from opening to the first complete run", secondsSince(start),
               processCpuSeconds() - cpuStart, fileBytes, shownFirst);
        const auto again = std::chrono::steady_clock::now(); // the weights' pages now mapped
        const attn::ModelRun second =
            model->run(attn::ui::LanguageModelWindow::kFirstText, attn::ModelSwitches{});
        (void)second.predictions(int(second.ids.size()) - 1, 10);
        std::printf("the same run again: %.0f ms\n", secondsSince(again) * 1e3);
    } else {
        QWidget parent;
        attn::ui::ModelOpener opener(&parent);
        attn::ui::LanguageModelWindow* shown = nullptr;
        QObject::connect(&opener, &attn::ui::ModelOpener::opened,
                         [&](attn::ui::LanguageModelWindow* w) { shown = w; });
        QObject::connect(&opener, &attn::ui::ModelOpener::failed, [&](const QString& message) {
            std::fprintf(stderr, "%s\n", qPrintable(message));
            std::exit(1);
        });
        opener.open(QString::fromStdString(folder.string()));
        while (!shown)
            app.processEvents(QEventLoop::AllEvents, 5);
        shown->repaint(); // the first heatmaps painted
        app.processEvents();
        report("from opening to the model window shown", secondsSince(start),
               processCpuSeconds() - cpuStart, fileBytes, shownFirst);
        model = shown->model().shared_from_this();
        delete shown;
    }
    if (tokens > 0) {
        const double cpuAgain = processCpuSeconds();
        const auto again = std::chrono::steady_clock::now();
        const attn::ModelRun run = model->run(textOf(tokens), attn::ModelSwitches{});
        const double T = double(run.ids.size());
        char what[64];
        std::snprintf(what, sizeof what, "then a run at T = %d", int(T));
        report(what, secondsSince(again), processCpuSeconds() - cpuAgain, fileBytes,
               4.0 * kLayers * kHeads * T * T);
    }
    return 0;
}
