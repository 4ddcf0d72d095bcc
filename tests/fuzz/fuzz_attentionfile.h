// What the attention-file fuzzers share: open the bytes as a file and read every part of
// the stack a window would, checking the stack's promises. A file either gives
// InputError or a stack whose every head converts, summarises and measures; any other
// exception, a crash or a sanitizer report is a finding.
#pragma once

#include "attention/attentionfile.h"
#include "attention/headpatterns.h"
#include "engine/options.h"

#include <cstdio>
#include <cstdlib>
#include <span>

namespace attn::fuzz {

[[noreturn]] inline void broken(const char* promise)
{
    std::fprintf(stderr, "attention stack broke its promise: %s\n", promise);
    std::abort();
}

inline void exerciseAttentionFile(const std::uint8_t* data, std::size_t size, const char* where)
{
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    std::unique_ptr<AttentionStack> stack;
    try {
        // A small inflate limit keeps a run's memory in bounds.
        stack = openAttentionBytes(bytes, where, {.inflateBytes = std::uint64_t(1) << 24});
    } catch (const InputError&) {
        return;
    }
    const StackShape& s = stack->shape();
    if (s.layers < 1 || s.sequences < 1 || s.heads < 1 || s.queries < 1 || s.keys < 1)
        broken("an empty axis");
    // The first heads of the first and last sequence: converted, summarised, measured.
    for (const int b : {0, s.sequences - 1})
        for (int k = 0; k < std::min<std::int64_t>(4, std::int64_t(s.layers) * s.heads); ++k) {
            const int l = k / s.heads, h = k % s.heads;
            const Matrix m = stack->head(l, b, h);
            if (m.rows() != s.queries || m.cols() != s.keys)
                broken("a head of the wrong shape");
            const Thumbnail t = stack->thumbnail(l, b, h, 7);
            if (t.rows != std::min(7, s.queries) || t.cols != std::min(7, s.keys) ||
                t.values.size() != std::size_t(t.rows) * std::size_t(t.cols))
                broken("a thumbnail of the wrong shape");
            const HeadPatterns p = headPatterns(m, stack->isCross());
            if (p.queries < 0 || p.queries > s.queries)
                broken("patterns over more queries than the head has");
        }
    if (!stack->queryTokens(0).empty() && std::ssize(stack->queryTokens(0)) != s.queries)
        broken("tokens of the wrong length");
    if (!stack->keyTokens(s.sequences - 1).empty() &&
        std::ssize(stack->keyTokens(s.sequences - 1)) != s.keys)
        broken("key tokens of the wrong length");
}

} // namespace attn::fuzz
