#include "base/blas.h"

#include <initializer_list>
#include <strings.h>

#ifdef ATTN_OPENBLAS
#include <cstdlib>

extern "C" {
void openblas_set_num_threads(int threads);
int openblas_get_num_threads();
char* openblas_get_config();
char* openblas_get_corename();
// Only in an OpenBLAS built with DYNAMIC_ARCH (Debian's is); weak, so that another
// OpenBLAS still links and its kernels are left as they are.
__attribute__((weak)) void gotoblas_dynamic_init();
__attribute__((weak)) void gotoblas_dynamic_quit();
}
#endif

namespace attn {

namespace {

bool isOneOf(const std::string& kernels, std::initializer_list<const char*> names)
{
    for (const char* name : names)
        if (strcasecmp(kernels.c_str(), name) == 0)
            return true;
    return false;
}

bool areAvx512Kernels(const std::string& kernels)
{
    return isOneOf(kernels, {"SkylakeX", "Cooperlake", "SapphireRapids"});
}

} // namespace

bool areVectorKernels(const std::string& kernels)
{
    return areAvx512Kernels(kernels) || isOneOf(kernels, {"Haswell", "Zen", "Excavator"});
}

bool shouldChooseKernelsAgain(const std::string& chosen, const std::string& best)
{
    if (best.empty())
        return false;
    if (!areVectorKernels(chosen))
        return true;
    return areAvx512Kernels(best) && !areAvx512Kernels(chosen);
}

#ifdef ATTN_OPENBLAS
namespace {

// The best of OpenBLAS 0.3.21's kernel sets this CPU can run, or nullptr.
const char* kernelsForThisCpu()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl"))
        return "SkylakeX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "Haswell";
#endif
    return nullptr;
}

// OpenBLAS chooses its kernels by the CPU's family and model when it loads, and a model
// newer than it knows gets the SSE3 kernels of 2004: OpenBLAS 0.3.21 (Debian 12) takes an
// Emerald Rapids Xeon (family 6, model 207) for a Prescott and multiplies at a fifth of the
// machine's rate (34 instead of 167 GFLOP/s on the benchmark's 1024³ sgemm). And it gives
// every AMD Zen its AVX2 kernels, Zen 4 and 5 too, which have AVX-512 (OpenBLAS 0.3.22 and
// later give them SkylakeX's): on a Zen 5 the 1024³ sgemm runs at 108 GFLOP/s a core on
// those and 195 on SkylakeX's. Where either happened, this makes OpenBLAS choose again as
// OPENBLAS_CORETYPE would have made it choose at load time: Haswell or SkylakeX, the
// kernels of the features the CPU reports. A user's own OPENBLAS_CORETYPE is left alone.
// Runs before main(), while the process has one thread (setenv is not safe beside getenv).
bool chooseKernels()
{
    if (!gotoblas_dynamic_init || !gotoblas_dynamic_quit || std::getenv("OPENBLAS_CORETYPE"))
        return false;
    const char* kernels = kernelsForThisCpu();
    const char* chosen = openblas_get_corename();
    if (!kernels || !shouldChooseKernelsAgain(chosen ? chosen : "", kernels))
        return false;
    setenv("OPENBLAS_CORETYPE", kernels, 1);
    gotoblas_dynamic_quit();
    gotoblas_dynamic_init();
    unsetenv("OPENBLAS_CORETYPE"); // child processes choose for themselves
    return true;
}

const bool kernelsChosen = chooseKernels();

} // namespace
#endif

void useOneBlasThreadPerCall()
{
#ifdef ATTN_OPENBLAS
    static const bool once = [] {
        openblas_set_num_threads(1);
        return true;
    }();
    (void)once;
#endif
}

std::string blasKernels()
{
#ifdef ATTN_OPENBLAS
    const char* core = openblas_get_corename();
    return core ? core : "";
#else
    return {};
#endif
}

std::string blasKernelsForThisCpu()
{
#ifdef ATTN_OPENBLAS
    const char* kernels = kernelsForThisCpu();
    return kernels ? kernels : "";
#else
    return {};
#endif
}

std::string matrixProductLibrary()
{
#ifdef ATTN_OPENBLAS
    useOneBlasThreadPerCall();
    const int threads = openblas_get_num_threads();
    return std::string(openblas_get_config()) + " (" + std::to_string(threads) +
           (threads == 1 ? " thread" : " threads") + " per call" +
           (kernelsChosen ? "; kernels chosen by AttnScope for this CPU's vector width" : "") + ")";
#else
    return "Eigen's own kernels";
#endif
}

} // namespace attn
