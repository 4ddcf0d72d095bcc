#include "models/gpt2/weights.h"

#include "base/parallel.h"
#include "models/conv1dproduct.h"
#include "models/modeltensors.h"

#include <algorithm>

namespace attn {

void packGpt2Conv1dWeights(Gpt2Weights& w)
{
    // A layer's on each core. A tensor read in place from the file leaves memory once
    // copied: the model's resident size stays about its file's.
    if (w.blocks.empty() || w.layout != Gpt2MatrixLayout::Conv1D)
        return;
    std::vector<std::pair<WeightView*, std::size_t>> views;
    std::size_t floats = 0;
    for (Gpt2Block& b : w.blocks)
        for (WeightView* v : {&b.attnWeight, &b.projWeight, &b.fcWeight, &b.fcProjWeight}) {
            views.emplace_back(v, floats);
            floats += std::size_t(v->rows * v->cols);
        }
    w.packed = allocateConv1dBands(floats);
    parallelFor(int(views.size()), [&](int i) {
        auto [v, offset] = views[std::size_t(i)];
        // [in, out] → [out, in], in squares of 16 × 16 that stay in L1 both ways.
        float* rows = w.packed.get() + offset;
        const Eigen::Index in = v->rows, out = v->cols;
        for (Eigen::Index k0 = 0; k0 < in; k0 += 16)
            for (Eigen::Index n0 = 0; n0 < out; n0 += 16)
                for (Eigen::Index k = k0; k < std::min(in, k0 + 16); ++k)
                    for (Eigen::Index n = n0; n < std::min(out, n0 + 16); ++n)
                        rows[n * in + k] = v->data[k * out + n];
        v->packed = rows;
        if (const MappedFile* file = w.fileHolding(v->data))
            file->release(v->data, std::size_t(v->rows * v->cols) * sizeof(float));
    });
}

Gpt2Weights loadGpt2Weights(const std::filesystem::path& file, const Gpt2Config& config)
{
    Gpt2Weights w;
    ModelTensors read(file, w, "transformer.");
    const std::int64_t C = config.dModel, V = config.vocabulary, P = config.positions;
    const std::int64_t inner = config.inner;
    // 1. Embeddings.
    w.tokenEmbedding = read("wte.weight", {V, C});
    w.positionEmbedding = read("wpe.weight", {P, C});
    w.storedType = read.dtypeOf("wte.weight");
    // 2. The blocks.
    for (int l = 0; l < config.layers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".";
        Gpt2Block b;
        b.ln1Weight = read(h + "ln_1.weight", {C});
        b.ln1Bias = read(h + "ln_1.bias", {C});
        b.attnWeight = read(h + "attn.c_attn.weight", {C, 3 * C});
        b.attnBias = read(h + "attn.c_attn.bias", {3 * C});
        b.projWeight = read(h + "attn.c_proj.weight", {C, C});
        b.projBias = read(h + "attn.c_proj.bias", {C});
        b.ln2Weight = read(h + "ln_2.weight", {C});
        b.ln2Bias = read(h + "ln_2.bias", {C});
        b.fcWeight = read(h + "mlp.c_fc.weight", {C, inner});
        b.fcBias = read(h + "mlp.c_fc.bias", {inner});
        b.fcProjWeight = read(h + "mlp.c_proj.weight", {inner, C});
        b.fcProjBias = read(h + "mlp.c_proj.bias", {C});
        w.blocks.push_back(b);
    }
    // 3. The final norm.
    w.finalNormWeight = read("ln_f.weight", {C});
    w.finalNormBias = read("ln_f.bias", {C});
    // 4. The Conv1D weights packed as nn.Linear's rows for the product kernel.
    packGpt2Conv1dWeights(w);
    return w;
}

} // namespace attn
