#include "text/ggufwordpiece.h"

#include "text/gpt2files.h"

#include <unordered_set>

namespace attn {
namespace {

constexpr std::string_view kPhantomSpace = "\u2581";
constexpr std::string_view kContinuation = "##";
constexpr int kControlType = 3; // llama.cpp's LLAMA_TOKEN_TYPE_CONTROL

bool hasCapital(std::string_view token)
{
    for (const char c : token)
        if (c >= 'A' && c <= 'Z')
            return true;
    return false;
}

std::string asciiLower(std::string_view token)
{
    std::string out(token);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

} // namespace

std::string wordPieceSpelling(std::string_view stored, bool control)
{
    if (control)
        return std::string(stored);
    if (stored.starts_with(kPhantomSpace))
        return std::string(stored.substr(kPhantomSpace.size()));
    return std::string(kContinuation) + std::string(stored);
}

WordPieceCasing guessedCasing(const std::vector<std::string>& tokens)
{
    const std::unordered_set<std::string_view> known(tokens.begin(), tokens.end());
    int pairs = 0;
    for (const std::string& token : tokens)
        if (!token.starts_with('[') && hasCapital(token) && known.contains(asciiLower(token)))
            ++pairs;
    WordPieceCasing casing;
    casing.lowerCase = pairs <= kCasedPairs;
    return casing;
}

std::unique_ptr<WordPieceTokenizer> ggufWordPiece(const GgufFile& file,
                                                  const std::filesystem::path& where)
{
    const auto fail = [&](const std::string& fault) { throw TokenizerFileError(where, fault); };
    // 1. The model: llama.cpp's "bert" (WPM).
    const GgufValue* model = file.find("tokenizer.ggml.model");
    if (!model)
        fail("the metadata key tokenizer.ggml.model is missing");
    if (model->asString() != std::optional<std::string_view>("bert"))
        fail("the tokenizer model \"" + std::string(model->asString().value_or("?")) +
             "\" (tokenizer.ggml.model) is not BERT's (\"bert\", WordPiece)");
    // 2. The tokens and their types.
    const GgufValue* tokensValue = file.find("tokenizer.ggml.tokens");
    const auto stored = tokensValue ? tokensValue->strings() : std::nullopt;
    if (!stored || stored->empty())
        fail("tokenizer.ggml.tokens is missing or not an array of strings");
    const GgufValue* typesValue = file.find("tokenizer.ggml.token_type");
    const auto types = typesValue ? typesValue->numbers() : std::nullopt;
    if (typesValue && (!types || types->size() != stored->size()))
        fail("tokenizer.ggml.token_type is not one number a token");
    // 3. vocab.txt's spelling back, then its casing.
    std::vector<std::string> tokens;
    tokens.reserve(stored->size());
    // Without types, a control token is told by its brackets ("[CLS]").
    for (std::size_t i = 0; i < stored->size(); ++i) {
        const std::string_view token = (*stored)[i];
        const bool control = types ? int((*types)[i]) == kControlType
                                   : token.starts_with('[') && token.ends_with(']');
        tokens.push_back(wordPieceSpelling(token, control));
    }
    return WordPieceTokenizer::fromTokens(tokens, guessedCasing(tokens), where);
}

} // namespace attn
