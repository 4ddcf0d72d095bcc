// Properties the attention weights must have for every configuration, checked over a
// few hundred random ones drawn from a fixed seed (so a failure is reproducible; its
// message prints the configuration and the text).
//
// Legend: B sequences (1–3 lines of 1–12 words), T tokens each (padded), C = d_model
// ≤ 64, H heads, P the weights [b][h][i][j], query i, key j.
#include "engine/engine.h"
#include "engine/options.h"

#include <QStringList>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kCases = 300;
constexpr std::uint32_t kGeneratorSeed = 20240611;
constexpr int kMaxLength = 12;
constexpr int kMaxDModel = 64;
constexpr double kSumTolerance = 1e-5;

// Few words, so that table mode often meets the same word twice.
constexpr std::array<const char*, 12> kVocabulary = {"the", "cat", "sat", "on", "a",  "mat",
                                                     "dog", "ran", "to",  "it", "is", "red"};
constexpr std::array<float, 6> kTemperatures = {0.1f, 0.5f, 1.0f, 1.5f, 3.0f, 10.0f};

// One random input: the switches and the words of each line.
struct Case {
    attn::Config config;
    std::vector<std::vector<std::string>> lines;

    [[nodiscard]] int batch() const { return static_cast<int>(lines.size()); }
    [[nodiscard]] int length(int b) const
    {
        return static_cast<int>(lines[static_cast<std::size_t>(b)].size());
    }
    [[nodiscard]] attn::Request request() const
    {
        std::string text;
        for (const auto& line : lines) {
            if (!text.empty())
                text += '\n';
            for (std::size_t t = 0; t < line.size(); ++t)
                text += (t ? " " : "") + line[t];
        }
        return {text, config, {}, {}};
    }
};

int pick(std::mt19937& rng, int low, int high)
{
    return std::uniform_int_distribution<int>(low, high)(rng);
}

template <typename E> E pickEnum(std::mt19937& rng)
{
    const auto& rows = attn::EnumTable<E>::rows;
    return rows[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(rows.size()) - 1))].value;
}

std::vector<std::string> randomLine(std::mt19937& rng, int length)
{
    std::vector<std::string> line;
    for (int t = 0; t < length; ++t)
        line.emplace_back(kVocabulary[static_cast<std::size_t>(
            pick(rng, 0, static_cast<int>(kVocabulary.size()) - 1))]);
    return line;
}

Case randomCase(std::mt19937& rng)
{
    Case c;
    attn::Config& config = c.config;
    config.tokenizer = attn::TokenizerMode::Spaces;
    config.dModel = pick(rng, 1, kMaxDModel);
    std::vector<int> divisors;
    for (int d = 1; d <= config.dModel; ++d)
        if (config.dModel % d == 0)
            divisors.push_back(d);
    config.heads =
        divisors[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(divisors.size()) - 1))];
    config.seed = rng();
    if (pick(rng, 0, 3) == 0) { // sometimes beyond 32 bits
        const std::uint64_t high = rng();
        config.seed |= high << 32;
    }
    config.embedding = pickEnum<attn::EmbeddingMode>(rng);
    config.positional = pickEnum<attn::Positional>(rng);
    // Today's models (no sink: the sums below are of distributions): K/V heads a divisor
    // of the heads, RoPE where d_k is even.
    std::vector<int> kvDivisors;
    for (int d = 1; d <= config.heads; ++d)
        if (config.heads % d == 0)
            kvDivisors.push_back(d);
    config.kvHeads =
        kvDivisors[static_cast<std::size_t>(pick(rng, 0, static_cast<int>(kvDivisors.size()) - 1))];
    if (config.positional == attn::Positional::Rope && config.dK() % 2 != 0)
        config.positional = attn::Positional::None;
    config.qkNorm = pick(rng, 0, 2) == 0;
    config.alibi = pick(rng, 0, 3) == 0;
    config.softcap = pick(rng, 0, 3) == 0 ? 5.0f : 0.0f;
    config.window = pick(rng, 0, 3) == 0 ? pick(rng, 1, 4) : 0;
    config.scale = pickEnum<attn::ScaleMode>(rng);
    config.temperature = kTemperatures[static_cast<std::size_t>(
        pick(rng, 0, static_cast<int>(kTemperatures.size()) - 1))];
    config.axis = pickEnum<attn::SoftmaxAxis>(rng);
    config.mask = pickEnum<attn::MaskKind>(rng);
    config.maskFill = pickEnum<attn::MaskFill>(rng);
    config.maskStage = pickEnum<attn::MaskStage>(rng);
    config.headSplit = pickEnum<attn::HeadSplit>(rng);
    config.paddingMask = pick(rng, 0, 1) == 1;
    const int batch = pick(rng, 1, 3);
    for (int b = 0; b < batch; ++b)
        c.lines.push_back(randomLine(rng, pick(rng, 1, kMaxLength)));
    return c;
}

template <typename E> QString spelled(E value)
{
    const std::string_view text = attn::spellingOf(value);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// The case as the command line would spell it, to reproduce a failure.
QString describe(const Case& c)
{
    const attn::Config& k = c.config;
    QStringList lines;
    for (const auto& line : c.lines) {
        QStringList words;
        for (const std::string& word : line)
            words << QString::fromStdString(word);
        lines << words.join(QLatin1Char(' '));
    }
    return QStringLiteral("seed=%1 d_model=%2 heads=%3 embedding=%4 positional=%5 scale=%6 "
                          "temperature=%7 axis=%8 mask=%9 ")
               .arg(k.seed)
               .arg(k.dModel)
               .arg(k.heads)
               .arg(spelled(k.embedding), spelled(k.positional), spelled(k.scale))
               .arg(static_cast<double>(k.temperature))
               .arg(spelled(k.axis), spelled(k.mask)) +
           QStringLiteral("mask-fill=%1 mask-stage=%2 head-split=%3 padding-mask=%4 text=\"%5\"")
               .arg(spelled(k.maskFill), spelled(k.maskStage), spelled(k.headSplit),
                    k.paddingMask ? QStringLiteral("true") : QStringLiteral("false"),
                    lines.join(QLatin1String("\\n"))) +
           QStringLiteral(" kv-heads=%1 qk-norm=%2 alibi=%3 softcap=%4 window=%5")
               .arg(k.kvHeads)
               .arg(k.qkNorm)
               .arg(k.alibi)
               .arg(static_cast<double>(k.softcap))
               .arg(k.window);
}

QString at(int b, int h, int i, int j)
{
    return QStringLiteral("[%1][%2][%3][%4]").arg(b).arg(h).arg(i).arg(j);
}

// Whether query i may not see key j in sequence b: causal OR pad key.
bool isMasked(const Case& c, int b, int i, int j)
{
    const int window = c.config.window;
    return (c.config.mask == attn::MaskKind::Causal && j > i) ||
           (c.config.paddingMask && j >= c.length(b)) ||
           (window > 0 && (i - j >= window || j - i >= window));
}

// Whether every entry of the softmax slice through (b, i, j) along the axis is masked.
bool sliceFullyMasked(const Case& c, int length, int b, int i, int j)
{
    switch (c.config.axis) {
    case attn::SoftmaxAxis::Keys:
        for (int key = 0; key < length; ++key)
            if (!isMasked(c, b, i, key))
                return false;
        return true;
    case attn::SoftmaxAxis::Queries:
        for (int query = 0; query < length; ++query)
            if (!isMasked(c, b, query, j))
                return false;
        return true;
    case attn::SoftmaxAxis::Batch:
        for (int seq = 0; seq < c.batch(); ++seq)
            if (!isMasked(c, seq, i, j))
                return false;
        return true;
    }
    return false;
}

// The number of entries of a softmax slice along the axis.
int sliceSize(const Case& c, int length)
{
    return c.config.axis == attn::SoftmaxAxis::Batch ? c.batch() : length;
}

bool allFinite(const std::vector<attn::Matrix>& matrices)
{
    return std::all_of(matrices.begin(), matrices.end(),
                       [](const attn::Matrix& m) { return m.allFinite(); });
}

// Empty when `actual` and `expected` agree to `tolerance`·max(1, |expected|), NaN with NaN.
QString compareStacks(const QString& name, const attn::HeadStack& actual,
                      const attn::HeadStack& expected, double tolerance)
{
    for (int b = 0; b < expected.batch(); ++b)
        for (int h = 0; h < expected.heads(); ++h) {
            const attn::Matrix& a = actual.at(b, h);
            const attn::Matrix& e = expected.at(b, h);
            for (Eigen::Index i = 0; i < e.rows(); ++i)
                for (Eigen::Index j = 0; j < e.cols(); ++j) {
                    const double x = a(i, j);
                    const double y = e(i, j);
                    const bool same = (std::isnan(x) && std::isnan(y)) || x == y ||
                                      std::abs(x - y) <= tolerance * std::max(1.0, std::abs(y));
                    if (!same)
                        return QStringLiteral("%1%2: %3 instead of %4")
                            .arg(name, at(b, h, static_cast<int>(i), static_cast<int>(j)))
                            .arg(x, 0, 'g', 9)
                            .arg(y, 0, 'g', 9);
                }
        }
    return {};
}

using Check = std::function<QString(const Case&, const attn::Result&, std::mt19937&)>;
using Shape = std::function<void(Case&, std::mt19937&)>;

// Runs `check` on kCases random cases, each first adjusted by `shape`; fails at the
// first case whose check returns a message, printing the case.
void forRandomCases(const Shape& shape, const Check& check)
{
    std::mt19937 rng(kGeneratorSeed);
    for (int n = 0; n < kCases; ++n) {
        Case c = randomCase(rng);
        shape(c, rng);
        QString failure;
        try {
            attn::AttentionEngine engine;
            const attn::Result result = engine.compute(c.request());
            failure = result.valid() ? check(c, result, rng) : QStringLiteral("no result");
        } catch (const std::exception& e) {
            failure = QStringLiteral("compute threw: %1").arg(QString::fromUtf8(e.what()));
        }
        QVERIFY2(failure.isEmpty(),
                 qPrintable(QStringLiteral("case %1: %2\n   %3").arg(n).arg(failure, describe(c))));
    }
}

// The same on the random cases as drawn.
void forRandomCases(const Check& check)
{
    forRandomCases([](Case&, std::mt19937&) {}, check);
}

attn::Result computeOnce(const Case& c)
{
    attn::AttentionEngine engine;
    return engine.compute(c.request());
}

} // namespace

class TestProperties : public QObject {
    Q_OBJECT

private slots:
    void maskMarksCausalAndPadKeys();
    void rowsSumToOneOverKeys();
    void columnsSumToOneOverQueries();
    void batchSumsToOneOverBatch();
    void causalUpperTriangleIsZero();
    void logitSpreadFollowsScale();
    void tokenPermutationPermutesWeights();
    void viewEqualsTransposeForOneHead();
    void nanOnlyInFullyMaskedSlices();
};

// The engine's mask is causal (j > i) OR pad key (j ≥ length), as the tests assume.
void TestProperties::maskMarksCausalAndPadKeys()
{
    forRandomCases([](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
        if (!r.mask)
            return QStringLiteral("no mask in the result");
        const int length = r.length();
        for (int b = 0; b < c.batch(); ++b)
            for (int i = 0; i < length; ++i)
                for (int j = 0; j < length; ++j)
                    if ((*r.mask)[static_cast<std::size_t>(b)](i, j) != isMasked(c, b, i, j))
                        return QStringLiteral("mask[%1][%2][%3] is %4")
                            .arg(b)
                            .arg(i)
                            .arg(j)
                            .arg((*r.mask)[static_cast<std::size_t>(b)](i, j)
                                     ? QStringLiteral("masked")
                                     : QStringLiteral("visible"));
        return {};
    });
}

// softmax over dim=-1 with the mask before it: every row with a visible key sums to 1.
void TestProperties::rowsSumToOneOverKeys()
{
    forRandomCases(
        [](Case& c, std::mt19937&) {
            c.config.axis = attn::SoftmaxAxis::Keys;
            c.config.maskStage = attn::MaskStage::BeforeSoftmax;
        },
        [](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
            const int length = r.length();
            for (int b = 0; b < c.batch(); ++b)
                for (int h = 0; h < r.heads(); ++h)
                    for (int i = 0; i < length; ++i) {
                        if (sliceFullyMasked(c, length, b, i, 0))
                            continue;
                        const double sum = r.weights->at(b, h).row(i).cast<double>().sum();
                        if (!(std::abs(sum - 1) <= kSumTolerance))
                            return QStringLiteral("row [%1][%2][%3] sums to %4")
                                .arg(b)
                                .arg(h)
                                .arg(i)
                                .arg(sum, 0, 'g', 9);
                    }
            return {};
        });
}

// softmax over dim=-2 without a causal mask: every column with a visible query sums to 1.
void TestProperties::columnsSumToOneOverQueries()
{
    forRandomCases(
        [](Case& c, std::mt19937&) {
            c.config.axis = attn::SoftmaxAxis::Queries;
            c.config.mask = attn::MaskKind::None;
            c.config.maskStage = attn::MaskStage::BeforeSoftmax;
        },
        [](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
            const int length = r.length();
            for (int b = 0; b < c.batch(); ++b)
                for (int h = 0; h < r.heads(); ++h)
                    for (int j = 0; j < length; ++j) {
                        if (sliceFullyMasked(c, length, b, 0, j))
                            continue;
                        const double sum = r.weights->at(b, h).col(j).cast<double>().sum();
                        if (!(std::abs(sum - 1) <= kSumTolerance))
                            return QStringLiteral("column [%1][%2][:][%3] sums to %4")
                                .arg(b)
                                .arg(h)
                                .arg(j)
                                .arg(sum, 0, 'g', 9);
                    }
            return {};
        });
}

// softmax over dim=0: for each (h, i, j) with a visible sequence, Σ_b P = 1.
void TestProperties::batchSumsToOneOverBatch()
{
    forRandomCases(
        [](Case& c, std::mt19937&) {
            c.config.axis = attn::SoftmaxAxis::Batch;
            c.config.maskStage = attn::MaskStage::BeforeSoftmax;
        },
        [](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
            const int length = r.length();
            for (int h = 0; h < r.heads(); ++h)
                for (int i = 0; i < length; ++i)
                    for (int j = 0; j < length; ++j) {
                        if (sliceFullyMasked(c, length, 0, i, j))
                            continue;
                        double sum = 0;
                        for (int b = 0; b < c.batch(); ++b)
                            sum += r.weights->at(b, h)(i, j);
                        if (!(std::abs(sum - 1) <= kSumTolerance))
                            return QStringLiteral("[:][%1][%2][%3] sums to %4 over the batch")
                                .arg(h)
                                .arg(i)
                                .arg(j)
                                .arg(sum, 0, 'g', 9);
                    }
            return {};
        });
}

// With the causal mask, P[i][j] = 0 for j > i (and for pad keys), whichever the stage
// and fill. The one exception is a slice of the softmax that is masked throughout
// (possible over the queries or the batch): before the softmax, -1e9 makes it uniform
// and -inf makes it NaN (checked in nanOnlyInFullyMaskedSlices).
void TestProperties::causalUpperTriangleIsZero()
{
    const Shape causal = [](Case& c, std::mt19937&) { c.config.mask = attn::MaskKind::Causal; };
    forRandomCases(causal, [](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
        const int length = r.length();
        const bool before = c.config.maskStage == attn::MaskStage::BeforeSoftmax;
        for (int b = 0; b < c.batch(); ++b)
            for (int h = 0; h < r.heads(); ++h)
                for (int i = 0; i < length; ++i)
                    for (int j = 0; j < length; ++j) {
                        if (!isMasked(c, b, i, j))
                            continue;
                        const float p = r.weights->at(b, h)(i, j);
                        if (before && sliceFullyMasked(c, length, b, i, j)) {
                            const double uniform = 1.0 / sliceSize(c, length);
                            if (c.config.maskFill == attn::MaskFill::NegBillion &&
                                !(std::abs(p - uniform) <= kSumTolerance))
                                return QStringLiteral("fully masked %1 is %2, not uniform %3")
                                    .arg(at(b, h, i, j))
                                    .arg(static_cast<double>(p), 0, 'g', 9)
                                    .arg(uniform);
                            continue;
                        }
                        if (p != 0.0f)
                            return QStringLiteral("masked %1 is %2")
                                .arg(at(b, h, i, j))
                                .arg(static_cast<double>(p), 0, 'g', 9);
                    }
        return {};
    });
}

// std(S·scale/τ) / std(S) = scale/τ: the statistics see the logits before masking.
void TestProperties::logitSpreadFollowsScale()
{
    forRandomCases([](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
        const double stdScores = r.stats->stdScores;
        const int length = r.length();
        if (c.batch() * r.heads() * length * length < 2 || !(stdScores > 0))
            return {}; // no spread to compare
        const double dK = c.config.dModel / c.config.heads;
        const double scale = c.config.scale == attn::ScaleMode::SqrtDk ? 1 / std::sqrt(dK)
                             : c.config.scale == attn::ScaleMode::SqrtDModel
                                 ? 1 / std::sqrt(static_cast<double>(c.config.dModel))
                                 : 1.0;
        const double expected = scale / static_cast<double>(c.config.temperature);
        const double ratio = r.stats->stdLogits / stdScores;
        if (!(std::abs(ratio - expected) <= 1e-4 * expected))
            return QStringLiteral("std(L)/std(S) = %1/%2 = %3, expected scale/τ = %4")
                .arg(r.stats->stdLogits, 0, 'g', 9)
                .arg(stdScores, 0, 'g', 9)
                .arg(ratio, 0, 'g', 9)
                .arg(expected, 0, 'g', 9);
        return {};
    });
}

// Without positions, table embeddings make attention permutation-equivariant:
// token i moved to π(i) gives P'[π(i)][π(j)] = P[i][j] and O'[π(i)] = O[i].
void TestProperties::tokenPermutationPermutesWeights()
{
    forRandomCases(
        [](Case& c, std::mt19937&) {
            c.lines.resize(1);
            c.config.embedding = attn::EmbeddingMode::Table;
            c.config.positional = attn::Positional::None;
            c.config.mask = attn::MaskKind::None;
            c.config.headSplit = attn::HeadSplit::Transpose;
            c.config.alibi = false; // distances are positions too
            c.config.window = 0;
        },
        [](const Case& c, const attn::Result& r, std::mt19937& rng) -> QString {
            const int length = c.length(0);
            std::vector<int> pi(static_cast<std::size_t>(length));
            std::iota(pi.begin(), pi.end(), 0);
            std::shuffle(pi.begin(), pi.end(), rng);
            Case permuted = c;
            for (int i = 0; i < length; ++i)
                permuted.lines[0][static_cast<std::size_t>(pi[static_cast<std::size_t>(i)])] =
                    c.lines[0][static_cast<std::size_t>(i)];
            const attn::Result rp = computeOnce(permuted);
            QStringList order;
            for (int p : pi)
                order << QString::number(p);
            const QString perm = QStringLiteral(" (π = %1)").arg(order.join(QLatin1Char(' ')));

            const auto close = [](float x, float y) {
                return std::abs(static_cast<double>(x) - y) <=
                       kSumTolerance * std::max(1.0, std::abs(static_cast<double>(y)));
            };
            for (int h = 0; h < r.heads(); ++h)
                for (int i = 0; i < length; ++i)
                    for (int j = 0; j < length; ++j) {
                        const float p = r.weights->at(0, h)(i, j);
                        const float q = rp.weights->at(0, h)(pi[static_cast<std::size_t>(i)],
                                                             pi[static_cast<std::size_t>(j)]);
                        if (!close(q, p))
                            return QStringLiteral("P'[π(i)][π(j)] = %1 but P%2 = %3%4")
                                .arg(static_cast<double>(q), 0, 'g', 9)
                                .arg(at(0, h, i, j))
                                .arg(static_cast<double>(p), 0, 'g', 9)
                                .arg(perm);
                    }
            const attn::Matrix& o = r.aggregation->output[0];
            const attn::Matrix& op = rp.aggregation->output[0];
            for (int i = 0; i < length; ++i)
                for (Eigen::Index k = 0; k < o.cols(); ++k)
                    if (!close(op(pi[static_cast<std::size_t>(i)], k), o(i, k)))
                        return QStringLiteral("O'[π(%1)][%2] = %3 but O = %4%5")
                            .arg(i)
                            .arg(k)
                            .arg(static_cast<double>(op(pi[static_cast<std::size_t>(i)], k)), 0,
                                 'g', 9)
                            .arg(static_cast<double>(o(i, k)), 0, 'g', 9)
                            .arg(perm);
            return {};
        });
}

// With H = 1, view(B, 1, T, C) and view(B, T, 1, C).transpose(1, 2) hold the same data.
void TestProperties::viewEqualsTransposeForOneHead()
{
    forRandomCases(
        [](Case& c, std::mt19937&) {
            c.config.heads = 1;
            c.config.kvHeads = 0;
            c.config.headSplit = attn::HeadSplit::Transpose;
        },
        [](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
            Case view = c;
            view.config.headSplit = attn::HeadSplit::View;
            const attn::Result rv = computeOnce(view);
            constexpr double kTolerance = 1e-6;
            for (const QString& failure :
                 {compareStacks(QStringLiteral("view scores"), *rv.scores, *r.scores, kTolerance),
                  compareStacks(QStringLiteral("view logits"), rv.allLogits(), r.allLogits(),
                                kTolerance),
                  compareStacks(QStringLiteral("view weights"), *rv.weights, *r.weights,
                                kTolerance),
                  compareStacks(QStringLiteral("view head outputs"), rv.aggregation->headOutputs,
                                r.aggregation->headOutputs, kTolerance)})
                if (!failure.isEmpty())
                    return failure;
            return {};
        });
}

// NaN appears only where torch makes it: softmax over a slice masked throughout with
// -inf before the softmax (every entry of that slice is then NaN). Elsewhere P is in
// [0, 1]; X, Q, K, V and S are finite; the logits hold the fill exactly where masked
// (before the softmax) and O is finite whenever P is.
void TestProperties::nanOnlyInFullyMaskedSlices()
{
    forRandomCases([](const Case& c, const attn::Result& r, std::mt19937&) -> QString {
        if (!allFinite(*r.x) || !allFinite(r.projection->q) || !allFinite(r.projection->k) ||
            !allFinite(r.projection->v))
            return QStringLiteral("X, Q, K or V is not finite");
        const int length = r.length();
        const bool before = c.config.maskStage == attn::MaskStage::BeforeSoftmax;
        const bool negInf = c.config.maskFill == attn::MaskFill::NegInf;
        const float fill = negInf ? -std::numeric_limits<float>::infinity() : -1e9f;
        bool anyNan = false;
        for (int b = 0; b < c.batch(); ++b)
            for (int h = 0; h < r.heads(); ++h) {
                if (!r.scores->at(b, h).allFinite())
                    return QStringLiteral("S[%1][%2] is not finite").arg(b).arg(h);
                for (int i = 0; i < length; ++i)
                    for (int j = 0; j < length; ++j) {
                        const float logit = r.logit(b, h, i, j);
                        const bool masked = before && isMasked(c, b, i, j);
                        if (masked ? logit != fill : !std::isfinite(logit))
                            return QStringLiteral("logit %1 is %2")
                                .arg(at(b, h, i, j))
                                .arg(static_cast<double>(logit));

                        const float p = r.weights->at(b, h)(i, j);
                        const bool nanExpected =
                            before && negInf && sliceFullyMasked(c, length, b, i, j);
                        anyNan = anyNan || std::isnan(p);
                        if (std::isnan(p) != nanExpected)
                            return QStringLiteral("P%1 is %2%3")
                                .arg(at(b, h, i, j))
                                .arg(static_cast<double>(p))
                                .arg(nanExpected ? QStringLiteral(", NaN expected") : QString());
                        if (!nanExpected && !(p >= 0.0f && p <= 1.0f))
                            return QStringLiteral("P%1 = %2 is outside [0, 1]")
                                .arg(at(b, h, i, j))
                                .arg(static_cast<double>(p), 0, 'g', 9);
                    }
            }
        if (!anyNan && !allFinite(r.aggregation->output))
            return QStringLiteral("O is not finite although P is");
        return {};
    });
}

QTEST_GUILESS_MAIN(TestProperties)
#include "tst_properties.moc"
