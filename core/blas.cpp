#include "blas.h"

#ifdef ATTN_OPENBLAS
extern "C" {
void openblas_set_num_threads(int threads);
int openblas_get_num_threads();
char* openblas_get_config();
}
#endif

namespace attn {

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

std::string matrixProductLibrary()
{
#ifdef ATTN_OPENBLAS
    useOneBlasThreadPerCall();
    const int threads = openblas_get_num_threads();
    return std::string(openblas_get_config()) + " (" + std::to_string(threads) +
           (threads == 1 ? " thread" : " threads") + " per call)";
#else
    return "Eigen's own kernels";
#endif
}

} // namespace attn
