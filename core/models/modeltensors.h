// The tensors of a model folder's model.safetensors, memory-mapped, as the float views the
// forward passes read: shared by every family (gpt2weights, llamaweights). No Qt.
//
// F32 tensors are read in place from the mapped file (no copy: the pages are read when a
// product first touches them). F16 and BF16 tensors are converted to float once, at open:
// sgemm multiplies floats, and converting per use would add a pass over every weight to
// every run (a switch re-runs every layer), where a conversion at open costs it once.
#pragma once

#include "io/mappedfile.h"
#include "io/safetensors.h"
#include "models/modelkernels.h"

#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// What a family's weights keep besides their views: the stored dtype the model reports, and
// what the views point into (the mapped file, the converted copies). Every family's weights
// struct derives from it.
struct StoredWeights {
    std::string storedType; // the embedding's dtype: "F32", "F16" or "BF16"
    std::shared_ptr<const MappedFile> file;
    std::vector<std::vector<float>> converted;
    // The row orders views in blocks point to (WeightView::rowOrder): a GGUF's Q and K.
    std::deque<std::vector<std::int32_t>> rowOrders;
};

class ModelTensors {
public:
    // Maps and parses `file` into `stored.file`; converted tensors go to `stored.converted`
    // (the views point into its vectors, whose buffers stay where they are when it grows). A
    // name that starts with `stripPrefix` is known without it. Throws ModelError naming the
    // file: a missing or truncated file, a corrupt header, an unknown dtype.
    ModelTensors(const std::filesystem::path& file, StoredWeights& stored,
                 std::string_view stripPrefix = {});

    // The tensor `name` of shape `shape` as floats: in place when stored F32 and aligned,
    // else converted. Throws ModelError naming the file and the tensor: missing, of the
    // wrong shape, of a dtype other than F32, F16 or BF16.
    WeightView operator()(const std::string& name, const std::vector<std::int64_t>& shape);

    [[nodiscard]] bool has(const std::string& name) const { return byName_.count(name) != 0; }
    // The stored dtype of `name` ("F32", "F16", "BF16"), or "" when there is none.
    [[nodiscard]] std::string dtypeOf(const std::string& name) const;

private:
    std::filesystem::path path_;
    std::shared_ptr<const MappedFile> mapped_;
    SafetensorsFile parsed_;
    std::vector<std::vector<float>>& converted_;
    std::map<std::string, const SafetensorsTensor*> byName_;
};

} // namespace attn
