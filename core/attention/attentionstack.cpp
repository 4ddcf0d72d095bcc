#include "attention/attentionstack.h"

#include "base/parallel.h"
#include "engine/engine.h"
#include "engine/options.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace attn {

int elementBytes(ElementType type)
{
    switch (type) {
    case ElementType::F16:
    case ElementType::BF16:
        return 2;
    case ElementType::F32:
        return 4;
    case ElementType::F64:
        return 8;
    }
    return 4;
}

const char* elementName(ElementType type)
{
    switch (type) {
    case ElementType::F16:
        return "float16";
    case ElementType::BF16:
        return "bfloat16";
    case ElementType::F32:
        return "float32";
    case ElementType::F64:
        return "float64";
    }
    return "float32";
}

float halfToFloat(std::uint16_t bits)
{
    const std::uint32_t sign = std::uint32_t(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    std::uint32_t mantissa = bits & 0x3FFu;
    std::uint32_t out = 0;
    if (exponent == 0x1F) {
        out = sign | 0x7F800000u | (mantissa << 13); // ±inf, NaN (payload kept)
    } else if (exponent != 0) {
        out = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa != 0) {
        // Subnormal: normalise it; 2^-14 · m/1024 becomes a normal float.
        std::uint32_t e = 113;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            --e;
        }
        out = sign | (e << 23) | ((mantissa & 0x3FFu) << 13);
    } else {
        out = sign; // ±0
    }
    return std::bit_cast<float>(out);
}

float bfloat16ToFloat(std::uint16_t bits)
{
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
}

namespace {

template <typename T> T load(const std::byte* p, bool swapped)
{
    T value;
    std::memcpy(&value, p, sizeof value);
    if (swapped) {
        // A big-endian file's element (std::byteswap is C++23).
        if constexpr (sizeof(T) == 2)
            value = std::bit_cast<T>(__builtin_bswap16(std::bit_cast<std::uint16_t>(value)));
        else if constexpr (sizeof(T) == 4)
            value = std::bit_cast<T>(__builtin_bswap32(std::bit_cast<std::uint32_t>(value)));
        else
            value = std::bit_cast<T>(__builtin_bswap64(std::bit_cast<std::uint64_t>(value)));
    }
    return value;
}

float loadAs(const std::byte* p, ElementType type, bool swapped)
{
    switch (type) {
    case ElementType::F16:
        return halfToFloat(load<std::uint16_t>(p, swapped));
    case ElementType::BF16:
        return bfloat16ToFloat(load<std::uint16_t>(p, swapped));
    case ElementType::F32:
        return load<float>(p, swapped);
    case ElementType::F64:
        return static_cast<float>(load<double>(p, swapped));
    }
    return 0;
}

// Calls fn(row, j, value) for every element of `view`'s row i, converted to float. The
// loop is instantiated per type so that a contiguous float32 row is read as a plain array.
template <typename Fn> void forEachInRow(const HeadView& view, int i, Fn&& fn)
{
    const int size = elementBytes(view.type);
    const std::byte* row = view.base + std::int64_t(i) * view.rowStride * size;
    if (view.type == ElementType::F32 && !view.swapped && view.colStride == 1) {
        for (int j = 0; j < view.cols; ++j) {
            float value;
            std::memcpy(&value, row + std::int64_t(j) * 4, 4);
            fn(j, value);
        }
        return;
    }
    const std::int64_t step = view.colStride * size;
    for (int j = 0; j < view.cols; ++j)
        fn(j, loadAs(row + j * step, view.type, view.swapped));
}

// The largest of n float32 values stored contiguously at p (any alignment), and whether
// all are finite: v·0 is 0 for a finite v and NaN otherwise, so one sum of them tells.
struct BlockMax {
    float max;
    bool finite;
};

BlockMax blockMax(const std::byte* p, int n)
{
    float best = -std::numeric_limits<float>::infinity();
    float poison = 0;
    int j = 0;
#if defined(__SSE2__)
    // Four lanes at a time (SSE2 is part of x86-64); the NaN rule of maxps does not
    // matter, a row holding a NaN is measured again value by value.
    __m128 m = _mm_set1_ps(best);
    __m128 bad = _mm_setzero_ps();
    const __m128 zero = _mm_setzero_ps();
    for (; j + 4 <= n; j += 4) {
        const __m128 x = _mm_loadu_ps(reinterpret_cast<const float*>(p + std::ptrdiff_t(j) * 4));
        m = _mm_max_ps(m, x);
        bad = _mm_add_ps(bad, _mm_mul_ps(x, zero));
    }
    float lanes[4], sums[4];
    _mm_storeu_ps(lanes, m);
    _mm_storeu_ps(sums, bad);
    for (int k = 0; k < 4; ++k) {
        best = lanes[k] > best ? lanes[k] : best;
        poison += sums[k];
    }
#endif
    for (; j < n; ++j) {
        float x;
        std::memcpy(&x, p + std::ptrdiff_t(j) * 4, 4);
        best = x > best ? x : best;
        poison += x * 0.0f;
    }
    return {best, poison == 0};
}

} // namespace

float HeadView::at(int i, int j) const
{
    const int size = elementBytes(type);
    return loadAs(base + (std::int64_t(i) * rowStride + std::int64_t(j) * colStride) * size, type,
                  swapped);
}

AttentionStack::AttentionStack(StackShape shape, ElementType type, std::string source)
    : shape_(shape), type_(type), source_(std::move(source))
{
    if (shape.layers < 1 || shape.sequences < 1 || shape.heads < 1 || shape.queries < 1 ||
        shape.keys < 1)
        throw InputError(source_ + ": the attention has an empty axis (shape " +
                         std::to_string(shape.layers) + " × " + std::to_string(shape.sequences) +
                         " × " + std::to_string(shape.heads) + " × " +
                         std::to_string(shape.queries) + " × " + std::to_string(shape.keys) + ")");
}

void AttentionStack::setTokens(std::vector<std::vector<std::string>> queries,
                               std::vector<std::vector<std::string>> keys)
{
    const auto check = [this](const std::vector<std::vector<std::string>>& lists, int length,
                              const char* what, const char* axis) {
        if (lists.size() > 1 && std::ssize(lists) != shape_.sequences)
            throw InputError(source_ + ": " + what + " has " + std::to_string(lists.size()) +
                             " sequences, the attention " + std::to_string(shape_.sequences));
        for (const auto& list : lists)
            if (std::ssize(list) != length)
                throw InputError(source_ + ": " + what + " has " + std::to_string(list.size()) +
                                 " tokens, the attention " + std::to_string(length) + " " + axis);
    };
    check(queries, shape_.queries, "tokens", "queries (T_q)");
    check(keys, shape_.keys, "key_tokens", "keys (T_k)");
    queryTokens_ = std::move(queries);
    keyTokens_ = std::move(keys);
}

const std::vector<std::string>& AttentionStack::queryTokens(int sequence) const
{
    static const std::vector<std::string> none;
    if (queryTokens_.empty())
        return none;
    return queryTokens_[queryTokens_.size() == 1 ? 0 : std::size_t(sequence)];
}

const std::vector<std::string>& AttentionStack::keyTokens(int sequence) const
{
    static const std::vector<std::string> none;
    if (!keyTokens_.empty())
        return keyTokens_[keyTokens_.size() == 1 ? 0 : std::size_t(sequence)];
    return isCross() ? none : queryTokens(sequence);
}

bool AttentionStack::isCross() const
{
    return !keyTokens_.empty() || shape_.queries != shape_.keys;
}

HeadView AttentionStack::view(int layer, int sequence, int head) const
{
    if (layer < 0 || layer >= shape_.layers || sequence < 0 || sequence >= shape_.sequences ||
        head < 0 || head >= shape_.heads)
        throw std::out_of_range("attention head (" + std::to_string(layer) + ", " +
                                std::to_string(sequence) + ", " + std::to_string(head) +
                                ") outside the stack");
    return headView(layer, sequence, head);
}

Matrix AttentionStack::head(int layer, int sequence, int head) const
{
    // (T_q, T_k), converted row by row.
    const HeadView v = view(layer, sequence, head);
    Matrix out(v.rows, v.cols);
    for (int i = 0; i < v.rows; ++i) {
        float* row = out.row(i).data();
        forEachInRow(v, i, [row](int j, float value) { row[j] = value; });
    }
    return out;
}

Matrix meanHead(const AttentionStack& stack, int layer, int sequence)
{
    // (T_q, T_k): 1. sum the heads in float, 2. divide once by H.
    const int heads = stack.shape().heads;
    Matrix sum = stack.head(layer, sequence, 0);
    for (int h = 1; h < heads; ++h)
        sum += stack.head(layer, sequence, h);
    return sum / float(heads);
}

Thumbnail AttentionStack::thumbnail(int layer, int sequence, int head, int size) const
{
    const HeadView v = view(layer, sequence, head);
    Thumbnail t;
    t.rows = std::min(std::max(size, 1), v.rows);
    t.cols = std::min(std::max(size, 1), v.cols);
    t.values.assign(std::size_t(t.rows) * std::size_t(t.cols),
                    -std::numeric_limits<float>::infinity());
    // Key j falls in column block j·cols/T_k; block c holds keys [start[c], start[c + 1]).
    std::vector<int> blockOfKey(std::size_t(v.cols));
    std::vector<int> start(std::size_t(t.cols) + 1, v.cols);
    for (int j = v.cols - 1; j >= 0; --j) {
        const int c = int(std::int64_t(j) * t.cols / v.cols);
        blockOfKey[std::size_t(j)] = c;
        start[std::size_t(c)] = j;
    }
    const bool plainFloats = v.type == ElementType::F32 && !v.swapped && v.colStride == 1;
    std::int64_t nonFinite = 0;
    float maximum = 0;
    for (int i = 0; i < v.rows; ++i) {
        // Query i falls in row block i·rows/T_q.
        float* cells = t.values.data() + std::int64_t(i) * t.rows / v.rows * t.cols;
        // 1. Contiguous float32 (the common file): each block's maximum in one vector pass,
        // as long as the row is finite.
        bool done = false;
        if (plainFloats) {
            const std::byte* row = v.base + std::int64_t(i) * v.rowStride * 4;
            done = true;
            for (int c = 0; c < t.cols && done; ++c) {
                const int from = start[std::size_t(c)];
                const BlockMax block =
                    blockMax(row + std::int64_t(from) * 4, start[std::size_t(c) + 1] - from);
                if (!block.finite) {
                    done = false; // measured value by value below
                    break;
                }
                if (block.max > cells[c])
                    cells[c] = block.max;
                if (block.max > maximum)
                    maximum = block.max;
            }
        }
        if (done)
            continue;
        // 2. Any other row, value by value: a NaN, once in a block, stays (NaN > x and
        // x > NaN are both false). Taking a maximum twice changes nothing, so a row the
        // vector pass left is simply measured again.
        forEachInRow(v, i, [&](int j, float value) {
            float& cell = cells[blockOfKey[std::size_t(j)]];
            if (value > cell || value != value)
                cell = std::isnan(cell) ? cell : value;
            if (!std::isfinite(value))
                ++nonFinite;
            else if (value > maximum)
                maximum = value;
        });
    }
    t.nonFinite = nonFinite;
    t.maximum = maximum;
    return t;
}

std::vector<Thumbnail> AttentionStack::thumbnails(int sequence, int size,
                                                  const std::atomic<bool>* cancel) const
{
    std::vector<Thumbnail> all(std::size_t(shape_.layers) * std::size_t(shape_.heads));
    parallelFor(int(all.size()), [&](int k) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw Cancelled();
        all[std::size_t(k)] = thumbnail(k / shape_.heads, sequence, k % shape_.heads, size);
    });
    return all;
}

MemoryAttentionStack::MemoryAttentionStack(StackShape shape, FloatBuffer weights,
                                           std::vector<std::vector<std::string>> queryTokens,
                                           std::vector<std::vector<std::string>> keyTokens,
                                           std::string source)
    : AttentionStack(shape, ElementType::F32, std::move(source)), weights_(std::move(weights))
{
    if (std::int64_t(weights_.size()) != shape.headCount() * shape.queries * shape.keys)
        throw InputError(this->source() + ": " + std::to_string(weights_.size()) +
                         " weights do not fill the shape");
    setTokens(std::move(queryTokens), std::move(keyTokens));
}

HeadView MemoryAttentionStack::headView(int layer, int sequence, int head) const
{
    const StackShape& s = shape();
    const std::int64_t index = (std::int64_t(layer) * s.sequences + sequence) * s.heads + head;
    HeadView v;
    v.base = reinterpret_cast<const std::byte*>(weights_.data() +
                                                index * std::int64_t(s.queries) * s.keys);
    v.rowStride = s.keys;
    v.rows = s.queries;
    v.cols = s.keys;
    return v;
}

} // namespace attn
