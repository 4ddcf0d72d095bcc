#include "text/ggufcontroltokens.h"

#include <algorithm>
#include <iterator>
#include <span>

namespace attn {
namespace {

// llama.cpp's names, group by group. (Of a fill-in-the-middle group llama.cpp takes the first
// name it meets in a hash map's order; a vocabulary with two names of one group is not
// expected.)
constexpr std::string_view kEndOfGenerationNames[] = {
    "<|eot_id|>",
    "<|im_end|>",
    "<|end|>",
    "<|return|>",
    "<|call|>",
    "<|flush|>",
    "<|calls|>",
    "<end_of_turn>",
    "<|endoftext|>",
    "</s>",
    "<|eom_id|>",
    "<EOT>",
    "_<EOT>",
    "[EOT]",
    "[EOS]",
    "<|end_of_text|>",
    "<end_of_utterance>",
    "<eos>",
    "<turn|>",
    "<|tool_response>",
    "<\uff5cend\u2581of\u2581sentence\uff5c>",
    "[e~[",
};
constexpr std::string_view kFimPrefixNames[] = {
    "<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>",    "<\uff5cfim\u2581begin\uff5c>",
    "<PRE>",          "\u2581<PRE>",  "<|code_prefix|>", "<|prefix|>"};
constexpr std::string_view kFimSuffixNames[] = {
    "<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>",    "<\uff5cfim\u2581hole\uff5c>",
    "<SUF>",          "\u2581<SUF>",  "<|code_suffix|>", "<|suffix|>"};
constexpr std::string_view kFimMiddleNames[] = {
    "<|fim_middle|>", "<fim-middle>", "<fim_middle>",    "<\uff5cfim\u2581end\uff5c>",
    "<MID>",          "\u2581<MID>",  "<|code_middle|>", "<|middle|>"};
constexpr std::string_view kFimPadNames[] = {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>",
                                             "[PAD]"};
constexpr std::string_view kFimRepoNames[] = {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>",
                                              "<REPO>", "<reponame>"};
constexpr std::string_view kFimSeparatorNames[] = {"<|file_sep|>"};

struct FimGroup {
    std::string_view key, oldKey; // the metadata keys that name the token
    std::span<const std::string_view> names;
};
constexpr FimGroup kFimGroups[] = {
    {"tokenizer.ggml.fim_pre_token_id", "tokenizer.ggml.prefix_token_id", kFimPrefixNames},
    {"tokenizer.ggml.fim_suf_token_id", "tokenizer.ggml.suffix_token_id", kFimSuffixNames},
    {"tokenizer.ggml.fim_mid_token_id", "tokenizer.ggml.middle_token_id", kFimMiddleNames},
    {"tokenizer.ggml.fim_pad_token_id", {}, kFimPadNames},
    {"tokenizer.ggml.fim_rep_token_id", {}, kFimRepoNames},
    {"tokenizer.ggml.fim_sep_token_id", {}, kFimSeparatorNames},
};

} // namespace

std::vector<bool> llamaCppControlTokens(const GgufFile& file,
                                        const std::vector<std::string_view>& tokens)
{
    std::vector<std::string_view> names(std::begin(kEndOfGenerationNames),
                                        std::end(kEndOfGenerationNames));
    for (const FimGroup& group : kFimGroups)
        if (!file.find(group.key) && (group.oldKey.empty() || !file.find(group.oldKey)))
            names.insert(names.end(), group.names.begin(), group.names.end());
    std::vector<bool> control(tokens.size(), false);
    for (std::size_t i = 0; i < tokens.size(); ++i)
        control[i] = std::find(names.begin(), names.end(), tokens[i]) != names.end();
    return control;
}

} // namespace attn
