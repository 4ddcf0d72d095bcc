#include "text/bpevocabulary.h"

#include <algorithm>
#include <stdexcept>

namespace attn {

void BpeVocabulary::fill(std::vector<VocabEntry> vocabulary, const std::filesystem::path& file,
                         const std::function<std::string(const VocabEntry&)>& bytesOf)
{
    int maxId = -1;
    for (const auto& entry : vocabulary)
        maxId = std::max(maxId, entry.id);
    if (maxId >= 10'000'000)
        throw TokenizerFileError(file, "the id " + std::to_string(maxId) + " is too large");
    tokens_.assign(static_cast<std::size_t>(maxId + 1), {});
    tokenBytes_.assign(tokens_.size(), {});
    used_.assign(tokens_.size(), false);
    ids_.clear();
    ids_.reserve(vocabulary.size());
    for (auto& entry : vocabulary) {
        const auto index = static_cast<std::size_t>(entry.id);
        if (used_[index])
            throw TokenizerFileError(file, "the id " + std::to_string(entry.id) +
                                               " is given to both \"" + tokens_[index] +
                                               "\" and \"" + entry.token + "\"");
        tokenBytes_[index] = bytesOf(entry);
        used_[index] = true;
        ids_.emplace(entry.token, entry.id);
        tokens_[index] = std::move(entry.token);
    }
}

std::size_t BpeVocabulary::checkedIndex(int id) const
{
    if (!has(id))
        throw std::out_of_range("the vocabulary has no token " + std::to_string(id));
    return static_cast<std::size_t>(id);
}

const std::string& BpeVocabulary::token(int id) const
{
    return tokens_[checkedIndex(id)];
}

const std::string& BpeVocabulary::bytes(int id) const
{
    return tokenBytes_[checkedIndex(id)];
}

std::optional<int> BpeVocabulary::id(std::string_view token) const
{
    const auto found = ids_.find(std::string(token));
    return found == ids_.end() ? std::nullopt : std::optional<int>(found->second);
}

} // namespace attn
