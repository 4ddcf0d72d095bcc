#include "presets.h"

namespace attn {
namespace {

Request request(std::string text, Config config)
{
    return Request{std::move(text), config, {}};
}

std::vector<Preset> makePresets()
{
    std::vector<Preset> list;

    // The tutorial's program: seed 42, B=2, T=4, C=16, x = torch.randn(B, T, C).
    Config article;
    article.tokenizer = TokenizerMode::Spaces;
    article.seed = 42;
    article.dModel = 16;
    article.heads = 1;
    article.embedding = EmbeddingMode::Torch;
    article.positional = Positional::None;
    list.push_back({"article", "the tutorial's program: std 1.1888 before scaling, 0.2972 after",
                    request("我 喜欢 这个 产品\n它 的 设计 很好", article)});

    Config saturation;
    saturation.dModel = 512;
    saturation.heads = 1;
    saturation.scale = ScaleMode::None;
    list.push_back({"saturation", "C = 512 without √d_k: the softmax saturates to one-hot",
                    request("The cat sat on the mat because it was tired .", saturation)});

    Config queries;
    queries.axis = SoftmaxAxis::Queries;
    list.push_back({"wrong-axis-queries", "softmax over dim=-2: columns sum to 1, rows do not",
                    request("The cat sat on the mat because it was tired .", queries)});

    Config batch;
    batch.axis = SoftmaxAxis::Batch;
    list.push_back({"wrong-axis-batch", "softmax over dim=0: the two sentences share each weight",
                    request("The cat sat on the mat .\nA dog slept under the table .", batch)});

    Config causal;
    causal.mask = MaskKind::Causal;
    list.push_back({"causal-decoder", "a decoder's causal mask: no token sees the future",
                    request("The cat sat on the mat because it was tired .", causal)});

    Config view;
    view.headSplit = HeadSplit::View;
    list.push_back({"head-split-bug", "view(B, H, T, d_k) instead of transpose: heads mix tokens",
                    request("The cat sat on the mat because it was tired .", view)});

    Config after;
    after.mask = MaskKind::Causal;
    after.maskStage = MaskStage::AfterSoftmax;
    list.push_back({"mask-after-softmax", "masking after the softmax: rows no longer sum to 1",
                    request("The cat sat on the mat because it was tired .", after)});

    return list;
}

} // namespace

const std::vector<Preset>& presets()
{
    static const std::vector<Preset> list = makePresets();
    return list;
}

const Preset* findPreset(std::string_view name)
{
    for (const Preset& preset : presets())
        if (preset.name == name)
            return &preset;
    return nullptr;
}

} // namespace attn
