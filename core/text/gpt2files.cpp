// A strict reader for vocab.json's one flat object and a line reader for merges.txt.
// (The JSON reader is deliberately small: it knows only what vocab.json may contain.)
#include "gpt2files.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <unordered_set>

namespace attn {
namespace {

class VocabParser {
public:
    VocabParser(std::string_view json, const std::filesystem::path& file) : json_(json), file_(file)
    {}

    std::vector<VocabEntry> parse()
    {
        std::vector<VocabEntry> entries;
        std::unordered_set<std::string> seen;
        skipSpace();
        expect('{', "expected '{' at the start of the vocabulary object");
        skipSpace();
        if (peek() == '}') {
            ++pos_;
        } else {
            for (;;) {
                skipSpace();
                VocabEntry entry;
                entry.token = string();
                skipSpace();
                expect(':', "expected ':' after a key");
                skipSpace();
                entry.id = id();
                if (!seen.insert(entry.token).second)
                    fail("the token \"" + entry.token + "\" appears twice");
                entries.push_back(std::move(entry));
                skipSpace();
                if (peek() == ',') {
                    ++pos_;
                    continue;
                }
                expect('}', "expected ',' or '}' after a value");
                break;
            }
        }
        skipSpace();
        if (pos_ != json_.size())
            fail("unexpected text after the vocabulary object");
        if (entries.empty())
            fail("the vocabulary is empty");
        return entries;
    }

private:
    [[noreturn]] void fail(const std::string& fault) const
    {
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < pos_ && i < json_.size(); ++i) {
            if (json_[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        throw TokenizerFileError(file_, "line " + std::to_string(line) + ", column " +
                                            std::to_string(column) + ": " + fault);
    }

    [[nodiscard]] int peek() const
    {
        return pos_ < json_.size() ? static_cast<unsigned char>(json_[pos_]) : -1;
    }

    void expect(char c, const char* fault)
    {
        if (peek() != static_cast<unsigned char>(c))
            fail(pos_ < json_.size() ? fault : "the file ends early");
        ++pos_;
    }

    void skipSpace()
    {
        while (pos_ < json_.size() && (json_[pos_] == ' ' || json_[pos_] == '\t' ||
                                       json_[pos_] == '\n' || json_[pos_] == '\r'))
            ++pos_;
    }

    int id()
    {
        if (peek() < '0' || peek() > '9')
            fail(peek() == '-' ? "a negative id" : "expected an integer id");
        if (peek() == '0' && pos_ + 1 < json_.size() && json_[pos_ + 1] >= '0' &&
            json_[pos_ + 1] <= '9')
            fail("an id with a leading zero");
        std::int64_t value = 0;
        while (peek() >= '0' && peek() <= '9') {
            value = value * 10 + (peek() - '0');
            if (value > 0x7fffffff)
                fail("an id too large");
            ++pos_;
        }
        if (peek() == '.' || peek() == 'e' || peek() == 'E')
            fail("an id that is not an integer");
        return static_cast<int>(value);
    }

    unsigned hex4()
    {
        unsigned value = 0;
        for (int k = 0; k < 4; ++k) {
            const int c = peek();
            unsigned digit = 0;
            if (c >= '0' && c <= '9')
                digit = static_cast<unsigned>(c - '0');
            else if (c >= 'a' && c <= 'f')
                digit = static_cast<unsigned>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                digit = static_cast<unsigned>(c - 'A' + 10);
            else
                fail("a \\u escape needs four hex digits");
            value = value * 16 + digit;
            ++pos_;
        }
        return value;
    }

    static void appendUtf8(std::string& out, unsigned cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    unsigned escapedCodePoint()
    {
        const unsigned high = hex4();
        if (high >= 0xDC00 && high <= 0xDFFF)
            fail("a lone low surrogate in a \\u escape");
        if (high < 0xD800 || high > 0xDBFF)
            return high;
        if (peek() != '\\' || pos_ + 1 >= json_.size() || json_[pos_ + 1] != 'u')
            fail("a high surrogate without its low surrogate");
        pos_ += 2;
        const unsigned low = hex4();
        if (low < 0xDC00 || low > 0xDFFF)
            fail("a high surrogate without its low surrogate");
        return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
    }

    // A string's raw UTF-8 bytes are checked by the tokenizer, which needs valid tokens.
    std::string string()
    {
        expect('"', "expected a string key");
        std::string out;
        for (;;) {
            const int c = peek();
            if (c < 0)
                fail("the file ends inside a string");
            ++pos_;
            if (c == '"')
                return out;
            if (c < 0x20)
                fail("a control character inside a string");
            if (c != '\\') {
                out += static_cast<char>(c);
                continue;
            }
            const int e = peek();
            ++pos_;
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
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
            case 'u':
                appendUtf8(out, escapedCodePoint());
                break;
            default:
                --pos_;
                fail("an unknown escape in a string");
            }
        }
    }

    std::string_view json_;
    const std::filesystem::path& file_;
    std::size_t pos_ = 0;
};

} // namespace

std::vector<VocabEntry> parseVocabJson(std::string_view json, const std::filesystem::path& file)
{
    return VocabParser(json, file).parse();
}

std::vector<std::pair<std::string, std::string>> parseMerges(std::string_view text,
                                                             const std::filesystem::path& file)
{
    std::vector<std::pair<std::string, std::string>> merges;
    std::size_t lineNumber = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty() || (lineNumber == 1 && line.starts_with("#version")))
            continue;
        const std::size_t space = line.find(' ');
        if (space == std::string_view::npos || space == 0 || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string_view::npos)
            throw TokenizerFileError(file, "line " + std::to_string(lineNumber) +
                                               ": expected two tokens separated by one space");
        merges.emplace_back(line.substr(0, space), line.substr(space + 1));
    }
    if (merges.empty())
        throw TokenizerFileError(file, "no merges");
    return merges;
}

std::string readTokenizerFile(const std::filesystem::path& file)
{
    std::error_code error;
    if (!std::filesystem::exists(file, error))
        throw TokenizerFileError(file, "the file is missing");
    if (std::filesystem::is_directory(file, error))
        throw TokenizerFileError(file, "a folder, not a file");
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw TokenizerFileError(file, "the file cannot be read");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (in.bad())
        throw TokenizerFileError(file, "the file cannot be read");
    return std::move(bytes).str();
}

} // namespace attn
