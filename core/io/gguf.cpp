#include "io/gguf.h"

#include "engine/options.h"

#include <cstring>
#include <limits>

namespace attn {
namespace {

constexpr int kMaxArrayDepth = 4;

// The bytes of one scalar of `type`, 0 for a string or an array (which have lengths).
std::size_t scalarBytes(GgufValueType type)
{
    switch (type) {
    case GgufValueType::UInt8:
    case GgufValueType::Int8:
    case GgufValueType::Bool:
        return 1;
    case GgufValueType::UInt16:
    case GgufValueType::Int16:
        return 2;
    case GgufValueType::UInt32:
    case GgufValueType::Int32:
    case GgufValueType::Float32:
        return 4;
    case GgufValueType::UInt64:
    case GgufValueType::Int64:
    case GgufValueType::Float64:
        return 8;
    case GgufValueType::String:
    case GgufValueType::Array:
        return 0;
    }
    return 0;
}

bool knownType(std::uint32_t type)
{
    return type <= std::uint32_t(GgufValueType::Float64);
}

template <class T> T load(const std::byte* p)
{
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
}

// Reads the file front to back; every read checks that its bytes are there.
class Reader {
public:
    Reader(std::span<const std::byte> bytes, const std::string& where)
        : bytes_(bytes), where_(where)
    {}

    [[noreturn]] void fail(const std::string& fault) const
    {
        throw InputError(where_ + ": " + fault);
    }

    std::span<const std::byte> take(std::uint64_t count, const char* what)
    {
        if (count > bytes_.size() - at_)
            fail(std::string(what) + " goes past the end of the file (" +
                 std::to_string(bytes_.size()) + " bytes): truncated or corrupt");
        const std::span<const std::byte> out = bytes_.subspan(at_, std::size_t(count));
        at_ += std::size_t(count);
        return out;
    }
    template <class T> T read(const char* what) { return load<T>(take(sizeof(T), what).data()); }

    std::span<const std::byte> string(const char* what)
    {
        const auto length = read<std::uint64_t>(what);
        return take(length, what);
    }

    // A count of items of at least `minimum` bytes each: one the rest of the file cannot
    // hold is refused before anything is reserved for it.
    std::uint64_t count(const char* what, std::uint64_t minimum)
    {
        const auto n = read<std::uint64_t>(what);
        if (minimum > 0 && n > remaining() / minimum)
            fail(std::string(what) + " " + std::to_string(n) + " is more than the file holds");
        return n;
    }

    [[nodiscard]] std::size_t remaining() const { return bytes_.size() - at_; }
    [[nodiscard]] std::size_t at() const { return at_; }

    // A value of `type`: its bytes (an array's elements, checked to the last).
    GgufValue value(std::uint32_t typeId, int depth)
    {
        if (!knownType(typeId))
            fail("a metadata value has type " + std::to_string(typeId) +
                 ", which GGUF does not have");
        GgufValue v;
        v.type = GgufValueType(typeId);
        if (v.type == GgufValueType::String) {
            v.bytes = string("a string");
        } else if (v.type == GgufValueType::Array) {
            if (depth >= kMaxArrayDepth)
                fail("arrays are nested more than " + std::to_string(kMaxArrayDepth) + " deep");
            const auto element = read<std::uint32_t>("an array's type");
            if (!knownType(element))
                fail("an array has element type " + std::to_string(element) +
                     ", which GGUF does not have");
            v.elementType = GgufValueType(element);
            const std::size_t size = scalarBytes(v.elementType);
            v.count = count("an array's length", size > 0 ? size : 8);
            const std::size_t begin = at();
            if (size > 0)
                take(v.count * size, "an array");
            else
                for (std::uint64_t i = 0; i < v.count; ++i)
                    value(element, depth + 1);
            v.bytes = bytes_.subspan(begin, at() - begin);
        } else {
            v.bytes = take(scalarBytes(v.type), "a metadata value");
        }
        return v;
    }

private:
    std::span<const std::byte> bytes_;
    const std::string& where_;
    std::size_t at_ = 0;
};

std::string_view text(std::span<const std::byte> bytes)
{
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// A scalar of `type` at `p` as a double (integers exact below 2⁵³).
std::optional<double> number(GgufValueType type, const std::byte* p)
{
    switch (type) {
    case GgufValueType::UInt8:
        return double(load<std::uint8_t>(p));
    case GgufValueType::Int8:
        return double(load<std::int8_t>(p));
    case GgufValueType::UInt16:
        return double(load<std::uint16_t>(p));
    case GgufValueType::Int16:
        return double(load<std::int16_t>(p));
    case GgufValueType::UInt32:
        return double(load<std::uint32_t>(p));
    case GgufValueType::Int32:
        return double(load<std::int32_t>(p));
    case GgufValueType::Float32:
        return double(load<float>(p));
    case GgufValueType::UInt64:
        return double(load<std::uint64_t>(p));
    case GgufValueType::Int64:
        return double(load<std::int64_t>(p));
    case GgufValueType::Float64:
        return load<double>(p);
    case GgufValueType::Bool:
    case GgufValueType::String:
    case GgufValueType::Array:
        break;
    }
    return std::nullopt;
}

} // namespace

std::string_view ggufTypeName(GgufValueType type)
{
    static constexpr std::string_view kNames[] = {"uint8",  "int8",    "uint16", "int16",  "uint32",
                                                  "int32",  "float32", "bool",   "string", "array",
                                                  "uint64", "int64",   "float64"};
    const auto index = std::size_t(type);
    return index < std::size(kNames) ? kNames[index] : "unknown";
}

std::optional<std::int64_t> GgufValue::asInteger() const
{
    switch (type) {
    case GgufValueType::UInt8:
        return load<std::uint8_t>(bytes.data());
    case GgufValueType::Int8:
        return load<std::int8_t>(bytes.data());
    case GgufValueType::UInt16:
        return load<std::uint16_t>(bytes.data());
    case GgufValueType::Int16:
        return load<std::int16_t>(bytes.data());
    case GgufValueType::UInt32:
        return load<std::uint32_t>(bytes.data());
    case GgufValueType::Int32:
        return load<std::int32_t>(bytes.data());
    case GgufValueType::Int64:
        return load<std::int64_t>(bytes.data());
    case GgufValueType::UInt64: {
        const auto value = load<std::uint64_t>(bytes.data());
        if (value > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            return std::nullopt;
        return std::int64_t(value);
    }
    case GgufValueType::Bool:
        return load<std::uint8_t>(bytes.data()) != 0 ? 1 : 0;
    default:
        return std::nullopt;
    }
}

std::optional<std::uint64_t> GgufValue::asUnsigned() const
{
    if (type == GgufValueType::UInt64)
        return load<std::uint64_t>(bytes.data());
    const auto value = asInteger();
    if (!value || *value < 0)
        return std::nullopt;
    return std::uint64_t(*value);
}

std::optional<double> GgufValue::asNumber() const
{
    return number(type, bytes.data());
}

std::optional<bool> GgufValue::asBool() const
{
    if (type != GgufValueType::Bool)
        return std::nullopt;
    return load<std::uint8_t>(bytes.data()) != 0;
}

std::optional<std::string_view> GgufValue::asString() const
{
    if (type != GgufValueType::String)
        return std::nullopt;
    return text(bytes);
}

std::optional<std::vector<std::string_view>> GgufValue::strings() const
{
    if (type != GgufValueType::Array || elementType != GgufValueType::String)
        return std::nullopt;
    // The parser checked every length; read them again.
    std::vector<std::string_view> out;
    out.reserve(std::size_t(count));
    std::size_t at = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto length = std::size_t(load<std::uint64_t>(bytes.data() + at));
        out.push_back(text(bytes.subspan(at + 8, length)));
        at += 8 + length;
    }
    return out;
}

std::optional<std::vector<double>> GgufValue::numbers() const
{
    if (type != GgufValueType::Array)
        return std::nullopt;
    const std::size_t size = scalarBytes(elementType);
    if (size == 0 || elementType == GgufValueType::Bool)
        return std::nullopt;
    std::vector<double> out(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = *number(elementType, bytes.data() + i * size);
    return out;
}

std::int64_t GgufTensor::elements() const
{
    std::int64_t n = 1;
    for (const std::int64_t e : ne)
        n *= e;
    return n;
}

std::int64_t GgufTensor::rows() const
{
    std::int64_t n = 1;
    for (std::size_t d = 1; d < ne.size(); ++d)
        n *= ne[d];
    return n;
}

const GgufValue* GgufFile::find(std::string_view key) const
{
    const auto it = byKey.find(key);
    return it == byKey.end() ? nullptr : &metadata[it->second].second;
}

const GgufTensor* GgufFile::tensor(std::string_view name) const
{
    const auto it = byName.find(name);
    return it == byName.end() ? nullptr : &tensors[it->second];
}

bool looksLikeGguf(std::span<const std::byte> bytes)
{
    return bytes.size() >= 4 && std::memcmp(bytes.data(), "GGUF", 4) == 0;
}

GgufFile parseGguf(std::span<const std::byte> bytes, const std::string& where)
{
    Reader in(bytes, where);
    GgufFile file;
    // 1. The header.
    if (bytes.size() < 24)
        in.fail("not a GGUF file: " + std::to_string(bytes.size()) +
                " bytes, fewer than the 24 of its header");
    if (!looksLikeGguf(bytes))
        in.fail("not a GGUF file: it does not begin with \"GGUF\"");
    in.take(4, "the magic");
    file.version = in.read<std::uint32_t>("the version");
    if (file.version != 2 && file.version != 3) {
        if (file.version == 1)
            in.fail("GGUF version 1 is not supported (this version reads versions 2 and 3)");
        if ((file.version & 0xFFFF) == 0)
            in.fail("a big-endian GGUF file is not supported (this version reads "
                    "little-endian files)");
        in.fail("GGUF version " + std::to_string(file.version) +
                " is not supported (this version reads versions 2 and 3)");
    }
    // A tensor info is at least 8 + 4 + 4 + 8 bytes, a key-value pair 8 + 4 + 1.
    const std::uint64_t tensorCount = in.count("the tensor count", 24);
    const std::uint64_t metadataCount = in.count("the metadata count", 13);

    // 2. The metadata.
    file.metadata.reserve(std::size_t(metadataCount));
    for (std::uint64_t i = 0; i < metadataCount; ++i) {
        const std::string_view key = text(in.string("a metadata key"));
        const auto type = in.read<std::uint32_t>("a metadata value's type");
        GgufValue value = in.value(type, 0);
        if (!file.byKey.emplace(key, file.metadata.size()).second)
            in.fail("the metadata key \"" + std::string(key) + "\" appears twice");
        file.metadata.emplace_back(key, value);
    }
    if (const GgufValue* alignment = file.find("general.alignment")) {
        const auto value = alignment->asUnsigned();
        if (alignment->type != GgufValueType::UInt32 || !value || *value == 0 ||
            (*value & (*value - 1)) != 0)
            in.fail("general.alignment is not a power of two as uint32");
        file.alignment = *value;
    }

    // 3. The tensor infos.
    file.tensors.reserve(std::size_t(tensorCount));
    for (std::uint64_t i = 0; i < tensorCount; ++i) {
        GgufTensor tensor;
        tensor.name = text(in.string("a tensor's name"));
        const std::string name(tensor.name);
        const auto dimensions = in.read<std::uint32_t>("a tensor's dimensions");
        if (dimensions > kGgufMaxDimensions)
            in.fail("the tensor " + name + " has " + std::to_string(dimensions) +
                    " dimensions, more than ggml's 4");
        std::uint64_t elements = 1;
        for (std::uint32_t d = 0; d < dimensions; ++d) {
            const auto n = in.read<std::uint64_t>("a tensor's shape");
            if (n > std::uint64_t(std::numeric_limits<std::int64_t>::max()) ||
                (n != 0 && elements > std::uint64_t(std::numeric_limits<std::int64_t>::max()) / n))
                in.fail("the tensor " + name + "'s shape overflows");
            elements *= n;
            tensor.ne.push_back(std::int64_t(n));
        }
        tensor.typeId = in.read<std::uint32_t>("a tensor's type");
        const std::optional<GgmlTypeInfo> info = ggmlTypeInfo(tensor.typeId);
        if (!info)
            in.fail("the tensor " + name + " has ggml type " + std::to_string(tensor.typeId) +
                    ", which ggml does not have");
        tensor.type = GgmlType(tensor.typeId);
        tensor.offset = in.read<std::uint64_t>("a tensor's offset");
        if (tensor.offset % file.alignment != 0)
            in.fail("the tensor " + name + "'s offset " + std::to_string(tensor.offset) +
                    " is not a multiple of the alignment " + std::to_string(file.alignment));
        if (!file.byName.emplace(tensor.name, file.tensors.size()).second)
            in.fail("the tensor " + name + " appears twice");
        file.tensors.push_back(std::move(tensor));
    }

    // 4. The data: from the next multiple of the alignment; each tensor's bytes inside it.
    const std::uint64_t infoEnd = in.at();
    const std::uint64_t dataStart =
        (infoEnd + file.alignment - 1) / file.alignment * file.alignment;
    if (file.tensors.empty())
        return file;
    if (dataStart > bytes.size())
        in.fail("the tensors' data begins past the end of the file: truncated");
    const std::uint64_t dataBytes = bytes.size() - dataStart;
    for (GgufTensor& tensor : file.tensors) {
        const std::string name(tensor.name);
        const GgmlTypeInfo info = *ggmlTypeInfo(tensor.typeId);
        const std::int64_t row = tensor.ne.empty() ? 1 : tensor.ne[0];
        const std::optional<std::uint64_t> rowBytes = ggmlRowBytes(tensor.type, row);
        if (!rowBytes)
            in.fail("the tensor " + name + "'s rows of " + std::to_string(row) +
                    " are not a multiple of " + std::string(info.name) + "'s blocks of " +
                    std::to_string(info.blockElements));
        const std::uint64_t rows = std::uint64_t(tensor.rows());
        if (rows != 0 && *rowBytes > std::numeric_limits<std::uint64_t>::max() / rows)
            in.fail("the tensor " + name + "'s size overflows");
        const std::uint64_t size = *rowBytes * rows;
        if (tensor.offset > dataBytes || size > dataBytes - tensor.offset)
            in.fail("the tensor " + name + "'s data (offset " + std::to_string(tensor.offset) +
                    ", " + std::to_string(size) +
                    " bytes) goes past the end of the file: "
                    "truncated");
        tensor.data = bytes.subspan(std::size_t(dataStart + tensor.offset), std::size_t(size));
    }
    return file;
}

} // namespace attn
