#include "text/ggufvocab.h"

#include "base/json.h"
#include "engine/options.h"
#include "text/ggufcontroltokens.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

namespace attn {
namespace {

// llama.cpp's token types (llama_token_type).
enum TokenType { Normal = 1, Unknown = 2, Control = 3, UserDefined = 4, Unused = 5, Byte = 6 };

// The regular expressions llama.cpp's llm_tokenizer_bpe splits a text with, by
// tokenizer.ggml.pre; each one splits every piece the one before it made (a Sequence of
// Isolated Splits). Empty: a name llama.cpp does not give these.
std::vector<std::string_view> preTokenizerRegexes(std::string_view pre)
{
    // GPT-2's expression; "gpt-2" and the models llama.cpp gives it.
    static constexpr std::string_view kGpt2 =
        R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))";
    // Qwen2's tokenizer.json's, its (?i:…) spelt out as llama.cpp spells it.
    static constexpr std::string_view kQwen2 =
        R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    // Llama 3's: numbers in runs of up to three digits.
    static constexpr std::string_view kLlama3 =
        R"((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    if (pre == "qwen2" || pre == "stablelm2" || pre == "hunyuan")
        return {kQwen2};
    if (pre == "llama3" || pre == "llama-v3" || pre == "llama-bpe" || pre == "falcon3" ||
        pre == "pixtral" || pre == "smaug-bpe" || pre == "dbrx")
        return {kLlama3};
    if (pre == "gpt-2" || pre == "phi-2" || pre == "jina-es" || pre == "jina-de" ||
        pre == "gigachat" || pre == "jina-v2-es" || pre == "jina-v2-de" || pre == "mpt" ||
        pre == "olmo" || pre == "jais" || pre == "trillion")
        return {kGpt2};
    if (pre == "starcoder" || pre == "refact" || pre == "command-r" || pre == "smollm" ||
        pre == "codeshell" || pre == "exaone" || pre == "minerva-7b")
        return {R"(\p{N})", kGpt2};
    if (pre == "default" || pre.empty())
        return {R"([\p{P}\$\+<=>\^~\|]+)", kGpt2, R"(\p{N}+)", R"([0-9][0-9][0-9])"};
    return {};
}

class Vocabulary {
public:
    Vocabulary(const GgufFile& file, const std::string& where) : file_(file), where_(where) {}

    [[noreturn]] void fail(const std::string& fault) const
    {
        throw InputError(where_ + ": " + fault);
    }

    // A metadata value that must be there.
    const GgufValue& required(std::string_view key) const
    {
        const GgufValue* value = file_.find(key);
        if (!value)
            fail("the metadata key " + std::string(key) +
                 " is missing: the file has no tokenizer AttnScope can read");
        return *value;
    }
    std::optional<bool> flag(std::string_view key) const
    {
        const GgufValue* value = file_.find(key);
        if (!value)
            return std::nullopt;
        const auto flag = value->asBool();
        if (!flag)
            fail("the metadata key " + std::string(key) + " is not a bool");
        return flag;
    }
    // A token id the metadata names, or -1 when it names none.
    int id(std::string_view key, int count) const
    {
        const GgufValue* value = file_.find(key);
        if (!value)
            return -1;
        const auto id = value->asUnsigned();
        if (!id || *id >= std::uint64_t(count))
            fail("the metadata key " + std::string(key) + " is not a token id below " +
                 std::to_string(count));
        return int(*id);
    }
    // An array of numbers `key` of one per token, or nullopt when absent.
    std::optional<std::vector<double>> perToken(std::string_view key, std::size_t count) const
    {
        const GgufValue* value = file_.find(key);
        if (!value)
            return std::nullopt;
        auto numbers = value->numbers();
        if (!numbers || numbers->size() != count)
            fail("the metadata key " + std::string(key) + " is not an array of " +
                 std::to_string(count) + " numbers, one a token");
        return numbers;
    }

private:
    const GgufFile& file_;
    const std::string& where_;
};

// The added tokens of tokenizer.json: the tokens llama.cpp finds whole in a text when it
// parses special tokens (control, user-defined and unknown ones).
void writeAddedTokens(JsonWriter& json, const std::vector<std::string_view>& tokens,
                      const std::vector<double>& types)
{
    json.key("added_tokens");
    json.beginArray();
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const int type = int(types[i]);
        if (type != Control && type != UserDefined && type != Unknown)
            continue;
        json.beginObject();
        json.key("id");
        json.value(int(i));
        json.key("content");
        json.value(tokens[i]);
        json.key("single_word");
        json.value(false);
        json.key("lstrip");
        json.value(false);
        json.key("rstrip");
        json.value(false);
        json.key("normalized");
        json.value(false);
        json.key("special");
        json.value(type != UserDefined);
        json.endObject();
    }
    json.endArray();
}

// The post-processor: the BOS before a text and the EOS after it, as add_bos/add_eos say.
void writeTemplate(JsonWriter& json, const std::vector<std::string_view>& tokens, int bos, int eos)
{
    json.key("post_processor");
    if (bos < 0 && eos < 0) {
        json.null();
        return;
    }
    const auto special = [&](int id) {
        json.beginObject();
        json.key("SpecialToken");
        json.beginObject();
        json.key("id");
        json.value(tokens[std::size_t(id)]);
        json.key("type_id");
        json.value(0);
        json.endObject();
        json.endObject();
    };
    json.beginObject();
    json.key("type");
    json.value("TemplateProcessing");
    json.key("single");
    json.beginArray();
    if (bos >= 0)
        special(bos);
    json.beginObject();
    json.key("Sequence");
    json.beginObject();
    json.key("id");
    json.value("A");
    json.key("type_id");
    json.value(0);
    json.endObject();
    json.endObject();
    if (eos >= 0)
        special(eos);
    json.endArray();
    json.key("special_tokens");
    json.beginObject();
    std::vector<int> ids;
    for (const int id : {bos, eos})
        if (id >= 0 && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    for (const int id : ids) {
        json.key(tokens[std::size_t(id)]);
        json.beginObject();
        json.key("id");
        json.value(tokens[std::size_t(id)]);
        json.key("ids");
        json.beginArray();
        json.value(id);
        json.endArray();
        json.key("tokens");
        json.beginArray();
        json.value(tokens[std::size_t(id)]);
        json.endArray();
        json.endObject();
    }
    json.endObject();
    json.endObject();
}

// The vocabulary object: each token once, at its first id (converters write every token
// once; a repeated one is not found by its text).
void writeVocab(JsonWriter& json, const std::vector<std::string_view>& tokens)
{
    json.key("vocab");
    json.beginObject();
    std::unordered_map<std::string_view, int> seen;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (seen.emplace(tokens[i], int(i)).second) {
            json.key(tokens[i]);
            json.value(int(i));
        }
    json.endObject();
}

// The texts of the tokens found whole in a text (control, user-defined and unknown ones).
std::unordered_set<std::string_view> addedTexts(const std::vector<std::string_view>& tokens,
                                                const std::vector<double>& types)
{
    std::unordered_set<std::string_view> texts;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (const int type = int(types[i]);
            type == Control || type == UserDefined || type == Unknown)
            texts.insert(tokens[i]);
    return texts;
}

// Whether the merge "left right" can apply in llama.cpp: not when a side or the result is
// the text of a token found whole before merging, since then no piece holds that text.
// Hugging Face's reader refuses such a merge (its byte-level vocab lacks the added tokens:
// Qwen2's "</s>", which llama.cpp makes a control token), so it is left out, giving the same
// ids.
bool mergeCanApply(std::string_view merge, const std::unordered_set<std::string_view>& added)
{
    const std::size_t space = merge.find(' ', 1); // llama.cpp's split
    if (space == std::string_view::npos)
        return true;
    const std::string_view left = merge.substr(0, space);
    const std::string_view right = merge.substr(space + 1);
    const std::string whole = std::string(left) + std::string(right);
    return !added.contains(left) && !added.contains(right) && !added.contains(whole);
}

// SentencePiece's merges from its scores, as Hugging Face's converter makes them: every
// split of a token into two tokens of the vocabulary, by the whole token's score (the
// highest first, llama.cpp's order), then its id.
std::vector<std::string> sentencePieceMerges(const std::vector<std::string_view>& tokens,
                                             const std::vector<double>& scores,
                                             const std::vector<double>& types)
{
    std::unordered_map<std::string_view, int> ids;
    for (std::size_t i = 0; i < tokens.size(); ++i)
        ids.emplace(tokens[i], int(i));
    struct Candidate {
        double score;
        int id;
        std::size_t split;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (int(types[i]) == Byte || int(types[i]) == Unused)
            continue;
        const std::string_view token = tokens[i];
        for (std::size_t split = 1; split < token.size(); ++split) {
            if ((static_cast<unsigned char>(token[split]) & 0xC0) == 0x80)
                continue; // inside a character
            if (ids.count(token.substr(0, split)) && ids.count(token.substr(split)))
                candidates.push_back({scores[i], int(i), split});
        }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) {
                         return a.score != b.score ? a.score > b.score : a.id < b.id;
                     });
    std::vector<std::string> merges;
    merges.reserve(candidates.size());
    for (const Candidate& c : candidates) {
        const std::string_view token = tokens[std::size_t(c.id)];
        merges.push_back(std::string(token.substr(0, c.split)) + " " +
                         std::string(token.substr(c.split)));
    }
    return merges;
}

} // namespace

GgufVocabulary ggufVocabulary(const GgufFile& file, const std::string& where)
{
    const Vocabulary read(file, where);
    const auto model = read.required("tokenizer.ggml.model").asString();
    if (!model)
        read.fail("tokenizer.ggml.model is not a string");
    const bool bpe = *model == "gpt2";
    if (!bpe && *model != "llama")
        read.fail("the tokenizer model \"" + std::string(*model) +
                  "\" is not supported (this version reads \"gpt2\", byte-level BPE, and "
                  "\"llama\", SentencePiece)");
    const auto tokens = read.required("tokenizer.ggml.tokens").strings();
    if (!tokens || tokens->empty())
        read.fail("tokenizer.ggml.tokens is not an array of strings");
    const std::size_t count = tokens->size();
    if (count > std::size_t(10'000'000))
        read.fail("tokenizer.ggml.tokens has " + std::to_string(count) +
                  " tokens, more than 10 million");
    // The types as llama.cpp tokenizes with them: its control-looking texts made Control.
    std::vector<double> types =
        read.perToken("tokenizer.ggml.token_type", count).value_or(std::vector<double>(count, 1));
    const std::vector<bool> control = llamaCppControlTokens(file, *tokens);
    for (std::size_t i = 0; i < count; ++i)
        if (control[i])
            types[i] = Control;
    const int n = int(count);

    GgufVocabulary out;
    out.size = n;
    for (const char* key : {"tokenizer.ggml.eos_token_id", "tokenizer.ggml.eot_token_id"})
        if (const int id = read.id(key, n);
            id >= 0 &&
            std::find(out.endTokens.begin(), out.endTokens.end(), id) == out.endTokens.end())
            out.endTokens.push_back(id);
    const std::string pre = [&] {
        const GgufValue* value = file.find("tokenizer.ggml.pre");
        const auto text = value ? value->asString() : std::nullopt;
        return text ? std::string(*text) : std::string();
    }();
    const bool addBos = read.flag("tokenizer.ggml.add_bos_token")
                            .value_or(!bpe || pre == "llama-bpe" || pre == "llama3");
    const bool addEos = read.flag("tokenizer.ggml.add_eos_token").value_or(false);
    const int bos = addBos ? read.id("tokenizer.ggml.bos_token_id", n) : -1;
    const int eos = addEos ? read.id("tokenizer.ggml.eos_token_id", n) : -1;
    if (addBos && bos < 0)
        read.fail("add_bos_token is true but tokenizer.ggml.bos_token_id is missing");
    if (addEos && eos < 0)
        read.fail("add_eos_token is true but tokenizer.ggml.eos_token_id is missing");

    JsonWriter json;
    json.beginObject();
    json.key("version");
    json.value("1.0");
    writeAddedTokens(json, *tokens, types);
    if (bpe) {
        // Byte-level BPE: the pre-tokenizer's expressions, then the bytes as characters.
        const std::vector<std::string_view> regexes = preTokenizerRegexes(pre);
        if (regexes.empty())
            read.fail("the pre-tokenizer \"" + pre +
                      "\" (tokenizer.ggml.pre) is not supported (this version reads \"qwen2\", "
                      "\"llama-bpe\", \"gpt-2\", \"default\" and their aliases)");
        json.key("normalizer");
        json.null();
        json.key("pre_tokenizer");
        json.beginObject();
        json.key("type");
        json.value("Sequence");
        json.key("pretokenizers");
        json.beginArray();
        for (const std::string_view regex : regexes) {
            json.beginObject();
            json.key("type");
            json.value("Split");
            json.key("pattern");
            json.beginObject();
            json.key("Regex");
            json.value(regex);
            json.endObject();
            json.key("behavior");
            json.value("Isolated");
            json.key("invert");
            json.value(false);
            json.endObject();
        }
        json.beginObject();
        json.key("type");
        json.value("ByteLevel");
        json.key("add_prefix_space");
        json.value(false);
        json.key("trim_offsets");
        json.value(false);
        json.key("use_regex");
        json.value(false);
        json.endObject();
        json.endArray();
        json.endObject();
    } else {
        // SentencePiece: "▁" for every space, and before the text unless add_space_prefix
        // says otherwise.
        json.key("normalizer");
        json.beginObject();
        json.key("type");
        json.value("Sequence");
        json.key("normalizers");
        json.beginArray();
        if (read.flag("tokenizer.ggml.add_space_prefix").value_or(true)) {
            json.beginObject();
            json.key("type");
            json.value("Prepend");
            json.key("prepend");
            json.value("\u2581");
            json.endObject();
        }
        json.beginObject();
        json.key("type");
        json.value("Replace");
        json.key("pattern");
        json.beginObject();
        json.key("String");
        json.value(" ");
        json.endObject();
        json.key("content");
        json.value("\u2581");
        json.endObject();
        json.endArray();
        json.endObject();
        json.key("pre_tokenizer");
        json.null();
    }
    writeTemplate(json, *tokens, bos, eos);
    json.key("model");
    json.beginObject();
    json.key("type");
    json.value("BPE");
    if (bpe) {
        json.key("ignore_merges");
        json.value(pre == "llama-bpe" || pre == "llama3" || pre == "llama-v3");
        writeVocab(json, *tokens);
        const auto merges = read.required("tokenizer.ggml.merges").strings();
        if (!merges)
            read.fail("tokenizer.ggml.merges is not an array of strings");
        json.key("merges");
        json.beginArray();
        const std::unordered_set<std::string_view> added = addedTexts(*tokens, types);
        for (const std::string_view merge : *merges)
            if (mergeCanApply(merge, added))
                json.value(merge);
        json.endArray();
    } else {
        const auto scores = read.perToken("tokenizer.ggml.scores", count);
        if (!scores)
            read.fail("the metadata key tokenizer.ggml.scores is missing: a SentencePiece "
                      "tokenizer ranks its merges by them");
        json.key("byte_fallback");
        json.value(true);
        json.key("fuse_unk");
        json.value(true);
        const int unknown = read.id("tokenizer.ggml.unknown_token_id", n);
        json.key("unk_token");
        if (unknown >= 0)
            json.value((*tokens)[std::size_t(unknown)]);
        else
            json.null();
        writeVocab(json, *tokens);
        json.key("merges");
        json.beginArray();
        for (const std::string& merge : sentencePieceMerges(*tokens, *scores, types))
            json.value(merge);
        json.endArray();
    }
    json.endObject();
    json.endObject();
    out.json = json.text();
    return out;
}

} // namespace attn
