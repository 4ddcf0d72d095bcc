#include "models/gguf/ggufparts.h"

#include "engine/options.h"
#include "models/families.h"
#include "text/ggufvocab.h"
#include "text/hftokenizer.h"

namespace attn {

int embeddingRows(const GgufFile& file, const GgufMetadata& meta)
{
    const GgufTensor* embedding = file.tensor("token_embd.weight");
    if (!embedding || embedding->ne.size() != 2)
        meta.fail("the tensor token_embd.weight is missing or not a matrix");
    if (embedding->ne[1] < 1 || embedding->ne[1] > kMaxConfigSize)
        meta.fail("token_embd.weight has " + std::to_string(embedding->ne[1]) + " rows");
    return int(embedding->ne[1]);
}

GgufTokenizer readGgufTokenizer(const GgufFile& file, const std::filesystem::path& path,
                                int vocabulary)
{
    const std::string where = path.string();
    GgufVocabulary read;
    try {
        read = ggufVocabulary(file, where);
    } catch (const InputError& error) {
        throw ModelError(path, faultOf(error.what(), where));
    }
    GgufTokenizer out;
    out.tokenizer =
        readTokenizer([&] { return std::make_unique<const HfTokenizer>(read.json, path); });
    if (read.size > vocabulary)
        throw ModelError(path, "the tokenizer has " + std::to_string(read.size) +
                                   " tokens, more than token_embd.weight's " +
                                   std::to_string(vocabulary) + " rows");
    out.endTokens = std::move(read.endTokens);
    return out;
}

ModelInfo ggufInfo(const GgufFile& file, const std::filesystem::path& path,
                   const std::string& family, const std::string& storedType)
{
    ModelInfo info;
    info.family = family;
    info.folder = path;
    const GgufValue* name = file.find("general.name");
    const auto nameText = name ? name->asString() : std::nullopt;
    info.name = nameText && !nameText->empty() ? std::string(*nameText) : path.stem().string();
    const GgufValue* fileType = file.find("general.file_type");
    const auto fileTypeId = fileType ? fileType->asUnsigned() : std::nullopt;
    const std::string_view typeName =
        fileTypeId ? ggmlFileTypeName(std::uint32_t(*fileTypeId)) : std::string_view();
    info.weightType = typeName.empty() ? storedType : std::string(typeName);
    return info;
}

} // namespace attn
