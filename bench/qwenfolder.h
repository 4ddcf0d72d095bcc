// A Qwen2.5-0.5B-sized folder in Hugging Face's layout, written at bench time (bench_qwen.cpp,
// gpt2_open.cpp --qwen): config.json (model_type qwen2: 24 layers, hidden 896, 14 heads, 2 K/V
// heads, head_dim 64, intermediate 4864, vocabulary 151936, tied embeddings), a
// model.safetensors of random BF16 weights (494 million, 988 MB) and the reference
// checkpoints' tiny byte-level tokenizer.json (the benchmarks time the forward over ids; a
// real Qwen tokenizer is not needed for that).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace attn::bench {

struct QwenShape {
    int layers = 24, dModel = 896, heads = 14, kvHeads = 2, headDim = 64, inner = 4864;
    int vocabulary = 151936, positions = 32768;
};

namespace detail {

struct QwenTensor {
    std::string name;
    std::vector<long> shape;
    float std; // values of this spread around `mean`
    float mean;
};

inline std::vector<QwenTensor> qwenTensors(const QwenShape& s)
{
    const long C = s.dModel, Q = long(s.heads) * s.headDim, KV = long(s.kvHeads) * s.headDim;
    const long I = s.inner;
    std::vector<QwenTensor> t{{"model.embed_tokens.weight", {s.vocabulary, C}, 0.02f, 0}};
    for (int l = 0; l < s.layers; ++l) {
        const std::string p = "model.layers." + std::to_string(l) + ".";
        t.push_back({p + "input_layernorm.weight", {C}, 0.1f, 1});
        t.push_back({p + "self_attn.q_proj.weight", {Q, C}, 0.02f, 0});
        t.push_back({p + "self_attn.q_proj.bias", {Q}, 0.02f, 0});
        t.push_back({p + "self_attn.k_proj.weight", {KV, C}, 0.02f, 0});
        t.push_back({p + "self_attn.k_proj.bias", {KV}, 0.02f, 0});
        t.push_back({p + "self_attn.v_proj.weight", {KV, C}, 0.02f, 0});
        t.push_back({p + "self_attn.v_proj.bias", {KV}, 0.02f, 0});
        t.push_back({p + "self_attn.o_proj.weight", {C, Q}, 0.02f, 0});
        t.push_back({p + "post_attention_layernorm.weight", {C}, 0.1f, 1});
        t.push_back({p + "mlp.gate_proj.weight", {I, C}, 0.02f, 0});
        t.push_back({p + "mlp.up_proj.weight", {I, C}, 0.02f, 0});
        t.push_back({p + "mlp.down_proj.weight", {C, I}, 0.02f, 0});
    }
    t.push_back({"model.norm.weight", {C}, 0.1f, 1});
    return t;
}

} // namespace detail

// Writes the folder (created if needed); `tokenizerJson` is copied in. Returns the size of
// model.safetensors in bytes. The weights go out in blocks of 1 MB, so that writing them
// leaves no mark on a peak memory measured after.
inline std::uintmax_t writeQwenFolder(const std::filesystem::path& folder,
                                      const std::filesystem::path& tokenizerJson,
                                      const QwenShape& s = {})
{
    namespace fs = std::filesystem;
    fs::create_directories(folder);
    std::ofstream(folder / "config.json")
        << "{\"model_type\": \"qwen2\", \"architectures\": [\"Qwen2ForCausalLM\"], "
        << "\"hidden_act\": \"silu\", \"num_hidden_layers\": " << s.layers
        << ", \"hidden_size\": " << s.dModel << ", \"num_attention_heads\": " << s.heads
        << ", \"num_key_value_heads\": " << s.kvHeads << ", \"intermediate_size\": " << s.inner
        << ", \"vocab_size\": " << s.vocabulary << ", \"max_position_embeddings\": " << s.positions
        << ", \"rms_norm_eps\": 1e-06, \"rope_theta\": 1000000.0, \"tie_word_embeddings\": true, "
        << "\"use_sliding_window\": false, \"torch_dtype\": \"bfloat16\"}\n";
    fs::copy_file(tokenizerJson, folder / "tokenizer.json", fs::copy_options::overwrite_existing);

    const std::vector<detail::QwenTensor> tensors = detail::qwenTensors(s);
    std::string header = "{";
    std::size_t offset = 0;
    for (const auto& t : tensors) {
        std::size_t count = 1;
        std::string shape;
        for (long d : t.shape) {
            count *= std::size_t(d);
            shape += (shape.empty() ? "" : ",") + std::to_string(d);
        }
        header += (header.size() > 1 ? "," : "") + ("\"" + t.name + "\":{\"dtype\":\"BF16\",") +
                  "\"shape\":[" + shape + "],\"data_offsets\":[" + std::to_string(offset) + "," +
                  std::to_string(offset + 2 * count) + "]}";
        offset += 2 * count;
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');
    const fs::path file = folder / "model.safetensors";
    std::ofstream out(file, std::ios::binary);
    const std::uint64_t length = header.size();
    out.write(reinterpret_cast<const char*>(&length), 8);
    out << header;
    std::uint32_t state = 42;
    std::vector<std::uint16_t> block(1 << 19);
    for (const auto& t : tensors) {
        std::size_t count = 1;
        for (long d : t.shape)
            count *= std::size_t(d);
        for (std::size_t done = 0; done < count; done += block.size()) {
            const std::size_t n = std::min(block.size(), count - done);
            for (std::size_t i = 0; i < n; ++i) { // uniform with the spread of N(mean, std)
                state = state * 1664525u + 1013904223u;
                const float v = t.mean + t.std * 3.4641f * (float(state >> 8) / 16777216.0f - 0.5f);
                std::uint32_t bits;
                std::memcpy(&bits, &v, 4);
                block[i] = std::uint16_t(bits >> 16); // BF16: the float's upper half
            }
            out.write(reinterpret_cast<const char*>(block.data()), std::streamsize(2 * n));
        }
    }
    out.close();
    return fs::file_size(file);
}

// The FLOPs of the forward at T tokens, as bench_gpt2 counts GPT-2's: the projections
// (q, k, v, o, gate, up, down: 2·T·in·out each) and QKᵀ and P·V over every head (2·2·T²·d_k
// each), without the logits over the vocabulary.
inline double qwenFlops(const QwenShape& s, double T)
{
    const double C = s.dModel, Q = double(s.heads) * s.headDim, KV = double(s.kvHeads) * s.headDim;
    const double I = s.inner;
    return s.layers * (2 * T * (C * Q + 2 * C * KV + Q * C + 3 * C * I) + 4 * T * T * Q);
}

} // namespace attn::bench
