#include "io/npy.h"

#include "base/utf8.h"
#include "engine/options.h"

#include <cctype>
#include <charconv>
#include <cstring>
#include <string_view>

namespace attn {
namespace {

// The header's dict literal, read strictly: quoted keys, and as values a quoted string,
// True/False or a tuple of whole numbers.
class HeaderReader {
public:
    HeaderReader(std::string_view text, const std::string& where) : text_(text), where_(where) {}

    NpyArray read()
    {
        NpyArray array;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        expect('{');
        for (;;) {
            skipSpace();
            if (peek() == '}')
                break;
            const std::string key = quoted();
            expect(':');
            if (key == "descr") {
                skipSpace();
                if (peek() != '\'' && peek() != '"')
                    fail("the dtype is not a plain one (a structured array?)");
                array.descr = quoted();
                haveDescr = true;
            } else if (key == "fortran_order") {
                array.fortranOrder = boolean();
                haveOrder = true;
            } else if (key == "shape") {
                array.shape = tuple();
                haveShape = true;
            } else {
                fail("an unknown header key '" + key + "'");
            }
            skipSpace();
            if (peek() == ',') {
                ++at_;
                continue;
            }
            if (peek() != '}')
                fail("expected ',' or '}' in the header");
        }
        ++at_;
        skipSpace();
        if (at_ != text_.size())
            fail("text after the header's dict");
        if (!haveDescr || !haveOrder || !haveShape)
            fail("the header lacks descr, fortran_order or shape");
        return array;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw InputError(where_ + ": not a valid .npy header: " + what);
    }
    void skipSpace()
    {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n'))
            ++at_;
    }
    [[nodiscard]] char peek() const { return at_ < text_.size() ? text_[at_] : '\0'; }
    void expect(char c)
    {
        skipSpace();
        if (peek() != c)
            fail(std::string("expected '") + c + "'");
        ++at_;
    }
    std::string quoted()
    {
        skipSpace();
        const char quote = peek();
        if (quote != '\'' && quote != '"')
            fail("expected a quoted string");
        const std::size_t end = text_.find(quote, at_ + 1);
        if (end == std::string_view::npos)
            fail("an unterminated string");
        std::string out(text_.substr(at_ + 1, end - at_ - 1));
        at_ = end + 1;
        return out;
    }
    bool boolean()
    {
        skipSpace();
        if (text_.substr(at_, 4) == "True") {
            at_ += 4;
            return true;
        }
        if (text_.substr(at_, 5) == "False") {
            at_ += 5;
            return false;
        }
        fail("fortran_order is not True or False");
    }
    std::vector<std::int64_t> tuple()
    {
        expect('(');
        std::vector<std::int64_t> values;
        for (;;) {
            skipSpace();
            if (peek() == ')')
                break;
            std::int64_t value = -1;
            const auto [end, error] =
                std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
            if (error != std::errc() || value < 0)
                fail("the shape is not a tuple of whole numbers");
            at_ = std::size_t(end - text_.data());
            values.push_back(value);
            if (values.size() > 32)
                fail("the shape has more than 32 axes");
            skipSpace();
            if (peek() == ',')
                ++at_;
            else if (peek() != ')')
                fail("expected ',' or ')' in the shape");
        }
        ++at_;
        return values;
    }

    std::string_view text_;
    const std::string& where_;
    std::size_t at_ = 0;
};

std::uint32_t littleEndian(const std::byte* p, int bytes)
{
    std::uint32_t value = 0;
    for (int k = bytes - 1; k >= 0; --k)
        value = (value << 8) | std::to_integer<std::uint32_t>(p[k]);
    return value;
}

} // namespace

NpyArray parseNpy(std::span<const std::byte> bytes, const std::string& where)
{
    // 1. Magic and version.
    static constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw InputError(where + ": not a .npy file (no \\x93NUMPY magic)" +
                         (bytes.size() < 10 ? std::string(" or truncated") : std::string()));
    const int major = std::to_integer<int>(bytes[6]);
    if (major < 1 || major > 3)
        throw InputError(where + ": .npy version " + std::to_string(major) +
                         " is not supported (1, 2 or 3)");
    // 2. The header's length and the header.
    const std::size_t lengthBytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + lengthBytes)
        throw InputError(where + ": truncated .npy file: the header's length is cut off");
    const std::size_t headerLength = littleEndian(bytes.data() + 8, int(lengthBytes));
    const std::size_t dataStart = 8 + lengthBytes + headerLength;
    if (headerLength > kMaxNpyHeaderBytes)
        throw InputError(where + ": the .npy header claims " + std::to_string(headerLength) +
                         " bytes, more than the limit of " + std::to_string(kMaxNpyHeaderBytes));
    if (dataStart > bytes.size())
        throw InputError(where + ": truncated .npy file: the header's length " +
                         std::to_string(headerLength) + " goes past the end (" +
                         std::to_string(bytes.size()) + " bytes)");
    const std::string_view header(reinterpret_cast<const char*>(bytes.data() + 8 + lengthBytes),
                                  headerLength);
    if (major < 3)
        for (const char c : header)
            if (static_cast<unsigned char>(c) >= 0x80)
                throw InputError(where + ": not a valid .npy header: a non-ASCII byte");
    NpyArray array = HeaderReader(header, where).read();

    // 3. The dtype: byte order, kind, item size ('<f4', '|S3', '<U7').
    const std::string& d = array.descr;
    std::size_t digits = 0;
    if (d.size() < 3 || (d[0] != '<' && d[0] != '>' && d[0] != '|' && d[0] != '=') ||
        !std::isalpha(static_cast<unsigned char>(d[1])) ||
        std::from_chars(d.data() + 2, d.data() + d.size(), digits).ptr != d.data() + d.size() ||
        digits == 0 || digits > (std::size_t(1) << 20))
        throw InputError(where + ": unknown dtype '" + d + "'");
    array.kind = d[1];
    array.bigEndian = d[0] == '>';
    array.itemSize = int(digits);
    if (array.kind == 'U')
        array.itemSize *= 4; // '<U7': seven UTF-32 code units

    // 4. The byte count of the shape, checked for overflow, against the data.
    std::uint64_t total = std::uint64_t(array.itemSize);
    for (const std::int64_t dim : array.shape) {
        if (dim != 0 && total > std::uint64_t(INT64_MAX) / std::uint64_t(dim))
            throw InputError(where + ": the shape's byte count overflows");
        total *= std::uint64_t(dim);
    }
    const std::size_t available = bytes.size() - dataStart;
    if (total > available)
        throw InputError(where + ": truncated .npy file: the shape needs " + std::to_string(total) +
                         " bytes of data, the file has " + std::to_string(available));
    if (total < available)
        throw InputError(where + ": " + std::to_string(available - total) +
                         " bytes after the array's data (the shape needs " + std::to_string(total) +
                         ")");
    array.data = bytes.subspan(dataStart, std::size_t(total));
    return array;
}

std::vector<std::vector<std::string>> npyStrings(const NpyArray& array, const std::string& where)
{
    if (array.kind != 'U' && array.kind != 'S')
        throw InputError(where + ": the tokens are '" + array.descr +
                         "', not strings (np.array(tokens) writes '<U…')");
    if (array.shape.empty() || array.shape.size() > 2)
        throw InputError(where + ": the tokens must have one axis (T) or two (B, T), not " +
                         std::to_string(array.shape.size()));
    const std::int64_t rows = array.shape.size() == 2 ? array.shape[0] : 1;
    const std::int64_t cols = array.shape.back();
    // With an empty axis the byte count the reader checked is 0 whatever the other axis says;
    // refused here before that axis sizes anything.
    if (rows < 1 || cols < 1)
        throw InputError(where + ": the tokens are empty (shape " +
                         (array.shape.size() == 2 ? std::to_string(rows) + ", " : std::string()) +
                         std::to_string(cols) + ", items of " + std::to_string(array.itemSize) +
                         " bytes)");
    std::vector<std::vector<std::string>> lists(static_cast<std::size_t>(rows));
    const std::int64_t rowStep = array.fortranOrder ? 1 : cols;
    const std::int64_t colStep = array.fortranOrder ? rows : 1;
    for (std::int64_t r = 0; r < rows; ++r) {
        for (std::int64_t c = 0; c < cols; ++c) {
            const std::byte* item =
                array.data.data() + (r * rowStep + c * colStep) * array.itemSize;
            std::string token;
            if (array.kind == 'S') {
                token.assign(reinterpret_cast<const char*>(item), std::size_t(array.itemSize));
                token.erase(token.find_last_not_of('\0') + 1);
                if (!validUtf8(token))
                    throw InputError(where + ": token " + std::to_string(c) + " is not UTF-8");
            } else {
                for (int k = 0; k < array.itemSize; k += 4) {
                    std::uint32_t unit = littleEndian(item + k, 4);
                    if (array.bigEndian)
                        unit = __builtin_bswap32(unit);
                    if (unit > 0x10FFFF || (unit >= 0xD800 && unit <= 0xDFFF))
                        throw InputError(where + ": token " + std::to_string(c) +
                                         " holds an invalid code point");
                    appendUtf8(token, char32_t(unit));
                }
                token.erase(token.find_last_not_of('\0') + 1);
            }
            lists[std::size_t(r)].push_back(std::move(token));
        }
    }
    return lists;
}

} // namespace attn
