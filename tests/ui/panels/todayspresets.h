// The checks of the lessons of today's models' switches (gqa … attention-sink) for
// tst_presets: what each preset promises, held against PyTorch's numbers in
// tests/reference/preset_cases.json, and the numbers its lesson quotes.
#pragma once

#include "presetcases.h"

#include <QJsonArray>
#include <QString>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

namespace attn::test {

// A failed expectation as a message; empty when everything held.
using Check = std::function<QString(const Result&)>;

// What a preset promises (for the row names) and the check that it holds.
struct Expectation {
    const char* promise;
    Check check;
};

// A number a lesson quotes: PyTorch's, and the decimals the lesson rounds it to.
struct QuotedNumber {
    const char* row;
    const char* preset;
    double value;
    int decimals;
};

namespace todays {

inline QJsonValue lesson(const QString& name, const char* key)
{
    return pytorch(name)["lesson"][QLatin1String(key)];
}

// The score S[0][h](i, j) against PyTorch's, to `tolerance`.
inline QString expectScore(const Result& r, int h, int i, int j, double expected)
{
    return expectFigure("a score", r.scores->at(0, h)(i, j), expected, 1e-4);
}

// The mean weight of head h of sequence 0 at distance |i − j| = d.
inline double distanceMean(const Result& r, int h, int d)
{
    const Matrix& p = r.weights->at(0, h);
    double sum = 0;
    int n = 0;
    for (Eigen::Index i = 0; i < p.rows(); ++i)
        for (Eigen::Index j = 0; j < p.cols(); ++j)
            if (std::abs(i - j) == d) {
                sum += p(i, j);
                ++n;
            }
    return n > 0 ? sum / n : 0.0;
}

inline double largestAbsLogit(const Result& r)
{
    double largest = 0;
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h)
            largest = std::max<double>(largest, r.logits(b, h).cwiseAbs().maxCoeff());
    return largest;
}

inline double firstColumnSum(const Result& r, int h)
{
    return r.weights->at(0, h).col(0).cast<double>().sum();
}

// Heads 0–3 read K/V head 0 and 4–7 head 1: the same keys and values within a group, others
// across; W_k and W_v project to 2 · d_k = 16 features; the group's heatmaps still differ.
inline QString checkGqa(const Result& r)
{
    const HeadStack &k = r.split->k, &v = r.split->v;
    bool shared = true;
    for (int h = 0; h < r.heads(); ++h)
        shared = shared && k.at(0, h) == k.at(0, h / 4 * 4) && v.at(0, h) == v.at(0, h / 4 * 4);
    const double groupDifference =
        (r.weights->at(0, 0) - r.weights->at(0, 1)).cwiseAbs().maxCoeff();
    return firstProblem({
        expect(r.heads() == 8 && r.config().kvHeadCount() == 2 && r.config().kvHeadOf(3) == 0 &&
                   r.config().kvHeadOf(4) == 1,
               QStringLiteral("not 8 heads over 2 K/V heads")),
        expect(shared, QStringLiteral("a head of a group reads other keys or values")),
        expect(k.at(0, 0) != k.at(0, 4), QStringLiteral("the two groups share their keys")),
        expect(r.projection->wk().weight.rows() == 16 && r.projection->wv().weight.rows() == 16,
               QStringLiteral("W_k or W_v does not project to 16 features")),
        expect(groupDifference > 0.01, QStringLiteral("heads 0 and 1 have the same weights")),
        expectRowSumsOne(*r.stats),
        expectRange("column sums", r.stats->colSumMin, r.stats->colSumMax,
                    pytorchFigure("gqa", "col_sum_min"), pytorchFigure("gqa", "col_sum_max")),
    });
}

// The scores of (b, a) at distance 1 (rows 1, 4, 7) and 4 (rows 4, 7) of case `name`.
inline QString expectPairScores(const Result& r, const QString& name)
{
    const QJsonArray pairs = lesson(name, "pair_scores").toArray();
    const QJsonArray far = lesson(name, "far_scores").toArray();
    QString problem;
    for (int h = 0; h < r.heads() && problem.isEmpty(); ++h)
        problem = firstProblem({
            expectScore(r, h, 1, 0, pairs[h][0].toDouble()),
            expectScore(r, h, 4, 3, pairs[h][1].toDouble()),
            expectScore(r, h, 7, 6, pairs[h][2].toDouble()),
            expectScore(r, h, 4, 0, far[h][0].toDouble()),
            expectScore(r, h, 7, 3, far[h][1].toDouble()),
        });
    return problem;
}

// With RoPE a pair's score depends on its distance only; sinusoidal moves it, none freezes it.
inline QString checkRopeDistance(const Result& r)
{
    const QString sinusoidal = QStringLiteral("rope-distance positional=sinusoidal");
    const QString none = QStringLiteral("rope-distance positional=none");
    const Result added = compute(caseRequest(sinusoidal)), flat = compute(caseRequest(none));
    const auto s = [](const Result& x, int h, int i, int j) { return x.scores->at(0, h)(i, j); };
    double spread = 0; // over heads: the largest difference of one distance's scores
    for (int h = 0; h < r.heads(); ++h)
        spread = std::max<double>({spread, std::abs(s(r, h, 1, 0) - s(r, h, 4, 3)),
                                   std::abs(s(r, h, 1, 0) - s(r, h, 7, 6)),
                                   std::abs(s(r, h, 4, 0) - s(r, h, 7, 3))});
    return firstProblem({
        expect(r.config().positional == Positional::Rope, QStringLiteral("RoPE is off")),
        expectPairScores(r, QStringLiteral("rope-distance")),
        expect(spread < 1e-5, QStringLiteral("one distance, scores %1 apart").arg(spread)),
        expect(std::abs(s(r, 0, 1, 0) - s(r, 0, 4, 0)) > 1.0,
               QStringLiteral("distance 1 and 4 score alike")),
        expectPairScores(added, sinusoidal),
        expect(std::abs(s(added, 0, 1, 0) - s(added, 0, 7, 6)) > 1.0,
               QStringLiteral("sinusoidal: the pair scores alike wherever it stands")),
        expectPairScores(flat, none),
        expectFigure("none: distance 1 against 4", s(flat, 0, 1, 0), s(flat, 0, 4, 0), 1e-5),
    });
}

// QK-norm without ÷√d_k: every |logit| ≤ d_k, yet the std doubles and more rows saturate;
// with ÷√d_k nothing saturates and every |logit| ≤ √d_k.
inline QString checkQkNorm(const Result& r)
{
    const QString scaledName = QStringLiteral("qk-norm scale=sqrt-dk");
    const Result scaled = compute(caseRequest(scaledName));
    const Result plain = compute(presetRequest(QStringLiteral("saturation")));
    const double largest = largestAbsLogit(r);
    return firstProblem({
        expectFigure("std of the logits", r.stats->stdLogits,
                     pytorch("qk-norm")["std_logits"].toDouble(), 1e-3),
        expect(r.stats->stdLogits > 1.9 * plain.stats->stdLogits,
               QStringLiteral("the std did not double")),
        expect(r.stats->saturatedRows == pytorchFigure("qk-norm", "saturated_rows") &&
                   r.stats->saturatedRows > plain.stats->saturatedRows,
               QStringLiteral("%1 rows saturated").arg(r.stats->saturatedRows)),
        expect(largest <= r.dK(), QStringLiteral("a |logit| beyond d_k")),
        expectFigure("largest |logit|", largest, lesson("qk-norm", "max_abs_logit").toDouble(),
                     1e-3),
        expectFigure("scaled: std", scaled.stats->stdLogits,
                     pytorch(scaledName)["std_logits"].toDouble(), 1e-4),
        expect(scaled.stats->saturatedRows == 0, QStringLiteral("scaled: rows saturated")),
        expect(largestAbsLogit(scaled) <= std::sqrt(double(r.dK())),
               QStringLiteral("scaled: a |logit| beyond √d_k")),
        expectFigure("scaled: largest |logit|", largestAbsLogit(scaled),
                     lesson(scaledName, "max_abs_logit").toDouble(), 1e-4),
    });
}

// ALiBi without positions: head 0's weights fall with the distance, head 7's barely.
inline QString checkAlibi(const Result& r)
{
    const QString off = QStringLiteral("alibi alibi=false");
    const Result plain = compute(caseRequest(off));
    const QJsonArray distances = lesson("alibi", "distance_weights").toArray();
    QString problem;
    for (int h = 0; h < r.heads() && problem.isEmpty(); ++h)
        for (int d = 0; d < r.length() && problem.isEmpty(); ++d)
            problem = expectFigure("a mean weight at a distance", distanceMean(r, h, d),
                                   distances[h][d].toDouble(), 1e-5);
    bool falling = true;
    for (int d = 1; d < r.length(); ++d)
        falling = falling && distanceMean(r, 0, d) < distanceMean(r, 0, d - 1);
    return firstProblem({
        expect(r.config().alibi && r.config().positional == Positional::None,
               QStringLiteral("not ALiBi alone")),
        problem,
        expect(falling, QStringLiteral("head 0 does not fall with the distance")),
        expectFigure("std of the final logits", r.stats->stdFinalLogits,
                     pytorch("alibi")["std_final_logits"].toDouble(), 1e-4),
        expectFigure("ALiBi off: head 0's diagonal", distanceMean(plain, 0, 0),
                     lesson(off, "distance_weights")[0][0].toDouble(), 1e-5),
    });
}

// The saturation preset capped at c = 10: no row saturated, the std shrunk, |L| < 10.
inline QString checkSoftcap(const Result& r)
{
    const Result wide = compute(caseRequest(QStringLiteral("softcap softcap=30")));
    const Result narrow = compute(caseRequest(QStringLiteral("softcap softcap=1")));
    return firstProblem({
        expect(r.stats->saturatedRows == 0, QStringLiteral("a row is saturated")),
        expectFigure("std before the cap", r.stats->stdLogits,
                     pytorch("softcap")["std_logits"].toDouble(), 1e-3),
        expectFigure("std after the cap", r.stats->stdFinalLogits,
                     pytorch("softcap")["std_final_logits"].toDouble(), 1e-4),
        expect(largestAbsLogit(r) < 10.0, QStringLiteral("a logit beyond the cap")),
        expectFigure("mean largest weight", r.stats->meanRowMax,
                     pytorchFigure("softcap", "mean_row_max"), 1e-4),
        expect(wide.stats->saturatedRows == pytorchFigure("softcap softcap=30", "saturated_rows"),
               QStringLiteral("c = 30: %1 rows saturated").arg(wide.stats->saturatedRows)),
        expectFigure("c = 30: std after the cap", wide.stats->stdFinalLogits,
                     pytorch("softcap softcap=30")["std_final_logits"].toDouble(), 1e-4),
        expectFigure("c = 1: entropy", narrow.stats->meanEntropy,
                     pytorchFigure("softcap softcap=1", "mean_entropy"), 1e-4),
    });
}

// A causal band of 4 keys: 0 outside it, the rows still 1, the first column seen by 4 rows.
inline QString checkSlidingWindow(const Result& r)
{
    const Result off = compute(caseRequest(QStringLiteral("sliding-window window=off")));
    const QJsonArray last = lesson("sliding-window", "last_row").toArray();
    const int T = r.length();
    return firstProblem({
        expect(T == 22 && r.config().window == 4, QStringLiteral("not 22 tokens, W = 4")),
        expectWeights(
            r, "outside the band", [](int, int, int i, int j) { return j > i || i - j >= 4; },
            [](int, int, int, int) { return 0.0; }, 0.0),
        expectWeights(
            r, "the last row of head 0",
            [T](int, int h, int i, int) { return h == 0 && i == T - 1; },
            [&last](int, int, int, int j) { return last[j].toDouble(); }, 1e-5),
        expectRowSumsOne(*r.stats),
        expectFigure("the first column", firstColumnSum(r, 0),
                     lesson("sliding-window", "first_column_sums")[0].toDouble(), 1e-4),
        expectFigure("no window: the first column", firstColumnSum(off, 0),
                     lesson("sliding-window window=off", "first_column_sums")[0].toDouble(), 1e-4),
        expectFigure("no window: entropy", off.stats->meanEntropy,
                     pytorchFigure("sliding-window window=off", "mean_entropy"), 1e-4),
    });
}

// A sink s = 1: row 0 gives the first token a share only, the sink takes the rest, as
// PyTorch's sink weights say; s = 0 gives it about half, no sink all of it.
inline QString checkAttentionSink(const Result& r)
{
    const QJsonArray sinks = pytorch("attention-sink")["sink_weights"][0].toArray(); // (H, T)
    double off = 0; // the largest |sink weight − PyTorch's|
    int most = 0;   // PyTorch's rows whose sink takes more than half
    for (int h = 0; h < r.heads(); ++h)
        for (int i = 0; i < r.length(); ++i) {
            const double expected = sinks[h][i].toDouble();
            off =
                std::max(off, std::abs(r.stats->heads[std::size_t(h)].sinkWeights[std::size_t(i)] -
                                       expected));
            most += expected > kSinkMost ? 1 : 0;
        }
    const QJsonArray row0 = lesson("attention-sink", "row0_first").toArray();
    const Result zero = compute(caseRequest(QStringLiteral("attention-sink sink=0")));
    const Result none = compute(caseRequest(QStringLiteral("attention-sink sink=off")));
    return firstProblem({
        expect(off < 1e-5, QStringLiteral("sink weights off by %1").arg(off)),
        expect(r.stats->sinkRows == most && most == 8,
               QStringLiteral("%1 rows to the sink, PyTorch %2").arg(r.stats->sinkRows).arg(most)),
        expectWarning(r, WarningKind::SinkTakesMost, "SinkTakesMost"),
        expectWeights(
            r, "row 0 on the first token", [](int, int, int i, int j) { return i == 0 && j == 0; },
            [&row0](int, int h, int, int) { return row0[h].toDouble(); }, 1e-5),
        expectRange("row sums", r.stats->rowSumMin, r.stats->rowSumMax,
                    pytorchFigure("attention-sink", "row_sum_min"),
                    pytorchFigure("attention-sink", "row_sum_max")),
        expectFigure("the first column", firstColumnSum(r, 0),
                     lesson("attention-sink", "first_column_sums")[0].toDouble(), 1e-4),
        expectFigure("no sink: the first column", firstColumnSum(none, 0),
                     lesson("attention-sink sink=off", "first_column_sums")[0].toDouble(), 1e-4),
        expectWeights(
            none, "no sink: row 0", [](int, int, int i, int j) { return i == 0 && j == 0; },
            [](int, int, int, int) { return 1.0; }, 1e-6),
        expectFigure("s = 0: row 0 of head 2", zero.weights->at(0, 2)(0, 0),
                     lesson("attention-sink sink=0", "row0_first")[2].toDouble(), 1e-5),
    });
}

} // namespace todays

inline const std::map<QString, Expectation>& todaysExpectations()
{
    static const std::map<QString, Expectation> table = {
        {"gqa", {"heads 0-3 and 4-7 share their keys and values", todays::checkGqa}},
        {"rope-distance", {"a pair scores alike at one distance", todays::checkRopeDistance}},
        {"qk-norm", {"|logit| <= d_k, yet more rows saturate", todays::checkQkNorm}},
        {"alibi", {"head 0 falls with the distance", todays::checkAlibi}},
        {"softcap", {"no row saturated under c = 10", todays::checkSoftcap}},
        {"sliding-window", {"a band of 4 keys", todays::checkSlidingWindow}},
        {"attention-sink", {"row 0 rests on the sink", todays::checkAttentionSink}},
    };
    return table;
}

// Every number the lessons of today's presets quote, as PyTorch has it.
inline std::vector<QuotedNumber> todaysQuotedNumbers()
{
    const auto figure = [](const char* name, const char* key) {
        return pytorchFigure(QLatin1String(name), key);
    };
    const auto number = [](const char* name, const char* key) {
        return pytorch(QLatin1String(name))[QLatin1String(key)].toDouble();
    };
    const auto lesson = [](const char* name, const char* key, int i, int j = -1) {
        const QJsonValue v = todays::lesson(QLatin1String(name), key)[i];
        return j < 0 ? v.toDouble() : v[j].toDouble();
    };
    const auto extreme = [](const char* name, const char* key, bool largest) {
        const QVariantList values =
            todays::lesson(QLatin1String(name), key).toArray().toVariantList();
        const auto [min, max] = std::minmax_element(
            values.begin(), values.end(),
            [](const QVariant& a, const QVariant& b) { return a.toDouble() < b.toDouble(); });
        return (largest ? max : min)->toDouble();
    };
    const char* rope = "rope-distance";
    const char* sine = "rope-distance positional=sinusoidal";
    return {
        {"gqa: smallest column sum", "gqa", figure("gqa", "col_sum_min"), 4},
        {"gqa: largest column sum", "gqa", figure("gqa", "col_sum_max"), 4},
        {"rope-distance: distance 1", rope, lesson(rope, "pair_scores", 0, 0), 4},
        {"rope-distance: distance 1, head 1", rope, lesson(rope, "pair_scores", 1, 0), 4},
        {"rope-distance: distance 4", rope, lesson(rope, "far_scores", 0, 0), 4},
        {"rope-distance: sinusoidal at 1", rope, lesson(sine, "pair_scores", 0, 0), 4},
        {"rope-distance: sinusoidal at 4", rope, lesson(sine, "pair_scores", 0, 1), 4},
        {"rope-distance: sinusoidal at 7", rope, lesson(sine, "pair_scores", 0, 2), 4},
        {"rope-distance: none", rope, lesson("rope-distance positional=none", "pair_scores", 0, 0),
         4},
        {"qk-norm: std", "qk-norm", number("qk-norm", "std_logits"), 4},
        {"qk-norm: std without", "qk-norm", number("saturation", "std_logits"), 4},
        {"qk-norm: entropy", "qk-norm", figure("qk-norm", "mean_entropy"), 2},
        {"qk-norm: largest entropy", "qk-norm", figure("qk-norm", "mean_entropy_max"), 2},
        {"qk-norm: largest |logit|", "qk-norm",
         todays::lesson(QStringLiteral("qk-norm"), "max_abs_logit").toDouble(), 2},
        {"qk-norm: scaled std", "qk-norm", number("qk-norm scale=sqrt-dk", "std_logits"), 4},
        {"qk-norm: scaled largest |logit|", "qk-norm",
         todays::lesson(QStringLiteral("qk-norm scale=sqrt-dk"), "max_abs_logit").toDouble(), 2},
        {"qk-norm: scaled std without", "qk-norm", number("saturation scale=sqrt-dk", "std_logits"),
         4},
        {"alibi: head 0 at 0", "alibi", lesson("alibi", "distance_weights", 0, 0), 4},
        {"alibi: head 0 at 1", "alibi", lesson("alibi", "distance_weights", 0, 1), 4},
        {"alibi: head 0 at 5", "alibi", lesson("alibi", "distance_weights", 0, 5), 4},
        {"alibi: head 0 at 10", "alibi", lesson("alibi", "distance_weights", 0, 10), 4},
        {"alibi: head 7 at 0", "alibi", lesson("alibi", "distance_weights", 7, 0), 4},
        {"alibi: std", "alibi", number("alibi", "std_logits"), 4},
        {"alibi: final std", "alibi", number("alibi", "std_final_logits"), 4},
        {"alibi: off", "alibi", lesson("alibi alibi=false", "distance_weights", 0, 0), 4},
        {"softcap: mean largest weight", "softcap", figure("softcap", "mean_row_max"), 2},
        {"softcap: saturated largest weight", "softcap", figure("saturation", "mean_row_max"), 2},
        {"softcap: std before", "softcap", number("softcap", "std_logits"), 4},
        {"softcap: std after", "softcap", number("softcap", "std_final_logits"), 4},
        {"softcap: entropy", "softcap", figure("softcap", "mean_entropy"), 2},
        {"softcap: saturated entropy", "softcap", figure("saturation", "mean_entropy"), 2},
        {"softcap: c = 30", "softcap", number("softcap softcap=30", "std_final_logits"), 4},
        {"softcap: c = 1", "softcap", number("softcap softcap=1", "std_final_logits"), 4},
        {"softcap: c = 1 entropy", "softcap", figure("softcap softcap=1", "mean_entropy"), 2},
        {"sliding-window: last row 18", "sliding-window", lesson("sliding-window", "last_row", 18),
         4},
        {"sliding-window: last row 19", "sliding-window", lesson("sliding-window", "last_row", 19),
         4},
        {"sliding-window: last row 20", "sliding-window", lesson("sliding-window", "last_row", 20),
         4},
        {"sliding-window: last row 21", "sliding-window", lesson("sliding-window", "last_row", 21),
         4},
        {"sliding-window: largest weight", "sliding-window",
         figure("sliding-window", "mean_row_max"), 2},
        {"sliding-window: off largest weight", "sliding-window",
         figure("sliding-window window=off", "mean_row_max"), 2},
        {"sliding-window: entropy", "sliding-window", figure("sliding-window", "mean_entropy"), 2},
        {"sliding-window: off entropy", "sliding-window",
         figure("sliding-window window=off", "mean_entropy"), 2},
        {"sliding-window: first column", "sliding-window",
         lesson("sliding-window", "first_column_sums", 0), 4},
        {"sliding-window: off first column", "sliding-window",
         lesson("sliding-window window=off", "first_column_sums", 0), 4},
        {"attention-sink: row 0 smallest", "attention-sink",
         extreme("attention-sink", "row0_first", false), 4},
        {"attention-sink: row 0 largest", "attention-sink",
         extreme("attention-sink", "row0_first", true), 4},
        {"attention-sink: first column", "attention-sink",
         lesson("attention-sink", "first_column_sums", 0), 4},
        {"attention-sink: off first column", "attention-sink",
         lesson("attention-sink sink=off", "first_column_sums", 0), 4},
        {"attention-sink: smallest row sum", "attention-sink",
         figure("attention-sink", "row_sum_min"), 4},
        {"attention-sink: largest row sum", "attention-sink",
         figure("attention-sink", "row_sum_max"), 4},
        {"attention-sink: s = 0 smallest", "attention-sink",
         extreme("attention-sink sink=0", "row0_first", false), 4},
        {"attention-sink: s = 0 largest", "attention-sink",
         extreme("attention-sink sink=0", "row0_first", true), 4},
    };
}

// The figures of today's switches a case of preset_cases.json has: std(L) after ALiBi and
// the cap, and each row's sink weight.
inline QString expectTodaysFigures(const Result& r, const QJsonObject& expected)
{
    if (!expected.contains(QLatin1String("std_final_logits")))
        return {};
    const double finalStd = expected["std_final_logits"].toDouble();
    QString problem = expect(std::abs(r.stats->stdFinalLogits - finalStd) <= 1e-5 * finalStd,
                             QStringLiteral("std of the final logits %1, PyTorch %2")
                                 .arg(r.stats->stdFinalLogits)
                                 .arg(finalStd));
    const QJsonArray sinks = expected["sink_weights"].toArray();
    for (int b = 0; b < sinks.size() && problem.isEmpty(); ++b)
        for (int h = 0; h < r.heads() && problem.isEmpty(); ++h) {
            const auto& weights = r.stats->heads[std::size_t(b * r.heads() + h)].sinkWeights;
            for (int i = 0; i < r.length() && problem.isEmpty(); ++i)
                problem = expectFigure("a sink weight", weights[std::size_t(i)],
                                       sinks[b][h][i].toDouble(), 1e-5);
        }
    return problem;
}

} // namespace attn::test
