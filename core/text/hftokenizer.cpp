// tokenizer.json read as Hugging Face's tokenizers read it (tokenizer/added_vocabulary.rs,
// models/bpe/serialization.rs, processors/template.rs), for byte-level and
// SentencePiece-style BPE.
#include "text/hftokenizer.h"

#include "base/utf8.h"
#include "engine/options.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <unordered_set>

namespace attn {
namespace {

constexpr int kMaxId = 10'000'000;

const JsonValue* member(const JsonValue* object, std::string_view name)
{
    return object && object->isObject() ? object->find(name) : nullptr;
}

bool flag(const JsonValue& object, std::string_view name)
{
    const JsonValue* value = object.find(name);
    return value && value->kind() == JsonValue::Kind::Bool && value->boolean();
}

std::optional<int> idOf(const JsonValue* value)
{
    const auto number = value ? value->asUnsigned() : std::nullopt;
    if (!number || *number >= static_cast<std::uint64_t>(kMaxId))
        return std::nullopt;
    return static_cast<int>(*number);
}

std::vector<HfAddedToken> readAddedTokens(const JsonValue* list, const std::filesystem::path& file)
{
    std::vector<HfAddedToken> added;
    if (!list || list->isNull())
        return added;
    if (!list->isArray())
        throw TokenizerFileError(file, "\"added_tokens\" is not a list");
    for (const JsonValue& entry : list->items()) {
        const JsonValue* content = member(&entry, "content");
        const auto id = idOf(member(&entry, "id"));
        if (!content || !content->isString() || content->text().empty() || !id)
            throw TokenizerFileError(file, "an added token has no id (a whole number below " +
                                               std::to_string(kMaxId) + ") or no content");
        if (flag(entry, "single_word"))
            throw TokenizerFileError(file, "the added token \"" + content->text() +
                                               "\" is single_word, which is not supported");
        added.push_back({*id, content->text(), flag(entry, "special"), flag(entry, "lstrip"),
                         flag(entry, "rstrip"), flag(entry, "normalized")});
    }
    return added;
}

// A merge as "left right" or, in newer files, ["left", "right"].
std::pair<std::string, std::string> readMerge(const JsonValue& merge, std::size_t rank,
                                              const std::filesystem::path& file)
{
    if (merge.isString()) {
        const std::string& text = merge.text();
        const auto space = text.find(' ');
        if (space != std::string::npos && space > 0 && space + 1 < text.size() &&
            text.find(' ', space + 1) == std::string::npos)
            return {text.substr(0, space), text.substr(space + 1)};
    } else if (merge.isArray() && merge.items().size() == 2 && merge.items()[0].isString() &&
               merge.items()[1].isString()) {
        return {merge.items()[0].text(), merge.items()[1].text()};
    }
    throw TokenizerFileError(file, "the merge of rank " + std::to_string(rank) +
                                       " is neither \"left right\" nor [\"left\", \"right\"]");
}

// Which BPE the file's text steps call for. Byte-level BPE has a ByteLevel pre-tokenizer;
// SentencePiece-style BPE has none or a Metaspace one, and byte_fallback or a normalizer
// that spells spaces "▁" (a character BPE with neither is not one AttnScope knows).
bool sentencePieceModel(const JsonValue& model, const HfNormalizer& normalizer,
                        const HfPreTokenizer& preTokenizer, const std::filesystem::path& file)
{
    const bool byteFallback = flag(model, "byte_fallback");
    if (preTokenizer.byteLevel()) {
        if (byteFallback)
            throw TokenizerFileError(file, "the model uses byte_fallback beside a ByteLevel "
                                           "pre-tokenizer, which is not supported: byte_fallback "
                                           "is SentencePiece-style BPE's (none or a Metaspace "
                                           "pre-tokenizer)");
        return false;
    }
    if (preTokenizer.empty() && !byteFallback && !normalizer.spaceMark())
        throw TokenizerFileError(file, "there is no pre_tokenizer: byte-level BPE needs a "
                                       "ByteLevel pre-tokenizer, SentencePiece-style BPE "
                                       "byte_fallback or a normalizer that spells spaces");
    if (!preTokenizer.empty() && !preTokenizer.metaspace())
        throw TokenizerFileError(file, "the pre_tokenizer has no ByteLevel step: byte-level BPE "
                                       "(GPT-2, Qwen, Llama 3) needs one, SentencePiece-style "
                                       "BPE (Llama 2, Mistral) takes none or a Metaspace");
    return true;
}

std::variant<ByteLevelBpe, SentencePieceBpe> readModel(const JsonValue* model,
                                                       const std::vector<HfAddedToken>& added,
                                                       const HfNormalizer& normalizer,
                                                       const HfPreTokenizer& preTokenizer,
                                                       const std::filesystem::path& file)
{
    if (!model || !model->isObject())
        throw TokenizerFileError(file, "there is no \"model\"");
    const JsonValue* type = model->find("type");
    if (type && (!type->isString() || type->text() != "BPE"))
        throw TokenizerFileError(file, "the model type \"" +
                                           (type->isString() ? type->text() : std::string()) +
                                           "\" is not supported (supported: BPE, byte-level or "
                                           "SentencePiece-style)");
    for (const char* affix : {"continuing_subword_prefix", "end_of_word_suffix"}) {
        const JsonValue* value = model->find(affix);
        if (value && value->isString() && !value->text().empty())
            throw TokenizerFileError(file,
                                     std::string("the model's ") + affix + " is not supported");
    }
    if (const JsonValue* dropout = model->find("dropout");
        dropout && !dropout->isNull() &&
        !(dropout->isNumber() && std::strtod(dropout->text().c_str(), nullptr) == 0.0))
        throw TokenizerFileError(file, "the model's dropout is not supported (BPE with dropout "
                                       "merges at random; supported: null or 0)");
    const bool sentencePiece = sentencePieceModel(*model, normalizer, preTokenizer, file);
    // 1. The vocabulary; a byte-level one less the ids the added tokens spell themselves.
    const JsonValue* vocab = model->find("vocab");
    if (!vocab || !vocab->isObject())
        throw TokenizerFileError(file, "the model has no \"vocab\" object");
    std::unordered_set<int> addedIds;
    for (const HfAddedToken& token : added)
        addedIds.insert(token.id);
    std::vector<VocabEntry> entries;
    entries.reserve(vocab->members().size());
    for (const auto& [token, value] : vocab->members()) {
        const auto id = idOf(&value);
        if (!id)
            throw TokenizerFileError(file, "the vocab's id of \"" + token +
                                               "\" is not a whole number below " +
                                               std::to_string(kMaxId));
        if (sentencePiece || !addedIds.contains(*id))
            entries.push_back({token, *id});
    }
    // 2. The merges.
    const JsonValue* mergeList = model->find("merges");
    if (!mergeList || !mergeList->isArray())
        throw TokenizerFileError(file, "the model has no \"merges\" list");
    std::vector<std::pair<std::string, std::string>> merges;
    merges.reserve(mergeList->items().size());
    for (const JsonValue& merge : mergeList->items())
        merges.push_back(readMerge(merge, merges.size(), file));
    if (!sentencePiece)
        return ByteLevelBpe(std::move(entries), merges, BpeSources{file, file, "model.vocab"},
                            flag(*model, "ignore_merges"));
    SentencePieceOptions options;
    if (const JsonValue* unk = model->find("unk_token"); unk && unk->isString())
        options.unkToken = unk->text();
    options.byteFallback = flag(*model, "byte_fallback");
    options.fuseUnk = flag(*model, "fuse_unk");
    options.ignoreMerges = flag(*model, "ignore_merges");
    options.spaceMark = preTokenizer.metaspace() ? preTokenizer.spaceMark()
                                                 : normalizer.spaceMark().value_or(std::string());
    return SentencePieceBpe(std::move(entries), merges, std::move(options), file);
}

JsonValue parseFile(std::string_view json, const std::filesystem::path& file)
{
    try {
        return parseJson(json);
    } catch (const JsonParseError& error) {
        throw TokenizerFileError(file, error.what());
    }
}

bool whiteSpaceAt(std::string_view text, std::size_t at, std::size_t& length)
{
    const Utf8Char c = utf8CharAt(text, at);
    length = c.length;
    return c.code >= 0 && u_hasBinaryProperty(c.code, UCHAR_WHITE_SPACE);
}

} // namespace

HfTokenizer HfTokenizer::fromFile(const std::filesystem::path& file)
{
    return HfTokenizer(readTokenizerFile(file), file);
}

HfTokenizer::HfTokenizer(std::string_view json, const std::filesystem::path& file)
    : HfTokenizer(parseFile(json, file), file)
{}

HfTokenizer::HfTokenizer(const JsonValue& root, const std::filesystem::path& file)
    : added_(root.isObject() ? readAddedTokens(root.find("added_tokens"), file)
                             : throw TokenizerFileError(file, "the file is not a JSON object")),
      normalizer_(root.find("normalizer"), file), preTokenizer_(root.find("pre_tokenizer"), file),
      model_(readModel(root.find("model"), added_, normalizer_, preTokenizer_, file))
{
    vocabularySize_ = std::visit([](const auto& model) { return model.vocabularySize(); }, model_);
    for (std::size_t i = 0; i < added_.size(); ++i) {
        const HfAddedToken& token = added_[i];
        if (!addedById_.emplace(token.id, i).second)
            throw TokenizerFileError(file,
                                     "two added tokens have the id " + std::to_string(token.id));
        // A "normalized" token is found as the normalizer spells it (added_vocabulary.rs).
        std::string spelling = token.normalized ? normalizer_.apply(token.content) : token.content;
        if (!spelling.empty()) {
            AddedTable& table = token.normalized ? normalizedAdded_ : rawAdded_;
            table[static_cast<unsigned char>(spelling.front())].emplace_back(std::move(spelling),
                                                                             i);
        }
        vocabularySize_ = std::max(vocabularySize_, token.id + 1);
    }
    for (AddedTable* table : {&rawAdded_, &normalizedAdded_})
        for (auto& candidates : *table)
            std::stable_sort(
                candidates.begin(), candidates.end(),
                [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
    readPostProcessor(root.find("post_processor"), file);
}

bool HfTokenizer::modelHas(int id) const
{
    return std::visit([id](const auto& model) { return model.has(id); }, model_);
}

void HfTokenizer::readPostProcessor(const JsonValue* processor, const std::filesystem::path& file)
{
    if (!processor || processor->isNull())
        return;
    const JsonValue* type = member(processor, "type");
    const std::string name = type && type->isString() ? type->text() : std::string();
    if (name == "ByteLevel")
        return; // offsets only
    if (name == "Sequence") {
        const JsonValue* steps = member(processor, "processors");
        if (!steps || !steps->isArray())
            throw TokenizerFileError(file, "the post_processor Sequence has no \"processors\"");
        for (const JsonValue& step : steps->items())
            readPostProcessor(&step, file);
        return;
    }
    if (name != "TemplateProcessing")
        throw TokenizerFileError(file, "the post_processor \"" + name +
                                           "\" is not supported (supported: ByteLevel, "
                                           "TemplateProcessing, Sequence)");
    // "single": [{"SpecialToken": {"id": "<|begin_of_text|>"}}, {"Sequence": {"id": "A"}}]
    const JsonValue* single = member(processor, "single");
    const JsonValue* specials = member(processor, "special_tokens");
    if (!single || !single->isArray())
        throw TokenizerFileError(file, "the TemplateProcessing has no \"single\" template");
    prefix_.clear();
    suffix_.clear();
    bool afterText = false;
    for (const JsonValue& item : single->items()) {
        if (member(&item, "Sequence")) {
            afterText = true;
            continue;
        }
        const JsonValue* name = member(member(&item, "SpecialToken"), "id");
        const JsonValue* ids = member(
            member(specials, name && name->isString() ? name->text() : std::string()), "ids");
        if (!ids || !ids->isArray())
            throw TokenizerFileError(file, "the TemplateProcessing names a special token that "
                                           "its \"special_tokens\" lacks");
        for (const JsonValue& id : ids->items()) {
            const auto value = idOf(&id);
            if (!value || (!modelHas(*value) && !addedById_.contains(*value)))
                throw TokenizerFileError(file, "the TemplateProcessing's special token \"" +
                                                   name->text() + "\" has an unknown id");
            (afterText ? suffix_ : prefix_).push_back(*value);
        }
    }
}

// Cuts `text` at the added tokens of `table`, leftmost and then longest first: each stretch
// between them goes to onStretch(stretch, offset), each token's id into `ids`, in order.
template <typename OnStretch>
void HfTokenizer::cutAtAdded(std::string_view text, const AddedTable& table, std::vector<int>& ids,
                             OnStretch&& onStretch) const
{
    const auto addedAt = [&](std::size_t at) -> const std::pair<std::string, std::size_t>* {
        for (const auto& candidate : table[static_cast<unsigned char>(text[at])])
            if (text.substr(at).starts_with(candidate.first))
                return &candidate;
        return nullptr;
    };
    std::size_t textStart = 0;
    for (std::size_t at = 0; at < text.size();) {
        const auto* found = addedAt(at);
        if (!found) {
            ++at;
            continue;
        }
        const HfAddedToken& token = added_[found->second];
        std::size_t textEnd = at;
        std::size_t length = 0;
        if (token.lstrip)
            while (textEnd > textStart) {
                std::size_t back = textEnd - 1; // the start of the character before
                while (back > textStart && (static_cast<unsigned char>(text[back]) & 0xC0) == 0x80)
                    --back;
                if (!whiteSpaceAt(text, back, length))
                    break;
                textEnd = back;
            }
        if (textEnd > textStart)
            onStretch(text.substr(textStart, textEnd - textStart), textStart);
        ids.push_back(token.id);
        at += found->first.size();
        if (token.rstrip)
            while (at < text.size() && whiteSpaceAt(text, at, length))
                at += length;
        textStart = at;
    }
    if (textStart < text.size())
        onStretch(text.substr(textStart), textStart);
}

void HfTokenizer::appendText(std::string_view text, bool atStart, std::vector<int>& ids) const
{
    for (const std::string& piece : preTokenizer_.pieces(text, atStart))
        std::visit([&](const auto& model) { model.appendPiece(piece, ids); }, model_);
}

std::vector<int> HfTokenizer::encodeIds(std::string_view text, bool addSpecialTokens) const
{
    if (const auto bad = invalidUtf8At(text); bad != std::string_view::npos)
        throw InputError("the text is not valid UTF-8 at byte " + std::to_string(bad),
                         Refusal::InvalidUtf8, {std::to_string(bad)});
    std::vector<int> ids;
    if (addSpecialTokens)
        ids = prefix_;
    // 1. The added tokens not "normalized" cut the raw text; 2. each stretch between them is
    // normalized and cut at the "normalized" ones; 3. the rest is ordinary text, which
    // begins the input (for Metaspace's prepend_scheme "first") only at offset 0.
    cutAtAdded(text, rawAdded_, ids, [&](std::string_view stretch, std::size_t offset) {
        const std::string normalized = normalizer_.apply(stretch);
        cutAtAdded(normalized, normalizedAdded_, ids,
                   [&](std::string_view part, std::size_t partOffset) {
                       appendText(part, offset == 0 && partOffset == 0, ids);
                   });
    });
    if (addSpecialTokens)
        ids.insert(ids.end(), suffix_.begin(), suffix_.end());
    return ids;
}

const std::string& HfTokenizer::token(int id) const
{
    const auto found = addedById_.find(id);
    return found != addedById_.end()
               ? added_[found->second].content
               : std::visit(
                     [id](const auto& model) -> const std::string& { return model.token(id); },
                     model_);
}

const std::string& HfTokenizer::bytes(int id) const
{
    const auto found = addedById_.find(id);
    return found != addedById_.end()
               ? added_[found->second].content
               : std::visit(
                     [id](const auto& model) -> const std::string& { return model.bytes(id); },
                     model_);
}

std::optional<int> HfTokenizer::id(std::string_view token) const
{
    for (const HfAddedToken& added : added_)
        if (added.content == token)
            return added.id;
    return std::visit([token](const auto& model) { return model.id(token); }, model_);
}

} // namespace attn
