#include "base/jsonread.h"

#include "base/utf8.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <unordered_set>

namespace attn {

std::optional<std::uint64_t> JsonValue::asUnsigned() const
{
    if (kind_ != Kind::Number || text_.empty() || text_[0] == '-' ||
        text_.find_first_of(".eE") != std::string::npos)
        return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text_.data(), text_.data() + text_.size(), value);
    if (error != std::errc() || end != text_.data() + text_.size())
        return std::nullopt;
    return value;
}

const JsonValue* JsonValue::find(std::string_view name) const
{
    for (const auto& [key, value] : members_)
        if (key == name)
            return &value;
    return nullptr;
}

class JsonParser {
public:
    explicit JsonParser(std::string_view text) : text_(text) {}

    JsonValue document()
    {
        JsonValue value = parseValue(0);
        skipSpace();
        if (at_ != text_.size())
            fail("text after the JSON value");
        return value;
    }

private:
    [[noreturn]] void fail(const std::string& what) const { failAt(at_, what); }

    // Past the end, any fault is that the text ends early; what was expected stays.
    [[noreturn]] void failAt(std::size_t at, const std::string& what) const
    {
        std::size_t line = 1, lineStart = 0;
        for (std::size_t k = 0; k < at && k < text_.size(); ++k)
            if (text_[k] == '\n') {
                ++line;
                lineStart = k + 1;
            }
        throw JsonParseError(at, line, at - lineStart + 1,
                             at >= text_.size() ? "the text ends early (" + what + ")" : what);
    }

    void skipSpace()
    {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' ||
                                      text_[at_] == '\n' || text_[at_] == '\r'))
            ++at_;
    }

    [[nodiscard]] char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }

    void expectWord(std::string_view word)
    {
        if (text_.substr(at_, word.size()) != word)
            fail("not a JSON value");
        at_ += word.size();
    }

    JsonValue parseValue(int depth)
    {
        if (depth > kMaxJsonDepth)
            fail("nesting deeper than " + std::to_string(kMaxJsonDepth));
        skipSpace();
        JsonValue value;
        switch (peek()) {
        case '{':
            value.kind_ = JsonValue::Kind::Object;
            parseObject(value, depth);
            break;
        case '[':
            value.kind_ = JsonValue::Kind::Array;
            parseArray(value, depth);
            break;
        case '"':
            value.kind_ = JsonValue::Kind::String;
            value.text_ = parseString();
            break;
        case 't':
            expectWord("true");
            value.kind_ = JsonValue::Kind::Bool;
            value.flag_ = true;
            break;
        case 'f':
            expectWord("false");
            value.kind_ = JsonValue::Kind::Bool;
            break;
        case 'n':
            expectWord("null");
            break;
        default:
            value.kind_ = JsonValue::Kind::Number;
            value.text_ = parseNumber();
        }
        return value;
    }

    void parseObject(JsonValue& object, int depth)
    {
        // The keys seen, as indexes into members_ (which may move as it grows): a
        // vocabulary holds 50,000 of them, too many to search one by one.
        const auto& members = object.members_;
        const auto hash = [&members](std::size_t k) {
            return std::hash<std::string_view>()(members[k].first);
        };
        const auto same = [&members](std::size_t a, std::size_t b) {
            return members[a].first == members[b].first;
        };
        std::unordered_set<std::size_t, decltype(hash), decltype(same)> keys(0, hash, same);
        ++at_; // {
        skipSpace();
        if (peek() == '}') {
            ++at_;
            return;
        }
        for (;;) {
            skipSpace();
            if (peek() != '"')
                fail("expected a key in quotes");
            const std::size_t keyStart = at_;
            object.members_.emplace_back(parseString(), JsonValue());
            if (!keys.insert(object.members_.size() - 1).second)
                failAt(keyStart, "duplicate key \"" + object.members_.back().first + "\"");
            skipSpace();
            if (peek() != ':')
                fail("expected ':'");
            ++at_;
            object.members_.back().second = parseValue(depth + 1);
            skipSpace();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            if (peek() != '}')
                fail("expected ',' or '}'");
            ++at_;
            return;
        }
    }

    void parseArray(JsonValue& array, int depth)
    {
        ++at_; // [
        skipSpace();
        if (peek() == ']') {
            ++at_;
            return;
        }
        for (;;) {
            array.items_.push_back(parseValue(depth + 1));
            skipSpace();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            if (peek() != ']')
                fail("expected ',' or ']'");
            ++at_;
            return;
        }
    }

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    std::string parseNumber()
    {
        const std::size_t start = at_;
        const auto digits = [this] {
            const std::size_t first = at_;
            while (peek() >= '0' && peek() <= '9')
                ++at_;
            return at_ - first;
        };
        if (peek() == '-')
            ++at_;
        if (peek() == '0')
            ++at_;
        else if (digits() == 0)
            fail("not a JSON value");
        if (peek() == '.') {
            ++at_;
            if (digits() == 0)
                fail("a number needs digits after '.'");
        }
        if (peek() == 'e' || peek() == 'E') {
            ++at_;
            if (peek() == '+' || peek() == '-')
                ++at_;
            if (digits() == 0)
                fail("a number needs digits in its exponent");
        }
        return std::string(text_.substr(start, at_ - start));
    }

    unsigned hex4()
    {
        if (at_ + 4 > text_.size())
            fail("a \\u escape needs four hex digits");
        unsigned value = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = text_[at_++];
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= unsigned(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= unsigned(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= unsigned(c - 'A' + 10);
            else
                fail("a \\u escape needs four hex digits");
        }
        return value;
    }

    // One UTF-8 sequence starting at at_, checked (no overlong forms, no surrogates).
    void copyUtf8(std::string& out)
    {
        const Utf8Char c = utf8CharAt(text_, at_);
        if (c.code < 0)
            fail("invalid UTF-8");
        out.append(text_.substr(at_, c.length));
        at_ += c.length;
    }

    std::string parseString()
    {
        ++at_; // "
        std::string out;
        for (;;) {
            if (at_ >= text_.size())
                fail("unterminated string");
            const auto c = static_cast<unsigned char>(text_[at_]);
            if (c == '"') {
                ++at_;
                return out;
            }
            if (c < 0x20)
                fail("a control character in a string");
            if (c >= 0x80) {
                copyUtf8(out);
                continue;
            }
            if (c != '\\') { // a run of plain ASCII, copied at once
                std::size_t end = at_ + 1;
                while (end < text_.size() && text_[end] != '"' && text_[end] != '\\' &&
                       static_cast<unsigned char>(text_[end]) >= 0x20 &&
                       static_cast<unsigned char>(text_[end]) < 0x80)
                    ++end;
                out.append(text_.substr(at_, end - at_));
                at_ = end;
                continue;
            }
            ++at_;
            const std::size_t escapeStart = at_ - 1; // the backslash
            const char escape = peek();
            ++at_;
            switch (escape) {
            case '"':
            case '\\':
            case '/':
                out += escape;
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                char32_t code = hex4();
                if (code >= 0xDC00 && code <= 0xDFFF)
                    failAt(escapeStart, "a lone low surrogate in a \\u escape");
                if (code >= 0xD800 && code <= 0xDBFF) {
                    if (text_.substr(at_, 2) != "\\u")
                        failAt(escapeStart, "a high surrogate without its low surrogate");
                    at_ += 2;
                    const char32_t low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        failAt(escapeStart, "a high surrogate without its low surrogate");
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                }
                appendUtf8(out, code);
                break;
            }
            default:
                failAt(escapeStart, "an unknown escape");
            }
        }
    }

    std::string_view text_;
    std::size_t at_ = 0;
};

JsonValue parseJson(std::string_view text)
{
    return JsonParser(text).document();
}

} // namespace attn
