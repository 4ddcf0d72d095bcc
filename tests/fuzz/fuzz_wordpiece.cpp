// libFuzzer target: WordPieceTokenizer (BERT's vocab.txt) on the test vocabulary
// (tests/data/wordpiece) and on arbitrary vocab.txt and tokenizer_config.json files. The
// first byte picks what is fuzzed:
//   0: the bytes as a text, lower-cased; 1: the same, cased. Either InputError (invalid
//      UTF-8) or ids that begin with [CLS], end with [SEP], are all in the vocabulary,
//      have one label each and are grouped into words (wordgroups.h) each in one, in order;
//   2: the bytes as a vocab.txt (with the test config): a tokenizer or TokenizerFileError;
//      a tokenizer then encodes a few texts with the promises above;
//   3: the bytes as a tokenizer_config.json (with the test vocabulary): the same.
// Any other exception, a crash or a sanitizer report is a finding.
#include "engine/options.h"
#include "text/gpt2files.h"
#include "text/wordgroups.h"
#include "text/wordpiecetokenizer.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void broken(const char* promise)
{
    std::fprintf(stderr, "the WordPiece tokenizer broke its promise: %s\n", promise);
    std::abort();
}

const std::string& testVocab()
{
    static const std::string text = [] {
        std::ifstream file(ATTN_WORDPIECE_DIR "/vocab.txt", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        if (bytes.empty())
            broken("tests/data/wordpiece/vocab.txt is readable");
        return bytes;
    }();
    return text;
}

const attn::WordPieceTokenizer& tokenizer(bool lowerCase)
{
    static const auto uncased =
        attn::WordPieceTokenizer::fromText(testVocab(), std::string_view("{}"));
    static const auto cased = attn::WordPieceTokenizer::fromText(
        testVocab(), std::string_view(R"({"do_lower_case": false})"));
    return lowerCase ? *uncased : *cased;
}

void fuzzText(const attn::WordPieceTokenizer& tokenizer, std::string_view text)
{
    std::vector<int> ids;
    try {
        ids = tokenizer.encodeIds(text);
    } catch (const attn::InputError& error) {
        if (error.refusal() != attn::Refusal::InvalidUtf8)
            broken("encodeIds() refused a text for another reason than invalid UTF-8");
        return;
    }
    if (ids.size() < 2 || ids.front() != tokenizer.clsId() || ids.back() != tokenizer.sepId())
        broken("the ids are not [CLS] … [SEP]");
    for (const int id : ids)
        if (id < 0 || id >= tokenizer.vocabularySize())
            broken("an id outside the vocabulary");
    const auto labels = tokenizer.labels(ids);
    if (labels.size() != ids.size())
        broken("not one label per token");
    // By word (wordgroups.h): every token in one word, in order.
    int next = 0;
    for (const attn::WordGroup& word : attn::groupWords(attn::wordTokens(labels, true)))
        for (const int t : word.tokens)
            if (t != next++)
                broken("the words do not cover the tokens once, in order");
    if (next != static_cast<int>(ids.size()))
        broken("the words leave tokens out");
    (void)tokenizer.basicWords(text);
}

void fuzzFiles(std::string_view vocab, std::string_view config)
{
    std::unique_ptr<attn::WordPieceTokenizer> read;
    try {
        read = attn::WordPieceTokenizer::fromText(vocab, config);
    } catch (const attn::TokenizerFileError&) {
        return;
    }
    for (const char* text : {"Hello, world! 123 unaffable", "[MASK] ab  [SEP]x",
                             "\xE4\xBD\xA0\xE5\xA5\xBD\n\n\xC3\xA9"})
        fuzzText(*read, text);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    try {
        switch (data[0] % 4) {
        case 0:
        case 1:
            fuzzText(tokenizer(data[0] % 4 == 0), bytes);
            break;
        case 2:
            fuzzFiles(bytes, "{}");
            break;
        default:
            fuzzFiles(testVocab(), bytes);
            break;
        }
    } catch (const attn::TokenizerFileError&) {
        broken("a TokenizerFileError outside reading a file");
    }
    return 0;
}
