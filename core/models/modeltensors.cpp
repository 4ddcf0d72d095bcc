#include "models/modeltensors.h"

#include "attention/attentionstack.h"
#include "models/languagemodel.h"
#include "models/shardindex.h"

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

const MappedFile* StoredWeights::fileHolding(const void* p) const
{
    for (const std::shared_ptr<const MappedFile>& file : files)
        if (file && file->holds(p))
            return file.get();
    return nullptr;
}

std::filesystem::path weightsFileOf(const std::filesystem::path& folder)
{
    const std::filesystem::path single = folder / "model.safetensors";
    std::error_code error;
    if (!std::filesystem::exists(single, error) &&
        std::filesystem::exists(folder / kShardIndexFile, error))
        return folder / kShardIndexFile;
    return single;
}

ModelTensors::ModelTensors(const std::filesystem::path& file, StoredWeights& stored,
                           std::string_view stripPrefix)
    : path_(file), converted_(stored.converted)
{
    if (file.filename() == kShardIndexFile) {
        openShards(file, stored, stripPrefix);
        return;
    }
    openFile(file, stored);
    for (const SafetensorsTensor& tensor : files_.front().parsed.tensors) {
        std::string name = tensor.name;
        if (!stripPrefix.empty() && name.starts_with(stripPrefix))
            name.erase(0, stripPrefix.size());
        byName_[name] = {&tensor, 0};
    }
}

void ModelTensors::openFile(const std::filesystem::path& file, StoredWeights& stored)
{
    const std::string where = file.string();
    OpenFile& opened = files_.emplace_back();
    opened.path = file;
    try {
        opened.mapped = MappedFile::open(where);
        opened.parsed = parseSafetensors(opened.mapped->bytes(), where);
    } catch (const InputError& error) {
        throw ModelError(file, faultOf(error.what(), where));
    }
    stored.files.push_back(opened.mapped);
}

void ModelTensors::openShards(const std::filesystem::path& indexFile, StoredWeights& stored,
                              std::string_view stripPrefix)
{
    // 1. The index.
    std::string text;
    try {
        const std::shared_ptr<const MappedFile> mapped = MappedFile::open(indexFile.string());
        text.assign(reinterpret_cast<const char*>(mapped->bytes().data()), mapped->bytes().size());
    } catch (const InputError& error) {
        throw ModelError(indexFile, faultOf(error.what(), indexFile.string()));
    }
    const ShardIndex index = parseShardIndex(text, indexFile);
    // 2. Every shard, mapped and parsed once (files_ does not move: byName_ points into it).
    files_.reserve(index.shards.size());
    std::map<std::string, std::size_t> shardNumber;
    for (const std::string& shard : index.shards) {
        const std::filesystem::path file = indexFile.parent_path() / shard;
        std::error_code error;
        if (!std::filesystem::exists(file, error))
            throw ModelError(file, "missing: " + std::string(kShardIndexFile) + " names it");
        shardNumber[shard] = files_.size();
        openFile(file, stored);
    }
    // 3. Each tensor from the shard the index names.
    for (const auto& [tensorName, shard] : index.shardOf) {
        const std::size_t number = shardNumber.at(shard);
        const std::vector<SafetensorsTensor>& tensors = files_[number].parsed.tensors;
        const auto found = std::ranges::find(tensors, tensorName, &SafetensorsTensor::name);
        if (found == tensors.end())
            throw ModelError(files_[number].path, "the tensor " + tensorName + " is missing (" +
                                                      std::string(kShardIndexFile) +
                                                      " says this shard holds it)");
        std::string name = tensorName;
        if (!stripPrefix.empty() && name.starts_with(stripPrefix))
            name.erase(0, stripPrefix.size());
        byName_[name] = {&*found, number};
    }
}

WeightView ModelTensors::operator()(const std::string& name, const std::vector<std::int64_t>& shape)
{
    const auto found = byName_.find(name);
    if (found == byName_.end())
        throw ModelError(path_, "the tensor " + name + " is missing");
    const SafetensorsTensor& tensor = *found->second.tensor;
    const OpenFile& file = files_[found->second.file];
    if (tensor.shape != shape)
        throw ModelError(file.path, "the tensor " + name + " has the shape " +
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
        convertHalves(bytes, tensor.dtype == "F16", values);
    } else {
        throw ModelError(file.path, "the tensor " + name + " is stored as " + tensor.dtype +
                                        ", not F32, F16 or BF16");
    }
    // The file's pages of a converted tensor are let go: nothing reads them again. Without
    // it, a BF16 model's file stayed resident beside its float copy (a Qwen2.5-0.5B-sized
    // model peaked at its float weights plus half again).
    file.mapped->release(bytes, tensor.data.size());
    converted_.push_back(std::move(values));
    return {converted_.back().data(), rows, cols};
}

std::string ModelTensors::dtypeOf(const std::string& name) const
{
    const auto found = byName_.find(name);
    return found == byName_.end() ? std::string() : found->second.tensor->dtype;
}

} // namespace attn
