// BERT's WordPiece tokenizer from a GGUF file's metadata (tokenizer.ggml.model "bert"), as
// llama.cpp's convert_hf_to_gguf.py wrote vocab.txt into it:
//   - tokenizer.ggml.tokens in its "phantom space" spelling: a control token ([CLS], [SEP],
//     [MASK] …, token type 3) as it was, a continuation piece "##ing" as "ing", every other
//     token after a "▁" (U+2581, "▁the"); turned back here into vocab.txt's spelling;
//   - no casing: the file does not say whether the model was uncased. llama.cpp's own
//     tokenizer (llama-vocab.cpp, WPM) lower-cases every text and keeps accents (NFD). This
//     reader follows the checkpoint's tokenizer instead, as Hugging Face runs it: uncased
//     (lower case, accents stripped) unless the vocabulary is plainly cased (word tokens
//     spelt with capitals whose lower-case spelling is a token too, bert-base-cased's "The"
//     and "the"), then cased, accents kept.
// No Qt.
#pragma once

#include "io/gguf.h"
#include "text/wordpiecetokenizer.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// vocab.txt's spelling of a token llama.cpp's converter wrote as `stored`: a control token's
// as it is, "▁the" → "the", "ing" → "##ing".
[[nodiscard]] std::string wordPieceSpelling(std::string_view stored, bool control);

// The casing of a WordPiece vocabulary in vocab.txt's spelling: cased when more than
// kCasedPairs word tokens have capitals and their lower-case spelling is a token too.
inline constexpr int kCasedPairs = 100;
[[nodiscard]] WordPieceCasing guessedCasing(const std::vector<std::string>& tokens);

// The tokenizer of `file`'s tokenizer.ggml.* (model "bert"). Throws TokenizerFileError
// (gpt2files.h) naming `where` and the fault: tokenizer.ggml.model missing or not "bert",
// tokens missing or not strings, token types of another count, a vocabulary WordPiece cannot
// use (a token twice, no [UNK], [CLS] or [SEP]).
[[nodiscard]] std::unique_ptr<WordPieceTokenizer> ggufWordPiece(const GgufFile& file,
                                                                const std::filesystem::path& where);

} // namespace attn
