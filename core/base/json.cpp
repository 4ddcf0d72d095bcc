#include "base/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace attn {

std::string jsonQuote(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '"';
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (byte < 0x20 || byte == 0x7f) {
                char escape[8];
                std::snprintf(escape, sizeof escape, "\\u%04x", byte);
                out += escape;
            } else {
                out += c; // UTF-8 passes through; the tokenizer has validated it
            }
        }
    }
    out += '"';
    return out;
}

void JsonWriter::separate()
{
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (!first_.empty()) {
        if (!first_.back())
            out_ += ',';
        first_.back() = false;
    }
}

void JsonWriter::beginObject()
{
    separate();
    out_ += '{';
    first_.push_back(true);
}

void JsonWriter::endObject()
{
    out_ += '}';
    first_.pop_back();
}

void JsonWriter::beginArray()
{
    separate();
    out_ += '[';
    first_.push_back(true);
}

void JsonWriter::endArray()
{
    out_ += ']';
    first_.pop_back();
}

void JsonWriter::key(std::string_view name)
{
    separate();
    out_ += jsonQuote(name);
    out_ += ':';
    afterKey_ = true;
}

void JsonWriter::value(std::string_view text)
{
    separate();
    out_ += jsonQuote(text);
}

void JsonWriter::value(bool flag)
{
    separate();
    out_ += flag ? "true" : "false";
}

void JsonWriter::value(int number)
{
    separate();
    out_ += std::to_string(number);
}

void JsonWriter::value(std::uint64_t number)
{
    separate();
    out_ += std::to_string(number);
}

void JsonWriter::null()
{
    separate();
    out_ += "null";
}

template <typename F> static void writeNumber(std::string& out, F number)
{
    char buffer[32];
    // std::to_chars without a precision is the shortest round-trip form.
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, number);
    out.append(buffer, result.ptr);
}

void JsonWriter::value(float number)
{
    if (!std::isfinite(number)) {
        ++nonfinite_;
        null();
        return;
    }
    separate();
    writeNumber(out_, number);
}

void JsonWriter::value(double number)
{
    if (!std::isfinite(number)) {
        ++nonfinite_;
        null();
        return;
    }
    separate();
    writeNumber(out_, number);
}

} // namespace attn
