// Tokens grouped into words, for attention by word (bertviz#40): consecutive tokens whose
// text ICU's word break iterator (the zh locale: a dictionary for Chinese, Unicode's rules
// elsewhere) does not cut apart form one word. No Qt.
//
// The tokens' texts are joined as the model read them (a byte-level BPE's pieces spell the
// text with its spaces; WordPiece's words are joined with a space between them, Chinese
// characters without one, so that the dictionary sees 喜欢 whole), and a token starts a new
// word when a word boundary lies at its start or inside its leading white space. So a
// character spelt by several byte pieces is one word's, a token ICU would cut (Qwen's
// 我喜欢) stays whole in one word, and "##" pieces stay with their word. Special tokens
// ([CLS], [SEP], <|im_start|>, <|endoftext|> …) are words of their own.
#pragma once

#include "text/gpt2labels.h"

#include <string>
#include <vector>

namespace attn {

// One token as the grouping sees it.
struct WordToken {
    std::string text;          // the raw bytes it spells (WordPiece's "##aff": "aff")
    bool special = false;      // a control token: a word of its own
    bool continuation = false; // WordPiece's "##" piece: part of the word before it
    bool wordPiece = false;    // a WordPiece token: a word boundary before it unless a
                               // continuation (or Chinese after Chinese)
    bool operator==(const WordToken&) const = default;
};

// One word: its text and the indices of its tokens (consecutive, ascending).
struct WordGroup {
    std::string text;  // its tokens' texts joined (the special token's own text)
    std::string label; // readable: control characters made visible as a token's label
    std::vector<int> tokens;
    bool operator==(const WordGroup&) const = default;
};

// Whether a spelling reads as a control token's: "[CLS]", "[unused3]", "<|im_start|>",
// "</s>", "<think>" (a bracketed name with a letter in it).
[[nodiscard]] bool readsAsSpecial(std::string_view text);

// The tokens of a run from their labels: each label's bytes, a special token when its
// spelling is its text and reads as one ("[CLS]", "[MASK]", "<|im_start|>", "</s>"), a
// continuation when `wordPiece` and the spelling is "##" before its text.
[[nodiscard]] std::vector<WordToken> wordTokens(const std::vector<TokenLabel>& labels,
                                                bool wordPiece);

// The words of `tokens`, covering every token once, in order. Throws std::runtime_error
// when ICU cannot make its word break iterator.
[[nodiscard]] std::vector<WordGroup> groupWords(const std::vector<WordToken>& tokens);

// The model families whose tokenizer is WordPiece (BERT's), from config's model_type.
[[nodiscard]] bool usesWordPiece(const std::string& family);

} // namespace attn
