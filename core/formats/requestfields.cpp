#include "formats/requestfields.h"

#include "base/translatable.h"
#include "formats/commandline.h"

#include <charconv>

namespace attn {
namespace {

// A row for the enum member `M` of Config: its option name and spellings from options.h.
template <typename E, E Config::*M> RequestField choice(const char* help)
{
    return {std::string(EnumTable<E>::option),
            FieldKind::Choice,
            allSpellings<E>(),
            help,
            true,
            0,
            0,
            [](const Request& r) { return std::string(spellingOf(r.config.*M)); },
            [](Request& r, std::string_view text) {
                if (const std::optional<E> value = fromString<E>(text))
                    r.config.*M = *value;
                else
                    throw InputError("--" + std::string(EnumTable<E>::option) + " must be " +
                                     allSpellings<E>() + ", not " + quotedArgument(text));
            }};
}

// The shortest decimal that reads back as the same float.
std::string shortestText(float value)
{
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, end.ptr);
}

// An on|off row for the flag `M` of Config.
template <bool Config::*M> RequestField onOff(const char* name, const char* help, bool addedLater)
{
    RequestField field{
        name,     FieldKind::Switch,
        "on|off", help,
        true,     0,
        0,        [](const Request& r) { return std::string(r.config.*M ? "on" : "off"); },
        nullptr,  M};
    field.parse = [](Request& r, std::string_view text) {
        if (text != "on" && text != "off")
            // Which option: the row is found again by its member.
            for (const RequestField& f : requestFields())
                if (const auto* m = std::get_if<bool Config::*>(&f.member); m && *m == M)
                    throw InputError("--" + f.name + " must be on|off, not " +
                                     quotedArgument(text));
        r.config.*M = text == "on";
    };
    field.addedLater = addedLater;
    return field;
}

// Today's models' switches (options.h), each off by its default; those without a neutral
// number are spelt "off" when off.
std::vector<RequestField> todaysFields()
{
    std::vector<RequestField> rows{
        {"kv-heads", FieldKind::Integer, "K",
         QT_TRANSLATE_NOOP("Command line",
                           "K/V heads K (grouped-query attention; 1: multi-query); must divide "
                           "--heads; 0: as many as the heads"),
         true, 0, kMaxDModel, [](const Request& r) { return std::to_string(r.config.kvHeads); },
         [](Request& r, std::string_view text) {
             r.config.kvHeads = static_cast<int>(parseInteger("--kv-heads", text, 0, kMaxDModel));
         },
         &Config::kvHeads},
        onOff<&Config::qkNorm>(
            "qk-norm",
            QT_TRANSLATE_NOOP("Command line",
                              "divide every row of Q_h and K_h by its root mean square (Qwen3)"),
            true),
        {"rope-theta", FieldKind::Real, "X",
         QT_TRANSLATE_NOOP("Command line", "the base θ of --positional rope (10000)"), true, 0, 0,
         [](const Request& r) { return shortestText(r.config.ropeTheta); },
         [](Request& r, std::string_view text) {
             const double theta = parseReal("--rope-theta", text);
             if (!(theta > 0) || theta > 1e30)
                 throw InputError("--rope-theta must be a positive number, not " +
                                  std::string(text));
             r.config.ropeTheta = static_cast<float>(theta);
         },
         &Config::ropeTheta},
        onOff<&Config::alibi>(
            "alibi",
            QT_TRANSLATE_NOOP("Command line",
                              "subtract m_h·|i-j| from the logits, BLOOM's slopes (positions "
                              "without embeddings: --positional defaults to none)"),
            true),
        {"softcap", FieldKind::Real, "C|off",
         QT_TRANSLATE_NOOP("Command line",
                           "cap the logits: L = c·tanh(L/c), c > 0, after the scaling (Gemma 2)"),
         true, 0, 0,
         [](const Request& r) {
             return r.config.softcap > 0 ? shortestText(r.config.softcap) : std::string("off");
         },
         [](Request& r, std::string_view text) {
             if (text == "off") {
                 r.config.softcap = 0;
                 return;
             }
             const double c = parseReal("--softcap", text);
             if (!(c > 0) || c > 1e30)
                 throw InputError("--softcap must be a positive number or off, not " +
                                  std::string(text));
             r.config.softcap = static_cast<float>(c);
         }},
        {"window", FieldKind::Integer, "W|off",
         QT_TRANSLATE_NOOP("Command line",
                           "sliding window: query i sees keys j with |i-j| < W only (Mistral)"),
         true, 1, kMaxTokens,
         [](const Request& r) {
             return r.config.window > 0 ? std::to_string(r.config.window) : std::string("off");
         },
         [](Request& r, std::string_view text) {
             r.config.window =
                 text == "off" ? 0
                               : static_cast<int>(parseInteger("--window", text, 1, kMaxTokens));
         }},
        {"sink", FieldKind::Real, "S|off",
         QT_TRANSLATE_NOOP("Command line",
                           "one more logit s in every row of the softmax over the keys, dropped "
                           "after it (gpt-oss; 0: softmax off by one)"),
         true, 0, 0,
         [](const Request& r) {
             return r.config.sink ? shortestText(*r.config.sink) : std::string("off");
         },
         [](Request& r, std::string_view text) {
             if (text == "off")
                 r.config.sink.reset();
             else
                 r.config.sink = static_cast<float>(parseReal("--sink", text));
         }},
    };
    for (RequestField& row : rows)
        row.addedLater = true;
    return rows;
}

std::vector<RequestField> makeFields()
{
    std::vector<RequestField> fields{
        {"text", FieldKind::Text, "TEXT",
         QT_TRANSLATE_NOOP(
             "Command line",
             "the sentence; repeat it, or separate lines with newlines, for a batch of several"),
         false, 0, 0, [](const Request& r) { return r.text; },
         [](Request& r, std::string_view text) { r.text = text; }},
        {"cross-text", FieldKind::Text, "TEXT",
         QT_TRANSLATE_NOOP(
             "Command line",
             "cross-attention: keys and values from this text, queries from --text (one line, "
             "or one per line of --text)"),
         false, 0, 0, [](const Request& r) { return r.crossText; },
         [](Request& r, std::string_view text) { r.crossText = text; }},
        choice<TokenizerMode, &Config::tokenizer>(QT_TRANSLATE_NOOP(
            "Command line", "how text becomes tokens (auto: ICU words, CJK by dictionary)")),
        {"d-model", FieldKind::Integer, "N",
         QT_TRANSLATE_NOOP("Command line", "C = d_model, from 1 to 4096"), true, kMinDModel,
         kMaxDModel, [](const Request& r) { return std::to_string(r.config.dModel); },
         [](Request& r, std::string_view text) {
             r.config.dModel =
                 static_cast<int>(parseInteger("--d-model", text, kMinDModel, kMaxDModel));
         },
         &Config::dModel},
        {"heads", FieldKind::Integer, "N",
         QT_TRANSLATE_NOOP("Command line", "H, the number of heads; must divide d_model"), true, 1,
         kMaxDModel, [](const Request& r) { return std::to_string(r.config.heads); },
         [](Request& r, std::string_view text) {
             r.config.heads = static_cast<int>(parseInteger("--heads", text, 1, kMaxDModel));
         },
         &Config::heads},
        {"seed", FieldKind::Seed, "N",
         QT_TRANSLATE_NOOP("Command line", "torch.manual_seed(N), 0 to 2^64-1"), true, 0, 0,
         [](const Request& r) { return std::to_string(r.config.seed); },
         [](Request& r, std::string_view text) { r.config.seed = parseSeed("--seed", text); },
         &Config::seed},
        choice<EmbeddingMode, &Config::embedding>(QT_TRANSLATE_NOOP(
            "Command line", "table: one vector per token; torch: x = torch.randn(B, T, C)")),
        choice<Positional, &Config::positional>(QT_TRANSLATE_NOOP(
            "Command line",
            "add the sinusoidal encoding to x, nothing, or rotate Q_h and K_h by their "
            "positions (rope; a model's own RoPE is --rope on|off)")),
        choice<ScaleMode, &Config::scale>(
            QT_TRANSLATE_NOOP("Command line", "multiply QKᵀ by 1/√d_k, 1 or 1/√d_model")),
        {"temperature", FieldKind::Real, "X",
         QT_TRANSLATE_NOOP("Command line", "divide the logits by τ > 0"), true, 0, 0,
         [](const Request& r) { return shortestText(r.config.temperature); },
         [](Request& r, std::string_view text) {
             const double tau = parseReal("--temperature", text);
             if (!(tau > 0))
                 throw InputError("--temperature must be greater than 0, not " + std::string(text));
             if (tau < kMinTemperature || tau > kMaxTemperature)
                 throw InputError("--temperature must be between 1e-06 and 1e+06, not " +
                                  std::string(text));
             r.config.temperature = static_cast<float>(tau);
         },
         &Config::temperature},
        choice<SoftmaxAxis, &Config::axis>(QT_TRANSLATE_NOOP(
            "Command line", "softmax over keys (dim=-1), queries (dim=-2) or batch (dim=0)")),
        choice<MaskKind, &Config::mask>(QT_TRANSLATE_NOOP(
            "Command line", "causal: query i sees keys j <= i (torch.triu(..., 1))")),
        choice<MaskFill, &Config::maskFill>(
            QT_TRANSLATE_NOOP("Command line", "value for masked logits")),
        choice<MaskStage, &Config::maskStage>(QT_TRANSLATE_NOOP(
            "Command line", "mask the logits before the softmax, or the weights after it")),
        choice<HeadSplit, &Config::headSplit>(QT_TRANSLATE_NOOP(
            "Command line", "view(B,T,H,d_k).transpose(1,2), or the buggy view(B,H,T,d_k)")),
        onOff<&Config::paddingMask>(
            "padding-mask",
            QT_TRANSLATE_NOOP("Command line", "mask <pad> tokens of shorter sequences"), false),
        choice<AttentionKind, &Config::attention>(QT_TRANSLATE_NOOP(
            "Command line",
            "self: Q, K, V from --text; cross: Q from --text, K and V from --cross-text")),
    };
    for (RequestField& row : todaysFields())
        fields.push_back(std::move(row));
    return fields;
}

} // namespace

const std::vector<RequestField>& requestFields()
{
    static const std::vector<RequestField> fields = makeFields();
    return fields;
}

const RequestField* findRequestField(std::string_view name)
{
    for (const RequestField& field : requestFields())
        if (field.name == name)
            return &field;
    return nullptr;
}

} // namespace attn
