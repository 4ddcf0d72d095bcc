// A small strict JSON reader (RFC 8259) for the files AttnScope opens: the safetensors
// header, the token lists in its metadata, GPT-2's vocab.json. No Qt.
//
// Strict: one value and nothing after it but white space; no comments, no trailing
// commas, no duplicate keys in an object, no control characters or invalid UTF-8 in
// strings, lone surrogates refused, nesting at most kMaxJsonDepth deep. Numbers keep
// their text, so that a byte offset of 2^64 − 1 reads back exactly (asUnsigned).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn {

inline constexpr int kMaxJsonDepth = 64;

// A JSON text that is not JSON. what() says where and what, as an editor counts
// ("line 3, column 17: expected ':'"; lines from 1, columns in bytes from 1); fault() is
// the what alone and offset() the byte, from 0.
class JsonParseError : public std::runtime_error {
public:
    JsonParseError(std::size_t offset, std::size_t line, std::size_t column, std::string fault)
        : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column) +
                             ": " + fault),
          offset_(offset), line_(line), column_(column), fault_(std::move(fault))
    {}
    [[nodiscard]] std::size_t offset() const { return offset_; }
    [[nodiscard]] std::size_t line() const { return line_; }
    [[nodiscard]] std::size_t column() const { return column_; }
    [[nodiscard]] const std::string& fault() const { return fault_; }

private:
    std::size_t offset_, line_, column_;
    std::string fault_;
};

class JsonValue {
public:
    enum class Kind { Null, Bool, Number, String, Array, Object };

    [[nodiscard]] Kind kind() const { return kind_; }
    [[nodiscard]] bool isNull() const { return kind_ == Kind::Null; }
    [[nodiscard]] bool isString() const { return kind_ == Kind::String; }
    [[nodiscard]] bool isArray() const { return kind_ == Kind::Array; }
    [[nodiscard]] bool isObject() const { return kind_ == Kind::Object; }
    [[nodiscard]] bool isNumber() const { return kind_ == Kind::Number; }

    [[nodiscard]] bool boolean() const { return flag_; }
    // A String's text (UTF-8), or a Number's text as written.
    [[nodiscard]] const std::string& text() const { return text_; }
    // A Number that is a whole number from 0 to 2^64 − 1 written without fraction or
    // exponent; nothing otherwise.
    [[nodiscard]] std::optional<std::uint64_t> asUnsigned() const;
    [[nodiscard]] const std::vector<JsonValue>& items() const { return items_; }
    // An Object's members in the order written.
    [[nodiscard]] const std::vector<std::pair<std::string, JsonValue>>& members() const
    {
        return members_;
    }
    // An Object's member `name`, or nullptr.
    [[nodiscard]] const JsonValue* find(std::string_view name) const;

private:
    friend class JsonParser;
    Kind kind_ = Kind::Null;
    bool flag_ = false;
    std::string text_;
    std::vector<JsonValue> items_;
    std::vector<std::pair<std::string, JsonValue>> members_;
};

// Parses `text` as one JSON value. Throws JsonParseError.
[[nodiscard]] JsonValue parseJson(std::string_view text);

} // namespace attn
