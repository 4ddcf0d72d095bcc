// The attention every view reads, whatever filled it (a file, a model, the engine):
// weights P of shape (L, B, H, T_q, T_k), with the queries' and keys' tokens when known.
//
// Legend: L layers, B sequences (the batch), H heads, T_q queries (rows), T_k keys
// (columns). A head is one (T_q, T_k) matrix; its rows are what query i gives each key.
//
// The stack does not hold floats of its own: each head is a view of stored elements
// (float32, float16, bfloat16 or float64, in any order of axes, possibly in a mapped
// file), converted to float only when a head is asked for (head()), or summarised block
// by block without a copy (thumbnail()). So a file of gigabytes opens at once.
#pragma once

#include "base/tensor.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attn {

// How one stored weight is encoded.
enum class ElementType { F16, BF16, F32, F64 };

[[nodiscard]] int elementBytes(ElementType type);
// "float16", "bfloat16", "float32", "float64".
[[nodiscard]] const char* elementName(ElementType type);

// IEEE 754 binary16 → float, exactly (subnormals, ±inf and NaN kept).
[[nodiscard]] float halfToFloat(std::uint16_t bits);
// bfloat16 → float, exactly (the upper 16 bits of a float).
[[nodiscard]] float bfloat16ToFloat(std::uint16_t bits);

// (L, B, H, T_q, T_k)
struct StackShape {
    int layers = 0;
    int sequences = 0;
    int heads = 0;
    int queries = 0;
    int keys = 0;
    bool operator==(const StackShape&) const = default;
    [[nodiscard]] std::int64_t headCount() const
    {
        return std::int64_t(layers) * sequences * heads;
    }
};

// One head's stored elements: element (i, j) is at base + (i·rowStride + j·colStride)
// elements of `type`, byte-swapped when `swapped` (a big-endian file). Strides may be
// anything (a Fortran-order file has colStride ≠ 1); loads are unaligned-safe.
struct HeadView {
    const std::byte* base = nullptr;
    ElementType type = ElementType::F32;
    bool swapped = false;
    std::int64_t rowStride = 0;
    std::int64_t colStride = 1;
    int rows = 0; // T_q
    int cols = 0; // T_k
    [[nodiscard]] float at(int i, int j) const;
};

// A level-of-detail summary of one head: at most size × size cells, cell (r, c) the
// largest weight of its block of rows and columns (rows r·T_q/rows … and columns alike),
// NaN when the block holds a NaN. A head no larger than size × size keeps its shape.
struct Thumbnail {
    int rows = 0;
    int cols = 0;
    std::vector<float> values;  // (rows, cols), row-major
    std::int64_t nonFinite = 0; // NaN and ±inf weights of the whole head
    float maximum = 0;          // the head's largest finite weight (0 when none above 0)
};

class AttentionStack {
public:
    virtual ~AttentionStack() = default;
    AttentionStack(const AttentionStack&) = delete;
    AttentionStack& operator=(const AttentionStack&) = delete;

    [[nodiscard]] const StackShape& shape() const { return shape_; }
    // What the elements are stored as (what head() converts from).
    [[nodiscard]] ElementType storedType() const { return type_; }
    // Where the stack came from: the file's path, or a description.
    [[nodiscard]] const std::string& source() const { return source_; }

    // The queries' tokens of `sequence` (T_q strings, UTF-8), empty when unknown.
    [[nodiscard]] const std::vector<std::string>& queryTokens(int sequence = 0) const;
    // The keys' tokens (T_k strings): the key tokens given, else the queries' tokens in
    // self-attention, else empty.
    [[nodiscard]] const std::vector<std::string>& keyTokens(int sequence = 0) const;
    // Cross-attention: key tokens of their own were given, or T_q ≠ T_k.
    [[nodiscard]] bool isCross() const;
    // Its rows and columns are words, each a group of the source's tokens
    // (runWordAttention): the windows say so in their own language.
    [[nodiscard]] bool wordGrouped() const { return wordGrouped_; }
    void markWordGrouped() { wordGrouped_ = true; }

    // Head h of sequence b in layer l, its stored elements. Throws std::out_of_range for
    // an index outside the shape.
    [[nodiscard]] HeadView view(int layer, int sequence, int head) const;
    // The same head converted to float: (T_q, T_k), a copy.
    [[nodiscard]] Matrix head(int layer, int sequence, int head) const;
    // The head's level-of-detail summary (Thumbnail), read once from its stored elements
    // without a float copy of the head. `size` ≥ 1.
    [[nodiscard]] Thumbnail thumbnail(int layer, int sequence, int head, int size) const;
    // Every head of `sequence`, [l·H + h], computed on every core: the model view's grid.
    // Throws Cancelled (engine.h) when `cancel` becomes true (a worker thread's newer job).
    [[nodiscard]] std::vector<Thumbnail>
    thumbnails(int sequence, int size, const std::atomic<bool>* cancel = nullptr) const;

protected:
    // Throws InputError, naming `source`, when the shape has an empty or negative axis.
    AttentionStack(StackShape shape, ElementType type, std::string source);
    // Sets the tokens: `queries` and `keys` each hold no list, one list for every
    // sequence, or B lists; each list T_q (queries) or T_k (keys) long. Throws InputError
    // naming the source when a count does not fit.
    void setTokens(std::vector<std::vector<std::string>> queries,
                   std::vector<std::vector<std::string>> keys);
    // The stored elements of a head whose indices are in range.
    [[nodiscard]] virtual HeadView headView(int layer, int sequence, int head) const = 0;

private:
    StackShape shape_;
    ElementType type_;
    std::string source_;
    bool wordGrouped_ = false;
    std::vector<std::vector<std::string>> queryTokens_;
    std::vector<std::vector<std::string>> keyTokens_;
};

// The mean of layer l's H heads of sequence b, (T_q, T_k): what a figure or the head view
// shows as the layer's "mean head". A NaN or ±inf weight of any head carries into its cell,
// where it is shown and counted like a head's. Throws std::out_of_range as view() does.
[[nodiscard]] Matrix meanHead(const AttentionStack& stack, int layer, int sequence);

// A stack that holds its float32 weights in memory, in (L, B, H, T_q, T_k) order: for
// tests, and for a model's forward pass to fill.
class MemoryAttentionStack : public AttentionStack {
public:
    // `weights` has L·B·H·T_q·T_k values (InputError otherwise).
    MemoryAttentionStack(StackShape shape, FloatBuffer weights,
                         std::vector<std::vector<std::string>> queryTokens = {},
                         std::vector<std::vector<std::string>> keyTokens = {},
                         std::string source = "memory");
    [[nodiscard]] float* data() { return weights_.data(); }
    [[nodiscard]] const FloatBuffer& weights() const { return weights_; }

private:
    [[nodiscard]] HeadView headView(int layer, int sequence, int head) const override;
    FloatBuffer weights_;
};

} // namespace attn
