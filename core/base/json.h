// A small streaming JSON writer: enough for AttnScope's documents, no dependencies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

class JsonWriter {
public:
    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name);

    void value(std::string_view text);
    void value(const char* text) { value(std::string_view(text)); }
    void value(bool flag);
    void value(int number);
    void value(std::uint64_t number);
    // Shortest text that reads back as the same float/double; non-finite → null.
    void value(float number);
    void value(double number);
    void null();

    // How many non-finite numbers were written as null.
    [[nodiscard]] std::uint64_t nonfinite() const { return nonfinite_; }
    [[nodiscard]] const std::string& text() const { return out_; }
    [[nodiscard]] std::string take() { return std::move(out_); }

private:
    void separate();

    std::string out_;
    std::vector<bool> first_; // per open container: nothing written in it yet
    bool afterKey_ = false;
    std::uint64_t nonfinite_ = 0;
};

// `text` as a JSON string literal, quotes included; control characters escaped.
[[nodiscard]] std::string jsonQuote(std::string_view text);

} // namespace attn
