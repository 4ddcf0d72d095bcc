// libFuzzer target: GPT-2's tokenizer (tests/data/gpt2) and its file readers on arbitrary
// bytes. The first byte picks what is fuzzed:
//   0: the bytes as a text. Either InputError (invalid UTF-8) or ids whose decode() is the
//      text byte for byte, whose pieces cover the text, and one label per id;
//   1: the bytes as ids (two bytes each): decode() and labels() of any ids the vocabulary
//      has, never a crash;
//   2: the bytes as vocab.json, 3: as merges.txt: a result or TokenizerFileError.
// Any other exception, a crash or a sanitizer report is a finding.
#include "engine/options.h"
#include "text/gpt2pretokenizer.h"
#include "text/gpt2tokenizer.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void broken(const char* promise)
{
    std::fprintf(stderr, "the GPT-2 tokenizer broke its promise: %s\n", promise);
    std::abort();
}

const attn::Gpt2Tokenizer& tokenizer()
{
    static const auto gpt2 = attn::Gpt2Tokenizer::fromFolder(ATTN_GPT2_DATA_DIR);
    return gpt2;
}

void fuzzText(std::string_view text)
{
    attn::Gpt2Encoding encoding;
    try {
        encoding = tokenizer().encode(text);
    } catch (const attn::InputError& error) {
        if (error.refusal() != attn::Refusal::InvalidUtf8)
            broken("encode() refused a text for another reason than invalid UTF-8");
        return;
    }
    if (tokenizer().decode(encoding.ids) != text)
        broken("decode(encode(text)) is not the text");
    std::size_t covered = 0;
    for (const std::string_view piece : attn::gpt2Pieces(text)) {
        if (piece.empty() || piece.data() != text.data() + covered)
            broken("the pieces do not cover the text in order");
        covered += piece.size();
    }
    if (covered != text.size())
        broken("the pieces do not cover the whole text");
    if (tokenizer().labels(encoding.ids).size() != encoding.ids.size())
        broken("not one label per token");
}

void fuzzIds(std::string_view bytes)
{
    std::vector<int> ids;
    for (std::size_t i = 0; i + 1 < bytes.size(); i += 2)
        ids.push_back(
            (static_cast<unsigned char>(bytes[i]) << 8 | static_cast<unsigned char>(bytes[i + 1])) %
            tokenizer().vocabularySize());
    (void)tokenizer().decode(ids);
    const auto labels = tokenizer().labels(ids);
    for (std::size_t t = 0; t < labels.size(); ++t) {
        const auto& label = labels[t];
        if (label.label.empty() || label.runFirst < 0 ||
            static_cast<std::size_t>(label.runFirst) > t || label.runLength < 1)
            broken("a label is empty or its run is out of place");
    }
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
            fuzzText(bytes);
            break;
        case 1:
            fuzzIds(bytes);
            break;
        case 2:
            (void)attn::parseVocabJson(bytes, "vocab.json");
            break;
        default:
            (void)attn::parseMerges(bytes, "merges.txt");
            break;
        }
    } catch (const attn::TokenizerFileError&) {
        if (data[0] % 4 < 2)
            broken("a TokenizerFileError from encode, decode or labels");
    }
    return 0;
}
