#include "lab/controlhelp.h"

#include "base/translatable.h"

namespace attn {

const char* controlHelp(ControlHelp control)
{
    switch (control) {
    case ControlHelp::Sentence:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "The text to attend over. Each line becomes one sequence of the batch "
            "(B = number of lines); shorter lines are padded with <pad> up to the longest "
            "(T tokens).");
    case ControlHelp::Tokenizer:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "How the text is cut into tokens: Automatic finds words (Chinese too) with "
            "ICU; Spaces only splits at white space; Characters makes every character a "
            "token.");
    case ControlHelp::DModel:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "d_model (C): the length of every token's vector. Q, K and V have C features "
            "each, shared out among the heads.");
    case ControlHelp::DModelPreset:
        return QT_TRANSLATE_NOOP("ControlHelp", "Set d_model to %1.");
    case ControlHelp::Heads:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Number of attention heads H. Only the divisors of d_model are offered: heads "
            "must divide d_model, because each head gets d_k = d_model / heads features.");
    case ControlHelp::Dk:
        return QT_TRANSLATE_NOOP("ControlHelp",
                                 "Features per head, d_k = d_model / heads. The textbook scaling "
                                 "divides the scores by √d_k.");
    case ControlHelp::Seed:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Random seed, 0 to 2⁶⁴ − 1, as in torch.manual_seed(seed): it draws the "
            "embeddings and the weights W_q, W_k, W_v, W_o. The same seed gives the same "
            "numbers.");
    case ControlHelp::Embedding:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Where the token vectors X come from. Table gives every distinct word its own "
            "vector, the same in every sentence; torch.randn draws X = torch.randn(B, T, C) "
            "exactly as PyTorch does after manual_seed.");
    case ControlHelp::Positional:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "How attention learns word order. Sinusoidal adds the encoding of Vaswani et al. "
            "2017 to X; None adds nothing, and the same word gets the same vector everywhere; "
            "RoPE rotates each row of Q_h and K_h by its position (Llama, Qwen), so QKᵀ "
            "depends on the distance i − j.");
    case ControlHelp::HeadSplit:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "How Q, K, V (B, T, C) are cut into heads. view + transpose gives (B, H, T, d_k) "
            "correctly; view alone reads the memory as (B, H, T, d_k) and mixes tokens "
            "across heads, the classic bug.");
    case ControlHelp::Scale:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "What the scores QKᵀ are divided by. The tutorial divides by √d_k so that the "
            "scores keep a standard deviation near 1; without it, a large d_k makes "
            "softmax nearly one-hot.");
    case ControlHelp::Temperature:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Temperature τ divides the logits before softmax: τ < 1 sharpens the weights "
            "towards one-hot, τ > 1 flattens them towards uniform. The textbook formula "
            "has τ = 1.");
    case ControlHelp::TemperatureReset:
        return QT_TRANSLATE_NOOP("ControlHelp", "Set τ back to 1, the textbook formula.");
    case ControlHelp::Causal:
        return QT_TRANSLATE_NOOP("ControlHelp",
                                 "Causal mask M: query i may not look at later keys j > i "
                                 "(torch.triu(ones(T, T), 1)), as in a decoder such as GPT.");
    case ControlHelp::Padding:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Mask the keys of <pad> tokens so that no query attends to padding. Without it "
            "the shorter sentences spread weight over the padding.");
    case ControlHelp::MaskFill:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "What masked logits are set to. -inf gives exactly 0 weight, but a row with "
            "every key masked becomes NaN; -1e9 gives almost 0, and such a row becomes "
            "uniform.");
    case ControlHelp::MaskStage:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Mask before softmax (correct): masked keys get weight 0 and every row still "
            "sums to 1. Zeroing the weights after softmax leaves rows that no longer sum "
            "to 1, a common bug.");
    case ControlHelp::Axis:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "The dimension softmax normalizes. It must run over dim=-1: each query's "
            "weights over the keys sum to 1. dim=-2 makes each key's column sum to 1; "
            "dim=0 normalizes across the sentences of the batch.");
    case ControlHelp::KvHeads:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "How many heads K and V have (grouped-query attention, Llama 2 70B and most models "
            "since): H/K query heads share each K/V head, which shrinks the KV cache. 1 is "
            "multi-query attention. It must divide the number of heads.");
    case ControlHelp::QkNorm:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Divide every row of Q_h and K_h by its root mean square before QKᵀ (Qwen3, OLMo 2): "
            "the scores stay bounded by d_k, whatever the size of the vectors.");
    case ControlHelp::RopeTheta:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "The base θ of RoPE's frequencies θ^(−2i/d_k): 10000 in Llama 2, 500000 in Llama 3. "
            "A larger θ turns slowly and reaches farther.");
    case ControlHelp::Alibi:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "ALiBi (BLOOM, MPT): subtract m_h·|i − j| from the logits, a penalty that grows with "
            "the distance, each head with its own slope m_h. Turning it on sets the positions "
            "to none, as those models have no positional embedding.");
    case ControlHelp::Softcap:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Soft-capping (Gemma 2): L = c·tanh(L/c) keeps every logit inside (−c, c) and "
            "leaves small ones almost unchanged. c must be a positive number (Gemma 2: 50).");
    case ControlHelp::Window:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "Sliding window (Mistral, Gemma 2's local layers): query i sees only the keys j with "
            "|i − j| < W; the others are masked. W is 1 to 4096 keys.");
    case ControlHelp::Sink:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "An attention sink (gpt-oss): one more logit s in every row of the softmax, dropped "
            "after it, so a query may give its weight to nothing. s = 0 is \"softmax off by "
            "one\". Any finite number.");
    case ControlHelp::SinkNeedsKeys:
        return QT_TRANSLATE_NOOP(
            "ControlHelp",
            "A sink is one more key in each row: it needs the softmax over the keys (dim=-1). "
            "Set Softmax over back to the keys to use it.");
    }
    return "";
}

} // namespace attn
