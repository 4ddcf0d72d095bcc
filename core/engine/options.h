// Every switch of the attention formula, and the one place that spells each value.
//
// The spellings returned by spellingOf() are the command line's values, the JSON's
// values and the session file's values; the UI shows its own translated labels but
// stores and compares these enums only.
#pragma once

#include <array>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn {

enum class TokenizerMode { Auto, Spaces, Chars };
enum class EmbeddingMode { Table, Torch };
enum class Positional { Sinusoidal, None, Rope };
enum class ScaleMode { SqrtDk, None, SqrtDModel };
enum class SoftmaxAxis { Keys, Queries, Batch };
enum class MaskKind { None, Causal };
enum class MaskFill { NegInf, NegBillion };
enum class MaskStage { BeforeSoftmax, AfterSoftmax };
enum class HeadSplit { Transpose, View };
enum class AttentionKind { Self, Cross };

// One row per enum value: the value and its spelling. Order is the UI's order.
template <typename E> struct EnumSpelling {
    E value;
    std::string_view text;
};

template <typename E> struct EnumTable;

#define ATTN_ENUM_TABLE(E, N, ...)                                                                 \
    template <> struct EnumTable<E> {                                                              \
        static constexpr std::string_view option = N;                                              \
        static constexpr std::array rows{__VA_ARGS__};                                             \
    }

ATTN_ENUM_TABLE(TokenizerMode, "tokenizer",
                EnumSpelling<TokenizerMode>{TokenizerMode::Auto, "auto"},
                EnumSpelling<TokenizerMode>{TokenizerMode::Spaces, "spaces"},
                EnumSpelling<TokenizerMode>{TokenizerMode::Chars, "chars"});
ATTN_ENUM_TABLE(EmbeddingMode, "embedding",
                EnumSpelling<EmbeddingMode>{EmbeddingMode::Table, "table"},
                EnumSpelling<EmbeddingMode>{EmbeddingMode::Torch, "torch"});
ATTN_ENUM_TABLE(Positional, "positional",
                EnumSpelling<Positional>{Positional::Sinusoidal, "sinusoidal"},
                EnumSpelling<Positional>{Positional::None, "none"},
                EnumSpelling<Positional>{Positional::Rope, "rope"});
ATTN_ENUM_TABLE(ScaleMode, "scale", EnumSpelling<ScaleMode>{ScaleMode::SqrtDk, "sqrt-dk"},
                EnumSpelling<ScaleMode>{ScaleMode::None, "none"},
                EnumSpelling<ScaleMode>{ScaleMode::SqrtDModel, "sqrt-dmodel"});
ATTN_ENUM_TABLE(SoftmaxAxis, "axis", EnumSpelling<SoftmaxAxis>{SoftmaxAxis::Keys, "keys"},
                EnumSpelling<SoftmaxAxis>{SoftmaxAxis::Queries, "queries"},
                EnumSpelling<SoftmaxAxis>{SoftmaxAxis::Batch, "batch"});
ATTN_ENUM_TABLE(MaskKind, "mask", EnumSpelling<MaskKind>{MaskKind::None, "none"},
                EnumSpelling<MaskKind>{MaskKind::Causal, "causal"});
ATTN_ENUM_TABLE(MaskFill, "mask-fill", EnumSpelling<MaskFill>{MaskFill::NegInf, "neg-inf"},
                EnumSpelling<MaskFill>{MaskFill::NegBillion, "-1e9"});
ATTN_ENUM_TABLE(MaskStage, "mask-stage",
                EnumSpelling<MaskStage>{MaskStage::BeforeSoftmax, "before-softmax"},
                EnumSpelling<MaskStage>{MaskStage::AfterSoftmax, "after-softmax"});
ATTN_ENUM_TABLE(HeadSplit, "head-split", EnumSpelling<HeadSplit>{HeadSplit::Transpose, "transpose"},
                EnumSpelling<HeadSplit>{HeadSplit::View, "view"});
ATTN_ENUM_TABLE(AttentionKind, "attention",
                EnumSpelling<AttentionKind>{AttentionKind::Self, "self"},
                EnumSpelling<AttentionKind>{AttentionKind::Cross, "cross"});

#undef ATTN_ENUM_TABLE

// The spelling of an enum value, e.g. spellingOf(SoftmaxAxis::Queries) == "queries".
template <typename E>
requires std::is_enum_v<E>
[[nodiscard]] constexpr std::string_view spellingOf(E value)
{
    for (const auto& row : EnumTable<E>::rows)
        if (row.value == value)
            return row.text;
    return {};
}

// The enum value spelled `text`, or nothing when no value is spelled so.
template <typename E> [[nodiscard]] constexpr std::optional<E> fromString(std::string_view text)
{
    for (const auto& row : EnumTable<E>::rows)
        if (row.text == text)
            return row.value;
    return std::nullopt;
}

// "a|b|c": every spelling of E, for help texts and error messages.
template <typename E> [[nodiscard]] std::string allSpellings()
{
    std::string out;
    for (const auto& row : EnumTable<E>::rows) {
        if (!out.empty())
            out += '|';
        out += row.text;
    }
    return out;
}

// Limits the engine accepts; the CLI and the UI take them from here.
inline constexpr int kMinDModel = 1;
inline constexpr int kMaxDModel = 4096;
inline constexpr int kMaxTokens = 4096;  // T, per sequence
inline constexpr int kMaxSequences = 64; // B, lines of input
inline constexpr float kMinTemperature = 1e-6f;
inline constexpr float kMaxTemperature = 1e6f;
inline constexpr float kDefaultRopeTheta = 10000.0f;
// RMSNorm's ε of QK-norm (modeling_qwen3's rms_norm_eps).
inline constexpr float kQkNormEpsilon = 1e-6f;

// Everything that decides the numbers, besides the text itself.
struct Config {
    TokenizerMode tokenizer = TokenizerMode::Auto;
    int dModel = 64; // C
    int heads = 4;   // H; must divide dModel
    std::uint64_t seed = 42;
    EmbeddingMode embedding = EmbeddingMode::Table;
    Positional positional = Positional::Sinusoidal;
    ScaleMode scale = ScaleMode::SqrtDk;
    float temperature = 1.0f; // τ > 0
    SoftmaxAxis axis = SoftmaxAxis::Keys;
    MaskKind mask = MaskKind::None;
    MaskFill maskFill = MaskFill::NegInf;
    MaskStage maskStage = MaskStage::BeforeSoftmax;
    HeadSplit headSplit = HeadSplit::Transpose;
    bool paddingMask = true; // mask the keys of <pad> tokens
    // Self: Q, K, V from the text. Cross: Q from the text, K and V from a second text
    // (Request::crossText), as a decoder attends to its encoder.
    AttentionKind attention = AttentionKind::Self;

    // Today's models (ARCHITECTURE.md, "The formula as today's models write it"), in the
    // order the pipeline applies them. Each one's default leaves the 2017 formula.
    int kvHeads = 0;     // K/V heads K (GQA; 1: multi-query); 0: as many as the query heads
    bool qkNorm = false; // each row of Q_h and K_h divided by its RMS over d_k (Qwen3)
    float ropeTheta = kDefaultRopeTheta; // θ of positional "rope"
    bool alibi = false;                  // L −= m_h·|i − j| (BLOOM's slopes)
    float softcap = 0;                   // c > 0: L ← c·tanh(L / c) (Gemma 2); 0: off
    int window = 0; // W ≥ 1: key j hidden from query i when i − j ≥ W (Mistral); 0: off
    // One more logit s in every row of the softmax over the keys, dropped after it
    // (gpt-oss's sinks; s = 0 is "softmax off by one"); none: off.
    std::optional<float> sink;

    [[nodiscard]] int dK() const { return heads > 0 ? dModel / heads : 0; }
    // K: the K/V heads the keys and values are split into.
    [[nodiscard]] int kvHeadCount() const { return kvHeads > 0 ? kvHeads : heads; }
    // Query head h reads K/V head ⌊h / (H/K)⌋ (HF's repeat_kv).
    [[nodiscard]] int kvHeadOf(int h) const
    {
        const int K = kvHeadCount();
        return K > 0 && heads >= K ? h / (heads / K) : h;
    }
    bool operator==(const Config&) const = default;
};

// What an InputError refuses, so that an interface can word it in its own language:
// ui/labels.cpp holds a template per kind, filled with InputError::arguments() in order.
// Other: only the English what() exists (the command line's own refusals).
enum class Refusal {
    Other,
    TextTooLong,      // —
    InvalidUtf8,      // byte offset
    LineTooLong,      // line number, tokens, limit
    TooManyLines,     // limit
    EmptyText,        // —
    CrossTextMissing, // —
    CrossLines,       // lines of the keys' text, lines of the queries' text
    DModelRange,      // min, max, value
    HeadsRange,       // d_model, value
    HeadsDivide,      // heads, d_model
    TemperatureNaN,   // —
    TemperatureRange, // —
    CausalCross,      // —
    KvHeadsDivide,    // K/V heads, heads
    RopeOddDk,        // d_k
    RopeTheta,        // —
    Softcap,          // —
    Window,           // —
    SinkValue,        // —
    SinkAxis,         // —
    Memory,           // GiB needed, GiB available
    MemoryBeside,     // GiB needed in all, GiB of it the previous result holds, GiB available
    OutOfMemory,      // — (an allocation failed after all)
};

// A problem with what the user asked for; what() is one line naming it in English.
class InputError : public std::exception {
public:
    explicit InputError(std::string message, Refusal refusal = Refusal::Other,
                        std::vector<std::string> arguments = {})
        : message_(std::move(message)), refusal_(refusal), arguments_(std::move(arguments))
    {}
    [[nodiscard]] const char* what() const noexcept override { return message_.c_str(); }
    [[nodiscard]] Refusal refusal() const { return refusal_; }
    [[nodiscard]] const std::vector<std::string>& arguments() const { return arguments_; }
    // The refusal is about cross-attention's second text (its what() says so first).
    [[nodiscard]] bool inKeysText() const { return inKeysText_; }
    void setInKeysText(std::string message)
    {
        message_ = std::move(message);
        inKeysText_ = true;
    }

private:
    std::string message_;
    Refusal refusal_ = Refusal::Other;
    std::vector<std::string> arguments_;
    bool inKeysText_ = false;
};

// The first problem of `config` as the InputError that names it, or nothing when the
// config is valid.
[[nodiscard]] std::optional<InputError> checkConfig(const Config& config);

// The first problem of `config` in English, or an empty string when it is valid.
[[nodiscard]] std::string validate(const Config& config);

// The numeric scale factor of the mode: 1/√d_k, 1 or 1/√C.
[[nodiscard]] double scaleFactor(const Config& config);

} // namespace attn
