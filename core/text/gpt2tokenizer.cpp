// GPT-2's tokenizer: its pre-tokenizer's pieces merged by the byte-level BPE (bytebpe.h).
#include "text/gpt2tokenizer.h"

#include "text/gpt2pretokenizer.h"

namespace attn {
namespace {

ByteLevelBpe readBpe(std::string_view vocabJson, std::string_view mergesText,
                     const std::filesystem::path& vocabPath,
                     const std::filesystem::path& mergesPath)
{
    auto vocabulary = parseVocabJson(vocabJson, vocabPath); // vocab.json's faults first
    return ByteLevelBpe(std::move(vocabulary), parseMerges(mergesText, mergesPath),
                        BpeSources{vocabPath, mergesPath, "vocab.json"});
}

} // namespace

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
    : bpe_(readBpe(vocabJson, mergesText, vocabPath, mergesPath))
{}

Gpt2Encoding Gpt2Tokenizer::encode(std::string_view text) const
{
    Gpt2Encoding encoding;
    for (const std::string_view piece : gpt2Pieces(text))
        bpe_.appendPiece(piece, encoding.ids);
    encoding.tokens.reserve(encoding.ids.size());
    for (const int id : encoding.ids)
        encoding.tokens.push_back(bpe_.token(id));
    return encoding;
}

} // namespace attn
