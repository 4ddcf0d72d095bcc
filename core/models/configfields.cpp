#include "models/configfields.h"

#include "models/languagemodel.h"

#include <cmath>
#include <cstdlib>

namespace attn {

JsonValue parseConfigObject(std::string_view json, const std::filesystem::path& file)
{
    JsonValue config;
    try {
        config = parseJson(json);
    } catch (const JsonParseError& error) {
        throw ModelError(file, std::string("not JSON: ") + error.what());
    }
    if (!config.isObject())
        throw ModelError(file, "not a JSON object");
    return config;
}

std::optional<int> sizeField(const JsonValue& config, std::string_view name,
                             const std::filesystem::path& file, bool nullIsAbsent)
{
    const JsonValue* value = config.find(name);
    if (!value || (nullIsAbsent && value->isNull()))
        return std::nullopt;
    const std::string field(name);
    if (!value->isNumber())
        throw ModelError(file, field + " is not a number");
    const std::optional<std::uint64_t> size = value->asUnsigned();
    if (!size || *size == 0)
        throw ModelError(file, field + " " + value->text() + " is not a positive whole number");
    if (*size > std::uint64_t(kMaxConfigSize))
        throw ModelError(file, field + " " + value->text() + " is larger than " +
                                   std::to_string(kMaxConfigSize));
    return static_cast<int>(*size);
}

int requiredSize(const JsonValue& config, std::string_view name, const std::filesystem::path& file)
{
    const std::optional<int> size = sizeField(config, name, file);
    if (!size)
        throw ModelError(file, "the field " + std::string(name) + " is missing");
    return *size;
}

std::string stringField(const JsonValue& config, std::string_view name, std::string fallback,
                        const std::filesystem::path& file)
{
    const JsonValue* value = config.find(name);
    if (!value)
        return fallback;
    if (!value->isString())
        throw ModelError(file, std::string(name) + " is not a string");
    return value->text();
}

double realField(const JsonValue& config, std::string_view name, double fallback,
                 const std::filesystem::path& file, bool positive)
{
    const JsonValue* value = config.find(name);
    if (!value)
        return fallback;
    if (!value->isNumber())
        throw ModelError(file, std::string(name) + " is not a number");
    const double number = std::strtod(value->text().c_str(), nullptr);
    if (!std::isfinite(number) || number < 0 || (positive && number == 0))
        throw ModelError(file, std::string(name) + " " + value->text() +
                                   " is not a finite number " + (positive ? "> 0" : "≥ 0"));
    return number;
}

bool boolField(const JsonValue& config, std::string_view name, bool fallback,
               const std::filesystem::path& file)
{
    const JsonValue* value = config.find(name);
    if (!value || value->isNull())
        return fallback;
    if (value->kind() != JsonValue::Kind::Bool)
        throw ModelError(file, std::string(name) + " is not true or false");
    return value->boolean();
}

HfSizes requiredHfSizes(const JsonValue& config, const std::filesystem::path& file)
{
    HfSizes s;
    s.layers = requiredSize(config, "num_hidden_layers", file);
    s.heads = requiredSize(config, "num_attention_heads", file);
    s.dModel = requiredSize(config, "hidden_size", file);
    s.inner = requiredSize(config, "intermediate_size", file);
    s.vocabulary = requiredSize(config, "vocab_size", file);
    s.positions = requiredSize(config, "max_position_embeddings", file);
    return s;
}

} // namespace attn
