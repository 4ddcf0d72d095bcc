#include "io/safetensors.h"

#include "base/jsonread.h"
#include "engine/options.h"

#include <algorithm>
#include <string_view>

namespace attn {
namespace {

// The dtypes of the safetensors format and their sizes in bytes.
int dtypeBytes(std::string_view dtype)
{
    static constexpr std::pair<std::string_view, int> kSizes[] = {
        {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1},
        {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},
        {"U32", 4},  {"F32", 4}, {"F64", 8}, {"I64", 8},     {"U64", 8},
    };
    for (const auto& [name, size] : kSizes)
        if (name == dtype)
            return size;
    return 0;
}

} // namespace

SafetensorsFile parseSafetensors(std::span<const std::byte> bytes, const std::string& where)
{
    // 1. The header's length, and the header within the file.
    if (bytes.size() < 8)
        throw InputError(where + ": not a .safetensors file: " + std::to_string(bytes.size()) +
                         " bytes, fewer than the 8 of the header's length");
    std::uint64_t headerLength = 0;
    for (int k = 7; k >= 0; --k)
        headerLength = (headerLength << 8) | std::to_integer<std::uint64_t>(bytes[std::size_t(k)]);
    if (headerLength > kMaxSafetensorsHeaderBytes)
        throw InputError(where + ": the header's length " + std::to_string(headerLength) +
                         " is over the limit of 100 MB");
    if (headerLength > bytes.size() - 8)
        throw InputError(where + ": the header's length " + std::to_string(headerLength) +
                         " goes past the end of the file (" + std::to_string(bytes.size()) +
                         " bytes)");
    const std::string_view text(reinterpret_cast<const char*>(bytes.data() + 8),
                                std::size_t(headerLength));
    const std::span<const std::byte> data = bytes.subspan(8 + std::size_t(headerLength));

    // 2. The header as JSON: an object of tensors and "__metadata__".
    JsonValue header;
    try {
        // Writers pad the header with spaces to align the data; JSON allows them.
        header = parseJson(text);
    } catch (const JsonParseError& error) {
        throw InputError(where + ": the header is not valid JSON: " + error.what());
    }
    if (!header.isObject())
        throw InputError(where + ": the header is not a JSON object");
    SafetensorsFile file;
    struct Extent {
        std::uint64_t begin, end;
        std::size_t tensor; // index in file.tensors
    };
    std::vector<Extent> extents;
    for (const auto& [name, value] : header.members()) {
        if (name == "__metadata__") {
            if (!value.isObject())
                throw InputError(where + ": __metadata__ is not an object");
            for (const auto& [key, entry] : value.members()) {
                if (!entry.isString())
                    throw InputError(where + ": __metadata__[\"" + key + "\"] is not a string");
                file.metadata[key] = entry.text();
            }
            continue;
        }
        const std::string tensor = where + ": tensor '" + name + "'";
        const JsonValue* dtype = value.isObject() ? value.find("dtype") : nullptr;
        const JsonValue* shape = value.isObject() ? value.find("shape") : nullptr;
        const JsonValue* offsets = value.isObject() ? value.find("data_offsets") : nullptr;
        if (!dtype || !dtype->isString() || !shape || !shape->isArray() || !offsets ||
            !offsets->isArray() || offsets->items().size() != 2)
            throw InputError(tensor + " lacks dtype, shape or data_offsets [begin, end]");
        SafetensorsTensor t;
        t.name = name;
        t.dtype = dtype->text();
        t.elementBytes = dtypeBytes(t.dtype);
        if (t.elementBytes == 0)
            throw InputError(tensor + " has an unknown dtype '" + t.dtype + "'");
        // 3. The shape's byte count, checked for overflow.
        std::uint64_t count = std::uint64_t(t.elementBytes);
        for (const JsonValue& dim : shape->items()) {
            const std::optional<std::uint64_t> n = dim.asUnsigned();
            if (!n || *n > std::uint64_t(INT64_MAX))
                throw InputError(tensor + ": its shape is not a list of whole numbers");
            if (*n != 0 && count > std::uint64_t(INT64_MAX) / *n)
                throw InputError(tensor + ": its shape's byte count overflows");
            count *= *n;
            t.shape.push_back(std::int64_t(*n));
        }
        // 4. The offsets: in order, inside the data, and as long as the shape needs.
        const std::optional<std::uint64_t> begin = offsets->items()[0].asUnsigned();
        const std::optional<std::uint64_t> end = offsets->items()[1].asUnsigned();
        if (!begin || !end || *end < *begin)
            throw InputError(tensor + ": its data_offsets are not [begin, end] with begin ≤ end");
        if (*end > data.size())
            throw InputError(tensor + ": its data_offsets [" + std::to_string(*begin) + ", " +
                             std::to_string(*end) + "] go past the end of the data (" +
                             std::to_string(data.size()) + " bytes)");
        if (*end - *begin != count)
            throw InputError(tensor + ": its shape needs " + std::to_string(count) +
                             " bytes, its data_offsets give " + std::to_string(*end - *begin));
        t.data = data.subspan(std::size_t(*begin), std::size_t(count));
        extents.push_back({*begin, *end, file.tensors.size()});
        file.tensors.push_back(std::move(t));
    }
    // 5. No two tensors share a byte.
    std::ranges::sort(extents, {}, &Extent::begin);
    for (std::size_t k = 1; k < extents.size(); ++k)
        if (extents[k].begin < extents[k - 1].end)
            throw InputError(where + ": the data of tensors '" +
                             file.tensors[extents[k - 1].tensor].name + "' and '" +
                             file.tensors[extents[k].tensor].name + "' overlap");
    return file;
}

} // namespace attn
