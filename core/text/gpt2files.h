// Reading a Hugging Face GPT-2 tokenizer's files: vocab.json and merges.txt.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attn {

// A tokenizer file that is missing, unreadable or corrupt. what() names the file and the
// fault ("…/vocab.json: line 1, column 17: expected ':'").
class TokenizerFileError : public std::runtime_error {
public:
    TokenizerFileError(std::filesystem::path file, const std::string& fault)
        : std::runtime_error(file.string() + ": " + fault), file_(std::move(file)), fault_(fault)
    {}
    [[nodiscard]] const std::filesystem::path& file() const { return file_; }
    [[nodiscard]] const std::string& fault() const { return fault_; }

private:
    std::filesystem::path file_;
    std::string fault_;
};

// One entry of vocab.json: a token's spelling in GPT-2's byte alphabet, and its id.
struct VocabEntry {
    std::string token; // UTF-8
    int id = 0;
};

// The flat object {"token": id, …} of vocab.json, in file order. Strict JSON (jsonread.h):
// one object of string keys and non-negative integer values, no duplicate key, nothing
// after it. Throws TokenizerFileError naming `file` and the fault: for JSON that is not
// JSON the line and column, for an id that is not one the token.
[[nodiscard]] std::vector<VocabEntry> parseVocabJson(std::string_view json,
                                                     const std::filesystem::path& file);

// The merges of merges.txt in rank order (the first line has rank 0): an optional
// "#version" line first, then one "left right" pair per line. Blank lines are skipped.
// Throws TokenizerFileError naming `file`, the line and the fault.
[[nodiscard]] std::vector<std::pair<std::string, std::string>>
parseMerges(std::string_view text, const std::filesystem::path& file);

// The whole of `file`. Throws TokenizerFileError when it is missing or unreadable.
[[nodiscard]] std::string readTokenizerFile(const std::filesystem::path& file);

} // namespace attn
