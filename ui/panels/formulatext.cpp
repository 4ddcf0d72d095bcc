#include "formulatext.h"

#include <QCoreApplication>

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
    return departures;
}

} // namespace attn::ui
