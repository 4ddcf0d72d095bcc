// The process's peak resident set (VmHWM), which the memory benchmarks compare with the bytes
// a model or the heatmaps need. Linux only: 0 where /proc does not say.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>

namespace attn::bench {

inline double peakResidentBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0)
            return std::strtod(line.c_str() + 6, nullptr) * 1024.0;
    return 0;
}

} // namespace attn::bench
