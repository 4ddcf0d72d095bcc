// The arithmetic of one weight as the Step by step panel and figure print it, with the
// real numbers: the dot product, the scaling, the mask and the softmax over its axis.
#include "explanationhtml.h"

#include <QCoreApplication>

#include <cmath>

namespace attn::ui {
namespace {

// The explanation's words keep the context they were translated in, the dialog's.
class DialogWords {
    Q_DECLARE_TR_FUNCTIONS(attn::ui::PipelineDialog)
};

constexpr std::size_t kAllDotTerms = 16;  // d_k up to this: every term of q·k
constexpr std::size_t kFirstDotTerms = 8; // else these first ones
constexpr std::size_t kAllSumTerms = 12;  // the softmax's sum: every term up to this
constexpr std::size_t kFirstSumTerms = 8;

// A number as the panel prints it: four significant digits, NaN and ±inf spelled out.
QString num(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', 4);
}

// A number after a minus sign: "0.37", or "(-0.37)" so that two signs never meet.
QString subtrahend(double value)
{
    return value < 0 ? QStringLiteral("(%1)").arg(num(value)) : num(value);
}

QString sub(const QString& base, const QString& index)
{
    return QStringLiteral("%1<sub>%2</sub>").arg(base, index);
}

// "L[3][0]" in a head's (T, T) matrix, or "L[0][1][3][0]" when the batch is the axis.
QString cell(const CellExplanation& e, const QString& symbol, int b, int i, int j)
{
    if (e.axis == SoftmaxAxis::Batch)
        return QStringLiteral("%1[%2][%3][%4][%5]").arg(symbol).arg(b).arg(e.h).arg(i).arg(j);
    return QStringLiteral("%1[%2][%3]").arg(symbol).arg(i).arg(j);
}

// The slice the softmax normalises: "L[3][·]", "L[·][0]" or "L[·][1][3][0]".
QString sliceName(const CellExplanation& e)
{
    switch (e.axis) {
    case SoftmaxAxis::Keys:
        return QStringLiteral("L[%1][·]").arg(e.i);
    case SoftmaxAxis::Queries:
        return QStringLiteral("L[·][%1]").arg(e.j);
    case SoftmaxAxis::Batch:
        return QStringLiteral("L[·][%1][%2][%3]").arg(e.h).arg(e.i).arg(e.j);
    }
    return {};
}

QString axisSentence(const CellExplanation& e)
{
    switch (e.axis) {
    case SoftmaxAxis::Keys:
        return DialogWords::tr("softmax over the keys (dim=-1): row %1 of L").arg(e.i);
    case SoftmaxAxis::Queries:
        return DialogWords::tr("softmax over the queries (dim=-2): column %1 of L").arg(e.j);
    case SoftmaxAxis::Batch:
        return DialogWords::tr(
                   "softmax over the batch (dim=0): L[·][%1][%2][%3], one value from each of the "
                   "%4 sequences")
            .arg(e.h)
            .arg(e.i)
            .arg(e.j)
            .arg(e.slice.size());
    }
    return {};
}

// 1. S[i][j] = q_i · k_j with its terms.
QString scoreParagraph(const CellExplanation& e)
{
    const QString i = QString::number(e.i), j = QString::number(e.j);
    QStringList terms;
    const std::size_t shown = e.terms.size() <= kAllDotTerms ? e.terms.size() : kFirstDotTerms;
    for (std::size_t k = 0; k < shown; ++k)
        terms << QStringLiteral("(%1·%2)").arg(num(e.terms[k].query), num(e.terms[k].key));
    QString sum = terms.join(QStringLiteral(" + "));
    if (shown < e.terms.size())
        sum += DialogWords::tr(" + … (%1 terms in all)", "the dot product's terms")
                   .arg(e.terms.size());
    return QStringLiteral(
               "<p><b>%1</b> %2 = %3 · %4 = Σ<sub>k</sub> %5·%6<br/>= %7 = <b>%8</b></p>")
        .arg(DialogWords::tr("① Score"), cell(e, QStringLiteral("S"), e.b, e.i, e.j), sub("q", i),
             sub("k", j), sub("q", i + QLatin1Char('k')), sub("k", j + QLatin1Char('k')), sum,
             num(e.score));
}

// 2. L[i][j] = S·scale/τ, and what the mask does to it.
QString logitParagraph(const CellExplanation& e)
{
    const QString name = cell(e, QStringLiteral("L"), e.b, e.i, e.j);
    QString text =
        QStringLiteral("<p><b>%1</b> %2 = %3 × scale / τ = %4 × %5 / %6 = <b>%7</b>")
            .arg(DialogWords::tr("② Logit"), name, cell(e, QStringLiteral("S"), e.b, e.i, e.j),
                 num(e.score), num(e.scale), num(e.temperature), num(e.scaledScore));
    if (e.shifted)
        text += QStringLiteral("<br/>") +
                DialogWords::tr("After ALiBi's bias and the soft-cap: %1 = <b>%2</b>")
                    .arg(name, num(e.shiftedScore));
    if (e.masked && e.maskStage == MaskStage::BeforeSoftmax)
        text += QStringLiteral("<br/>") +
                DialogWords::tr("The mask hides key %1 from query %2, so it is "
                                "filled: %3 = <b>%4</b>")
                    .arg(e.j)
                    .arg(e.i)
                    .arg(name, num(e.logit));
    else if (e.masked)
        text += QStringLiteral("<br/>") +
                DialogWords::tr(
                    "The mask hides key %1 from query %2, but only after the softmax (the bug): "
                    "the logit goes in as it is.")
                    .arg(e.j)
                    .arg(e.i);
    return text + QStringLiteral("</p>");
}

// 3. P[i][j] = exp(L[i][j] − max) / Σ exp(L[·] − max).
QString weightParagraph(const CellExplanation& e)
{
    QStringList terms;
    bool anyMasked = false;
    float maskedLogit = 0; // the fill, -inf or -1e9
    const std::size_t shown = e.slice.size() <= kAllSumTerms ? e.slice.size() : kFirstSumTerms;
    for (std::size_t n = 0; n < shown; ++n) {
        const SoftmaxTerm& term = e.slice[n];
        QString value = num(term.shiftedExp);
        if (int(n) == e.position)
            value = QStringLiteral("<b>%1</b>").arg(value);
        else if (term.masked && e.maskStage == MaskStage::BeforeSoftmax)
            value = QStringLiteral("<span style=\"color:gray\">%1</span>").arg(value);
        if (term.masked && e.maskStage == MaskStage::BeforeSoftmax) {
            anyMasked = true;
            maskedLogit = term.logit;
        }
        terms << value;
    }
    QString sum = terms.join(QStringLiteral(" + "));
    if (shown < e.slice.size())
        sum += DialogWords::tr(" + … (%1 terms in all)", "the softmax's terms").arg(e.slice.size());
    if (e.sink)
        sum += QStringLiteral(" + ") + num(e.sinkExp);

    const QString slice = sliceName(e);
    const QString name = cell(e, QStringLiteral("L"), e.b, e.i, e.j);
    const QString weight = cell(e, QStringLiteral("P"), e.b, e.i, e.j);
    QString text =
        QStringLiteral("<p><b>%1</b> %2<br/>").arg(DialogWords::tr("③ Weight"), axisSentence(e));
    text +=
        DialogWords::tr("max = %1, subtracted only so that exp cannot overflow").arg(num(e.max));
    text += QStringLiteral("<br/>Σ exp(%1 − max) = %2 = %3").arg(slice, sum, num(e.denominator));
    if (anyMasked && std::isfinite(e.max))
        text += DialogWords::tr(" (grey: masked, exp(%1 − max) = 0)").arg(num(maskedLogit));
    if (e.sink)
        text += DialogWords::tr(" (the last term is the sink's, exp(s − max) with s = %1: the "
                                "weight it takes is dropped)")
                    .arg(num(*e.sink));
    const double result = e.zeroedAfterSoftmax ? e.quotient : double(e.weight);
    text += QStringLiteral("<br/>%1 = exp(%2 − max) / Σ exp(%3 − max) = exp(%4 − %5) / %6 = %7 / "
                           "%6 = <b>%8</b>")
                .arg(weight, name, slice, num(e.logit), subtrahend(e.max), num(e.denominator),
                     num(e.numerator), num(result));
    if (std::isinf(e.max) && e.max < 0)
        text += QStringLiteral("<br/>") +
                DialogWords::tr(
                    "Every logit of %1 is -inf: max = -inf and -inf − (-inf) = NaN, so the weight "
                    "is NaN, as in torch.")
                    .arg(slice);
    text += QStringLiteral("</p>");
    if (e.zeroedAfterSoftmax)
        text += QStringLiteral("<p>") +
                DialogWords::tr(
                    "Then the mask, after the softmax (the bug): %1 = <b>%2</b>, so what is left "
                    "no longer sums to 1.")
                    .arg(weight, num(e.weight)) +
                QStringLiteral("</p>");
    return text;
}

} // namespace

QString explanationHtml(const CellExplanation& e, const QString& queryLabel,
                        const QString& keyLabel)
{
    const QString header =
        QStringLiteral("<p>") +
        DialogWords::tr("Sequence %1, head %2: how query <b>%3</b> (row %4) weighs key <b>%5</b> "
                        "(column %6).")
            .arg(e.b)
            .arg(e.h)
            .arg(queryLabel.toHtmlEscaped())
            .arg(e.i)
            .arg(keyLabel.toHtmlEscaped())
            .arg(e.j) +
        QStringLiteral("</p>");
    return header + scoreParagraph(e) + logitParagraph(e) + weightParagraph(e);
}

} // namespace attn::ui
