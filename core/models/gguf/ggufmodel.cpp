#include "models/gguf/ggufmodel.h"

#include "io/gguf.h"
#include "io/mappedfile.h"
#include "models/gguf/ggufparts.h"
#include "models/llama/model.h"

#include <cstring>
#include <fstream>

namespace attn {
namespace {

// The Qwen/Llama family's config from {arch}.* keys and the tensors there are.
LlamaConfig llamaConfigOf(const GgufFile& file, const std::filesystem::path& path,
                          const std::string& arch)
{
    const GgufMetadata meta(file, path, arch);
    LlamaConfig c;
    c.modelType = arch;
    c.layers = meta.size("block_count");
    c.dModel = meta.size("embedding_length");
    c.inner = meta.size("feed_forward_length");
    c.heads = meta.size("attention.head_count");
    c.kvHeads = meta.size("attention.head_count_kv", c.heads);
    c.positions = meta.size("context_length");
    if (c.heads % c.kvHeads != 0)
        meta.fail(arch + ".attention.head_count " + std::to_string(c.heads) +
                  " is not a multiple of " + arch + ".attention.head_count_kv " +
                  std::to_string(c.kvHeads));
    if (c.dModel % c.heads != 0 && !file.find(arch + ".attention.key_length"))
        meta.fail(arch + ".embedding_length is not a multiple of the heads");
    c.headDim = meta.size("attention.key_length", c.dModel / c.heads);
    if (meta.size("attention.value_length", c.headDim) != c.headDim)
        meta.fail(arch + ".attention.value_length differs from key_length, which this "
                         "version does not run");
    if (c.headDim % 2 != 0)
        meta.fail("the head size " + std::to_string(c.headDim) + " is odd: RoPE rotates pairs");
    if (meta.size("rope.dimension_count", c.headDim) != c.headDim)
        meta.fail(arch + ".rope.dimension_count rotates part of each head, which this version "
                         "does not run");
    c.epsilon = meta.real("attention.layer_norm_rms_epsilon", 1e-6);
    c.ropeTheta = meta.real("rope.freq_base", 10000.0);
    const std::string scaling = meta.text("rope.scaling.type");
    if (scaling == "linear") {
        c.ropeScaling.type = RopeScaling::Type::Linear;
        c.ropeScaling.factor = meta.real("rope.scaling.factor", 1.0);
    } else if (!scaling.empty() && scaling != "none") {
        meta.fail("the rope scaling \"" + scaling + "\" (" + arch +
                  ".rope.scaling.type) is not supported (this version runs none and linear)");
    }
    // Llama 3.1/3.2's llama3 scaling, as llama.cpp's converter computed it: one factor a
    // frequency.
    if (const GgufTensor* factors = file.tensor("rope_freqs.weight")) {
        const std::int64_t half = c.headDim / 2;
        if (factors->ne != std::vector<std::int64_t>{half} || factors->type != GgmlType::F32)
            meta.fail("the tensor rope_freqs.weight is not " + std::to_string(half) +
                      " F32 values, one a frequency of the head size " + std::to_string(c.headDim));
        c.ropeScaling.frequencyFactors.resize(std::size_t(half));
        dequantizeRow(GgmlType::F32, factors->data.data(), c.ropeScaling.frequencyFactors.data(),
                      half);
        for (const float factor : c.ropeScaling.frequencyFactors)
            if (!std::isfinite(factor) || factor <= 0)
                meta.fail("the tensor rope_freqs.weight holds a factor that is not a positive "
                          "number");
    }
    c.vocabulary = embeddingRows(file, meta);
    c.tiedEmbeddings = !file.tensor("output.weight");
    c.qkvBias = file.tensor("blk.0.attn_q.bias") != nullptr;
    c.outputBias = file.tensor("blk.0.attn_output.bias") != nullptr;
    c.mlpBias = file.tensor("blk.0.ffn_gate.bias") != nullptr;
    c.qkNorm = file.tensor("blk.0.attn_q_norm.weight") != nullptr;
    return c;
}

LlamaWeights llamaWeightsOf(const GgufFile& file, const std::filesystem::path& path,
                            const LlamaConfig& config, std::shared_ptr<const MappedFile> mapped)
{
    LlamaWeights w;
    w.files.push_back(std::move(mapped));
    GgufTensors read(file, path, w);
    const std::int64_t C = config.dModel, V = config.vocabulary, I = config.inner;
    const std::int64_t d = config.headDim, Q = config.heads * d, KV = config.kvHeads * d;
    // llama.cpp rotates adjacent pairs for the llama architecture and reordered Q and K's
    // rows for it; qwen2 and qwen3 rotate halves, as Hugging Face, and kept the order.
    const bool permuted = config.modelType == "llama";
    const int qHeads = permuted ? config.heads : 0, kHeads = permuted ? config.kvHeads : 0;
    w.tokenEmbedding = read.matrix("token_embd.weight", V, C);
    w.storedType = read.typeOf("token_embd.weight");
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        LlamaBlock b;
        b.inputNorm = read.vector(p + "attn_norm.weight", C);
        b.qWeight = read.matrix(p + "attn_q.weight", Q, C, qHeads);
        b.kWeight = read.matrix(p + "attn_k.weight", KV, C, kHeads);
        b.vWeight = read.matrix(p + "attn_v.weight", KV, C);
        b.oWeight = read.matrix(p + "attn_output.weight", C, Q);
        if (config.qkvBias) {
            b.qBias = read.vector(p + "attn_q.bias", Q, qHeads);
            b.kBias = read.vector(p + "attn_k.bias", KV, kHeads);
            b.vBias = read.vector(p + "attn_v.bias", KV);
        }
        if (config.outputBias)
            b.oBias = read.vector(p + "attn_output.bias", C);
        if (config.qkNorm) {
            b.qNorm = read.vector(p + "attn_q_norm.weight", d);
            b.kNorm = read.vector(p + "attn_k_norm.weight", d);
        }
        b.postNorm = read.vector(p + "ffn_norm.weight", C);
        b.gateWeight = read.matrix(p + "ffn_gate.weight", I, C);
        b.upWeight = read.matrix(p + "ffn_up.weight", I, C);
        b.downWeight = read.matrix(p + "ffn_down.weight", C, I);
        if (config.mlpBias) {
            b.gateBias = read.vector(p + "ffn_gate.bias", I);
            b.upBias = read.vector(p + "ffn_up.bias", I);
            b.downBias = read.vector(p + "ffn_down.bias", C);
        }
        w.blocks.push_back(b);
    }
    w.finalNorm = read.vector("output_norm.weight", C);
    w.outputEmbedding =
        config.tiedEmbeddings ? w.tokenEmbedding : read.matrix("output.weight", V, C);
    return w;
}

} // namespace

bool isGgufFile(const std::filesystem::path& path)
{
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return false;
    std::ifstream in(path, std::ios::binary);
    char magic[4] = {};
    return in.read(magic, 4) && std::memcmp(magic, "GGUF", 4) == 0;
}

std::optional<GgufSummary> ggufSummary(const std::filesystem::path& file)
{
    try {
        const std::shared_ptr<const MappedFile> mapped = MappedFile::open(file.string());
        const GgufFile gguf = parseGguf(mapped->bytes(), file.string());
        GgufSummary summary;
        if (const GgufValue* arch = gguf.find("general.architecture"))
            summary.architecture = std::string(arch->asString().value_or(""));
        if (const GgufValue* type = gguf.find("general.file_type"))
            if (const auto id = type->asUnsigned())
                summary.fileType = std::string(ggmlFileTypeName(std::uint32_t(*id)));
        return summary;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

std::shared_ptr<const LanguageModel> openGgufModel(const std::filesystem::path& file)
{
    // 1. The file, mapped and parsed (nothing is copied: the views point into the mapping).
    const std::string where = file.string();
    std::shared_ptr<const MappedFile> mapped;
    GgufFile gguf;
    try {
        mapped = MappedFile::open(where);
        gguf = parseGguf(mapped->bytes(), where);
    } catch (const InputError& error) {
        throw ModelError(file, faultOf(error.what(), where));
    }
    // 2. The architecture picks the family.
    const GgufValue* archValue = gguf.find("general.architecture");
    const auto arch = archValue ? archValue->asString() : std::nullopt;
    if (!arch)
        throw ModelError(file, "the metadata key general.architecture is missing");
    if (*arch == "gpt2")
        return openGgufGpt2(gguf, file, std::move(mapped));
    if (*arch == "bert")
        return openGgufBert(gguf, file, std::move(mapped));
    if (*arch != "llama" && *arch != "qwen2" && *arch != "qwen3")
        throw ModelError(file, "the architecture \"" + std::string(*arch) +
                                   "\" (general.architecture) is not supported from a GGUF "
                                   "file (this version runs \"llama\", \"qwen2\", \"qwen3\", "
                                   "\"gpt2\" and \"bert\")");
    LlamaConfig config = llamaConfigOf(gguf, file, std::string(*arch));
    // 3. The tokenizer from the metadata, before the weights: a broken one fails at once.
    GgufTokenizer tokenizer = readGgufTokenizer(gguf, file, config.vocabulary);
    // 4. The weights, in the mapping.
    LlamaWeights weights = llamaWeightsOf(gguf, file, config, mapped);

    ModelInfo info = ggufInfo(gguf, file, config.modelType, weights.storedType);
    info.endTokens = std::move(tokenizer.endTokens);
    info = LlamaModel::infoOf(std::move(info), config);
    return std::make_shared<const LlamaModel>(std::move(info), std::move(config),
                                              std::move(weights), std::move(tokenizer.tokenizer));
}

} // namespace attn
