#include "gpt2weights.h"

#include "attentionstack.h"
#include "languagemodel.h"
#include "safetensors.h"

#include <cstring>
#include <map>

namespace attn {
namespace {

// "path: fault" of an InputError about `where` → the fault alone.
std::string faultOf(const std::string& message, const std::string& where)
{
    const std::string prefix = where + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

class TensorReader {
public:
    TensorReader(const SafetensorsFile& file, std::filesystem::path path, Gpt2Weights& weights)
        : path_(std::move(path)), weights_(weights)
    {
        for (const SafetensorsTensor& tensor : file.tensors) {
            std::string name = tensor.name;
            if (name.rfind("transformer.", 0) == 0)
                name.erase(0, std::string("transformer.").size());
            byName_[name] = &tensor;
        }
    }

    // The tensor `name` of shape `shape` as floats: in place when stored F32 and aligned,
    // else converted.
    WeightView operator()(const std::string& name, std::vector<std::int64_t> shape)
    {
        const auto found = byName_.find(name);
        if (found == byName_.end())
            throw ModelError(path_, "the tensor " + name + " is missing");
        const SafetensorsTensor& tensor = *found->second;
        if (tensor.shape != shape)
            throw ModelError(path_, "the tensor " + name + " has the shape " +
                                        shapeText(tensor.shape) + ", expected " + shapeText(shape));
        const std::int64_t rows = shape.size() == 2 ? shape[0] : 1;
        const std::int64_t cols = shape.back();
        const std::size_t count = std::size_t(rows * cols);
        const std::byte* bytes = tensor.data.data();
        if (tensor.dtype == "F32" && reinterpret_cast<std::uintptr_t>(bytes) % alignof(float) == 0)
            return {reinterpret_cast<const float*>(bytes), rows, cols};
        std::vector<float> values(count);
        if (tensor.dtype == "F32") {
            std::memcpy(values.data(), bytes, count * sizeof(float));
        } else if (tensor.dtype == "F16" || tensor.dtype == "BF16") {
            const bool half = tensor.dtype == "F16";
            for (std::size_t i = 0; i < count; ++i) {
                std::uint16_t bits;
                std::memcpy(&bits, bytes + 2 * i, 2);
                values[i] = half ? halfToFloat(bits) : bfloat16ToFloat(bits);
            }
        } else {
            throw ModelError(path_, "the tensor " + name + " is stored as " + tensor.dtype +
                                        ", not F32, F16 or BF16");
        }
        weights_.converted.push_back(std::move(values));
        return {weights_.converted.back().data(), rows, cols};
    }

    [[nodiscard]] std::string dtypeOf(const std::string& name) const
    {
        const auto found = byName_.find(name);
        return found == byName_.end() ? std::string() : found->second->dtype;
    }

private:
    std::filesystem::path path_;
    Gpt2Weights& weights_;
    std::map<std::string, const SafetensorsTensor*> byName_;
};

} // namespace

Gpt2Weights loadGpt2Weights(const std::filesystem::path& file, const Gpt2Config& config)
{
    Gpt2Weights w;
    SafetensorsFile parsed;
    const std::string where = file.string();
    try {
        w.file = MappedFile::open(where);
        parsed = parseSafetensors(w.file->bytes(), where);
    } catch (const InputError& error) {
        throw ModelError(file, faultOf(error.what(), where));
    }
    // The views point into `converted`'s vectors: reserve so that none moves.
    w.converted.reserve(parsed.tensors.size());
    TensorReader read(parsed, file, w);
    const std::int64_t C = config.dModel, V = config.vocabulary, P = config.positions;
    const std::int64_t inner = config.inner;
    // 1. Embeddings.
    w.tokenEmbedding = read("wte.weight", {V, C});
    w.positionEmbedding = read("wpe.weight", {P, C});
    w.storedType = read.dtypeOf("wte.weight");
    // 2. The blocks.
    for (int l = 0; l < config.layers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".";
        Gpt2Block b;
        b.ln1Weight = read(h + "ln_1.weight", {C});
        b.ln1Bias = read(h + "ln_1.bias", {C});
        b.attnWeight = read(h + "attn.c_attn.weight", {C, 3 * C});
        b.attnBias = read(h + "attn.c_attn.bias", {3 * C});
        b.projWeight = read(h + "attn.c_proj.weight", {C, C});
        b.projBias = read(h + "attn.c_proj.bias", {C});
        b.ln2Weight = read(h + "ln_2.weight", {C});
        b.ln2Bias = read(h + "ln_2.bias", {C});
        b.fcWeight = read(h + "mlp.c_fc.weight", {C, inner});
        b.fcBias = read(h + "mlp.c_fc.bias", {inner});
        b.fcProjWeight = read(h + "mlp.c_proj.weight", {inner, C});
        b.fcProjBias = read(h + "mlp.c_proj.bias", {C});
        w.blocks.push_back(b);
    }
    // 3. The final norm.
    w.finalNormWeight = read("ln_f.weight", {C});
    w.finalNormBias = read("ln_f.bias", {C});
    return w;
}

} // namespace attn
