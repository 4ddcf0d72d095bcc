// A BPE model's vocabulary as both BPE readers keep it (byte-level, bytebpe.h; SentencePiece
// style, sentencepiecebpe.h): id ↔ spelling, and the bytes each id stands for. No Qt.
#pragma once

#include "text/gpt2files.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {

class BpeVocabulary {
public:
    // One more than the largest id.
    [[nodiscard]] int vocabularySize() const { return static_cast<int>(tokens_.size()); }
    [[nodiscard]] bool has(int id) const
    {
        return id >= 0 && id < vocabularySize() && used_[static_cast<std::size_t>(id)];
    }
    // The spelling and the bytes of `id`; both throw std::out_of_range for an id the
    // vocabulary does not have.
    [[nodiscard]] const std::string& token(int id) const;
    [[nodiscard]] const std::string& bytes(int id) const;
    // The id of a spelling, if the vocabulary has it.
    [[nodiscard]] std::optional<int> id(std::string_view token) const;

protected:
    // The table of `vocabulary`, each entry's bytes by `bytesOf` (which may refuse a spelling
    // by throwing). Throws TokenizerFileError naming `file`: an id of 10 million or more, an id
    // given to two spellings.
    void fill(std::vector<VocabEntry> vocabulary, const std::filesystem::path& file,
              const std::function<std::string(const VocabEntry&)>& bytesOf);
    // The index of an id the vocabulary has; throws std::out_of_range for any other.
    [[nodiscard]] std::size_t checkedIndex(int id) const;

    std::unordered_map<std::string, int> ids_; // spelling → id
    std::vector<std::string> tokens_;          // id → spelling ("" for an unused id)
    std::vector<std::string> tokenBytes_;      // id → bytes
    std::vector<bool> used_;                   // id → the vocabulary has it
};

} // namespace attn
