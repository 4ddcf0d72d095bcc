// GPT-2's weights from model.safetensors, as float views the forward reads (read by
// modeltensors: F32 in place from the mapped file, F16 and BF16 converted once), or from a
// GGUF file (models/gguf: nn.Linear-shaped, perhaps in ggml's blocks). No Qt.
#pragma once

#include "io/mappedfile.h"
#include "models/gpt2/config.h"
#include "models/modelkernels.h"
#include "models/modeltensors.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// How a block's four matrices are stored: as Hugging Face's Conv1D, [in, out] (the shapes
// below), or as nn.Linear, [out, in], the transpose (llama.cpp's converter writes them so).
enum class Gpt2MatrixLayout { Conv1D, Linear };

// One transformer block's tensors (HF's names under h.N.; llama.cpp's blk.N.attn_norm,
// attn_qkv, attn_output, ffn_norm, ffn_up, ffn_down).
struct Gpt2Block {
    WeightView ln1Weight, ln1Bias;       // (C)
    WeightView attnWeight, attnBias;     // c_attn (C, 3C), (3C): Q, K, V columns
    WeightView projWeight, projBias;     // attn.c_proj (C, C), (C)
    WeightView ln2Weight, ln2Bias;       // (C)
    WeightView fcWeight, fcBias;         // mlp.c_fc (C, 4C), (4C)
    WeightView fcProjWeight, fcProjBias; // mlp.c_proj (4C, C), (C)
};

struct Gpt2Weights : StoredWeights {
    WeightView tokenEmbedding;    // wte (V, C); also the output embedding (lm_head is tied)
    WeightView positionEmbedding; // wpe (n_positions, C)
    std::vector<Gpt2Block> blocks;
    WeightView finalNormWeight, finalNormBias; // ln_f (C)
    // lm_head (V, C) where a file keeps one of its own (a GGUF file's output.weight); else
    // none, and the output embedding is wte.
    WeightView outputEmbedding;
    Gpt2MatrixLayout layout = Gpt2MatrixLayout::Conv1D;

    // The blocks' Conv1D weights packed as nn.Linear's rows (WeightView::packed).
    std::shared_ptr<float[]> packed;
};

// Reads `file` (model.safetensors, or a sharded model's index) for a model of `config`. Tensor
// names may carry the "transformer." prefix; h.N.attn.bias and masked_bias (the causal mask as a
// buffer) and lm_head.weight (tied to wte) are not read. Throws ModelError naming the file and the
// tensor: missing, of the wrong shape, of a dtype other than F32, F16 or BF16, or a file
// that is not safetensors (truncated, a corrupt header, an unknown dtype). The blocks' Conv1D
// weights are packed for the product kernel, and the pages of those read in place let go
// (packGpt2Conv1dWeights).
[[nodiscard]] Gpt2Weights loadGpt2Weights(const std::filesystem::path& file,
                                          const Gpt2Config& config);

// Packs the blocks' Conv1D weights, stored [in, out], once as nn.Linear's rows [out, in], the
// layout the product kernel reads W in (linearproduct.h; w.packed, each WeightView's packed),
// and lets go of the file's pages of those read in place; for nn.Linear-shaped weights (a GGUF
// file's), nothing. loadGpt2Weights calls it; the benchmark's weights made in memory too.
void packGpt2Conv1dWeights(Gpt2Weights& w);

} // namespace attn
