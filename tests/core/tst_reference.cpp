// The engine against PyTorch: every case of reference/reference_cases.json, written by
// reference/gen_reference.py from the program in ARCHITECTURE.md ("Reference semantics").
//
// Legend: B sequences, T tokens each, C = d_model, H heads. x and the nn.Linear
// parameters must be bit-identical (TORCH_PARITY.md); every other tensor must agree to
// |engine − torch| ≤ 1e-5·max(1, |torch|), with NaN and ±inf in the same places.
#include "engine/engine.h"
#include "engine/options.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr double kTolerance = 1e-5;

// A tensor flattened in row-major order, with its shape.
struct Flat {
    std::vector<int> shape;
    std::vector<float> values;
};

// The fixture's encoding of one float: a number, null for NaN, "inf" or "-inf".
std::optional<float> decodeFloat(const QJsonValue& value)
{
    if (value.isDouble())
        return static_cast<float>(value.toDouble());
    if (value.isNull())
        return std::numeric_limits<float>::quiet_NaN();
    if (value.toString() == QLatin1String("inf"))
        return std::numeric_limits<float>::infinity();
    if (value.toString() == QLatin1String("-inf"))
        return -std::numeric_limits<float>::infinity();
    return std::nullopt;
}

// Appends the nested lists of `value` to `out`; false when ragged or not a number.
bool flattenJson(const QJsonValue& value, std::size_t depth, Flat& out)
{
    if (!value.isArray()) {
        const std::optional<float> number = decodeFloat(value);
        if (!number || depth != out.shape.size())
            return false;
        out.values.push_back(*number);
        return true;
    }
    const QJsonArray array = value.toArray();
    if (depth == out.shape.size())
        out.shape.push_back(static_cast<int>(array.size()));
    else if (depth > out.shape.size() || out.shape[depth] != array.size())
        return false;
    for (const QJsonValue& item : array)
        if (!flattenJson(item, depth + 1, out))
            return false;
    return true;
}

void append(Flat& out, const attn::Matrix& m)
{
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            out.values.push_back(m(i, j));
}

// (B, rows, cols)
Flat flatten(const std::vector<attn::Matrix>& matrices)
{
    Flat out;
    out.shape = {static_cast<int>(matrices.size()),
                 matrices.empty() ? 0 : static_cast<int>(matrices[0].rows()),
                 matrices.empty() ? 0 : static_cast<int>(matrices[0].cols())};
    for (const attn::Matrix& m : matrices)
        append(out, m);
    return out;
}

// (B, H, rows, cols)
Flat flatten(const attn::HeadStack& stack)
{
    Flat out;
    const attn::Matrix* first = stack.empty() ? nullptr : &stack.items().front();
    out.shape = {stack.batch(), stack.heads(), first ? static_cast<int>(first->rows()) : 0,
                 first ? static_cast<int>(first->cols()) : 0};
    for (int b = 0; b < stack.batch(); ++b)
        for (int h = 0; h < stack.heads(); ++h)
            append(out, stack.at(b, h));
    return out;
}

Flat flatten(const attn::Matrix& m)
{
    Flat out;
    out.shape = {static_cast<int>(m.rows()), static_cast<int>(m.cols())};
    append(out, m);
    return out;
}

Flat flatten(const attn::Vector& v)
{
    Flat out;
    out.shape = {static_cast<int>(v.size())};
    out.values.assign(v.data(), v.data() + v.size());
    return out;
}

QString shapeText(const std::vector<int>& shape)
{
    QStringList dims;
    for (int d : shape)
        dims << QString::number(d);
    return QLatin1Char('(') + dims.join(QLatin1String(", ")) + QLatin1Char(')');
}

// "[b][h][i][j]" of the element at `flat` in row-major order.
QString indexText(const std::vector<int>& shape, std::size_t flat)
{
    QString text;
    std::size_t stride = 1;
    std::vector<std::size_t> index(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        index[d] = (flat / stride) % static_cast<std::size_t>(shape[d]);
        stride *= static_cast<std::size_t>(shape[d]);
    }
    for (std::size_t i : index)
        text += QStringLiteral("[%1]").arg(i);
    return text;
}

QString valueText(float v)
{
    return QString::number(static_cast<double>(v), 'g', 9);
}

enum class Match { Tolerance, BitExact };

// Empty when `engine` matches `torch`; otherwise one line naming the worst element.
QString compare(const QString& name, const Flat& engine, const Flat& torch, Match match)
{
    if (engine.shape != torch.shape)
        return QStringLiteral("%1: shape %2, torch %3")
            .arg(name, shapeText(engine.shape), shapeText(torch.shape));

    std::size_t bad = 0;
    std::optional<std::size_t> worst;
    double worstExcess = -1; // difference / allowed difference
    for (std::size_t n = 0; n < torch.values.size(); ++n) {
        const float a = engine.values[n];
        const float b = torch.values[n];
        double excess = 0;
        if (match == Match::BitExact) {
            excess = std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b) ||
                             (std::isnan(a) && std::isnan(b))
                         ? 0.0
                         : std::numeric_limits<double>::infinity();
        } else if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) {
            const bool same = (std::isnan(a) && std::isnan(b)) || a == b;
            excess = same ? 0.0 : std::numeric_limits<double>::infinity();
        } else {
            const double difference = std::abs(static_cast<double>(a) - static_cast<double>(b));
            excess = difference / (kTolerance * std::max(1.0, std::abs(static_cast<double>(b))));
        }
        if (excess > (match == Match::BitExact ? 0.0 : 1.0)) {
            ++bad;
            if (excess > worstExcess) {
                worstExcess = excess;
                worst = n;
            }
        }
    }
    if (!worst)
        return {};
    const float a = engine.values[*worst];
    const float b = torch.values[*worst];
    const QString rule = match == Match::BitExact ? QStringLiteral("not bit-identical")
                                                  : QStringLiteral("beyond 1e-5·max(1,|torch|)");
    return QStringLiteral("%1: largest difference %2 at %3 (engine %4, torch %5); %6 of %7 %8")
        .arg(name, valueText(std::abs(a - b)), indexText(torch.shape, *worst), valueText(a),
             valueText(b))
        .arg(bad)
        .arg(torch.values.size())
        .arg(rule);
}

template <typename E> std::optional<E> enumOption(const QJsonObject& config, const char* key)
{
    return attn::fromString<E>(config.value(QLatin1String(key)).toString().toStdString());
}

// The Config the fixture spells, or an error naming the first bad key.
std::optional<attn::Config> readConfig(const QJsonObject& json, QString& error)
{
    attn::Config config;
    config.tokenizer = attn::TokenizerMode::Spaces;
    config.embedding = attn::EmbeddingMode::Torch;
    config.positional = attn::Positional::None;
    config.seed = static_cast<std::uint64_t>(json.value(QLatin1String("seed")).toInteger(-1));
    config.dModel = json.value(QLatin1String("d_model")).toInt();
    config.heads = json.value(QLatin1String("heads")).toInt();
    config.temperature = static_cast<float>(json.value(QLatin1String("temperature")).toDouble());
    config.paddingMask = json.value(QLatin1String("padding_mask")).toBool();
    // Today's models: absent in a fixture of before them, null where a switch is off.
    config.kvHeads = json.value(QLatin1String("kv_heads")).toInt(0);
    config.qkNorm = json.value(QLatin1String("qk_norm")).toBool(false);
    config.ropeTheta = static_cast<float>(json.value(QLatin1String("rope_theta")).toDouble(10000));
    config.alibi = json.value(QLatin1String("alibi")).toBool(false);
    config.softcap = static_cast<float>(json.value(QLatin1String("softcap")).toDouble(0));
    config.window = json.value(QLatin1String("window")).toInt(0);
    if (const QJsonValue sink = json.value(QLatin1String("sink")); sink.isDouble())
        config.sink = static_cast<float>(sink.toDouble());

    bool ok = true;
    auto read = [&]<typename E>(E& field, const char* key) {
        if (!json.contains(QLatin1String(key)))
            return; // the fixed modes may be left out
        if (const std::optional<E> value = enumOption<E>(json, key)) {
            field = *value;
        } else {
            error = QStringLiteral("config key %1 has no known value").arg(QLatin1String(key));
            ok = false;
        }
    };
    read(config.tokenizer, "tokenizer");
    read(config.embedding, "embedding");
    read(config.positional, "positional");
    read(config.scale, "scale");
    read(config.axis, "axis");
    read(config.mask, "mask");
    read(config.maskFill, "mask_fill");
    read(config.maskStage, "mask_stage");
    read(config.headSplit, "head_split");
    read(config.attention, "attention");
    for (const char* key : {"scale", "axis", "mask", "mask_fill", "mask_stage", "head_split"})
        if (!json.contains(QLatin1String(key))) {
            error = QStringLiteral("config key %1 is missing").arg(QLatin1String(key));
            ok = false;
        }
    if (!ok)
        return std::nullopt;
    return config;
}

// |engine − torch| ≤ 1e-5·|torch|, NaN equal to NaN.
bool sameStd(double engine, double torch)
{
    if (std::isnan(torch))
        return std::isnan(engine);
    return std::abs(engine - torch) <= kTolerance * std::abs(torch);
}

QJsonArray loadCases()
{
    QFile file(QStringLiteral(ATTN_REFERENCE_DIR "/reference_cases.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).array();
}

} // namespace

class TestReference : public QObject {
    Q_OBJECT

private slots:
    void fixtureCoversEverySwitch();
    void matchesTorch_data();
    void matchesTorch();
};

// A stale or truncated fixture must not pass silently.
void TestReference::fixtureCoversEverySwitch()
{
    const QJsonArray cases = loadCases();
    QVERIFY2(!cases.isEmpty(), "reference_cases.json is missing or empty; run gen_reference.py");

    auto covered = [&](const char* key, std::string_view spelling) {
        for (const QJsonValue& c : cases)
            if (c[QLatin1String("config")][QLatin1String(key)].toString().toStdString() == spelling)
                return true;
        return false;
    };
    QStringList missing;
    auto coversAll = [&]<typename E>(E, const char* key) {
        for (const auto& row : attn::EnumTable<E>::rows)
            if (!covered(key, row.text))
                missing << QLatin1String(key) + QLatin1Char('=') +
                               QString::fromUtf8(row.text.data(),
                                                 static_cast<qsizetype>(row.text.size()));
    };
    coversAll(attn::ScaleMode{}, "scale");
    coversAll(attn::SoftmaxAxis{}, "axis");
    coversAll(attn::MaskKind{}, "mask");
    coversAll(attn::MaskFill{}, "mask_fill");
    coversAll(attn::MaskStage{}, "mask_stage");
    coversAll(attn::HeadSplit{}, "head_split");
    coversAll(attn::AttentionKind{}, "attention");
    // Today's models: each switch on in some case (the sinusoidal encoding is the presets'
    // fixture's, preset_cases.json).
    if (!covered("positional", "rope"))
        missing << QStringLiteral("positional=rope");
    for (const char* key : {"kv_heads", "qk_norm", "alibi", "softcap", "window", "sink"}) {
        bool on = false;
        for (const QJsonValue& c : cases) {
            const QJsonValue value = c[QLatin1String("config")][QLatin1String(key)];
            on = on || value == QJsonValue(true) || (value.isDouble() && value.toDouble() != 0) ||
                 (value.isDouble() && QLatin1String(key) == QLatin1String("sink"));
        }
        if (!on)
            missing << QLatin1String(key);
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(QStringLiteral("no case has ") + missing.join(QLatin1String(", "))));
}

void TestReference::matchesTorch_data()
{
    QTest::addColumn<QJsonObject>("reference");
    for (const QJsonValue& c : loadCases()) {
        const QJsonObject reference = c.toObject();
        QTest::newRow(qPrintable(reference[QLatin1String("name")].toString())) << reference;
    }
}

void TestReference::matchesTorch()
{
    QFETCH(QJsonObject, reference);

    QString error;
    const std::optional<attn::Config> config =
        readConfig(reference[QLatin1String("config")].toObject(), error);
    QVERIFY2(config, qPrintable(error));
    const attn::Request request{reference[QLatin1String("text")].toString().toStdString(),
                                *config,
                                {},
                                reference[QLatin1String("cross_text")].toString().toStdString()};
    const bool cross = config->attention == attn::AttentionKind::Cross;

    attn::AttentionEngine engine;
    attn::Result result;
    try {
        result = engine.compute(request);
    } catch (const std::exception& e) {
        QFAIL(qPrintable(QStringLiteral("compute threw: %1").arg(QString::fromUtf8(e.what()))));
    }
    QVERIFY(result.valid());

    const QJsonObject shape = reference[QLatin1String("shape")].toObject();
    QCOMPARE(result.batch(), shape[QLatin1String("B")].toInt());
    QCOMPARE(result.length(), shape[QLatin1String("T")].toInt());
    std::vector<int> lengths;
    for (const QJsonValue& length : shape[QLatin1String("lengths")].toArray())
        lengths.push_back(length.toInt());
    QCOMPARE(result.tokens->lengths, lengths);
    if (cross) {
        QCOMPARE(result.keyLength(), shape[QLatin1String("T_k")].toInt());
        std::vector<int> keyLengths;
        for (const QJsonValue& length : shape[QLatin1String("key_lengths")].toArray())
            keyLengths.push_back(length.toInt());
        QCOMPARE(result.keyTokens->lengths, keyLengths);
    } else {
        QCOMPARE(result.keyTokens, result.tokens); // one object in self-attention
        QCOMPARE(result.xKeys, result.x);
    }

    const QJsonObject tensors = reference[QLatin1String("tensors")].toObject();
    QStringList failures;
    auto check = [&](const char* name, const Flat& actual, Match match) {
        Flat expected;
        if (!flattenJson(tensors[QLatin1String(name)], 0, expected)) {
            failures << QStringLiteral("%1: unreadable in the fixture").arg(QLatin1String(name));
            return;
        }
        if (const QString failure = compare(QLatin1String(name), actual, expected, match);
            !failure.isEmpty())
            failures << failure;
    };

    // Random draws: bit for bit.
    check("x", flatten(*result.x), Match::BitExact);
    if (cross)
        check("y", flatten(*result.xKeys), Match::BitExact);
    const attn::Projection& projection = *result.projection;
    const std::pair<const char*, const attn::Linear*> layers[] = {{"wq", &projection.wq()},
                                                                  {"wk", &projection.wk()},
                                                                  {"wv", &projection.wv()},
                                                                  {"wo", &projection.wo()}};
    for (const auto& [prefix, linear] : layers) {
        const std::string weight = std::string(prefix) + ".weight";
        const std::string bias = std::string(prefix) + ".bias";
        check(weight.c_str(), flatten(linear->weight), Match::BitExact);
        check(bias.c_str(), flatten(linear->bias), Match::BitExact);
    }

    // Arithmetic: to float32 tolerance, in pipeline order.
    check("q", flatten(projection.q), Match::Tolerance);
    check("k", flatten(projection.k), Match::Tolerance);
    check("v", flatten(projection.v), Match::Tolerance);
    check("scores", flatten(*result.scores), Match::Tolerance);
    check("logits", flatten(result.allLogits()), Match::Tolerance);
    check("weights", flatten(*result.weights), Match::Tolerance);
    check("merged", flatten(result.aggregation->merged), Match::Tolerance);
    check("output", flatten(result.aggregation->output), Match::Tolerance);

    const auto torchStd = [&](const char* key) {
        return decodeFloat(reference[QLatin1String(key)]).value_or(0.0f);
    };
    const double stdScores = torchStd("std_scores");
    const double stdLogits = torchStd("std_logits");
    if (!sameStd(result.stats->stdScores, stdScores))
        failures << QStringLiteral("std(S): engine %1, torch %2")
                        .arg(result.stats->stdScores, 0, 'g', 9)
                        .arg(stdScores, 0, 'g', 9);
    if (!sameStd(result.stats->stdLogits, stdLogits))
        failures << QStringLiteral("std(L): engine %1, torch %2")
                        .arg(result.stats->stdLogits, 0, 'g', 9)
                        .arg(stdLogits, 0, 'g', 9);

    // Today's models: the std of L after ALiBi and the cap, and the weight each row's sink
    // took (0 without a sink; a NaN row's is NaN in torch, left out here).
    const double stdCapped = torchStd("std_capped");
    if (!sameStd(result.stats->stdFinalLogits, stdCapped))
        failures << QStringLiteral("std(L capped): engine %1, torch %2")
                        .arg(result.stats->stdFinalLogits, 0, 'g', 9)
                        .arg(stdCapped, 0, 'g', 9);
    Flat sinks;
    for (const attn::HeadStatistics& h : result.stats->heads)
        for (int i = 0; i < result.length(); ++i)
            sinks.values.push_back(h.sinkWeights.empty() ? 0.0f
                                                         : float(h.sinkWeights[std::size_t(i)]));
    sinks.shape = {result.batch(), result.heads(), result.length()};
    check("sink_weights", sinks, Match::Tolerance);

    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QLatin1String("\n   "))));
}

QTEST_GUILESS_MAIN(TestReference)
#include "tst_reference.moc"
