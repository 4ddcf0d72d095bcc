// Every preset shows the effect its explanation promises, with the numbers the panel
// quotes: computed in process, through `attnscope compute --preset NAME --json -`, and
// explained by the preset panel in English and, through the real .qm, in Chinese. The
// numbers a lesson quotes come from PyTorch (tests/reference/preset_cases.json, written
// by gen_reference.py), never from the engine under test.
#include "engine/engine.h"
#include "engine/statistics.h"
#include "lab/presets.h"
#include "presetcases.h"
#include "presetpanel.h"
#include "processrun.h"
#include "todayspresets.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numeric>

using namespace attn;
using namespace attn::test;
using attn::ui::PresetPanel;

namespace {

constexpr int kTimeoutMs = 120'000;

bool upper(int, int, int i, int j)
{
    return j > i;
}

double zero(int, int, int, int)
{
    return 0.0;
}

QString checkArticle(const Result& r)
{
    const Statistics& s = *r.stats;
    const auto& output = r.aggregation->output;
    const QString exercise1 = QStringLiteral("article d_model=512 scale=none");
    const Result wide = compute(caseRequest(exercise1));
    return firstProblem({
        expectFigure("std before scaling", s.stdScores, 1.1888),
        expectFigure("std after scaling", s.stdLogits, 0.2972),
        expectFigure("std after / before", s.stdLogits / s.stdScores, 0.25, 1e-6),
        expectRowSumsOne(s),
        expectRange("column sums", s.colSumMin, s.colSumMax,
                    pytorchFigure("article", "col_sum_min"),
                    pytorchFigure("article", "col_sum_max")),
        expect(output.size() == 2 && output[0].rows() == 4 && output[0].cols() == 16,
               QStringLiteral("the output is not (2, 4, 16)")),
        // Exercise 1: d_model 512 without scaling.
        expectFigure("exercise 1: std", wide.stats->stdScores,
                     pytorch(exercise1)["std_scores"].toDouble()),
        expectFigure("exercise 1: saturated share", wide.stats->saturatedShare,
                     pytorchFigure(exercise1, "saturated_rows") /
                         pytorchFigure(exercise1, "choice_rows"),
                     1e-9),
    });
}

QString checkSaturation(const Result& r)
{
    const Statistics& s = *r.stats;
    const QString name = QStringLiteral("saturation"), sqrtDk = name + " scale=sqrt-dk";
    const Result scaled = compute(caseRequest(sqrtDk));
    const double stdScores = pytorch(name)["std_scores"].toDouble();
    return firstProblem({
        expectFigure("std before scaling", s.stdScores, stdScores),
        expectFigure("std after scaling", s.stdLogits, stdScores),
        expect(s.saturatedRows == pytorchFigure(name, "saturated_rows") &&
                   s.choiceRows == pytorchFigure(name, "choice_rows") &&
                   s.saturatedShare >= kWarnShare,
               QStringLiteral("%1 of %2 rows saturated").arg(s.saturatedRows).arg(s.choiceRows)),
        expectFigure("mean largest weight", s.meanRowMax, pytorchFigure(name, "mean_row_max"),
                     1e-4),
        expectFigure("mean entropy", s.meanEntropy, pytorchFigure(name, "mean_entropy"), 1e-4),
        expectFigure("largest entropy", s.meanEntropyMax, pytorchFigure(name, "mean_entropy_max"),
                     1e-4),
        expectWarning(r, WarningKind::SaturatedNoScaling, "SaturatedNoScaling"),
        expectFigure("scaled: std", scaled.stats->stdLogits,
                     pytorch(sqrtDk)["std_logits"].toDouble()),
        expect(scaled.stats->saturatedRows == 0, QStringLiteral("scaled: rows saturated")),
        expectFigure("scaled: mean entropy", scaled.stats->meanEntropy,
                     pytorchFigure(sqrtDk, "mean_entropy"), 1e-4),
    });
}

QString checkWrongAxisQueries(const Result& r)
{
    const Statistics& s = *r.stats;
    const Result keys = compute(with(r.request, [](Config& c) { c.axis = SoftmaxAxis::Keys; }));
    return firstProblem({
        expectRange("column sums", s.colSumMin, s.colSumMax, 1.0, 1.0, 1e-5),
        expectRange("row sums", s.rowSumMin, s.rowSumMax,
                    pytorchFigure("wrong-axis-queries", "row_sum_min"),
                    pytorchFigure("wrong-axis-queries", "row_sum_max")),
        expectWarning(r, WarningKind::RowsNotNormalizedQueries, "RowsNotNormalizedQueries"),
        expectRowSumsOne(*keys.stats),
    });
}

QString checkWrongAxisBatch(const Result& r)
{
    const Statistics& s = *r.stats;
    return firstProblem({
        expect(r.batch() == 2 && r.length() == 7, QStringLiteral("B and T are not 2 and 7")),
        expectWeights(
            r, "P[0] + P[1] = 1", [](int b, int, int, int) { return b == 0; },
            [&r](int, int h, int i, int j) { return 1.0 - r.weights->at(1, h)(i, j); }, 1e-6),
        expectRange("row sums", s.rowSumMin, s.rowSumMax,
                    pytorchFigure("wrong-axis-batch", "row_sum_min"),
                    pytorchFigure("wrong-axis-batch", "row_sum_max")),
        expectWarning(r, WarningKind::RowsNotNormalizedBatch, "RowsNotNormalizedBatch"),
    });
}

QString checkCausalDecoder(const Result& r)
{
    return firstProblem({
        expectWeights(r, "the upper triangle is 0", upper, zero, 0.0),
        expectWeights(
            r, "row 0 is [1, 0, …]", [](int, int, int i, int) { return i == 0; },
            [](int, int, int, int j) { return j == 0 ? 1.0 : 0.0; }, 1e-7),
        expectRowSumsOne(*r.stats),
    });
}

// 3 Chinese queries × 4 English keys; each row gives its source words 0.8 together, in
// every head; a causal mask is refused; self-attention makes it 3 × 3; seed 7 undoes it.
QString checkCrossAttention(const Result& r)
{
    // Row i: the aligned columns and the weight each of them gets.
    const auto aligned = [](int i, int j) { return i < 2 ? j == i : j >= 2; };
    const auto share = [](int i) { return i < 2 ? 0.8 : 0.4; };
    const Result self =
        compute(with(r.request, [](Config& c) { c.attention = AttentionKind::Self; }));
    const Result other = compute(caseRequest(QStringLiteral("cross-attention seed=7")));
    QString refusal;
    try {
        (void)compute(with(r.request, [](Config& c) { c.mask = MaskKind::Causal; }));
    } catch (const InputError& error) {
        refusal = QString::fromUtf8(error.what());
    }
    const Matrix mean = meanOverHeads(*r.weights, 0);
    return firstProblem({
        expect(
            r.isCross() && r.length() == 3 && r.keyLength() == 4,
            QStringLiteral("T_q × T_k is %1 × %2, not 3 × 4").arg(r.length()).arg(r.keyLength())),
        expect(r.keyTokens->tokens[0] ==
                   std::vector<std::string>{"I", "love", "machine", "learning"},
               QStringLiteral("the keys are not the English words")),
        expectWeights(
            r, "the aligned source words get 0.8 together",
            [&](int, int, int i, int j) { return aligned(i, j); },
            [&](int, int, int i, int) { return share(i); }, 1e-4),
        expectWeights(
            r, "the other words get the rest evenly",
            [&](int, int, int i, int j) { return !aligned(i, j); },
            [](int, int, int i, int) { return i < 2 ? 0.2 / 3 : 0.1; }, 1e-4),
        expect(mean.row(0).maxCoeff() == mean(0, 0) && mean.row(1).maxCoeff() == mean(1, 1),
               QStringLiteral("the mean rows of 我 and 爱 do not peak at I and love")),
        expectRowSumsOne(*r.stats),
        expectFigure("the smallest column sum", r.stats->colSumMin, 0.5333, 1e-4),
        expectFigure("the largest column sum", r.stats->colSumMax, 0.9667, 1e-4),
        expect(refusal.contains(QStringLiteral("causal mask has no meaning in cross-attention")),
               QStringLiteral("a causal mask was not refused: '%1'").arg(refusal)),
        expect(self.length() == 3 && self.keyLength() == 3,
               QStringLiteral("self-attention is not 3 × 3")),
        expectFigure(
            "seed 7: 我's weight on I", other.weights->at(0, 0)(0, 0),
            pytorch(QStringLiteral("cross-attention seed=7"))["weights"][0][0][0][0].toDouble(),
            1e-5),
    });
}

// Row i of head h holds 16 of the 64 features of token ⌊(11h + i)/4⌋.
QString expectViewRows(const Result& r)
{
    const int T = r.length(), dK = r.dK(), perToken = r.dModel() / dK;
    if (T != 11 || dK != 16 || r.heads() != 4)
        return QStringLiteral("T = %1, d_k = %2, H = %3").arg(T).arg(dK).arg(r.heads());
    for (int h = 0; h < r.heads(); ++h)
        for (int i = 0; i < T; ++i) {
            const int flat = h * T + i;
            const Matrix expected =
                r.projection->q[0].row(flat / perToken).segment((flat % perToken) * dK, dK);
            if (r.split->q.at(0, h).row(i) != expected)
                return QStringLiteral("row %1 of head %2 is not from token %3")
                    .arg(i)
                    .arg(h)
                    .arg(flat / perToken);
        }
    return {};
}

QString checkHeadSplitBug(const Result& r)
{
    const Result fixed =
        compute(with(r.request, [](Config& c) { c.headSplit = HeadSplit::Transpose; }));
    double smallest = std::numeric_limits<double>::infinity(); // over heads: max |P − P_transpose|
    for (int h = 0; h < r.heads(); ++h)
        smallest = std::min<double>(
            smallest, (r.weights->at(0, h) - fixed.weights->at(0, h)).cwiseAbs().maxCoeff());
    return firstProblem({
        expectWarning(r, WarningKind::HeadSplitView, "HeadSplitView"),
        expectRowSumsOne(*r.stats),
        expectViewRows(r),
        expect(smallest > 0.01, QStringLiteral("a head equals the transpose split's")),
    });
}

QString checkMaskAfterSoftmax(const Result& r)
{
    const int T = r.length();
    double rowZeroMin = 1, rowZeroMax = 0, before = 0; // before: largest sum of rows 0 … T-2
    double fromMin = 1, fromMax = 0;                   // PyTorch's range of row 0's sums
    for (const QJsonValue& head :
         pytorch(QStringLiteral("mask-after-softmax"))["row_sums"][0].toArray()) {
        fromMin = std::min(fromMin, head[0].toDouble());
        fromMax = std::max(fromMax, head[0].toDouble());
    }
    for (const HeadStatistics& s : r.stats->heads) {
        rowZeroMin = std::min(rowZeroMin, s.rowSums.front());
        rowZeroMax = std::max(rowZeroMax, s.rowSums.front());
        before = std::max(before, *std::max_element(s.rowSums.begin(), s.rowSums.end() - 1));
        if (!near(s.rowSums.back(), 1.0, 1e-5))
            return QStringLiteral("the last row of head %1 sums to %2")
                .arg(s.head)
                .arg(s.rowSums.back());
    }
    return firstProblem({
        expect(T == 11 && before < 0.999,
               QStringLiteral("a row before the last sums to %1").arg(before)),
        expectRange("row 0's sums", rowZeroMin, rowZeroMax, fromMin, fromMax),
        expectWeights(r, "the upper triangle is 0", upper, zero, 0.0),
        expectWarning(r, WarningKind::RowsNotNormalizedMask, "RowsNotNormalizedMask"),
    });
}

QString checkFullyMaskedRow(const Result& r)
{
    // The <pad> keys 4–6 of sentence 1: NaN with -inf exactly there, 1/7 with -1e9.
    const auto padColumn = [](int b, int, int, int j) { return b == 1 && j >= 4; };
    int misplacedNan = 0;
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h)
            for (int i = 0; i < r.length(); ++i)
                for (int j = 0; j < r.length(); ++j)
                    misplacedNan += std::isnan(r.weights->at(b, h)(i, j)) != padColumn(b, h, i, j);
    const Result billion =
        compute(with(r.request, [](Config& c) { c.maskFill = MaskFill::NegBillion; }));
    const auto nanCount = [&r](const std::function<void(Config&)>& change) {
        return compute(with(r.request, change)).stats->nanCount;
    };
    return firstProblem({
        expect(misplacedNan == 0, QStringLiteral("%1 cells with NaN where none belongs, or "
                                                 "without NaN in a <pad> column")
                                      .arg(misplacedNan)),
        expect(r.stats->nanCount == 84, QStringLiteral("%1 NaN, not 84").arg(r.stats->nanCount)),
        expectWarning(r, WarningKind::NanColumns, "NanColumns"),
        expect(billion.stats->nanCount == 0, QStringLiteral("NaN with -1e9")),
        expectWeights(
            billion, "-1e9: the <pad> columns are 1/7", padColumn,
            [](int, int, int, int) { return 1.0 / 7.0; }, 1e-6),
        // Over the keys no row is fully masked, with either fill; batch + causal is.
        expect(nanCount([](Config& c) { c.axis = SoftmaxAxis::Keys; }) == 0,
               QStringLiteral("NaN over the keys with -inf")),
        expect(nanCount([](Config& c) {
                   c.axis = SoftmaxAxis::Keys;
                   c.maskFill = MaskFill::NegBillion;
               }) == 0,
               QStringLiteral("NaN over the keys with -1e9")),
        expect(nanCount([](Config& c) {
                   c.axis = SoftmaxAxis::Batch;
                   c.mask = MaskKind::Causal;
               }) > 0,
               QStringLiteral("no NaN over the batch with the causal mask")),
    });
}

// The pronoun's row: every head gives the antecedent 0.8 and no other key more than PyTorch
// does, so the mean over heads peaks at the antecedent; the output follows, and seed 7
// undoes it.
Check coreference(const QString& name, std::string pronoun, std::string antecedent)
{
    return [=](const Result& r) -> QString {
        const QJsonObject lesson = pytorch(name)["lesson"].toObject();
        const QJsonObject seed7 = pytorch(name + " seed=7")["lesson"].toObject();
        const auto& tokens = r.tokens->tokens[0];
        const auto index = [&tokens](const std::string& token) {
            return static_cast<int>(std::find(tokens.begin(), tokens.end(), token) -
                                    tokens.begin());
        };
        const int p = index(pronoun), a = index(antecedent), T = r.length();
        if (p == T || a == T)
            return QStringLiteral("the pronoun or the antecedent is not a token");
        const Matrix mean = meanOverHeads(*r.weights, 0); // (T, T)
        Eigen::Index peak = 0;
        mean.row(p).maxCoeff(&peak);
        const Vector out = r.aggregation->merged[0].row(p).transpose(); // before W_o
        const Vector value = r.projection->v[0].row(a).transpose();
        const Result other = compute(caseRequest(name + " seed=7"));
        return firstProblem({
            expect(p == lesson["pronoun"].toInt() && a == lesson["antecedent"].toInt(),
                   QStringLiteral("the pronoun or the antecedent is not where PyTorch has it")),
            expect(peak == a,
                   QStringLiteral("the mean row peaks at column %1, not %2").arg(peak).arg(a)),
            expectFigure("the mean weight on the antecedent", mean(p, a), 0.8, 1e-4),
            expectWeights(
                r, "every head gives the antecedent 0.8",
                [p, a](int, int, int i, int j) { return i == p && j == a; },
                [](int, int, int, int) { return 0.8; }, 1e-4),
            expectWeights(
                r, "no other key gets more than the limit",
                [p, a](int, int, int i, int j) { return i == p && j != a; }, zero,
                lesson["other_max"].toDouble() + 1e-5),
            expectFigure("cos(output, V(antecedent))", out.dot(value) / (out.norm() * value.norm()),
                         lesson["cos_output_value"].toDouble(), 1e-5),
            expectFigure("the antecedent's norm", r.x->at(0).row(a).norm(),
                         lesson["antecedent_norm"].toDouble(), 1e-4),
            expectFigure("seed 7: the mean weight on the antecedent",
                         meanOverHeads(*other.weights, 0)(p, a),
                         seed7["antecedent_weight"].toDouble(), 1e-5),
        });
    };
}

// What each preset promises (for the row names) and the check that it holds; today's
// switches' in todayspresets.h.
const std::map<QString, Expectation>& expectations()
{
    static const std::map<QString, Expectation> table = [] {
        std::map<QString, Expectation> all = {
            {"article", {"std 1.1888 -> 0.2972, rows sum to 1, output (2, 4, 16)", checkArticle}},
            {"saturation", {"3 of 11 rows saturated, SaturatedNoScaling", checkSaturation}},
            {"wrong-axis-queries", {"columns sum to 1, rows do not", checkWrongAxisQueries}},
            {"wrong-axis-batch", {"the two sentences' weights sum to 1", checkWrongAxisBatch}},
            {"causal-decoder", {"upper triangle 0", checkCausalDecoder}},
            {"head-split-bug", {"HeadSplitView, heads differ from transpose", checkHeadSplitBug}},
            {"mask-after-softmax", {"rows sum to less than 1", checkMaskAfterSoftmax}},
            {"fully-masked-row", {"NaN with -inf, uniform with -1e9", checkFullyMaskedRow}},
            {"cross-attention", {"3 x 4, each row on its source words", checkCrossAttention}},
            {"coreference", {"row 它 peaks at 猫", coreference("coreference", "它", "猫")}},
            {"coreference-en", {"row it peaks at cat", coreference("coreference-en", "it", "cat")}},
        };
        all.insert(todaysExpectations().begin(), todaysExpectations().end());
        return all;
    }();
    return table;
}

void addPresetRows()
{
    QTest::addColumn<QString>("name");
    for (const QString& name : PresetPanel::presetNames()) {
        const auto found = expectations().find(name);
        const QString row =
            name + ": " + (found != expectations().end() ? found->second.promise : "?");
        QTest::newRow(row.toUtf8().constData()) << name;
    }
}

using attn::test::Run;

Run attnscope(const QStringList& arguments)
{
    return attn::test::runProgram(QStringLiteral(ATTN_BINARY), arguments, kTimeoutMs);
}

// The text segments of an explanation: paragraphs, headings and list items.
QStringList segments(const QString& html)
{
    static const QRegularExpression element(QStringLiteral("<(p|h4|li)>(.*?)</\\1>"));
    QStringList found;
    for (auto it = element.globalMatch(html); it.hasNext();)
        found << it.next().captured(2);
    return found;
}

} // namespace

class TestPresets : public QObject {
    Q_OBJECT

private slots:
    void everyPresetHasACheck();
    void matchesPyTorch_data();
    void matchesPyTorch();
    void effect_data();
    void effect();
    void commandLine_data();
    void commandLine();
    void explanation_data();
    void explanation();
    void quotedNumbersArePyTorchs_data();
    void quotedNumbersArePyTorchs();
    void clearShowsHint();
    void menu();
    void chinese_data();
    void chinese();
    void menuInChinese();
    void cleanup();

private:
    QTranslator chinese_;
};

void TestPresets::everyPresetHasACheck()
{
    for (const QString& name : PresetPanel::presetNames())
        QVERIFY2(expectations().count(name) == 1, qPrintable("no check for the preset " + name));
    QVERIFY(PresetPanel::presetNames().size() >= 10);
    QVERIFY2(findPreset("cross-attention"), "the issue's cross-attention preset is missing");
    for (const QString& name : PresetPanel::presetNames())
        QVERIFY2(pytorchCases().contains(name), qPrintable("no PyTorch numbers for " + name));
}

void TestPresets::matchesPyTorch_data()
{
    QTest::addColumn<QString>("name");
    for (const QString& name : pytorchCases().keys())
        QTest::newRow(name.toUtf8().constData()) << name;
}

// Every preset, and every variant its check computes, gives PyTorch's tokens, designed
// vectors, weights and figures (gen_reference.py runs the reference program on them).
void TestPresets::matchesPyTorch()
{
    QFETCH(QString, name);
    const QJsonObject expected = pytorch(name);
    const Request request = caseRequest(name);
    QCOMPARE(QString::fromStdString(request.text), expected["text"].toString());
    const Result r = compute(request);
    QVERIFY(r.valid());

    QStringList tokens;
    for (const auto& sequence : r.tokens->tokens)
        tokens << QString::fromStdString(
            std::accumulate(sequence.begin(), sequence.end(), std::string(),
                            [](std::string all, const std::string& t) { return all + t + "|"; }));
    QStringList expectedTokens;
    for (const QJsonValue& sequence : expected["tokens"].toArray())
        expectedTokens << sequence.toVariant().toStringList().join(u'|') + u'|';
    QCOMPARE(tokens, expectedTokens);

    const QJsonObject overrides = expected["overrides"].toObject();
    QCOMPARE(static_cast<qsizetype>(request.embeddingOverrides.size()), overrides.size());
    for (auto it = overrides.begin(); it != overrides.end(); ++it) {
        const auto found = request.embeddingOverrides.find(it.key().toStdString());
        QVERIFY2(found != request.embeddingOverrides.end(), qPrintable(it.key()));
        const QJsonArray vector = it.value().toArray();
        QCOMPARE(static_cast<qsizetype>(found->second.size()), vector.size());
        for (qsizetype c = 0; c < vector.size(); ++c)
            QVERIFY2(near(found->second[static_cast<std::size_t>(c)], vector[c].toDouble(), 1e-4),
                     qPrintable(QStringLiteral("%1[%2]").arg(it.key()).arg(c)));
    }

    const QJsonArray weights = expected["weights"].toArray();
    QCOMPARE(weights.size(), r.batch());
    QCOMPARE(weights[0].toArray().size(), r.heads());
    QCOMPARE(weights[0][0].toArray().size(), r.length());
    QCOMPARE(weights[0][0][0].toArray().size(), r.keyLength());
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h)
            for (int i = 0; i < r.length(); ++i)
                for (int j = 0; j < r.keyLength(); ++j) {
                    const QJsonValue cell = weights[b][h][i][j];
                    const float weight = r.weights->at(b, h)(i, j);
                    QVERIFY2(cell.isNull() ? std::isnan(weight)
                                           : near(weight, cell.toDouble(), 1e-5),
                             qPrintable(QStringLiteral("P[%1][%2][%3][%4] = %5, PyTorch %6")
                                            .arg(b)
                                            .arg(h)
                                            .arg(i)
                                            .arg(j)
                                            .arg(weight)
                                            .arg(cell.toDouble())));
                }

    const Statistics& s = *r.stats;
    const auto relative = [](double value, double expected) {
        return std::abs(value - expected) <= 1e-5 * std::abs(expected);
    };
    QVERIFY2(relative(s.stdScores, expected["std_scores"].toDouble()),
             qPrintable(QString::number(s.stdScores)));
    QVERIFY2(relative(s.stdLogits, expected["std_logits"].toDouble()),
             qPrintable(QString::number(s.stdLogits)));
    const QJsonObject figures = expected["figures"].toObject();
    const std::pair<const char*, double> measured[] = {
        {"row_sum_min", s.rowSumMin},           {"row_sum_max", s.rowSumMax},
        {"col_sum_min", s.colSumMin},           {"col_sum_max", s.colSumMax},
        {"mean_row_max", s.meanRowMax},         {"mean_entropy", s.meanEntropy},
        {"mean_entropy_max", s.meanEntropyMax},
    };
    for (const auto& [figure, value] : measured)
        QVERIFY2(near(value, figures[QLatin1String(figure)].toDouble(), 1e-5),
                 qPrintable(QStringLiteral("%1 is %2, PyTorch %3")
                                .arg(QLatin1String(figure))
                                .arg(value, 0, 'f', 7)
                                .arg(figures[QLatin1String(figure)].toDouble(), 0, 'f', 7)));
    QCOMPARE(s.choiceRows, figures["choice_rows"].toInt());
    QCOMPARE(s.saturatedRows, figures["saturated_rows"].toInt());
    QCOMPARE(s.nanCount, figures["nan_count"].toInt());
    const QString todays = expectTodaysFigures(r, expected);
    QVERIFY2(todays.isEmpty(), qPrintable(todays));
}

void TestPresets::effect_data()
{
    addPresetRows();
}

void TestPresets::effect()
{
    QFETCH(QString, name);
    const Preset* preset = findPreset(name.toStdString());
    QVERIFY(preset);
    QVERIFY(!preset->summary.empty());
    const Result result = compute(preset->request);
    QVERIFY(result.valid());
    const QString failure = expectations().at(name).check(result);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestPresets::commandLine_data()
{
    addPresetRows();
}

// The JSON of the command line holds the in-process weights (NaN as null), so it reports
// the same effect; the coreference rows are read from the JSON alone as well.
void TestPresets::commandLine()
{
    QFETCH(QString, name);
    const Run run = attnscope({"compute", "--preset", name, "--json", "-"});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(run.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));

    const Result r = compute(presetRequest(name));
    const QJsonArray heads = json["heads"].toArray();
    QCOMPARE(heads.size(), r.batch() * r.heads());
    double largest = 0;
    QString at;
    for (const QJsonValue& head : heads) {
        const int b = head["batch"].toInt(), h = head["head"].toInt();
        const QJsonArray rows = head["weights"].toArray();
        for (int i = 0; i < r.length(); ++i)
            for (int j = 0; j < r.keyLength(); ++j) {
                const QJsonValue cell = rows[i].toArray()[j];
                const float expected = r.weights->at(b, h)(i, j);
                const double diff = cell.isNull() ? (std::isnan(expected) ? 0.0 : 1.0)
                                                  : std::abs(cell.toDouble() - expected);
                if (!(diff <= largest)) {
                    largest = std::isnan(diff) ? 1.0 : diff;
                    at = QStringLiteral("[%1][%2][%3][%4]").arg(b).arg(h).arg(i).arg(j);
                }
            }
    }
    QVERIFY2(largest < 1e-6,
             qPrintable(QStringLiteral("largest difference %1 at %2").arg(largest).arg(at)));
    QCOMPARE(json["stats"]["nan_count"].toInt(), r.stats->nanCount);

    if (name.startsWith(u"coreference")) {
        const QString pronoun =
            name == u"coreference" ? QStringLiteral("它") : QStringLiteral("it");
        const QString antecedent =
            name == u"coreference" ? QStringLiteral("猫") : QStringLiteral("cat");
        const QJsonArray tokens = json["tokens"].toArray()[0].toArray();
        const qsizetype p = tokens.toVariantList().indexOf(pronoun);
        QVERIFY(p >= 0);
        const qsizetype T = tokens.size();
        std::vector<double> mean(static_cast<std::size_t>(T), 0.0);
        for (const QJsonValue& head : heads)
            for (qsizetype j = 0; j < T; ++j)
                mean[static_cast<std::size_t>(j)] +=
                    head["weights"].toArray()[p].toArray()[j].toDouble() / heads.size();
        const auto peak = std::max_element(mean.begin(), mean.end()) - mean.begin();
        QCOMPARE(tokens[peak].toString(), antecedent);
        QVERIFY2(near(mean[static_cast<std::size_t>(peak)], 0.8, 1e-4),
                 qPrintable(QString::number(mean[static_cast<std::size_t>(peak)])));
    }
    if (name == u"fully-masked-row") {
        QCOMPARE(json["stats"]["nan_count"].toInt(), 84);
        const Run billion =
            attnscope({"compute", "--preset", name, "--mask-fill=-1e9", "--json", "-"});
        QVERIFY2(billion.exitCode == 0, billion.err.constData());
        const QJsonObject b = QJsonDocument::fromJson(billion.out).object();
        QCOMPARE(b["stats"]["nan_count"].toInt(), 0);
    }
}

void TestPresets::explanation_data()
{
    addPresetRows();
}

void TestPresets::explanation()
{
    QFETCH(QString, name);
    PresetPanel panel;
    panel.showPreset(name);
    QCOMPARE(panel.presetName(), name);
    QCOMPARE(panel.title(), PresetPanel::displayName(name));
    QVERIFY2(panel.title().endsWith("(" + name + ")"), qPrintable(panel.title()));
    QVERIFY(!PresetPanel::summary(name).isEmpty());
    const QString html = panel.explanation();
    QCOMPARE(html, PresetPanel::explanationHtml(name));
    const qsizetype points = html.count(QStringLiteral("<li>"));
    QVERIFY2(points >= 3 && points <= 6, qPrintable(QStringLiteral("%1 points").arg(points)));
    QVERIFY(html.contains(QStringLiteral("How to read the output")));
    QVERIFY(html.contains(QStringLiteral("--preset ") + name));
    // Every explanation quotes a number to expect.
    QVERIFY(html.contains(QRegularExpression(QStringLiteral("\\d\\.\\d"))));
}

void TestPresets::quotedNumbersArePyTorchs_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("value"); // PyTorch's
    QTest::addColumn<int>("decimals"); // as the explanation rounds it
    const auto figure = [](const char* name, const char* key) {
        return pytorchFigure(QLatin1String(name), key);
    };
    const auto number = [](const char* name, const char* key) {
        return pytorch(QLatin1String(name))[QLatin1String(key)].toDouble();
    };
    const auto lesson = [](const char* name, const char* key) {
        return pytorch(QLatin1String(name))["lesson"][QLatin1String(key)].toDouble();
    };
    const auto rowZeroSums = [](bool largest) {
        double extreme = largest ? 0.0 : 1.0;
        for (const QJsonValue& head :
             pytorch(QStringLiteral("mask-after-softmax"))["row_sums"][0].toArray())
            extreme = largest ? std::max(extreme, head[0].toDouble())
                              : std::min(extreme, head[0].toDouble());
        return extreme;
    };
    const QuotedNumber rows[] = {
        {"article: std before scaling", "article", number("article", "std_scores"), 4},
        {"article: std after scaling", "article", number("article", "std_logits"), 4},
        {"article: smallest column sum", "article", figure("article", "col_sum_min"), 4},
        {"article: largest column sum", "article", figure("article", "col_sum_max"), 4},
        {"article: exercise 1's std", "article",
         number("article d_model=512 scale=none", "std_scores"), 4},
        {"saturation: std", "saturation", number("saturation", "std_scores"), 4},
        {"saturation: mean largest weight", "saturation", figure("saturation", "mean_row_max"), 2},
        {"saturation: mean entropy", "saturation", figure("saturation", "mean_entropy"), 2},
        {"saturation: largest entropy", "saturation", figure("saturation", "mean_entropy_max"), 2},
        {"saturation: scaled std", "saturation", number("saturation scale=sqrt-dk", "std_logits"),
         4},
        {"saturation: scaled entropy", "saturation",
         figure("saturation scale=sqrt-dk", "mean_entropy"), 2},
        {"wrong-axis-queries: smallest row sum", "wrong-axis-queries",
         figure("wrong-axis-queries", "row_sum_min"), 4},
        {"wrong-axis-queries: largest row sum", "wrong-axis-queries",
         figure("wrong-axis-queries", "row_sum_max"), 4},
        {"wrong-axis-batch: smallest row sum", "wrong-axis-batch",
         figure("wrong-axis-batch", "row_sum_min"), 4},
        {"wrong-axis-batch: largest row sum", "wrong-axis-batch",
         figure("wrong-axis-batch", "row_sum_max"), 4},
        {"mask-after-softmax: row 0's smallest sum", "mask-after-softmax", rowZeroSums(false), 4},
        {"mask-after-softmax: row 0's largest sum", "mask-after-softmax", rowZeroSums(true), 4},
        {"cross-attention: smallest column sum", "cross-attention",
         figure("cross-attention", "col_sum_min"), 4},
        {"cross-attention: largest column sum", "cross-attention",
         figure("cross-attention", "col_sum_max"), 4},
        {"cross-attention: seed 7", "cross-attention",
         pytorch(QStringLiteral("cross-attention seed=7"))["weights"][0][0][0][0].toDouble(), 2},
        {"coreference: other keys", "coreference", lesson("coreference", "other_max"), 2},
        {"coreference: cosine", "coreference", lesson("coreference", "cos_output_value"), 4},
        {"coreference: norm", "coreference", lesson("coreference", "antecedent_norm"), 1},
        {"coreference: seed 7", "coreference", lesson("coreference seed=7", "antecedent_weight"),
         2},
        {"coreference-en: cosine", "coreference-en", lesson("coreference-en", "cos_output_value"),
         4},
        {"coreference-en: norm", "coreference-en", lesson("coreference-en", "antecedent_norm"), 1},
        {"coreference-en: seed 7", "coreference-en",
         lesson("coreference-en seed=7", "antecedent_weight"), 2},
    };
    for (const auto& row : rows)
        QTest::newRow(row.row) << QString::fromLatin1(row.preset) << row.value << row.decimals;
    for (const QuotedNumber& row : todaysQuotedNumbers())
        QTest::newRow(row.row) << QString::fromLatin1(row.preset) << row.value << row.decimals;
}

// Every number an explanation quotes is PyTorch's, rounded as the explanation rounds it.
void TestPresets::quotedNumbersArePyTorchs()
{
    QFETCH(QString, preset);
    QFETCH(double, value);
    QFETCH(int, decimals);
    const QString quoted = QString::number(value, 'f', decimals);
    QVERIFY2(PresetPanel::explanationHtml(preset).contains(quoted),
             qPrintable(QStringLiteral("%1 does not quote %2").arg(preset, quoted)));
}

void TestPresets::clearShowsHint()
{
    PresetPanel panel;
    QVERIFY(panel.presetName().isEmpty());
    QVERIFY(panel.explanation().contains(QStringLiteral("Presets menu")));
    panel.showPreset(QStringLiteral("article"));
    QCOMPARE(panel.presetName(), QStringLiteral("article"));
    panel.clear();
    QVERIFY(panel.presetName().isEmpty());
    QVERIFY(panel.explanation().contains(QStringLiteral("Presets menu")));
    panel.showPreset(QStringLiteral("no-such-preset"));
    QVERIFY(panel.presetName().isEmpty());
}

void TestPresets::menu()
{
    QWidget window;
    QStringList chosen;
    QMenu* menu = ui::createPresetMenu(&window, [&chosen](const QString& name) { chosen << name; });
    QVERIFY(menu);
    QCOMPARE(menu->parent(), &window);
    QCOMPARE(menu->title(), QStringLiteral("&Presets"));
    const QStringList names = PresetPanel::presetNames();
    QCOMPARE(menu->actions().size(), names.size());
    for (qsizetype k = 0; k < names.size(); ++k) {
        QAction* action = menu->actions()[k];
        QCOMPARE(action->objectName(), "preset-" + names[k]);
        QCOMPARE(action->data().toString(), names[k]);
        QCOMPARE(action->text(), PresetPanel::displayName(names[k]));
        QVERIFY(!action->statusTip().isEmpty());
        action->trigger();
    }
    QCOMPARE(chosen, names);
}

void TestPresets::chinese_data()
{
    addPresetRows();
}

// Through the real translation the app embeds: every segment of every explanation
// differs from the English one, and the heading is the tutorial's own.
void TestPresets::chinese()
{
    QFETCH(QString, name);
    PresetPanel panel;
    panel.showPreset(name);
    const QString englishTitle = panel.title();
    const QStringList english = segments(panel.explanation());
    QVERIFY(english.size() >= 6);

    QVERIFY(chinese_.load(QStringLiteral(":/i18n/attnscope_zh_CN.qm")));
    QVERIFY(QCoreApplication::installTranslator(&chinese_));
    QTRY_VERIFY(panel.title() != englishTitle);
    const QStringList chinese = segments(panel.explanation());
    QCOMPARE(chinese.size(), english.size());
    QVERIFY2(panel.explanation().contains(QStringLiteral("输出结果怎么看")),
             qPrintable(panel.explanation()));
    QVERIFY(panel.title().endsWith("(" + name + ")") || panel.title().endsWith("（" + name + "）"));
    for (qsizetype k = 0; k < english.size(); ++k)
        QVERIFY2(chinese[k] != english[k], qPrintable("not translated: " + english[k]));
    QVERIFY(!PresetPanel::summary(name).isEmpty());
}

void TestPresets::menuInChinese()
{
    QWidget window;
    QMenu* menu = ui::createPresetMenu(&window, [](const QString&) {});
    const QString englishTitle = menu->title();
    const QString englishFirst = menu->actions().constFirst()->text();
    QVERIFY(chinese_.load(QStringLiteral(":/i18n/attnscope_zh_CN.qm")));
    QVERIFY(QCoreApplication::installTranslator(&chinese_));
    QTRY_VERIFY(menu->title() != englishTitle);
    QVERIFY(menu->actions().constFirst()->text() != englishFirst);
    QVERIFY(PresetPanel().explanation() != QString());
}

void TestPresets::cleanup()
{
    QCoreApplication::removeTranslator(&chinese_);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
}

QTEST_MAIN(TestPresets)
#include "tst_presets.moc"
