// The requests the engine tests start from, and matrices compared bit for bit.
#pragma once

#include "engine/engine.h"

#include <cstring>
#include <memory>
#include <string>
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

// `length` words "w0 w1 …" on one line, split by spaces (one token a word), d_model
// `dModel` in `heads` heads: a long text without a dictionary's work.
inline attn::Request wordsRequest(int length, int dModel, int heads)
{
    attn::Request r;
    for (int t = 0; t < length; ++t)
        r.text += "w" + std::to_string(t % 97) + " ";
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = dModel;
    r.config.heads = heads;
    return r;
}

// `length` tokens on one line and a shorter second line (padded keys), under a causal
// mask before a softmax over the keys: what stage 5 defers the masked scores for.
inline attn::Request longCausalRequest(int length)
{
    attn::Request r;
    for (int t = 0; t < length; ++t)
        r.text += "w" + std::to_string(t % 97) + (t + 1 < length ? " " : "\n");
    for (int t = 0; t < length * 2 / 3; ++t)
        r.text += "v" + std::to_string(t % 89) + " ";
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = 64;
    r.config.heads = 2;
    r.config.mask = attn::MaskKind::Causal;
    return r;
}

// S and P as a compute makes them that multiplies every score at once: stopped after S,
// then on to the rest (the softmax then reads the stored S, none deferred).
inline attn::Result scoresAtOnce(const attn::Request& r)
{
    auto engine = std::make_shared<attn::AttentionEngine>();
    (void)engine->compute(r, nullptr, attn::Stage::Scores);
    return engine->compute(r);
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
