// libFuzzer target: HfTokenizer on Qwen3's byte-level tokenizer.json (tests/data/qwen3), on
// Mistral 7B's SentencePiece-style one (tests/data/mistral) and on arbitrary tokenizer.json
// files. The first byte picks what is fuzzed: its value modulo 3 the mode, and for modes 0
// and 1 its value divided by 3 the tokenizer (even: Qwen3, odd: Mistral):
//   0: the bytes as a text. Either InputError (invalid UTF-8) or ids with one label each,
//      whose decode() is the text when the text is in NFC (Qwen's normalizer), or for
//      Mistral the text after the space its normalizer puts first (when the text holds no
//      added token and no "▁");
//   1: the bytes as ids (three bytes each): decode() and labels() of any ids the
//      vocabulary has, never a crash;
//   2: the bytes as a tokenizer.json: a tokenizer or TokenizerFileError; a tokenizer then
//      encodes a few texts without a crash. Files with an id of a million or more are
//      skipped (the reader takes ids up to 10 million, a vocabulary's worth of memory).
// Any other exception, a crash or a sanitizer report is a finding.
#include "engine/options.h"
#include "io/npz.h"
#include "text/hftokenizer.h"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void broken(const char* promise)
{
    std::fprintf(stderr, "the tokenizer.json tokenizer broke its promise: %s\n", promise);
    std::abort();
}

attn::HfTokenizer fromZip(const char* path)
{
    std::ifstream file(path, std::ios::binary);
    const std::string archive((std::istreambuf_iterator<char>(file)),
                              std::istreambuf_iterator<char>());
    attn::NpzReader zip(std::as_bytes(std::span(archive.data(), archive.size())), "zip");
    const auto member = zip.read("tokenizer.json");
    if (!member)
        broken("the committed tokenizer.json.zip is readable");
    return attn::HfTokenizer(std::string_view(reinterpret_cast<const char*>(member->bytes.data()),
                                              member->bytes.size()));
}

const attn::HfTokenizer& qwen3()
{
    static const attn::HfTokenizer tokenizer = fromZip(ATTN_QWEN3_ZIP);
    return tokenizer;
}

const attn::HfTokenizer& mistral()
{
    static const attn::HfTokenizer tokenizer = fromZip(ATTN_MISTRAL_ZIP);
    return tokenizer;
}

bool isNfc(std::string_view text)
{
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(status);
    const icu::UnicodeString unicode = icu::UnicodeString::fromUTF8(
        icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
    return U_SUCCESS(status) && nfc->isNormalized(unicode, status) && U_SUCCESS(status);
}

enum class DecodeCheck { None, Nfc, PrependedSpace };

void fuzzText(const attn::HfTokenizer& tokenizer, std::string_view text, DecodeCheck check)
{
    std::vector<int> ids;
    try {
        ids = tokenizer.encodeIds(text);
    } catch (const attn::InputError& error) {
        if (error.refusal() != attn::Refusal::InvalidUtf8)
            broken("encodeIds() refused a text for another reason than invalid UTF-8");
        return;
    }
    if (tokenizer.labels(ids).size() != ids.size())
        broken("not one label per token");
    if (check == DecodeCheck::Nfc && isNfc(text) && tokenizer.decode(ids) != text)
        broken("decode(encodeIds(text)) is not the text");
    const bool plain = !text.empty() && text.find("\u2581") == std::string_view::npos &&
                       text.find("<s>") == std::string_view::npos &&
                       text.find("</s>") == std::string_view::npos &&
                       text.find("<unk>") == std::string_view::npos;
    if (check == DecodeCheck::PrependedSpace && plain &&
        tokenizer.decode(tokenizer.encodeIds(text, false)) != " " + std::string(text))
        broken("decode(encodeIds(text)) is not the text after a space");
}

void fuzzIds(const attn::HfTokenizer& tokenizer, std::string_view bytes)
{
    std::vector<int> ids;
    for (std::size_t i = 0; i + 2 < bytes.size(); i += 3) {
        const int id = static_cast<unsigned char>(bytes[i]) << 16 |
                       static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
        ids.push_back(id % tokenizer.vocabularySize());
    }
    (void)tokenizer.decode(ids);
    const auto labels = tokenizer.labels(ids);
    for (std::size_t t = 0; t < labels.size(); ++t) {
        const auto& label = labels[t];
        if (label.label.empty() || label.runFirst < 0 ||
            static_cast<std::size_t>(label.runFirst) > t || label.runLength < 1)
            broken("a label is empty or its run is out of place");
    }
}

bool hasLargeId(const attn::JsonValue& value)
{
    if (value.isNumber()) {
        const auto number = value.asUnsigned();
        return number && *number >= 1'000'000;
    }
    for (const auto& item : value.items())
        if (hasLargeId(item))
            return true;
    for (const auto& member : value.members())
        if (hasLargeId(member.second))
            return true;
    return false;
}

void fuzzFile(std::string_view json)
{
    try {
        if (hasLargeId(attn::parseJson(json)))
            return;
    } catch (const attn::JsonParseError&) {
    }
    std::optional<attn::HfTokenizer> tokenizer;
    try {
        tokenizer.emplace(json);
    } catch (const attn::TokenizerFileError&) {
        return;
    }
    for (const char* text :
         {"Hello, world! 123", "<s>ab  <mask> x", "\xE4\xBD\xA0\xE5\xA5\xBD\n\n"})
        fuzzText(*tokenizer, text, DecodeCheck::None);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
    const bool sentencePiece = data[0] / 3 % 2 == 1;
    const attn::HfTokenizer& tokenizer = sentencePiece ? mistral() : qwen3();
    try {
        switch (data[0] % 3) {
        case 0:
            fuzzText(tokenizer, bytes,
                     sentencePiece ? DecodeCheck::PrependedSpace : DecodeCheck::Nfc);
            break;
        case 1:
            fuzzIds(tokenizer, bytes);
            break;
        default:
            fuzzFile(bytes);
            break;
        }
    } catch (const attn::TokenizerFileError&) {
        broken("a TokenizerFileError outside reading a file");
    }
    return 0;
}
