#include "models/modeltensors.h"

#include "attention/attentionstack.h"
#include "models/languagemodel.h"

#include "base/parallel.h"

#include <algorithm>
#include <cstring>

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

// values[i] = the i-th 16-bit float of `bytes` (F16 or BF16), in bands over every core: a
// Qwen2.5-0.5B-sized model has half a billion of them.
void convertHalves(const std::byte* bytes, bool half, std::vector<float>& values)
{
    constexpr std::size_t kBand = std::size_t(1) << 20;
    const std::size_t count = values.size();
    parallelFor(int((count + kBand - 1) / kBand), [&](int band) {
        const std::size_t end = std::min(count, (std::size_t(band) + 1) * kBand);
        for (std::size_t i = std::size_t(band) * kBand; i < end; ++i) {
            std::uint16_t bits;
            std::memcpy(&bits, bytes + 2 * i, 2);
            values[i] = half ? halfToFloat(bits) : bfloat16ToFloat(bits);
        }
    });
}

} // namespace

ModelTensors::ModelTensors(const std::filesystem::path& file, StoredWeights& stored,
                           std::string_view stripPrefix)
    : path_(file), converted_(stored.converted)
{
    std::shared_ptr<const MappedFile>& mapped = stored.file;
    const std::string where = file.string();
    try {
        mapped = MappedFile::open(where);
        mapped_ = mapped;
        parsed_ = parseSafetensors(mapped->bytes(), where);
    } catch (const InputError& error) {
        throw ModelError(file, faultOf(error.what(), where));
    }
    for (const SafetensorsTensor& tensor : parsed_.tensors) {
        std::string name = tensor.name;
        if (!stripPrefix.empty() && name.starts_with(stripPrefix))
            name.erase(0, stripPrefix.size());
        byName_[name] = &tensor;
    }
}

WeightView ModelTensors::operator()(const std::string& name, const std::vector<std::int64_t>& shape)
{
    const auto found = byName_.find(name);
    if (found == byName_.end())
        throw ModelError(path_, "the tensor " + name + " is missing");
    const SafetensorsTensor& tensor = *found->second;
    if (tensor.shape != shape)
        throw ModelError(path_, "the tensor " + name + " has the shape " + shapeText(tensor.shape) +
                                    ", expected " + shapeText(shape));
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
        convertHalves(bytes, tensor.dtype == "F16", values);
    } else {
        throw ModelError(path_, "the tensor " + name + " is stored as " + tensor.dtype +
                                    ", not F32, F16 or BF16");
    }
    // The file's pages of a converted tensor are let go: nothing reads them again. Without
    // it, a BF16 model's file stayed resident beside its float copy (a Qwen2.5-0.5B-sized
    // model peaked at its float weights plus half again).
    mapped_->release(bytes, tensor.data.size());
    converted_.push_back(std::move(values));
    return {converted_.back().data(), rows, cols};
}

std::string ModelTensors::dtypeOf(const std::string& name) const
{
    const auto found = byName_.find(name);
    return found == byName_.end() ? std::string() : found->second->dtype;
}

} // namespace attn
