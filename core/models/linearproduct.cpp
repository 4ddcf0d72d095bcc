#include "models/linearproduct.h"

#include "base/parallel.h"
#include "models/productkernels.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace attn {
namespace {

using Index = Eigen::Index;
namespace pk = productkernels;

// The inputs of a chunk: a register block's panels of x for it (3 × 16 tokens × 128 inputs,
// 24 KB) stay in L1 while the tile's rows of W for it (up to 384 × 128 floats) go by from L2.
// A multiple of the 32-element blocks; the K-quants' super-blocks of 256 take chunks of 256
// (chunkOf), so that a chunk's rows always start at a block.
constexpr Index kChunk = 128;

Index chunkOf(const ProductWeight& w)
{
    if (!w.blocks)
        return kChunk;
    return std::max<Index>(kChunk, Index(ggmlTypeInfo(std::uint32_t(w.type))->blockElements));
}

ProductPath bestPath()
{
    if (pk::cpuHasAvx512())
        return ProductPath::Avx512;
    if (pk::cpuHasAvx2())
        return ProductPath::Avx2;
    return ProductPath::Portable;
}

std::atomic<ProductPath>& chosenPath()
{
    static std::atomic<ProductPath> path{[] {
        const char* asked = std::getenv("ATTN_PRODUCT");
        const std::string name = asked ? asked : "";
        for (ProductPath p : {ProductPath::Portable, ProductPath::Avx2, ProductPath::Avx512})
            if (name == (p == ProductPath::Portable ? "portable"
                         : p == ProductPath::Avx2   ? "avx2"
                                                    : "avx512") &&
                productPathSupported(p))
                return p;
        // ATTN_NO_AVX2=1 (the portable row passes, tests' *_sse2) means the portable products too.
        return std::getenv("ATTN_NO_AVX2") ? ProductPath::Portable : bestPath();
    }()};
    return path;
}

pk::Path kernels(ProductPath path)
{
    switch (path) {
    case ProductPath::Avx512:
        return pk::avx512Path();
    case ProductPath::Avx2:
        return pk::avx2Path();
    case ProductPath::Portable:
        break;
    }
    return pk::portablePath();
}

void weightRow(const ProductWeight& w, const pk::Path& path, Index n, Index first, Index count,
               float* out)
{
    if (!w.blocks) {
        const float* row = w.floats + n * w.rowStride + first * w.depthStride;
        for (Index k = 0; k < count; ++k)
            out[k] = row[k * w.depthStride];
        return;
    }
    const Index stored = w.rowOrder ? w.rowOrder[n] : n;
    const GgmlTypeInfo info = *ggmlTypeInfo(std::uint32_t(w.type));
    const std::byte* src = w.blocks + std::size_t(stored) * w.rowBytes +
                           std::size_t(first / info.blockElements * info.blockBytes);
    if (!path.dequantize(w.type, src, out, count))
        dequantizeRow(w.type, src, out, count);
}

// Asks for W's bytes of rows [first, first + count), inputs [k0, k0 + depth), to be brought
// into L2 while the chunk before them is multiplied: a chunk's rows are a short run each, one
// row's apart, which the hardware's prefetchers do not follow (a Q8_0 forward spent a sixth
// of its time waiting for them in the dequantizer).
void prefetchChunk(const ProductWeight& w, Index first, Index count, Index k0, Index depth)
{
    std::size_t offset, bytes;
    if (w.blocks) {
        const GgmlTypeInfo info = *ggmlTypeInfo(std::uint32_t(w.type));
        offset = std::size_t(k0 / info.blockElements * info.blockBytes);
        bytes =
            std::size_t((depth + info.blockElements - 1) / info.blockElements * info.blockBytes);
    } else if (w.depthStride == 1) {
        offset = std::size_t(k0) * sizeof(float);
        bytes = std::size_t(depth) * sizeof(float);
    } else {
        return; // a Conv1D read along its columns: rows of W are its columns, in one stream
    }
    constexpr std::size_t kLine = 64;
    for (Index n = first; n < first + count; ++n) {
        const Index stored = w.rowOrder ? w.rowOrder[n] : n;
        const char* row = w.blocks
                              ? reinterpret_cast<const char*>(w.blocks) +
                                    std::size_t(stored) * w.rowBytes + offset
                              : reinterpret_cast<const char*>(w.floats + n * w.rowStride) + offset;
        for (std::size_t at = 0; at < bytes; at += kLine)
            __builtin_prefetch(row + at, 0, 2);
    }
}

} // namespace

std::string_view productPathName(ProductPath path)
{
    switch (path) {
    case ProductPath::Avx512:
        return "AVX-512";
    case ProductPath::Avx2:
        return "AVX2+FMA";
    case ProductPath::Portable:
        break;
    }
    return "portable";
}

bool productPathSupported(ProductPath path)
{
    switch (path) {
    case ProductPath::Avx512:
        return pk::cpuHasAvx512();
    case ProductPath::Avx2:
        return pk::cpuHasAvx2();
    case ProductPath::Portable:
        break;
    }
    return true;
}

ProductPath productPath()
{
    return chosenPath().load(std::memory_order_relaxed);
}

ProductPath setProductPath(ProductPath path)
{
    if (!productPathSupported(path))
        throw std::invalid_argument("this CPU has no " + std::string(productPathName(path)));
    return chosenPath().exchange(path);
}

void packTokens(const float* x, Index ldx, Index tokens, Index depth, PackedTokens& out)
{
    out.tokens = tokens;
    out.depth = depth;
    out.data.resize(std::size_t(out.panels() * depth * kTokenPanel));
    // Bands of 4 panels on every core; within a panel, blocks of 16 tokens × 16 inputs
    // transposed in registers, the remainders one value at a time.
    constexpr Index kBand = 4;
    const Index panels = out.panels();
    const pk::Transpose16 transpose = kernels(productPath()).transpose16;
    parallelFor(int((panels + kBand - 1) / kBand), [&](int band) {
        for (Index p = band * kBand; p < std::min(panels, (band + 1) * kBand); ++p) {
            float* panel = out.data.data() + p * depth * kTokenPanel;
            const Index first = p * kTokenPanel, count = std::min(kTokenPanel, tokens - first);
            Index k0 = 0;
            if (count == kTokenPanel)
                for (; k0 + 16 <= depth; k0 += 16)
                    transpose(x + first * ldx + k0, ldx, panel + k0 * kTokenPanel, kTokenPanel);
            if (count < kTokenPanel)
                std::fill(panel, panel + depth * kTokenPanel, 0.0f);
            for (Index j = 0; j < count; ++j) {
                const float* row = x + (first + j) * ldx;
                for (Index k = k0; k < depth; ++k)
                    panel[k * kTokenPanel + j] = row[k];
            }
        }
    });
}

void transposeBlock16(const float* src, Index lds, float* dst, Index ldd)
{
    kernels(productPath()).transpose16(src, lds, dst, ldd);
}

void productWeightRow(const ProductWeight& w, Index n, Index first, Index count, float* out)
{
    weightRow(w, kernels(productPath()), n, first, count, out);
}

void productTile(const PackedTokens& x, Index firstPanel, Index panels, const ProductWeight& w,
                 Index firstOutput, Index outputs, float* yt, Index ldt)
{
    const pk::Path path = kernels(productPath());
    const Index K = x.depth, panelStride = K * kTokenPanel;
    // In place where W's rows are floats one after another; otherwise the tile's rows for a
    // chunk dequantized (or gathered along a Conv1D's columns) here, once for all its tokens.
    const bool inPlace = !w.blocks && w.depthStride == 1;
    const Index chunk = chunkOf(w);
    thread_local std::vector<float> rows;
    if (!inPlace)
        rows.resize(std::size_t(outputs * chunk));
    for (Index k0 = 0; k0 < K; k0 += chunk) {
        const Index depth = std::min(chunk, K - k0);
        if (!inPlace)
            for (Index n = 0; n < outputs; ++n)
                weightRow(w, path, firstOutput + n, k0, depth, rows.data() + n * chunk);
        const float* wr = inPlace ? w.floats + firstOutput * w.rowStride + k0 : rows.data();
        const Index ldw = inPlace ? w.rowStride : chunk;
        // A group of panels (its chunk of x in L1) against every block of outputs in turn
        // (their rows of the chunk in L2).
        for (Index p = 0; p < panels; p += path.panels) {
            const int v = int(std::min<Index>(path.panels, panels - p));
            const float* xp = x.panel(firstPanel + p) + k0 * kTokenPanel;
            for (Index n0 = 0; n0 < outputs; n0 += path.rows) {
                const int r = int(std::min<Index>(path.rows, outputs - n0));
                // The next chunk's rows of this block asked for beside its product, a few at
                // a time, not all at once (which waits for the line buffers).
                if (p == 0 && k0 + chunk < K)
                    prefetchChunk(w, firstOutput + n0, r, k0 + chunk,
                                  std::min(chunk, K - k0 - chunk));
                path.block(r, v, depth, wr + n0 * ldw, ldw, xp, panelStride,
                           yt + n0 * ldt + p * kTokenPanel, ldt, k0 > 0);
            }
        }
    }
}

} // namespace attn
