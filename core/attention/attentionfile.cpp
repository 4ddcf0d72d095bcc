#include "attention/attentionfile.h"

#include "base/jsonread.h"
#include "engine/options.h"
#include "io/mappedfile.h"
#include "io/npy.h"
#include "io/npz.h"
#include "io/safetensors.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstring>
#include <optional>

namespace attn {
namespace {

using TokenLists = std::vector<std::vector<std::string>>;

// Where one array of weights lies: its first element, how it is stored, and its strides
// (in elements) along (L, B, H, T_q, T_k); 0 along an axis the array does not have.
struct Segment {
    const std::byte* base = nullptr;
    ElementType type = ElementType::F32;
    bool swapped = false;
    std::array<std::int64_t, 5> strides{};
};

// A stack whose heads are views of a file's bytes (mapped, or inflated from an .npz):
// one segment for the whole stack, or one a layer (safetensors' tensor a layer).
class FileAttentionStack : public AttentionStack {
public:
    FileAttentionStack(StackShape shape, ElementType type, std::string source,
                       std::vector<Segment> segments,
                       std::vector<std::shared_ptr<const void>> owners, TokenLists queries,
                       TokenLists keys)
        : AttentionStack(shape, type, std::move(source)), segments_(std::move(segments)),
          owners_(std::move(owners))
    {
        setTokens(std::move(queries), std::move(keys));
    }

private:
    [[nodiscard]] HeadView headView(int layer, int sequence, int head) const override
    {
        const bool perLayer = segments_.size() > 1;
        const Segment& s = segments_[perLayer ? std::size_t(layer) : 0];
        const std::int64_t offset =
            (perLayer ? 0 : layer) * s.strides[0] + sequence * s.strides[1] + head * s.strides[2];
        HeadView v;
        v.base = s.base + offset * elementBytes(s.type);
        v.type = s.type;
        v.swapped = s.swapped;
        v.rowStride = s.strides[3];
        v.colStride = s.strides[4];
        v.rows = shape().queries;
        v.cols = shape().keys;
        return v;
    }

    std::vector<Segment> segments_;
    std::vector<std::shared_ptr<const void>> owners_; // the mapping, inflated members
};

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text = "(";
    for (std::size_t k = 0; k < shape.size(); ++k)
        text += (k ? ", " : "") + std::to_string(shape[k]);
    return text + (shape.size() == 1 ? ",)" : ")");
}

// The stack's axes and an array's strides along them, from the array's shape: a whole
// stack (5, 4, 3 or 2 axes), or one layer of it (4, 3 or 2 axes, 4 = (B, H, T_q, T_k)).
struct Placement {
    StackShape shape;
    std::array<std::int64_t, 5> strides{};
};

Placement place(const std::vector<std::int64_t>& dims, bool fortran, bool oneLayer,
                const std::string& where)
{
    // Which stack axis (0 L, 1 B, 2 H, 3 T_q, 4 T_k) each of the array's axes is.
    static constexpr int kWhole[6][5] = {{}, {}, {3, 4}, {2, 3, 4}, {0, 2, 3, 4}, {0, 1, 2, 3, 4}};
    static constexpr int kLayer[5][4] = {{}, {}, {3, 4}, {2, 3, 4}, {1, 2, 3, 4}};
    const std::size_t n = dims.size();
    if (n < 2 || n > (oneLayer ? 4u : 5u))
        throw InputError(
            where + ": the attentions have the shape " + shapeText(dims) +
            (oneLayer ? "; a layer's must be (B, H, T_q, T_k), (H, T_q, T_k) or (T_q, T_k)"
                      : "; expected (L, B, H, T_q, T_k), (L, H, T_q, T_k), (H, T_q, T_k) or "
                        "(T_q, T_k)"));
    // 1. Every axis holds something and fits an int. Checked first: with an empty axis the
    // byte count the reader checked is 0 whatever the others say, and their product (the
    // strides) could overflow.
    for (std::size_t k = 0; k < n; ++k) {
        if (dims[k] < 1)
            throw InputError(where + ": the attentions have the shape " + shapeText(dims) +
                             " with an empty axis (" + std::to_string(k) + ")");
        if (dims[k] > INT_MAX)
            throw InputError(where + ": the attentions' axis " + std::to_string(k) + " (" +
                             std::to_string(dims[k]) + ") is too long");
    }
    // 2. The array's own strides, in elements; their product is the element count, which the
    // reader checked against the file.
    std::vector<std::int64_t> strides(n);
    std::int64_t step = 1;
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t axis = fortran ? k : n - 1 - k;
        strides[axis] = step;
        step *= dims[axis];
    }
    // 3. Onto the stack's axes; an axis the array lacks has size 1.
    std::array<std::int64_t, 5> size{1, 1, 1, 1, 1};
    Placement p;
    for (std::size_t k = 0; k < n; ++k) {
        const int axis = oneLayer ? kLayer[n][k] : kWhole[n][k];
        size[std::size_t(axis)] = dims[k];
        p.strides[std::size_t(axis)] = strides[k];
    }
    p.shape = {int(size[0]), int(size[1]), int(size[2]), int(size[3]), int(size[4])};
    return p;
}

ElementType npyElementType(const NpyArray& array, const std::string& where)
{
    if (array.kind == 'f' && array.itemSize == 2)
        return ElementType::F16;
    if (array.kind == 'f' && array.itemSize == 4)
        return ElementType::F32;
    if (array.kind == 'f' && array.itemSize == 8)
        return ElementType::F64;
    throw InputError(where + ": unknown dtype '" + array.descr +
                     "' for attentions (float16, float32 or float64)");
}

std::optional<ElementType> safetensorsElementType(const std::string& dtype)
{
    if (dtype == "F16")
        return ElementType::F16;
    if (dtype == "BF16")
        return ElementType::BF16;
    if (dtype == "F32")
        return ElementType::F32;
    if (dtype == "F64")
        return ElementType::F64;
    return std::nullopt;
}

std::unique_ptr<AttentionStack> openNpy(std::span<const std::byte> bytes, const std::string& where,
                                        std::vector<std::shared_ptr<const void>> owners)
{
    const NpyArray array = parseNpy(bytes, where);
    const ElementType type = npyElementType(array, where);
    const Placement p = place(array.shape, array.fortranOrder, false, where);
    return std::make_unique<FileAttentionStack>(
        p.shape, type, where,
        std::vector<Segment>{{array.data.data(), type, array.bigEndian, p.strides}},
        std::move(owners), TokenLists{}, TokenLists{});
}

std::unique_ptr<AttentionStack> openNpz(std::span<const std::byte> bytes, const std::string& where,
                                        const AttentionFileLimits& limits,
                                        std::vector<std::shared_ptr<const void>> owners)
{
    NpzReader zip(bytes, where, limits.inflateBytes);
    // 1. The attentions: `attentions`, or the one array of an archive without another.
    std::string name = "attentions.npy";
    if (std::ranges::find(zip.names(), name) == zip.names().end()) {
        std::vector<std::string> arrays;
        for (const std::string& member : zip.names())
            if (member != "tokens.npy" && member != "key_tokens.npy")
                arrays.push_back(member);
        if (arrays.size() != 1) {
            std::string list;
            for (const std::string& member : zip.names())
                list += (list.empty() ? "" : ", ") + member;
            throw InputError(where + ": no array 'attentions' in the .npz (it holds: " +
                             (list.empty() ? std::string("nothing") : list) + ")");
        }
        name = arrays.front();
    }
    const std::optional<ZipMemberBytes> read = zip.read(name);
    if (!read)
        throw InputError(where + ": member " + name + " cannot be read");
    const ZipMemberBytes& member = *read;
    const std::string memberWhere = where + ": member " + name;
    const NpyArray array = parseNpy(member.bytes, memberWhere);
    const ElementType type = npyElementType(array, memberWhere);
    const Placement p = place(array.shape, array.fortranOrder, false, memberWhere);
    if (member.owner)
        owners.push_back(member.owner);
    // 2. The tokens, each list as long as its axis.
    const auto tokens = [&](const std::string& file) -> TokenLists {
        const std::optional<ZipMemberBytes> m = zip.read(file);
        if (!m)
            return {};
        const std::string at = where + ": member " + file;
        return npyStrings(parseNpy(m->bytes, at), at);
    };
    TokenLists queries = tokens("tokens.npy");
    TokenLists keys = tokens("key_tokens.npy");
    return std::make_unique<FileAttentionStack>(
        p.shape, type, where,
        std::vector<Segment>{{array.data.data(), type, array.bigEndian, p.strides}},
        std::move(owners), std::move(queries), std::move(keys));
}

// A metadata value holding a JSON list of strings, or a list of such lists.
TokenLists metadataTokens(const SafetensorsFile& file, const std::string& key,
                          const std::string& where)
{
    const auto entry = file.metadata.find(key);
    if (entry == file.metadata.end())
        return {};
    const std::string at = where + ": __metadata__[\"" + key + "\"]";
    JsonValue value;
    try {
        value = parseJson(entry->second);
    } catch (const JsonParseError& error) {
        throw InputError(at + " is not a JSON list of strings: " + error.what());
    }
    const auto strings = [&at](const JsonValue& list) {
        std::vector<std::string> out;
        for (const JsonValue& item : list.items()) {
            if (!item.isString())
                throw InputError(at + " is not a JSON list of strings");
            out.push_back(item.text());
        }
        return out;
    };
    if (!value.isArray())
        throw InputError(at + " is not a JSON list of strings");
    if (!value.items().empty() && value.items().front().isArray()) {
        TokenLists lists;
        for (const JsonValue& list : value.items()) {
            if (!list.isArray())
                throw InputError(at + " is not a JSON list of strings");
            lists.push_back(strings(list));
        }
        return lists;
    }
    return {strings(value)};
}

// The layer number a tensor's name ends in ("layer.0", "attentions.11", "12"), if any.
std::optional<long long> layerNumber(const std::string& name)
{
    std::size_t start = name.size();
    while (start > 0 && std::isdigit(static_cast<unsigned char>(name[start - 1])))
        --start;
    if (start == name.size() || name.size() - start > 9)
        return std::nullopt;
    if (start > 0 && name[start - 1] != '.' && name[start - 1] != '_' && name[start - 1] != '-' &&
        name[start - 1] != '/')
        return std::nullopt;
    return std::stoll(name.substr(start));
}

std::unique_ptr<AttentionStack> openSafetensors(std::span<const std::byte> bytes,
                                                const std::string& where,
                                                std::vector<std::shared_ptr<const void>> owners)
{
    const SafetensorsFile file = parseSafetensors(bytes, where);
    if (file.tensors.empty())
        throw InputError(where + ": the file holds no tensor");
    // 1. Which tensors: `attentions` or the only one; else one a layer, by number.
    std::vector<const SafetensorsTensor*> chosen;
    const auto named = std::ranges::find(file.tensors, "attentions", &SafetensorsTensor::name);
    if (named != file.tensors.end())
        chosen = {&*named};
    else if (file.tensors.size() == 1)
        chosen = {&file.tensors.front()};
    else {
        std::vector<std::pair<long long, const SafetensorsTensor*>> layers;
        for (const SafetensorsTensor& t : file.tensors) {
            const std::optional<long long> n = layerNumber(t.name);
            if (!n)
                throw InputError(where + ": tensor '" + t.name +
                                 "' is not 'attentions' and its name does not end in a layer "
                                 "number ('layer.0', 'attentions.11')");
            layers.emplace_back(*n, &t);
        }
        std::ranges::sort(layers, {}, &std::pair<long long, const SafetensorsTensor*>::first);
        for (std::size_t k = 0; k < layers.size(); ++k) {
            if (k > 0 && layers[k].first == layers[k - 1].first)
                throw InputError(where + ": tensors '" + layers[k - 1].second->name + "' and '" +
                                 layers[k].second->name + "' are both layer " +
                                 std::to_string(layers[k].first));
            chosen.push_back(layers[k].second);
        }
    }
    // One tensor named by a layer number is Hugging Face's tuple of a one-layer model.
    const bool perLayer = chosen.size() > 1 || (chosen.front()->name != "attentions" &&
                                                layerNumber(chosen.front()->name).has_value());
    // 2. Each tensor's dtype and axes; a layer's must match the first layer's.
    std::vector<Segment> segments;
    StackShape shape;
    std::optional<ElementType> type;
    for (const SafetensorsTensor* t : chosen) {
        const std::string at = where + ": tensor '" + t->name + "'";
        const std::optional<ElementType> own = safetensorsElementType(t->dtype);
        if (!own)
            throw InputError(at + " has dtype " + t->dtype +
                             ", not one of the weights' types (F32, F16, BF16, F64)");
        Placement p = place(t->shape, false, perLayer, at);
        if (perLayer) {
            p.shape.layers = int(chosen.size());
            if (!segments.empty() && (p.shape != shape || *own != *type))
                throw InputError(at + " has the shape " + shapeText(t->shape) + " and dtype " +
                                 t->dtype + ", unlike '" + chosen.front()->name + "'");
        }
        shape = p.shape;
        type = own;
        segments.push_back({t->data.data(), *own, false, p.strides});
    }
    return std::make_unique<FileAttentionStack>(
        shape, *type, where, std::move(segments), std::move(owners),
        metadataTokens(file, "tokens", where), metadataTokens(file, "key_tokens", where));
}

bool startsWith(std::span<const std::byte> bytes, std::string_view prefix)
{
    return bytes.size() >= prefix.size() &&
           std::memcmp(bytes.data(), prefix.data(), prefix.size()) == 0;
}

std::unique_ptr<AttentionStack> openFrom(std::span<const std::byte> bytes, const std::string& where,
                                         const AttentionFileLimits& limits,
                                         std::vector<std::shared_ptr<const void>> owners)
{
    if (startsWith(bytes, "\x93NUMPY"))
        return openNpy(bytes, where, std::move(owners));
    if (startsWith(bytes, "PK\x03\x04") || startsWith(bytes, "PK\x05\x06"))
        return openNpz(bytes, where, limits, std::move(owners));
    const bool braceAt8 = bytes.size() > 8 && std::to_integer<char>(bytes[8]) == '{';
    if (braceAt8 || where.ends_with(".safetensors"))
        return openSafetensors(bytes, where, std::move(owners));
    throw InputError(where + ": not an attention file (.npz, .npy or .safetensors)");
}

} // namespace

std::unique_ptr<AttentionStack> openAttentionFile(const std::string& path,
                                                  const AttentionFileLimits& limits)
{
    const std::shared_ptr<const MappedFile> file = MappedFile::open(path);
    return openFrom(file->bytes(), path, limits, {file});
}

std::unique_ptr<AttentionStack> openAttentionBytes(std::span<const std::byte> bytes,
                                                   const std::string& where,
                                                   const AttentionFileLimits& limits)
{
    return openFrom(bytes, where, limits, {});
}

} // namespace attn
