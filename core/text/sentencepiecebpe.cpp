// SentencePiece-style BPE after Hugging Face's tokenizers: BPE::merge_word (byte_fallback,
// unk_token, fuse_unk) and Word::merge_all (models/bpe/model.rs, word.rs), and the
// ByteFallback and Replace("▁", " ") decoders for a token's text.
#include "text/sentencepiecebpe.h"

#include "base/utf8.h"

#include <climits>
#include <queue>
#include <stdexcept>

namespace attn {
namespace {

std::uint64_t pairKey(int left, int right)
{
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32 |
           static_cast<std::uint32_t>(right);
}

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

// "<0xE6>": what Rust's format!("<{b:#04X}>") spells byte E6 as.
std::string byteSpelling(int b)
{
    static constexpr char digits[] = "0123456789ABCDEF";
    return std::string("<0x") + digits[b >> 4] + digits[b & 15] + '>';
}

// `spelling` with every `mark` made a space.
std::string withSpaces(std::string_view spelling, std::string_view mark)
{
    std::string out;
    for (std::size_t at = 0; at < spelling.size();) {
        if (!mark.empty() && spelling.substr(at).starts_with(mark)) {
            out += ' ';
            at += mark.size();
        } else {
            out += spelling[at++];
        }
    }
    return out;
}

} // namespace

std::optional<unsigned char> sentencePieceByte(std::string_view spelling)
{
    // The ByteFallback decoder's test: six characters, "<0x", two hex digits, ">".
    if (spelling.size() != 6 || !spelling.starts_with("<0x") || spelling.back() != '>')
        return std::nullopt;
    const int high = hexDigit(spelling[3]), low = hexDigit(spelling[4]);
    if (high < 0 || low < 0)
        return std::nullopt;
    return static_cast<unsigned char>(high * 16 + low);
}

// One symbol of a piece being merged: a token, linked to its neighbours; length 0 once it
// has been merged into the symbol on its left.
struct SentencePieceBpe::Symbol {
    int id = 0;
    int prev = -1;
    int next = -1;
    std::size_t length = 0; // bytes of the piece it covers
};

SentencePieceBpe::SentencePieceBpe(std::vector<VocabEntry> vocabulary,
                                   const std::vector<std::pair<std::string, std::string>>& merges,
                                   SentencePieceOptions options, const std::filesystem::path& file)
    : options_(std::move(options))
{
    // 1. The vocabulary: unique ids; each token's text is its spelling with "▁" a space, or
    // the byte a "<0xNN>" token stands for.
    fill(std::move(vocabulary), file, [&](const VocabEntry& entry) {
        const auto byte = sentencePieceByte(entry.token);
        return byte ? std::string(1, static_cast<char>(*byte))
                    : withSpaces(entry.token, options_.spaceMark);
    });
    for (int b = 0; b < 256; ++b)
        if (const auto found = ids_.find(byteSpelling(b)); found != ids_.end())
            byteIds_[static_cast<std::size_t>(b)] = found->second;
    if (options_.unkToken) {
        const auto found = ids_.find(*options_.unkToken);
        if (found == ids_.end())
            throw TokenizerFileError(file, "the model's unk_token \"" + *options_.unkToken +
                                               "\" is not in its vocab");
        unkId_ = found->second;
    }

    // 2. The merges as pairs of ids. As in Hugging Face's BPE builder, each side and the
    // result must be tokens, and a pair given twice keeps its later rank.
    if (merges.size() > static_cast<std::size_t>(INT_MAX))
        throw TokenizerFileError(file, "too many merges");
    merges_.reserve(merges.size());
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto& [left, right] = merges[rank];
        std::array<int, 3> parts{};
        const std::array<std::string, 3> spellings{left, right, left + right};
        for (std::size_t i = 0; i < 3; ++i) {
            const auto found = ids_.find(spellings[i]);
            if (found == ids_.end())
                throw TokenizerFileError(file, "the merge \"" + left + ' ' + right + "\" (rank " +
                                                   std::to_string(rank) + ") needs \"" +
                                                   spellings[i] + "\", which model.vocab lacks");
            parts[i] = found->second;
        }
        merges_[pairKey(parts[0], parts[1])] = {static_cast<int>(rank), parts[2]};
    }
}

const SentencePieceBpe::Merge* SentencePieceBpe::mergeOf(int left, int right) const
{
    const auto found = merges_.find(pairKey(left, right));
    return found == merges_.end() ? nullptr : &found->second;
}

std::vector<SentencePieceBpe::Symbol> SentencePieceBpe::symbolsOf(std::string_view piece) const
{
    // merge_word: each character a token; one the vocabulary lacks as its bytes' tokens, or
    // the unknown token, which waits so that fuse_unk can lengthen it.
    std::vector<Symbol> symbols;
    const auto add = [&](int id, std::size_t length) {
        if (!symbols.empty())
            symbols.back().next = static_cast<int>(symbols.size());
        symbols.push_back({id, static_cast<int>(symbols.size()) - 1, -1, length});
    };
    std::size_t unknown = 0; // bytes of the pending unknown token; 0 when none is pending
    for (std::size_t at = 0; at < piece.size();) {
        const std::size_t length = utf8CharAt(piece, at).length;
        const std::string_view character = piece.substr(at, length);
        at += length;
        if (const auto found = ids_.find(std::string(character)); found != ids_.end()) {
            if (unknown > 0)
                add(*unkId_, unknown);
            unknown = 0;
            add(found->second, length);
            continue;
        }
        if (options_.byteFallback) {
            bool all = true;
            for (const char b : character)
                all = all && byteIds_[static_cast<unsigned char>(b)].has_value();
            if (all) { // a pending unknown token stays pending, as in merge_word
                for (const char b : character)
                    add(*byteIds_[static_cast<unsigned char>(b)], 1);
                continue;
            }
        }
        if (!unkId_)
            continue; // no unknown token: the character is dropped
        if (unknown > 0 && !options_.fuseUnk) {
            add(*unkId_, unknown);
            unknown = 0;
        }
        unknown += length;
    }
    if (unknown > 0)
        add(*unkId_, unknown);
    return symbols;
}

void SentencePieceBpe::mergeAll(std::vector<Symbol>& symbols) const
{
    // Word::merge_all: a queue of mergeable neighbours, the lowest rank first and of equal
    // ranks the leftmost; an entry whose pair has changed since it was queued is skipped.
    struct Candidate {
        int rank;
        int pos;
        int result;
        bool operator<(const Candidate& other) const // priority_queue's top is the largest
        {
            return rank != other.rank ? rank > other.rank : pos > other.pos;
        }
    };
    std::priority_queue<Candidate> queue;
    const auto push = [&](int pos) {
        const Symbol& left = symbols[static_cast<std::size_t>(pos)];
        if (left.next < 0)
            return;
        if (const Merge* merge = mergeOf(left.id, symbols[static_cast<std::size_t>(left.next)].id))
            queue.push({merge->rank, pos, merge->result});
    };
    for (int pos = 0; pos + 1 < static_cast<int>(symbols.size()); ++pos)
        push(pos);
    while (!queue.empty()) {
        const Candidate top = queue.top();
        queue.pop();
        Symbol& left = symbols[static_cast<std::size_t>(top.pos)];
        if (left.length == 0 || left.next < 0)
            continue;
        Symbol& right = symbols[static_cast<std::size_t>(left.next)];
        const Merge* merge = mergeOf(left.id, right.id);
        if (!merge || merge->result != top.result)
            continue; // stale
        left.id = top.result;
        left.length += right.length;
        left.next = right.next;
        right.length = 0;
        if (left.next >= 0)
            symbols[static_cast<std::size_t>(left.next)].prev = top.pos;
        if (left.prev >= 0)
            push(left.prev);
        push(top.pos);
    }
}

void SentencePieceBpe::appendPiece(std::string_view piece, std::vector<int>& ids) const
{
    if (options_.ignoreMerges)
        if (const auto found = ids_.find(std::string(piece)); found != ids_.end()) {
            ids.push_back(found->second);
            return;
        }
    std::vector<Symbol> symbols = symbolsOf(piece);
    mergeAll(symbols);
    for (const Symbol& symbol : symbols)
        if (symbol.length > 0)
            ids.push_back(symbol.id);
}

} // namespace attn
