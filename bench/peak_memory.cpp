// Peak memory against the bytes the heatmaps need, as the window lives it: a first
// compute of T = 2048, H = 16 whose heads are then shown (views of the result, and the
// mean over heads the window's engine or worker makes for the grid), then a
// switch of the scaling while those views are still on screen, then the new views
// replacing the old. Each figure is the process's peak resident size (VmHWM) over
// the bytes of S and P, the (B, H, T, T) matrices the views read (a view shows L too,
// made from S for the cell under the mouse; the engine does not store it).
//   build/bench/attnscope_memory [T] [C] [H]
#include "engine.h"
#include "heatmapgrid.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

// The process's peak resident set so far, in bytes, or 0 where /proc does not say.
double peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) * 1024.0;
    return 0;
}

// The result as the window's worker hands it to the grid: with the heads' overview.
attn::Result withOverviews(attn::Result result)
{
    attn::addOverviews(result);
    return result;
}

std::vector<attn::ui::HeatmapData> showHeads(const attn::Result& result)
{
    std::vector<attn::ui::HeatmapData> views;
    for (int h = 0; h < result.heads(); ++h)
        views.push_back(attn::ui::headHeatmap(result, 0, h));
    return views;
}

} // namespace

int main(int argc, char** argv)
{
    const int T = argc > 1 ? std::atoi(argv[1]) : 2048;
    const int C = argc > 2 ? std::atoi(argv[2]) : 1024;
    const int H = argc > 3 ? std::atoi(argv[3]) : 16;
    attn::Request r;
    for (int t = 0; t < T; ++t)
        r.text += "w" + std::to_string(t % 997) + " ";
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = C;
    r.config.heads = H;
    r.config.mask = attn::MaskKind::Causal;
    const double needed = 2.0 * H * double(T) * T * sizeof(float);
    const double before = peakResidentBytes();

    attn::AttentionEngine engine;
    engine.setMakesOverviews(true); // as the window's engine
    attn::Result shown = withOverviews(engine.compute(r));
    std::vector<attn::ui::HeatmapData> views = showHeads(shown);
    const double first = peakResidentBytes();

    r.config.scale = attn::ScaleMode::None;
    attn::Result next = withOverviews(engine.compute(r)); // the old views still on screen
    shown = next;
    views = showHeads(shown);
    next = {};
    const double switched = peakResidentBytes();

    std::printf("T=%d C=%d H=%d: S and P need %.0f MB (process before: %.0f MB)\n", T, C, H,
                needed / 1e6, before / 1e6);
    std::printf("first compute, heads shown: peak %.0f MB = %.2fx\n", first / 1e6, first / needed);
    std::printf("scaling switched while shown: peak %.0f MB = %.2fx\n", switched / 1e6,
                switched / needed);
    return 0;
}
