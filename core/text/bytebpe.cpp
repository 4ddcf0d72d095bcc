// Byte-level BPE after OpenAI's gpt-2/src/encoder.py: bytes_to_unicode(), bpe() and a
// cache of merged pieces.
#include "text/bytebpe.h"

#include "base/utf8.h"

#include <algorithm>
#include <climits>
#include <mutex>
#include <stdexcept>

namespace attn {
namespace {

// encoder.py's bytes_to_unicode(): the printable Latin-1 bytes stand for themselves, the
// other 68 (controls, space, soft hyphen…) for 256, 257, … in byte order, so that every
// byte has a visible letter and no piece needs a space.
std::array<char32_t, 256> bytesToUnicode()
{
    std::array<char32_t, 256> map{};
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
        const bool printable =
            (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
        map[static_cast<std::size_t>(b)] = printable ? static_cast<char32_t>(b) : next++;
    }
    return map;
}

// Each letter of the alphabet → its byte.
const std::unordered_map<char32_t, int>& byteOfLetter()
{
    static const std::unordered_map<char32_t, int> byteOf = [] {
        std::unordered_map<char32_t, int> map;
        const auto alphabet = bytesToUnicode();
        for (int b = 0; b < 256; ++b)
            map[alphabet[static_cast<std::size_t>(b)]] = b;
        return map;
    }();
    return byteOf;
}

// Pieces longer than this are merged but not remembered (a pasted blob of punctuation
// would otherwise fill the cache with one-off entries).
constexpr std::size_t kMaxCachedPieceBytes = 256;
constexpr std::size_t kMaxCachedPieces = 1 << 16;

} // namespace

std::optional<std::string> byteLevelBytes(std::string_view spelling)
{
    const auto& byteOf = byteOfLetter();
    std::string out;
    for (std::size_t pos = 0; pos < spelling.size();) {
        const Utf8Char c = utf8CharAt(spelling, pos);
        if (c.code < 0)
            return std::nullopt;
        const auto b = byteOf.find(static_cast<char32_t>(c.code));
        if (b == byteOf.end())
            return std::nullopt;
        out += static_cast<char>(b->second);
        pos += c.length;
    }
    return out;
}

struct ByteLevelBpe::Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::vector<int>> pieces; // raw bytes → ids
};

ByteLevelBpe::ByteLevelBpe(ByteLevelBpe&&) noexcept = default;
ByteLevelBpe& ByteLevelBpe::operator=(ByteLevelBpe&&) noexcept = default;
ByteLevelBpe::~ByteLevelBpe() = default;

ByteLevelBpe::ByteLevelBpe(std::vector<VocabEntry> vocabulary,
                           const std::vector<std::pair<std::string, std::string>>& merges,
                           const BpeSources& sources, bool ignoreMerges)
    : ignoreMerges_(ignoreMerges), cache_(std::make_unique<Cache>())
{
    // 1. The alphabet: each byte's letter.
    const auto alphabet = bytesToUnicode();
    for (int b = 0; b < 256; ++b)
        appendUtf8(byteSymbols_[static_cast<std::size_t>(b)],
                   alphabet[static_cast<std::size_t>(b)]);

    // 2. The vocabulary: unique ids, every spelling in the alphabet.
    const auto& vocabFile = sources.vocabFile;
    fill(std::move(vocabulary), vocabFile, [&](const VocabEntry& entry) {
        auto raw = byteLevelBytes(entry.token);
        if (!raw || raw->empty())
            throw TokenizerFileError(vocabFile, "the token with id " + std::to_string(entry.id) +
                                                    " is not spelt in GPT-2's byte alphabet");
        return std::move(*raw);
    });
    for (int b = 0; b < 256; ++b) {
        const auto found = ids_.find(byteSymbols_[static_cast<std::size_t>(b)]);
        if (found == ids_.end())
            throw TokenizerFileError(vocabFile, "the token of byte " + std::to_string(b) + " (\"" +
                                                    byteSymbols_[static_cast<std::size_t>(b)] +
                                                    "\") is missing");
        byteIds_[static_cast<std::size_t>(b)] = found->second;
    }

    // 3. The merges by rank; each side and its result must be tokens, or a piece could
    // merge into a token without an id.
    if (merges.size() > static_cast<std::size_t>(INT_MAX))
        throw TokenizerFileError(sources.mergesFile, "too many merges");
    ranks_.reserve(merges.size());
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto& [left, right] = merges[rank];
        const std::string pair = left + ' ' + right;
        for (const std::string& part : {left, right, left + right})
            if (!ids_.contains(part))
                throw TokenizerFileError(sources.mergesFile,
                                         "the merge \"" + pair + "\" (rank " +
                                             std::to_string(rank) + ") needs \"" + part +
                                             "\", which " + sources.vocabName + " lacks");
        // A repeated pair takes its last rank, as encoder.py's dict(zip(merges, …)) and
        // Hugging Face's merge map (collected into a hash map) keep it.
        ranks_[pair] = static_cast<int>(rank);
    }
}

std::vector<int> ByteLevelBpe::mergePiece(std::string_view piece) const
{
    // encoder.py's bpe(): merge the adjacent pair of lowest rank, every occurrence of it
    // left to right, until no adjacent pair has a rank. (Hugging Face's BPE merges the
    // lowest rank first too, the leftmost of equal ranks first: the same tokens.)
    std::vector<std::string> word;
    word.reserve(piece.size());
    for (const char b : piece)
        word.push_back(byteSymbols_[static_cast<unsigned char>(b)]);
    if (ignoreMerges_) {
        std::string whole;
        for (const auto& symbol : word)
            whole += symbol;
        if (const auto found = ids_.find(whole); found != ids_.end())
            return {found->second};
    }
    std::string key;
    while (word.size() > 1) {
        int best = INT_MAX;
        std::size_t bestAt = 0;
        for (std::size_t i = 0; i + 1 < word.size(); ++i) {
            key.assign(word[i]).append(1, ' ').append(word[i + 1]);
            const auto found = ranks_.find(key);
            if (found != ranks_.end() && found->second < best) {
                best = found->second;
                bestAt = i;
            }
        }
        if (best == INT_MAX)
            break;
        const std::string first = word[bestAt];
        const std::string second = word[bestAt + 1];
        std::vector<std::string> merged;
        merged.reserve(word.size());
        for (std::size_t i = 0; i < word.size();) {
            if (i + 1 < word.size() && word[i] == first && word[i + 1] == second) {
                merged.push_back(first + second);
                i += 2;
            } else {
                merged.push_back(std::move(word[i]));
                ++i;
            }
        }
        word = std::move(merged);
    }
    std::vector<int> ids;
    ids.reserve(word.size());
    for (const auto& symbol : word)
        ids.push_back(ids_.at(symbol)); // checked at load: every merge's result is a token
    return ids;
}

void ByteLevelBpe::appendPiece(std::string_view piece, std::vector<int>& ids) const
{
    if (piece.size() == 1) {
        ids.push_back(byteIds_[static_cast<unsigned char>(piece[0])]);
        return;
    }
    const bool cacheable = piece.size() <= kMaxCachedPieceBytes;
    if (cacheable) {
        const std::lock_guard lock(cache_->mutex);
        const auto found = cache_->pieces.find(std::string(piece));
        if (found != cache_->pieces.end()) {
            ids.insert(ids.end(), found->second.begin(), found->second.end());
            return;
        }
    }
    std::vector<int> merged = mergePiece(piece);
    ids.insert(ids.end(), merged.begin(), merged.end());
    if (cacheable) {
        const std::lock_guard lock(cache_->mutex);
        if (cache_->pieces.size() >= kMaxCachedPieces)
            cache_->pieces.clear();
        cache_->pieces.emplace(std::string(piece), std::move(merged));
    }
}

} // namespace attn
