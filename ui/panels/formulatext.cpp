#include "formulatext.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

namespace attn::ui {
namespace {

// A part as written: what goes before it (outside its colour) and the part itself.
struct Spelling {
    const char* lead;
    const char* symbol;
};

// Indexed by FormulaPart.
constexpr Spelling kRichText[] = {
    {"", "softmax("},
    {"", "<i>QK</i><sup>T</sup>"},
    {" / ", "√<i>d</i><sub>k</sub>"},
    {" ", "<s>/ √<i>d</i><sub>k</sub></s>"},
    {" ", "/ √<i>d</i><sub>model</sub>"},
    {" ", "/ <i>τ</i>"},
    {"", " + <i>M</i>"},
    {", ", "dim=-1"},
    {", ", "dim=-2"},
    {", ", "dim=0"},
    {"", ")"},
    {" ", "⊙ (1 − <i>M</i>)"},
    {" · ", "<i>V</i>"},
    // Today's models:
    {"", "["},
    {"", "<i>c</i>·tanh("},
    {"", "("},
    {"", "<i>Q̂K̂</i><sup>T</sup>"},
    {"", "(<i>R</i><sub><i>i</i></sub><i>Q</i>)(<i>R</i><sub><i>j</i></sub><i>K</i>)<sup>T</sup>"},
    {"", "(<i>R</i><sub><i>i</i></sub><i>Q̂</i>)(<i>R</i><sub><i>j</i></sub><i>K̂</i>)<sup>T</sup>"},
    {" ", "− <i>m</i><sub>h</sub>·|<i>i</i> − <i>j</i>|"},
    {"", ")"},
    {" ", "/ <i>c</i>)"},
    {"", " + <i>M</i><sub>W</sub>"},
    {", ", "<i>s</i>]"},
};

constexpr Spelling kPlainText[] = {
    {"", "softmax("},
    {"", "QKᵀ"},
    {"", "/√d_k"},
    {"", ""},
    {"", "/√d_model"},
    {"", "/τ"},
    {"", " + M"},
    {", ", "dim=-1"},
    {", ", "dim=-2"},
    {", ", "dim=0"},
    {"", ")"},
    {"", "⊙(1−M)"},
    {"", "·V"},
    // Today's models:
    {"", "["},
    {"", "c·tanh("},
    {"", "("},
    {"", "Q̂K̂ᵀ"},
    {"", "(R_i Q)(R_j K)ᵀ"},
    {"", "(R_i Q̂)(R_j K̂)ᵀ"},
    {"", " − m_h·|i−j|"},
    {"", ")"},
    {"", "/c)"},
    {"", " + M_W"},
    {", ", "s]"},
};

static_assert(std::size(kRichText) == std::size_t(kLastFormulaPart) + 1);
static_assert(std::size(kPlainText) == std::size(kRichText));

const Spelling& spelling(FormulaPart part, FormulaMarkup markup)
{
    return (markup == FormulaMarkup::RichText ? kRichText : kPlainText)[std::size_t(part)];
}

} // namespace

QString alertSpan(const QString& html, const QColor& alert)
{
    return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(alert.name(), html);
}

QString formulaSymbol(FormulaPart part, FormulaMarkup markup)
{
    return QString::fromUtf8(spelling(part, markup).symbol);
}

QString writeFormula(const Formula& formula, FormulaMarkup markup, const QColor& alert)
{
    QString text;
    for (const FormulaTerm& term : formula.terms) {
        const Spelling& s = spelling(term.part, markup);
        const QString symbol = QString::fromUtf8(s.symbol);
        text += QString::fromUtf8(s.lead);
        text +=
            term.departs && markup == FormulaMarkup::RichText ? alertSpan(symbol, alert) : symbol;
    }
    return text;
}

QStringList formulaDepartures(const Config& config, bool hasPadding)
{
    const Formula formula = formulaOf(config, hasPadding);
    QStringList departures;
    if (config.scale == ScaleMode::None)
        departures << QCoreApplication::translate("attn::ui::FormulaBar", "no scaling by √d_k");
    else if (config.scale == ScaleMode::SqrtDModel)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "divided by √d_model instead of √d_k");
    if (formula.temperature)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "temperature τ = %1 instead of 1")
                          .arg(QString::number(config.temperature, 'g', 4));
    if (config.axis == SoftmaxAxis::Queries)
        departures << QCoreApplication::translate(
            "attn::ui::FormulaBar",
            "softmax over the queries (dim=-2) instead of the keys (dim=-1)");
    else if (config.axis == SoftmaxAxis::Batch)
        departures << QCoreApplication::translate(
            "attn::ui::FormulaBar", "softmax over the batch (dim=0) instead of the keys (dim=-1)");
    if (formula.maskAfter)
        departures << QCoreApplication::translate(
            "attn::ui::FormulaBar", "mask applied after the softmax instead of before");
    if (formula.paddingAttended)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "<pad> tokens not masked");
    if (formula.viewSplit)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "heads split with view(B, H, T, d_k) instead of "
                                                  "view(B, T, H, d_k).transpose(1, 2)");
    // Today's models, in the order the pipeline applies them.
    if (formula.sharedKeys)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "K and V shared: %1 query heads per K/V head")
                          .arg(config.heads / std::max(1, config.kvHeadCount()));
    if (config.qkNorm)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "Q and K normalised by their RMS (QK-norm)");
    if (config.positional == Positional::Rope)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "Q and K rotated by their positions (RoPE, "
                                                  "θ = %1)")
                          .arg(QString::number(config.ropeTheta, 'g', 6));
    if (config.alibi)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "ALiBi's linear bias −m_h·|i−j|");
    if (config.softcap > 0)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "logits soft-capped at c = %1")
                          .arg(QString::number(config.softcap, 'g', 6));
    if (config.window > 0)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "a sliding window of %1 keys")
                          .arg(config.window);
    if (config.sink)
        departures << QCoreApplication::translate("attn::ui::FormulaBar",
                                                  "a sink logit s = %1 in every row")
                          .arg(QString::number(*config.sink, 'g', 6));
    return departures;
}

} // namespace attn::ui
