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

std::vector<RequestField> makeFields()
{
    return {
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
        choice<Positional, &Config::positional>(
            QT_TRANSLATE_NOOP("Command line", "add sinusoidal positional encoding to x, or not")),
        choice<ScaleMode, &Config::scale>(
            QT_TRANSLATE_NOOP("Command line", "multiply QKᵀ by 1/√d_k, 1 or 1/√d_model")),
        {"temperature", FieldKind::Real, "X",
         QT_TRANSLATE_NOOP("Command line", "divide the logits by τ > 0"), true, 0, 0,
         [](const Request& r) {
             // The shortest decimal that reads back as the same float.
             char buffer[32];
             const auto end = std::to_chars(buffer, buffer + sizeof buffer, r.config.temperature);
             return std::string(buffer, end.ptr);
         },
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
        {"padding-mask", FieldKind::Switch, "on|off",
         QT_TRANSLATE_NOOP("Command line", "mask <pad> tokens of shorter sequences"), true, 0, 0,
         [](const Request& r) { return std::string(r.config.paddingMask ? "on" : "off"); },
         [](Request& r, std::string_view text) {
             if (text != "on" && text != "off")
                 throw InputError("--padding-mask must be on|off, not " + quotedArgument(text));
             r.config.paddingMask = text == "on";
         },
         &Config::paddingMask},
        choice<AttentionKind, &Config::attention>(QT_TRANSLATE_NOOP(
            "Command line",
            "self: Q, K, V from --text; cross: Q from --text, K and V from --cross-text")),
    };
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
