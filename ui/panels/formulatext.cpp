#include "formulatext.h"

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
};

constexpr Spelling kPlainText[] = {
    {"", "softmax("}, {"", "QKᵀ"},    {"", "/√d_k"},    {"", ""},         {"", "/√d_model"},
    {"", "/τ"},       {"", " + M"},   {", ", "dim=-1"}, {", ", "dim=-2"}, {", ", "dim=0"},
    {"", ")"},        {"", "⊙(1−M)"}, {"", "·V"},
};

static_assert(std::size(kRichText) == std::size_t(FormulaPart::TimesV) + 1);
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

} // namespace attn::ui
