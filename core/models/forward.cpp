#include "models/forward.h"

#include "base/parallel.h"
#include "base/platform.h"
#include "engine/engine.h"
#include "engine/projection.h"
#include "models/knockout.h"
#include "models/kvcache.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace attn {
namespace {

// Has the system map (and zero) the pages of `bytes` at `data` now, a share on each core.
// Where it cannot, or below a few MB, the pages are left to fault in.
void mapPagesOnEveryCore(void* data, std::size_t bytes)
{
    constexpr std::uintptr_t kPage = 4096;
    if (!platform::canPrefaultForWriting() || bytes < (std::size_t(8) << 20))
        return;
    const std::uintptr_t begin =
        (reinterpret_cast<std::uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kPage - 1);
    const int parts = coreCount();
    const std::uintptr_t pages = (end - begin) / kPage;
    parallelFor(parts, [&](int part) {
        const std::uintptr_t from =
            begin + pages * std::uintptr_t(part) / std::uintptr_t(parts) * kPage;
        const std::uintptr_t to =
            begin + pages * std::uintptr_t(part + 1) / std::uintptr_t(parts) * kPage;
        if (to > from)
            platform::prefaultForWriting(reinterpret_cast<void*>(from), to - from);
    });
}

// One of the two formulas, sized to the model.
LayerFormula layerFormula(const ModelInfo& info, Config config, int T, bool switched)
{
    LayerFormula out;
    config.dModel = info.heads * info.headDim;
    config.heads = info.heads;
    out.rule = logitRule(config, 0); // a model's layers take no ALiBi (refused)
    // ÷ √d_model divides by the hidden size C, which is H·d_k only where head_dim is C / H.
    if (config.scale == ScaleMode::SqrtDModel)
        out.rule.scale = float(1.0 / std::sqrt(double(info.dModel)));
    out.mask = attentionMask(config, T);
    out.config = config;
    out.switched = switched;
    return out;
}

} // namespace

void checkIds(const std::vector<int>& ids, const ModelInfo& info)
{
    const int T = int(ids.size());
    if (T < 1 || T > info.maxPositions)
        throw std::out_of_range(info.family + ": " + std::to_string(T) + " tokens, at most " +
                                std::to_string(info.maxPositions));
    for (const int id : ids)
        if (id < 0 || id >= info.vocabulary)
            throw std::out_of_range(info.family + ": token id " + std::to_string(id) +
                                    " outside the vocabulary (0 … " +
                                    std::to_string(info.vocabulary - 1) + ")");
}

FloatBuffer attentionBuffer(int layers, int heads, int tokens)
{
    FloatBuffer weights;
    const std::size_t count =
        std::size_t(layers) * std::size_t(heads) * std::size_t(tokens) * std::size_t(tokens);
    weights.reserve(count);
    mapPagesOnEveryCore(weights.data(), count * sizeof(float));
    weights.resize(count);
    return weights;
}

MaskMatrix attentionMask(const Config& formula, int T)
{
    MaskMatrix mask;
    mask.setConstant(T, T, false);
    const int W = formula.window;
    const bool causal = formula.mask == MaskKind::Causal;
    for (int i = 0; i < T; ++i) {
        // torch.triu(ones(T, T), 1): key j > query i.
        if (causal)
            mask.row(i).tail(T - i - 1).setConstant(true);
        // The window: keys j ≤ i − W, and without the causal mask j ≥ i + W.
        if (W > 0 && i - W >= 0)
            mask.row(i).head(i - W + 1).setConstant(true);
        if (W > 0 && !causal && i + W < T)
            mask.row(i).tail(T - i - W).setConstant(true);
    }
    return mask;
}

LayerFormulas::LayerFormulas(const ModelInfo& info, const ModelSwitches& switches, int T)
    : switched_(layerFormula(info, switches.formula, T, true)),
      textbook_(layerFormula(info, ModelSwitches::textbookFormula(info), T, false)),
      onlyLayer_(switches.onlyLayer), rope_(switches.rope)
{}

namespace {

// The positions a cache already holds, after checking it can serve this forward.
int cachedPositions(const ModelInfo& info, const std::vector<int>& ids,
                    const ModelSwitches& switches, const ForwardHooks& hooks)
{
    const KvCache* cache = hooks.cache;
    if (!cache)
        return 0;
    const int T = int(ids.size());
    if (!kvCacheUsable(info, switches))
        throw std::out_of_range(info.family + ": a KV cache cannot serve these switches");
    if (hooks.startLayer != 0 || hooks.startResidual)
        throw std::out_of_range(info.family + ": a KV cache cannot serve a resumed forward");
    if (int(cache->layers.size()) != info.layers || cache->capacity < T || cache->past >= T)
        throw std::out_of_range(info.family + ": a KV cache of " + std::to_string(cache->past) +
                                " positions (room for " + std::to_string(cache->capacity) +
                                ") cannot serve " + std::to_string(T) + " tokens");
    return cache->past;
}

} // namespace

ForwardFrame::ForwardFrame(const ModelInfo& info, const std::vector<int>& ids,
                           const ModelSwitches& switches, const ForwardHooks& hooks)
    : T((checkIds(ids, info), checkKnockOuts(switches.knockedOut, info),
         checkModelFormula(switches.formula, info), int(ids.size()))),
      past(cachedPositions(info, ids, switches, hooks)), rows(T - past),
      formulas(info, switches, T), switches_(switches), heads_(info.heads), layers_(info.layers),
      dModel_(info.dModel), layerSize_(std::size_t(info.heads) * std::size_t(rows) * std::size_t(T))
{
    if (rows == T)
        out.weights = attentionBuffer(info.layers, info.heads, T);
    else // a cached forward's few rows: (L, 1, H, rows, T)
        out.weights.resize(std::size_t(info.layers) * layerSize_);
}

void ForwardFrame::advance(const ForwardHooks& hooks) const
{
    if (hooks.cache)
        hooks.cache->past = T;
}

void ForwardFrame::headOutputs(int layer, Matrix& merged, const ForwardHooks& hooks) const
{
    if (!switches_.knockedOut.empty())
        knockOutHeads(switches_, layer, heads_, merged);
    if (hooks.headOutputs)
        hooks.headOutputs(layer, merged);
}

void ForwardFrame::residual(int layer, const Matrix& x, const ForwardHooks& hooks)
{
    if (hooks.residual)
        hooks.residual(layer, x);
}

int ForwardFrame::resume(const ForwardHooks& hooks, Matrix& x) const
{
    if (hooks.startLayer == 0 && !hooks.startResidual)
        return 0;
    if (hooks.startLayer < 1 || hooks.startLayer >= layers_ || !hooks.startResidual ||
        hooks.startResidual->rows() != T || hooks.startResidual->cols() != dModel_)
        throw std::out_of_range("a forward resumed at block " + std::to_string(hooks.startLayer) +
                                " needs the (T, C) residual before it, in a model of " +
                                std::to_string(layers_) + " blocks");
    x = *hooks.startResidual;
    return hooks.startLayer;
}

void checkCancel(const ForwardHooks& hooks)
{
    if (hooks.cancel && hooks.cancel->load())
        throw Cancelled();
}

void captureHeads(LayerCapture& capture, const Matrix& input, Matrix q, Matrix k, Matrix v,
                  const Config& formula)
{
    capture.input = input;
    const std::vector<Matrix> qs{std::move(q)}, ks{std::move(k)}, vs{std::move(v)};
    splitHeads({{&qs, &capture.queries}, {&ks, &capture.keys}, {&vs, &capture.values}},
               formula.heads, formula.headSplit);
}

std::vector<float> embeddingLogits(const WeightView& embedding, const float* hiddenRow)
{
    // V rows of E read once for one row h: bound by the memory's bandwidth (GPT-2's wte is
    // 154 MB), so a share of the rows on each core, each a product of its own.
    const Eigen::Index V = embedding.rows, C = embedding.cols;
    const Eigen::Map<const Vector> h(hiddenRow, C);
    std::vector<float> logits(static_cast<std::size_t>(V));
    const int parts = V >= 4096 ? coreCount() : 1;
    // In blocks (a GGUF's weights), a band of rows at a time is dequantized and multiplied.
    const Eigen::Index band = embedding.inBlocks() ? 1024 : V;
    parallelFor(parts, [&](int part) {
        const Eigen::Index first = V * part / parts, end = V * (part + 1) / parts;
        std::vector<float> scratch;
        for (Eigen::Index r = first; r < end; r += band) {
            const Eigen::Index n = std::min(band, end - r);
            Eigen::Map<Vector>(logits.data() + r, n).noalias() =
                embedding.rowsOf(r, n, scratch) * h;
        }
    });
    return logits;
}

} // namespace attn
