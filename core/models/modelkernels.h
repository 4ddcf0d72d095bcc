// The kernels a transformer block is made of besides attention (modelattention.h):
// LayerNorm, GELU (tanh: GPT-2; erf: BERT) and the Conv1D of GPT-2 (a linear layer stored [in,
// out]); RMSNorm, SwiGLU and nn.Linear (stored [out, in]) of the Qwen/Llama family. No Qt.
//
// Legend: T tokens, C = d_model, N a layer's output width.
#pragma once

#include "base/tensor.h"
#include "io/ggml.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace attn {

// A weight tensor as floats somewhere (a mapped file or a converted copy): row-major
// (rows, cols); a vector is (1, n). Or, from a GGUF file, as ggml's blocks (quantized, F16 or
// BF16) in the mapped file: `data` null, each row `rowBytes` bytes at `blocks`, dequantized
// by the products a tile of rows at a time (rowsOf), so that the weights stay as small in
// memory as in the file.
struct WeightView {
    const float* data = nullptr;
    Eigen::Index rows = 0;
    Eigen::Index cols = 0;
    // A Conv1D weight (stored [in, out]) also packed once at load as nn.Linear's rows [out,
    // in], as the product kernel reads them (linearproduct.h), or null: read along its columns.
    const float* packed = nullptr;
    // In blocks: the first row's bytes, the type, each row's size, and where row r is stored
    // (rowOrder[r], llama.cpp's permutation of Q and K undone; null: row r).
    const std::byte* blocks = nullptr;
    GgmlType type = GgmlType::F32;
    std::size_t rowBytes = 0;
    const std::int32_t* rowOrder = nullptr;

    [[nodiscard]] bool inBlocks() const { return blocks != nullptr; }
    // Whether there is a tensor (a bias or a norm a model lacks has none).
    [[nodiscard]] bool present() const { return data != nullptr || blocks != nullptr; }
    [[nodiscard]] Eigen::Map<const Matrix> matrix() const { return {data, rows, cols}; }
    [[nodiscard]] Eigen::Map<const Eigen::RowVectorXf> row() const { return {data, rows * cols}; }
    // Rows [first, first + count) as floats, (count, cols): in place, or dequantized into
    // `scratch` (resized) when in blocks.
    [[nodiscard]] Eigen::Map<const Matrix> rowsOf(Eigen::Index first, Eigen::Index count,
                                                  std::vector<float>& scratch) const;
};

// y = LayerNorm(x) over each row: (x − mean) / √(var + ε) · weight + bias, the biased
// variance as torch's layer_norm. x, y: (T, C); weight, bias: C values.
void layerNorm(const Matrix& x, const WeightView& weight, const WeightView& bias, double epsilon,
               Matrix& y);

// x = GELU(x) in its tanh form (HF's gelu_new, llm.c's gelu_forward):
// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), in place. Eigen's tanh, eight values at a
// time where the CPU has AVX2 and FMA (chosen at run time, as the softmax's passes).
void geluTanh(Matrix& x);

// x = GELU(x) in its erf form (torch's gelu, HF's "gelu" as BERT uses it):
// 0.5·x·(1 + erf(x/√2)), in place, in bands of rows on every core.
void geluErf(Matrix& x);

// y = x·W + b, GPT-2's Conv1D: W stored [in, out] (the transpose of nn.Linear's). x: (T, in),
// W: (in, N), b: N values → y: (T, N). Tiles of rows and columns run on every core, each
// made by the product kernel (linearproduct.h) on its caller's thread.
void conv1d(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y);

// y = GELU(x·W + b) (conv1d, then geluTanh on each tile while it is in cache): an MLP's
// first half with one pass over y less.
void conv1dGelu(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y);

// y += x·W + b, y already (T, N): a residual connection summed into each tile of the
// stream as it is written, without a (T, N) temporary.
void conv1dAdd(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y);

// y = RMSNorm(x) over each row, in float32 as HF's Qwen2RMSNorm/LlamaRMSNorm:
// x · rsqrt(mean(x²) + ε) · weight. x, y: (T, n); weight: n values. rmsNormRows does it in
// place (a head's (T, d_k) rows: Qwen3's q_norm and k_norm).
void rmsNorm(const Matrix& x, const WeightView& weight, double epsilon, Matrix& y);
void rmsNormRows(Matrix& x, const WeightView& weight, double epsilon);

// gate = silu(gate) · up, element-wise (SwiGLU's product before down_proj); silu(g) = g·σ(g).
void siluMultiply(Matrix& gate, const Matrix& up);

// y = x·Wᵀ + b, nn.Linear: W stored [out, in]. x: (T, in), W: (N, in), b: N values or none
// (data null) → y: (T, N). Tiles of rows and columns on every core, as conv1d, their
// count a multiple of the cores.
void linear(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y);

// One nn.Linear of linearEach: *y = x·(*weight)ᵀ + *bias (bias null or empty: none).
struct LinearOutput {
    const WeightView* weight;
    const WeightView* bias;
    Matrix* y;
};
// Several nn.Linear of the same x (q_proj, k_proj, v_proj) in one parallel loop over all
// their tiles, so that a narrow one (k and v of grouped-query attention) does not leave
// cores idle.
void linearEach(const Matrix& x, std::initializer_list<LinearOutput> outputs);

// y += x·Wᵀ + b, y already (T, N): the residual summed into each tile as it is written,
// without a (T, N) temporary and its pass (o_proj, down_proj).
void linearAdd(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y);

// y = GELU(x·Wᵀ + b) (linear, then geluTanh on each tile while it is in cache): GPT-2's
// c_fc stored as nn.Linear (llama.cpp's ffn_up), as conv1dGelu for Conv1D.
void linearGelu(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y);

// y = silu(x·Wgᵀ + bg) · (x·Wuᵀ + bu): SwiGLU's gate_proj and up_proj, each tile of both
// made and combined while in cache (as linear twice and siluMultiply, without the (T, I)
// `up` and the passes over it).
void linearSwiGlu(const Matrix& x, const WeightView& gateWeight, const WeightView& gateBias,
                  const WeightView& upWeight, const WeightView& upBias, Matrix& y);

} // namespace attn
