// The request the engine tests start from, and matrices compared bit for bit.
#pragma once

#include "engine.h"

#include <cstring>
#include <vector>

namespace attn::test {

inline attn::Request baseRequest()
{
    attn::Request r;
    r.text = "the cat sat on the mat\nit was tired";
    r.config.dModel = 32;
    r.config.heads = 4;
    return r;
}

// Bit for bit, NaN included (over the queries axis a <pad> key's column is all masked: NaN).
inline bool sameBits(const std::vector<attn::Matrix>& a, const std::vector<attn::Matrix>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].rows() != b[i].rows() || a[i].cols() != b[i].cols() ||
            std::memcmp(a[i].data(), b[i].data(), sizeof(float) * std::size_t(a[i].size())) != 0)
            return false;
    return true;
}

} // namespace attn::test
