// Byte-level BPE after OpenAI's gpt-2/src/encoder.py: bytes_to_unicode(), bpe() and a
// cache of merged pieces.
#include "gpt2tokenizer.h"

#include "gpt2pretokenizer.h"
#include "utf8.h"

#include <algorithm>
#include <climits>
#include <cstdint>
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

// The raw bytes a spelling stands for, or nothing when it has a letter outside the
// alphabet or is not UTF-8.
std::optional<std::string> spellingBytes(std::string_view spelling,
                                         const std::unordered_map<char32_t, int>& byteOf)
{
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

// Pieces longer than this are merged but not remembered (a pasted blob of punctuation
// would otherwise fill the cache with one-off entries).
constexpr std::size_t kMaxCachedPieceBytes = 256;
constexpr std::size_t kMaxCachedPieces = 1 << 16;

} // namespace

struct Gpt2Tokenizer::Cache {
    std::mutex mutex;
    std::unordered_map<std::string, std::vector<int>> pieces; // raw bytes → ids
};

Gpt2Tokenizer::Gpt2Tokenizer(Gpt2Tokenizer&&) noexcept = default;
Gpt2Tokenizer& Gpt2Tokenizer::operator=(Gpt2Tokenizer&&) noexcept = default;
Gpt2Tokenizer::~Gpt2Tokenizer() = default;

Gpt2Tokenizer Gpt2Tokenizer::fromFolder(const std::filesystem::path& folder)
{
    const auto vocabPath = folder / "vocab.json";
    const auto mergesPath = folder / "merges.txt";
    const std::string vocab = readTokenizerFile(vocabPath);
    const std::string merges = readTokenizerFile(mergesPath);
    return Gpt2Tokenizer(vocab, merges, vocabPath, mergesPath);
}

Gpt2Tokenizer::Gpt2Tokenizer(std::string_view vocabJson, std::string_view mergesText,
                             const std::filesystem::path& vocabPath,
                             const std::filesystem::path& mergesPath)
    : cache_(std::make_unique<Cache>())
{
    // 1. The alphabet: each byte's letter, and back.
    const auto alphabet = bytesToUnicode();
    std::unordered_map<char32_t, int> byteOf;
    for (int b = 0; b < 256; ++b) {
        appendUtf8(byteSymbols_[static_cast<std::size_t>(b)],
                   alphabet[static_cast<std::size_t>(b)]);
        byteOf[alphabet[static_cast<std::size_t>(b)]] = b;
    }

    // 2. The vocabulary: unique ids, every spelling in the alphabet.
    std::vector<VocabEntry> entries = parseVocabJson(vocabJson, vocabPath);
    int maxId = 0;
    for (const auto& entry : entries)
        maxId = std::max(maxId, entry.id);
    if (maxId >= 10'000'000)
        throw TokenizerFileError(vocabPath, "the id " + std::to_string(maxId) + " is too large");
    tokens_.resize(static_cast<std::size_t>(maxId) + 1);
    tokenBytes_.resize(tokens_.size());
    used_.assign(tokens_.size(), false);
    for (auto& entry : entries) {
        const auto index = static_cast<std::size_t>(entry.id);
        if (used_[index])
            throw TokenizerFileError(vocabPath, "the id " + std::to_string(entry.id) +
                                                    " is given to both \"" + tokens_[index] +
                                                    "\" and \"" + entry.token + "\"");
        auto raw = spellingBytes(entry.token, byteOf);
        if (!raw || raw->empty())
            throw TokenizerFileError(vocabPath, "the token with id " + std::to_string(entry.id) +
                                                    " is not spelt in GPT-2's byte alphabet");
        used_[index] = true;
        tokenBytes_[index] = std::move(*raw);
        ids_.emplace(entry.token, entry.id);
        tokens_[index] = std::move(entry.token);
    }
    for (int b = 0; b < 256; ++b) {
        const auto found = ids_.find(byteSymbols_[static_cast<std::size_t>(b)]);
        if (found == ids_.end())
            throw TokenizerFileError(vocabPath, "the token of byte " + std::to_string(b) + " (\"" +
                                                    byteSymbols_[static_cast<std::size_t>(b)] +
                                                    "\") is missing");
        byteIds_[static_cast<std::size_t>(b)] = found->second;
    }

    // 3. The merges by rank; each side and its result must be tokens, or encode() could
    // make a token without an id.
    const auto merges = parseMerges(mergesText, mergesPath);
    ranks_.reserve(merges.size());
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto& [left, right] = merges[rank];
        const std::string pair = left + ' ' + right;
        for (const std::string& part : {left, right, left + right})
            if (!ids_.contains(part))
                throw TokenizerFileError(mergesPath, "the merge \"" + pair + "\" (rank " +
                                                         std::to_string(rank) + ") needs \"" +
                                                         part + "\", which vocab.json lacks");
        if (rank > static_cast<std::size_t>(INT_MAX))
            throw TokenizerFileError(mergesPath, "too many merges");
        ranks_.emplace(pair, static_cast<int>(rank)); // a repeated pair keeps its first rank
    }
}

std::vector<int> Gpt2Tokenizer::mergePiece(std::string_view piece) const
{
    // encoder.py's bpe(): merge the adjacent pair of lowest rank, every occurrence of it
    // left to right, until no adjacent pair has a rank.
    std::vector<std::string> word;
    word.reserve(piece.size());
    for (const char b : piece)
        word.push_back(byteSymbols_[static_cast<unsigned char>(b)]);
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

void Gpt2Tokenizer::appendPiece(std::string_view piece, std::vector<int>& ids) const
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

Gpt2Encoding Gpt2Tokenizer::encode(std::string_view text) const
{
    Gpt2Encoding encoding;
    for (const std::string_view piece : gpt2Pieces(text))
        appendPiece(piece, encoding.ids);
    encoding.tokens.reserve(encoding.ids.size());
    for (const int id : encoding.ids)
        encoding.tokens.push_back(tokens_[static_cast<std::size_t>(id)]);
    return encoding;
}

std::size_t Gpt2Tokenizer::checkedIndex(int id) const
{
    if (id < 0 || id >= vocabularySize() || !used_[static_cast<std::size_t>(id)])
        throw std::out_of_range("GPT-2's vocabulary has no token " + std::to_string(id));
    return static_cast<std::size_t>(id);
}

const std::string& Gpt2Tokenizer::token(int id) const
{
    return tokens_[checkedIndex(id)];
}

const std::string& Gpt2Tokenizer::bytes(int id) const
{
    return tokenBytes_[checkedIndex(id)];
}

std::optional<int> Gpt2Tokenizer::id(std::string_view token) const
{
    const auto found = ids_.find(std::string(token));
    return found == ids_.end() ? std::nullopt : std::optional<int>(found->second);
}

std::string Gpt2Tokenizer::decode(std::span<const int> ids) const
{
    std::string raw;
    for (const int id : ids)
        raw += bytes(id);
    return decodeUtf8Replacing(raw);
}

std::vector<TokenLabel> Gpt2Tokenizer::labels(std::span<const int> ids) const
{
    std::vector<std::string> raw;
    std::vector<std::string> pieces;
    raw.reserve(ids.size());
    pieces.reserve(ids.size());
    for (const int id : ids) {
        raw.push_back(bytes(id));
        pieces.push_back(token(id));
    }
    return labelTokens(raw, pieces);
}

} // namespace attn
