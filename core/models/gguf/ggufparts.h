// What every family's reading of a GGUF file shares (models/gguf/ggufmodel.h opens the file
// and picks the family by general.architecture): the metadata as a config, the tensors by
// llama.cpp's names as WeightViews into the mapping, the tokenizer from tokenizer.ggml.*, the
// ModelInfo's common fields. Private to models/gguf. No Qt.
#pragma once

#include "io/gguf.h"
#include "io/mappedfile.h"
#include "models/configfields.h"
#include "models/languagemodel.h"
#include "models/modelkernels.h"
#include "models/modeltensors.h"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attn {

// "path: fault" of an InputError about `where` → the fault alone.
inline std::string faultOf(const std::string& message, const std::string& where)
{
    const std::string prefix = where + ": ";
    return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
}

// The file's metadata as a config: each read a ModelError naming the file and the key.
class GgufMetadata {
public:
    GgufMetadata(const GgufFile& file, std::filesystem::path path, std::string arch)
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

// The rows of token_embd.weight, the vocabulary V: a ModelError through `meta` when the
// tensor is missing, not a matrix or of more than kMaxConfigSize rows.
[[nodiscard]] int embeddingRows(const GgufFile& file, const GgufMetadata& meta);

// The tokenizer of tokenizer.ggml.* and the ids that end a text. Throws ModelError naming
// `path`: a tokenizer it cannot read, or one of more tokens than the `vocabulary` rows.
struct GgufTokenizer {
    std::unique_ptr<const ModelTokenizer> tokenizer;
    std::vector<int> endTokens;
};
[[nodiscard]] GgufTokenizer readGgufTokenizer(const GgufFile& file,
                                              const std::filesystem::path& path, int vocabulary);

// The ModelInfo fields every family of a GGUF file shares: family, folder (the file), name
// (general.name, else the file's stem), weightType (general.file_type's name, else
// `storedType`).
[[nodiscard]] ModelInfo ggufInfo(const GgufFile& file, const std::filesystem::path& path,
                                 const std::string& family, const std::string& storedType);

// The model of `file`, parsed from `mapped`, whose general.architecture is "gpt2"
// (models/gguf/ggufgpt2.cpp): a Gpt2Model on nn.Linear-shaped views into the mapping. Throws
// ModelError naming `path` as openGgufModel does.
[[nodiscard]] std::shared_ptr<const LanguageModel>
openGgufGpt2(const GgufFile& file, const std::filesystem::path& path,
             std::shared_ptr<const MappedFile> mapped);

// The same for "bert" (models/gguf/ggufbert.cpp): a BertModel without the masked-LM head,
// which llama.cpp's converter drops (ModelInfo::predicts false, no [MASK] to fill in).
[[nodiscard]] std::shared_ptr<const LanguageModel>
openGgufBert(const GgufFile& file, const std::filesystem::path& path,
             std::shared_ptr<const MappedFile> mapped);

} // namespace attn
