#include "models/logitlens.h"

#include "base/parallel.h"

namespace attn {

ForwardHooks residualCapture(std::vector<Matrix>& residuals)
{
    ForwardHooks hooks;
    hooks.residual = [&residuals](int layer, const Matrix& x) {
        if (residuals.size() <= std::size_t(layer))
            residuals.resize(std::size_t(layer) + 1);
        residuals[std::size_t(layer)] = x;
    };
    return hooks;
}

LogitLens readLogitLens(const LanguageModel& model, const std::vector<Matrix>& residuals, int k)
{
    LogitLens lens(residuals.size());
    for (std::size_t l = 0; l < residuals.size(); ++l) {
        Matrix normed;
        model.finalNorm(residuals[l], normed);
        const Matrix logits = model.logitsOfRows(normed); // (T, V): the output head read once
        const int T = int(logits.rows());
        lens[l].resize(std::size_t(T));
        parallelFor(T, [&](int t) {
            const auto row = logits.row(t);
            lens[l][std::size_t(t)] =
                model.topPredictions(std::vector<float>(row.data(), row.data() + row.size()), k);
        });
    }
    return lens;
}

LogitLens logitLens(const LanguageModel& model, const std::vector<int>& ids,
                    const ModelSwitches& switches, int k, const std::atomic<bool>* cancel)
{
    std::vector<Matrix> residuals;
    ForwardHooks hooks = residualCapture(residuals);
    hooks.cancel = cancel;
    (void)model.runIds(ids, switches, hooks);
    return readLogitLens(model, residuals, k);
}

} // namespace attn
