#include "models/headimportance.h"

#include "engine/options.h"
#include "models/logitlens.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn {

namespace {

// log softmax(logits)[id], in double.
double logProbability(const std::vector<float>& logits, int id)
{
    const float top = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (float z : logits)
        sum += std::exp(double(z) - double(top));
    return double(logits[std::size_t(id)]) - double(top) - std::log(sum);
}

} // namespace

HeadImportance headImportance(const LanguageModel& model, const std::vector<int>& ids,
                              const ModelSwitches& switches, std::optional<int> target,
                              const std::function<void(int, int)>& progress,
                              const std::atomic<bool>* cancel)
{
    const ModelInfo& info = model.info();
    if (!info.predicts) // no log p to read, before a scan that would ask for it
        throw ModelError(info.folder, std::string(kNoOutputHead));
    HeadImportance scan;
    // 1. The intact run, keeping the residual stream after every block.
    std::vector<Matrix> residuals;
    ForwardHooks hooks = residualCapture(residuals);
    hooks.cancel = cancel;
    const ModelRun run = model.runIds(ids, switches, hooks);
    if (info.causal) {
        scan.position = int(ids.size()) - 1;
    } else {
        const std::vector<int> masks = run.maskedPositions();
        if (masks.empty())
            throw InputError("head importance of a masked language model reads a [MASK]: the "
                             "text has none");
        scan.position = masks.front();
    }
    if (target && (*target < 0 || *target >= info.vocabulary))
        throw InputError("target token " + std::to_string(*target) +
                         " is outside the vocabulary (0 … " + std::to_string(info.vocabulary - 1) +
                         ")");
    scan.target = target ? *target : run.predictions(scan.position, 1).front().id;
    // log p(target) of hidden rows, their logits made in one product (logitsOfRows): the
    // output head, V × C, is read once for a layer's heads, not once a head.
    const auto logProbabilities = [&](const Matrix& rows) {
        const Matrix logits = model.logitsOfRows(rows);
        std::vector<double> out(std::size_t(rows.rows()));
        for (Eigen::Index r = 0; r < rows.rows(); ++r) {
            const auto z = logits.row(r);
            out[std::size_t(r)] =
                logProbability(std::vector<float>(z.data(), z.data() + z.size()), scan.target);
        }
        return out;
    };
    scan.intact = logProbabilities(run.hidden.middleRows(scan.position, 1)).front();

    // 2. Each head alone, from its layer on: the blocks before it are the intact run's.
    const int L = info.layers, H = info.heads;
    scan.change.assign(std::size_t(L), std::vector<double>(std::size_t(H), 0.0));
    ForwardHooks resumed;
    resumed.cancel = cancel;
    Matrix rows(H, info.dModel); // each scanned head's hidden row at the position
    std::vector<int> scanned;
    for (int l = 0; l < L; ++l) {
        resumed.startLayer = l;
        resumed.startResidual = l > 0 ? &residuals[std::size_t(l - 1)] : nullptr;
        scanned.clear();
        for (int h = 0; h < H; ++h) {
            const HeadIndex head{l, h};
            ModelSwitches knocked = switches;
            auto at = std::lower_bound(knocked.knockedOut.begin(), knocked.knockedOut.end(), head);
            if (at == knocked.knockedOut.end() || *at != head) {
                knocked.knockedOut.insert(at, head);
                const Forward forward = model.forward(ids, knocked, resumed);
                rows.row(Eigen::Index(scanned.size())) = forward.hidden.row(scan.position);
                scanned.push_back(h);
            }
            if (progress)
                progress(l * H + h + 1, L * H);
        }
        const std::vector<double> knockedOut =
            logProbabilities(rows.topRows(Eigen::Index(scanned.size())));
        for (std::size_t n = 0; n < scanned.size(); ++n)
            scan.change[std::size_t(l)][std::size_t(scanned[n])] = knockedOut[n] - scan.intact;
    }
    return scan;
}

} // namespace attn
