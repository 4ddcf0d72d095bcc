// vocab.json through the strict JSON reader, and a line reader for merges.txt.
#include "text/gpt2files.h"

#include "base/jsonread.h"

#include <climits>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace attn {

std::vector<VocabEntry> parseVocabJson(std::string_view json, const std::filesystem::path& file)
{
    JsonValue vocabulary;
    try {
        vocabulary = parseJson(json); // refuses a token written twice (a duplicate key)
    } catch (const JsonParseError& error) {
        throw TokenizerFileError(file, error.what());
    }
    if (!vocabulary.isObject())
        throw TokenizerFileError(file, "the vocabulary is not a JSON object {\"token\": id, …}");
    if (vocabulary.members().empty())
        throw TokenizerFileError(file, "the vocabulary is empty");
    std::vector<VocabEntry> entries;
    entries.reserve(vocabulary.members().size());
    for (const auto& member : vocabulary.members()) {
        // Not a structured binding: clang before 16 cannot capture one in a lambda.
        const std::string& token = member.first;
        const JsonValue& value = member.second;
        const auto fault = [&file, &token](const std::string& what) {
            return TokenizerFileError(file, "the id of the token \"" + token + "\" " + what);
        };
        if (!value.isNumber())
            throw fault("is not a number");
        const std::string& text = value.text();
        if (text.front() == '-')
            throw fault("is negative (" + text + ")");
        if (text.find_first_of(".eE") != std::string::npos)
            throw fault("is not an integer (" + text + ")");
        const auto id = value.asUnsigned();
        if (!id || *id > std::uint64_t(INT_MAX))
            throw fault("is too large (" + text + ")");
        entries.push_back({token, static_cast<int>(*id)});
    }
    return entries;
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
