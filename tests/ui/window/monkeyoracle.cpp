#include "monkeyoracle.h"

#include "engine/tokenizer.h"
#include "labels.h"
#include "language.h"

#include <QChar>

#include <algorithm>
#include <cmath>

namespace attn::test {

using ui::refusalText;
using ui::Session;

QString shown(const QString& text)
{
    QString out;
    for (QChar c : text.left(40))
        out += c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
                   ? QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'))
                   : QString(c);
    return text.size() > 40 ? out + QStringLiteral("…") : out;
}

Outcome expectedOutcome(const Request& request)
{
    if (const std::optional<InputError> problem = checkConfig(request.config))
        return {std::nullopt, std::nullopt, refusalText(*problem)};
    try {
        TokenBatch tokens = tokenize(request.text, request.config.tokenizer);
        TokenBatch keys =
            request.config.attention == AttentionKind::Cross
                ? crossTokens(request.crossText, request.config.tokenizer, tokens.batch())
                : tokens;
        return {std::move(tokens), std::move(keys), {}};
    } catch (const InputError& error) {
        return {std::nullopt, std::nullopt, refusalText(error)};
    }
}

bool affordable(const Request& request)
{
    const Outcome outcome = expectedOutcome(request);
    if (!outcome.tokens)
        return true; // refused before anything is computed
    const qint64 B = outcome.tokens->batch(), T = outcome.tokens->length();
    const qint64 Tk = outcome.keys->length();
    const qint64 C = request.config.dModel, H = request.config.heads;
    return B * H * T * Tk <= kBudget.cells && B * std::max(T, Tk) * C * C <= kBudget.projection &&
           C * C <= kBudget.layers && H <= kBudget.heads;
}

QString describe(const Request& request)
{
    const Outcome outcome = expectedOutcome(request);
    const Config& c = request.config;
    const QString model = QStringLiteral("C %1 · H %2 · tokenizer %3")
                              .arg(c.dModel)
                              .arg(c.heads)
                              .arg(QLatin1StringView(spellingOf(c.tokenizer)));
    if (!outcome.tokens)
        return QStringLiteral("refused (%1) · ").arg(outcome.error) + model;
    return QStringLiteral("B %1 · T %2 · ")
               .arg(outcome.tokens->batch())
               .arg(outcome.tokens->length()) +
           model;
}

QString sessionDifference(const Session& a, const Session& b)
{
    if (a.request.text != b.request.text) {
        const QString x = QString::fromStdString(a.request.text);
        const QString y = QString::fromStdString(b.request.text);
        qsizetype at = 0;
        while (at < x.size() && at < y.size() && x[at] == y[at])
            ++at;
        return QStringLiteral("the text, from character %1: \"%2\" became \"%3\"")
            .arg(at)
            .arg(shown(x.mid(at, 10)), shown(y.mid(at, 10)));
    }
    if (a.request.config != b.request.config)
        return QStringLiteral("the config");
    if (a.request.embeddingOverrides != b.request.embeddingOverrides)
        return QStringLiteral("the embedding overrides");
    return QStringLiteral("the view (sequence %1 became %2)")
        .arg(a.view.sequence)
        .arg(b.view.sequence);
}

qint64 weightCells(const Result& result)
{
    return qint64(result.batch()) * result.heads() * result.length() * result.keyLength();
}

QString weightProblems(const Result& result)
{
    const Config& c = result.config();
    const bool negInfBefore =
        c.maskFill == MaskFill::NegInf && c.maskStage == MaskStage::BeforeSoftmax;
    const bool nanAllowed = negInfBefore && c.axis != SoftmaxAxis::Keys;
    // Over the keys a row is NaN only where every key is masked: a sliding window can hide
    // every real key from a <pad> query (torch's 0/0 too); a sink's logit keeps it finite.
    // A sink takes its share of each row: the keys' weights then sum to less than 1.
    const bool rowsSumToOne =
        c.axis == SoftmaxAxis::Keys && c.maskStage == MaskStage::BeforeSoftmax && !c.sink;
    const int T = result.length(), Tk = result.keyLength();
    for (int b = 0; b < result.batch(); ++b)
        for (int h = 0; h < result.heads(); ++h) {
            const Matrix& p = result.weights->at(b, h);
            const MaskMatrix& m = (*result.mask)[std::size_t(b)];
            if (p.rows() != T || p.cols() != Tk)
                return QStringLiteral("weights[%1][%2] are %3×%4, not T_q×T_k = %5×%6")
                    .arg(b)
                    .arg(h)
                    .arg(p.rows())
                    .arg(p.cols())
                    .arg(T)
                    .arg(Tk);
            for (int i = 0; i < T; ++i) {
                for (int j = 0; j < Tk; ++j) {
                    const float v = p(i, j);
                    const bool emptyRow = negInfBefore && !c.sink && m.row(i).all();
                    const bool ok = std::isnan(v) ? (nanAllowed || emptyRow) && m(i, j)
                                                  : v >= 0 && v <= 1.0001f;
                    if (!ok)
                        return QStringLiteral("weights[%1][%2][%3][%4] = %5 (mask %6)")
                            .arg(b)
                            .arg(h)
                            .arg(i)
                            .arg(j)
                            .arg(double(v))
                            .arg(m(i, j));
                }
                if (const float sum = p.row(i).sum(); rowsSumToOne && std::abs(sum - 1) > 1e-3f)
                    return QStringLiteral("row %1 of weights[%2][%3] sums to %4")
                        .arg(i)
                        .arg(b)
                        .arg(h)
                        .arg(double(sum));
            }
        }
    return {};
}

} // namespace attn::test
