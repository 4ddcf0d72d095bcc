// BERT's tokenizer: a vocab.txt read by WordPiece after BERT's basic tokenizer, as Hugging
// Face's BertTokenizer (tokenization_bert.py) and BertTokenizerFast (BertNormalizer,
// BertPreTokenizer, WordPiece) give the ids.
//
// encode:
//   1. the special tokens the vocabulary has ([PAD] [UNK] [CLS] [SEP] [MASK]) found whole
//      in the raw text, as typed (never lower-cased or split);
//   2. each stretch between them cleaned (U+0000, U+FFFD and control and format
//      characters, category C*, dropped; white space made a space), CJK ideographs (the
//      ranges of BERT's _is_chinese_char) set apart with spaces, lower-cased and stripped
//      of accents (NFD, then no Mn marks) as the casing says;
//   3. cut at white space, each punctuation character (ASCII's non-alphanumeric symbols,
//      Unicode's P*) a word of its own;
//   4. each word cut greedily into the longest pieces the vocabulary has, "##" before every
//      piece but the first; a word longer than 100 characters, or one no pieces spell, is
//      [UNK];
//   5. [CLS] before and [SEP] after.
#pragma once

#include "text/modeltokenizer.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn {

// The casing of tokenizer_config.json (Hugging Face's defaults when it is missing).
struct WordPieceCasing {
    bool lowerCase = true;              // do_lower_case
    std::optional<bool> stripAccents;   // strip_accents; unset: as lowerCase
    bool splitChineseCharacters = true; // tokenize_chinese_chars
    [[nodiscard]] bool stripsAccents() const { return stripAccents.value_or(lowerCase); }
    bool operator==(const WordPieceCasing&) const = default;
};

class WordPieceTokenizer final : public ModelTokenizer {
public:
    // The folder's vocab.txt (one token a line, id = line number, 0-based) with the casing of
    // its tokenizer_config.json (do_lower_case, default true; strip_accents, default = lower
    // case; tokenize_chinese_chars, default true) when present. Throws TokenizerFileError
    // (gpt2files.h) naming the file and its fault: vocab.txt missing, empty, not UTF-8, a
    // token twice, no [UNK], [CLS] or [SEP]; a tokenizer_config.json that is not JSON or
    // whose casing fields are not true/false.
    [[nodiscard]] static std::unique_ptr<WordPieceTokenizer>
    fromFolder(const std::filesystem::path& folder);
    // The tokenizer of a vocab.txt's text and, if given, a tokenizer_config.json's text; the
    // paths only name the files in errors.
    [[nodiscard]] static std::unique_ptr<WordPieceTokenizer>
    fromText(std::string_view vocabTxt, std::optional<std::string_view> tokenizerConfigJson,
             const std::filesystem::path& vocabFile = "vocab.txt",
             const std::filesystem::path& configFile = "tokenizer_config.json");
    // The tokenizer of a vocabulary given as its tokens (id = index, vocab.txt's spelling:
    // "##ing") with `casing` (a GGUF file's tokenizer.ggml.tokens, turned back). Throws
    // TokenizerFileError naming `source` as fromText does, and for a token holding a line
    // break.
    [[nodiscard]] static std::unique_ptr<WordPieceTokenizer>
    fromTokens(const std::vector<std::string>& tokens, WordPieceCasing casing,
               const std::filesystem::path& source);
    // The casing of a tokenizer_config.json's text. Throws TokenizerFileError naming `file`.
    [[nodiscard]] static WordPieceCasing readCasing(std::string_view json,
                                                    const std::filesystem::path& file);

    // The ids of "[CLS] text [SEP]" as BertTokenizer(Fast) gives them; special tokens typed
    // in the text stay one token each. Throws InputError (Refusal::InvalidUtf8) for invalid
    // UTF-8. Thread-safe.
    [[nodiscard]] std::vector<int> encodeIds(std::string_view text) const override;
    // The words after the basic tokenizer (steps 1–3 above, special tokens included), before
    // WordPiece: what BERT's BasicTokenizer.tokenize gives. Throws as encodeIds().
    [[nodiscard]] std::vector<std::string> basicWords(std::string_view text) const;

    [[nodiscard]] int vocabularySize() const override { return static_cast<int>(tokens_.size()); }
    // The vocabulary's line: "##ing", "[MASK]", "的".
    [[nodiscard]] const std::string& token(int id) const override;
    [[nodiscard]] std::optional<int> id(std::string_view token) const override;
    // What the piece spells: "ing" for "##ing", a special token's own text.
    [[nodiscard]] const std::string& bytes(int id) const override;

    [[nodiscard]] int clsId() const { return cls_; }
    [[nodiscard]] int sepId() const { return sep_; }
    [[nodiscard]] int unkId() const { return unk_; }
    // [MASK], if the vocabulary has it.
    [[nodiscard]] std::optional<int> maskId() const { return mask_; }
    // [PAD], if the vocabulary has it.
    [[nodiscard]] std::optional<int> padId() const { return pad_; }
    [[nodiscard]] const WordPieceCasing& casing() const { return casing_; }

private:
    WordPieceTokenizer(std::string_view vocabTxt, WordPieceCasing casing,
                       const std::filesystem::path& vocabFile);
    // The special token at byte `at` of `text`, longest first, or -1.
    [[nodiscard]] int specialAt(std::string_view text, std::size_t at) const;
    void appendWordPieces(const std::string& word, std::vector<int>& ids) const;
    // Calls `word` with each word of the stretches between special tokens and `special`
    // with each special token's id, in order.
    template <class Word, class Special>
    void forEachWord(std::string_view text, Word&& word, Special&& special) const;

    std::vector<std::string> tokens_;
    std::vector<std::string> bytes_;
    std::unordered_map<std::string, int> ids_;
    std::vector<int> specials_; // the special tokens' ids, longest first
    WordPieceCasing casing_;
    int unk_ = 0, cls_ = 0, sep_ = 0;
    std::optional<int> mask_, pad_;
};

} // namespace attn
