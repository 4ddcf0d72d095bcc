#include "models/gguf/ggufmodel.h"

#include "engine/options.h"
#include "io/gguf.h"
#include "io/mappedfile.h"
#include "models/configfields.h"
#include "models/families.h"
#include "models/llama/model.h"
#include "text/ggufvocab.h"
#include "text/hftokenizer.h"

#include <cstring>
#include <fstream>

namespace attn {
namespace {

// "path: fault" of an InputError about `where` → the fault alone.
std::string faultOf(const std::string& message, const std::string& where)
{
    const std::string prefix = where + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

// The file's metadata as a config: each read a ModelError naming the file and the key.
class Metadata {
public:
    Metadata(const GgufFile& file, std::filesystem::path path, std::string arch)
        : file_(file), path_(std::move(path)), arch_(std::move(arch))
    {}

    [[noreturn]] void fail(const std::string& fault) const { throw ModelError(path_, fault); }

    // {arch}.`key` as a size from 1 to kMaxConfigSize; `fallback` when absent (0: required).
    int size(const std::string& key, int fallback = 0) const
    {
        const std::string name = arch_ + "." + key;
        const GgufValue* value = file_.find(name);
        if (!value) {
            if (fallback > 0)
                return fallback;
            fail("the metadata key " + name + " is missing");
        }
        const auto n = value->asUnsigned();
        if (!n || *n < 1 || *n > std::uint64_t(kMaxConfigSize))
            fail(
                "the metadata key " + name + " is not a whole number from 1 to " +
                std::to_string(kMaxConfigSize) +
                (value->type == GgufValueType::Array ? " (a value a layer is not supported)" : ""));
        return int(*n);
    }
    // {arch}.`key` as a finite positive number, or `fallback` when absent.
    double real(const std::string& key, double fallback) const
    {
        const std::string name = arch_ + "." + key;
        const GgufValue* value = file_.find(name);
        if (!value)
            return fallback;
        const auto x = value->asNumber();
        if (!x || !std::isfinite(*x) || *x <= 0)
            fail("the metadata key " + name + " is not a positive number");
        return *x;
    }
    [[nodiscard]] std::string text(const std::string& key) const
    {
        const GgufValue* value = file_.find(arch_ + "." + key);
        const auto s = value ? value->asString() : std::nullopt;
        return s ? std::string(*s) : std::string();
    }

private:
    const GgufFile& file_;
    std::filesystem::path path_;
    std::string arch_;
};

// The tensors of a GGUF file as the views a family's weights hold.
class GgufTensors {
public:
    GgufTensors(const GgufFile& file, std::filesystem::path path, StoredWeights& stored)
        : file_(file), path_(std::move(path)), stored_(stored)
    {}

    [[nodiscard]] bool has(const std::string& name) const { return file_.tensor(name) != nullptr; }

    // The matrix `name` of (rows, cols) as nn.Linear stores it (GGUF's ne = [cols, rows]); with
    // `heads`, llama.cpp's interleaving of each head's halves undone (Q and K of llama).
    WeightView matrix(const std::string& name, std::int64_t rows, std::int64_t cols, int heads = 0)
    {
        const GgufTensor& t = find(name, {cols, rows});
        WeightView view;
        view.rows = rows;
        view.cols = cols;
        const bool inPlace = t.type == GgmlType::F32 && heads == 0 &&
                             reinterpret_cast<std::uintptr_t>(t.data.data()) % alignof(float) == 0;
        if (inPlace) {
            view.data = reinterpret_cast<const float*>(t.data.data());
            return view;
        }
        view.blocks = t.data.data();
        view.type = t.type;
        view.rowBytes = std::size_t(*ggmlRowBytes(t.type, cols));
        if (heads > 0) {
            stored_.rowOrders.push_back(unpermutedOrder(rows, heads));
            view.rowOrder = stored_.rowOrders.back().data();
        }
        return view;
    }

    // The vector `name` of n values as floats (converted once: norms and biases are small);
    // with `heads`, reordered as matrix does.
    WeightView vector(const std::string& name, std::int64_t n, int heads = 0)
    {
        const GgufTensor& t = find(name, {n});
        std::vector<float> stored(static_cast<std::size_t>(n));
        dequantizeRow(t.type, t.data.data(), stored.data(), n);
        std::vector<float>& values = stored_.converted.emplace_back(std::size_t(n));
        const std::vector<std::int32_t> order =
            heads > 0 ? unpermutedOrder(n, heads) : std::vector<std::int32_t>();
        for (std::int64_t i = 0; i < n; ++i)
            values[std::size_t(i)] = stored[std::size_t(heads > 0 ? order[std::size_t(i)] : i)];
        return {values.data(), 1, Eigen::Index(n)};
    }

    // The type of `name` as ggml names it ("Q4_K"), or "" when there is none.
    [[nodiscard]] std::string typeOf(const std::string& name) const
    {
        const GgufTensor* t = file_.tensor(name);
        return t ? std::string(ggmlTypeInfo(t->typeId)->name) : std::string();
    }

private:
    const GgufTensor& find(const std::string& name, const std::vector<std::int64_t>& ne) const
    {
        const GgufTensor* t = file_.tensor(name);
        if (!t)
            throw ModelError(path_, "the tensor " + name + " is missing");
        if (t->ne != ne) {
            const auto text = [](const std::vector<std::int64_t>& shape) {
                std::string out = "[";
                for (std::size_t i = 0; i < shape.size(); ++i)
                    out += (i ? ", " : "") + std::to_string(shape[i]);
                return out + "]";
            };
            throw ModelError(path_, "the tensor " + name + " has the shape " + text(t->ne) +
                                        " (ggml's order), not " + text(ne));
        }
        const GgmlTypeInfo info = *ggmlTypeInfo(t->typeId);
        if (!info.dequantizable)
            throw ModelError(path_,
                             "the tensor " + name + " has the type " + std::string(info.name) +
                                 ", which AttnScope does not read (it reads F32, F16, BF16, "
                                 "Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, "
                                 "IQ4_NL and IQ4_XS)");
        return *t;
    }

    // Where row r of Hugging Face's order is in llama.cpp's: within a head of d rows, HF's row
    // a·d/2 + b (a the half, b the pair) was written at 2b + a (convert_hf_to_gguf's permute).
    static std::vector<std::int32_t> unpermutedOrder(std::int64_t rows, int heads)
    {
        const std::int64_t d = rows / heads, half = d / 2;
        std::vector<std::int32_t> order(static_cast<std::size_t>(rows));
        for (std::int64_t h = 0; h < heads; ++h)
            for (std::int64_t a = 0; a < 2; ++a)
                for (std::int64_t b = 0; b < half; ++b)
                    order[std::size_t(h * d + a * half + b)] = std::int32_t(h * d + 2 * b + a);
        return order;
    }

    const GgufFile& file_;
    std::filesystem::path path_;
    StoredWeights& stored_;
};

// The Qwen/Llama family's config from {arch}.* keys and the tensors there are.
LlamaConfig llamaConfigOf(const GgufFile& file, const std::filesystem::path& path,
                          const std::string& arch)
{
    const Metadata meta(file, path, arch);
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
    const GgufTensor* embedding = file.tensor("token_embd.weight");
    if (!embedding || embedding->ne.size() != 2)
        meta.fail("the tensor token_embd.weight is missing or not a matrix");
    if (embedding->ne[1] < 1 || embedding->ne[1] > kMaxConfigSize)
        meta.fail("token_embd.weight has " + std::to_string(embedding->ne[1]) + " rows");
    c.vocabulary = int(embedding->ne[1]);
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
    if (*arch != "llama" && *arch != "qwen2" && *arch != "qwen3")
        throw ModelError(file, "the architecture \"" + std::string(*arch) +
                                   "\" (general.architecture) is not supported from a GGUF "
                                   "file (this version runs \"llama\", \"qwen2\" and \"qwen3\")");
    LlamaConfig config = llamaConfigOf(gguf, file, std::string(*arch));
    // 3. The tokenizer from the metadata, before the weights: a broken one fails at once.
    GgufVocabulary vocabulary;
    try {
        vocabulary = ggufVocabulary(gguf, where);
    } catch (const InputError& error) {
        throw ModelError(file, faultOf(error.what(), where));
    }
    std::unique_ptr<const ModelTokenizer> tokenizer =
        readTokenizer([&] { return std::make_unique<const HfTokenizer>(vocabulary.json, file); });
    if (vocabulary.size > config.vocabulary)
        throw ModelError(file, "the tokenizer has " + std::to_string(vocabulary.size) +
                                   " tokens, more than token_embd.weight's " +
                                   std::to_string(config.vocabulary) + " rows");
    // 4. The weights, in the mapping.
    LlamaWeights weights = llamaWeightsOf(gguf, file, config, mapped);

    ModelInfo info;
    info.family = config.modelType;
    info.folder = file;
    const GgufValue* name = gguf.find("general.name");
    const auto nameText = name ? name->asString() : std::nullopt;
    info.name = nameText && !nameText->empty() ? std::string(*nameText) : file.stem().string();
    info.endTokens = vocabulary.endTokens;
    info = LlamaModel::infoOf(std::move(info), config);
    const GgufValue* fileType = gguf.find("general.file_type");
    const auto fileTypeId = fileType ? fileType->asUnsigned() : std::nullopt;
    const std::string_view typeName =
        fileTypeId ? ggmlFileTypeName(std::uint32_t(*fileTypeId)) : std::string_view();
    info.weightType = typeName.empty() ? weights.storedType : std::string(typeName);
    return std::make_shared<const LlamaModel>(std::move(info), std::move(config),
                                              std::move(weights), std::move(tokenizer));
}

} // namespace attn
