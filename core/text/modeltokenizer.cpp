#include "text/modeltokenizer.h"

namespace attn {

std::string ModelTokenizer::decode(std::span<const int> ids) const
{
    std::string raw;
    for (const int id : ids)
        raw += bytes(id);
    return decodeUtf8Replacing(raw);
}

std::vector<TokenLabel> ModelTokenizer::labels(std::span<const int> ids) const
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
