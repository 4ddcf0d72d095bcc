// The switches of the formula: each enum's one spelling table, the limits of Config
// and the scale factor of each scaling mode.
//
// Legend: C = d_model, H heads, d_k = C / H, τ the temperature.
#include "engine/options.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>

using namespace attn;

namespace {

// Every enum that has a spelling table, in the order of Config.
using AllEnums = std::tuple<TokenizerMode, EmbeddingMode, Positional, ScaleMode, SoftmaxAxis,
                            MaskKind, MaskFill, MaskStage, HeadSplit>;

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Calls visit.template operator()<E>() for the enum E whose option is `option`.
template <typename Visit> bool visitEnum(std::string_view option, Visit&& visit)
{
    return std::apply(
        [&](auto... tag) {
            return ((EnumTable<decltype(tag)>::option == option
                         ? (visit.template operator()<decltype(tag)>(), true)
                         : false) ||
                    ...);
        },
        AllEnums{});
}

// Calls visit.template operator()<E>() for every enum E.
template <typename Visit> void forEachEnum(Visit&& visit)
{
    std::apply([&](auto... tag) { (visit.template operator()<decltype(tag)>(), ...); }, AllEnums{});
}

// "|relative difference| ≤ tolerance", with a message that says by how much it missed.
QByteArray closeMessage(const char* what, double actual, double expected)
{
    return QByteArray(what) + ": got " + QByteArray::number(actual, 'g', 17) + ", expected " +
           QByteArray::number(expected, 'g', 17) + ", difference " +
           QByteArray::number(std::abs(actual - expected), 'g', 3);
}

} // namespace

class TestOptions : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void unknownSpelling_data();
    void unknownSpelling();
    void unknownValue_data();
    void unknownValue();
    void allSpellings_data();
    void allSpellings();
    void defaults();
    void validate_data();
    void validate();
    void todaysRefusals_data();
    void todaysRefusals();
    void scaleFactor_data();
    void scaleFactor();
};

void TestOptions::roundTrip_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("spelling");
    QTest::addColumn<int>("position"); // row of the spelling table
    forEachEnum([]<typename E>() {
        int position = 0;
        for (const auto& row : EnumTable<E>::rows) {
            const QString option = qs(EnumTable<E>::option);
            QTest::addRow("%s=%s", qPrintable(option), qPrintable(qs(row.text)))
                << option << qs(row.text) << position++;
        }
    });
}

void TestOptions::roundTrip()
{
    QFETCH(QString, option);
    QFETCH(QString, spelling);
    QFETCH(int, position);
    const std::string text = spelling.toStdString();

    const bool known = visitEnum(option.toStdString(), [&]<typename E>() {
        const auto& rows = EnumTable<E>::rows;
        const E value = rows[static_cast<std::size_t>(position)].value;
        QCOMPARE(qs(spellingOf(value)), spelling);
        const std::optional<E> parsed = fromString<E>(text);
        QVERIFY2(parsed.has_value(), qPrintable("fromString rejected " + spelling));
        QVERIFY2(*parsed == value, qPrintable(spelling + " parsed to a different value"));
        // One spelling per value and one value per spelling.
        int sameText = 0, sameValue = 0;
        for (const auto& row : rows) {
            sameText += row.text == text ? 1 : 0;
            sameValue += row.value == value ? 1 : 0;
        }
        QCOMPARE(sameText, 1);
        QCOMPARE(sameValue, 1);
    });
    QVERIFY2(known, qPrintable("no enum has the option " + option));
}

void TestOptions::unknownSpelling_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("spelling");
    // For every enum: the empty text, a wrong case, surrounding space, a made-up word.
    forEachEnum([]<typename E>() {
        const QString option = qs(EnumTable<E>::option);
        const QString first = qs(EnumTable<E>::rows[0].text);
        for (const QString& bad :
             {QString(), first.toUpper(), " " + first, first + " ", first + "x", QString("nosuch")})
            QTest::addRow("%s=\"%s\"", qPrintable(option), qPrintable(bad)) << option << bad;
    });
    // Spellings a user might guess from PyTorch or from the other options.
    QTest::newRow("axis=\"dim=-1\"") << "axis"
                                     << "dim=-1";
    QTest::newRow("axis=\"-1\"") << "axis"
                                 << "-1";
    QTest::newRow("mask-fill=\"-inf\"") << "mask-fill"
                                        << "-inf";
    QTest::newRow("mask-fill=\"-1e+09\"") << "mask-fill"
                                          << "-1e+09";
    QTest::newRow("scale=\"sqrt_dk\"") << "scale"
                                       << "sqrt_dk";
    QTest::newRow("mask-stage=\"before\"") << "mask-stage"
                                           << "before";
    QTest::newRow("head-split=\"on\"") << "head-split"
                                       << "on";
}

void TestOptions::unknownSpelling()
{
    QFETCH(QString, option);
    QFETCH(QString, spelling);
    const bool known = visitEnum(option.toStdString(), [&]<typename E>() {
        const std::optional<E> parsed = fromString<E>(spelling.toStdString());
        QVERIFY2(!parsed.has_value(),
                 qPrintable("\"" + spelling + "\" was accepted as " + qs(spellingOf(*parsed))));
    });
    QVERIFY2(known, qPrintable("no enum has the option " + option));
}

void TestOptions::unknownValue_data()
{
    QTest::addColumn<QString>("option");
    forEachEnum([]<typename E>() {
        QTest::addRow("%s", EnumTable<E>::option.data()) << qs(EnumTable<E>::option);
    });
}

void TestOptions::unknownValue()
{
    // A value outside the table (from a corrupt session file, say) has no spelling.
    QFETCH(QString, option);
    const bool known = visitEnum(option.toStdString(), [&]<typename E>() {
        const auto outside = static_cast<E>(static_cast<int>(EnumTable<E>::rows.size()) + 7);
        QVERIFY(spellingOf(outside).empty());
    });
    QVERIFY(known);
}

void TestOptions::allSpellings_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("expected");
    QTest::newRow("tokenizer") << "tokenizer"
                               << "auto|spaces|chars";
    QTest::newRow("embedding") << "embedding"
                               << "table|torch";
    QTest::newRow("positional") << "positional"
                                << "sinusoidal|none|rope";
    QTest::newRow("scale") << "scale"
                           << "sqrt-dk|none|sqrt-dmodel";
    QTest::newRow("axis") << "axis"
                          << "keys|queries|batch";
    QTest::newRow("mask") << "mask"
                          << "none|causal";
    QTest::newRow("mask-fill") << "mask-fill"
                               << "neg-inf|-1e9";
    QTest::newRow("mask-stage") << "mask-stage"
                                << "before-softmax|after-softmax";
    QTest::newRow("head-split") << "head-split"
                                << "transpose|view";
}

void TestOptions::allSpellings()
{
    QFETCH(QString, option);
    QFETCH(QString, expected);
    const bool known = visitEnum(option.toStdString(), [&]<typename E>() {
        QCOMPARE(qs(attn::allSpellings<E>()), expected);
    });
    QVERIFY2(known, qPrintable("no enum has the option " + option));
}

void TestOptions::defaults()
{
    // The textbook formula: softmax(QKᵀ/√d_k) over the keys, mask before the softmax.
    const Config config;
    QCOMPARE(attn::validate(config), std::string());
    QCOMPARE(config.dK(), config.dModel / config.heads);
    QVERIFY(config.scale == ScaleMode::SqrtDk);
    QVERIFY(config.axis == SoftmaxAxis::Keys);
    QVERIFY(config.maskStage == MaskStage::BeforeSoftmax);
    QVERIFY(config.headSplit == HeadSplit::Transpose);
    QCOMPARE(config.temperature, 1.0f);
    // The first row of each table is the default of its switch.
    QVERIFY(EnumTable<TokenizerMode>::rows[0].value == config.tokenizer);
    QVERIFY(EnumTable<EmbeddingMode>::rows[0].value == config.embedding);
    QVERIFY(EnumTable<Positional>::rows[0].value == config.positional);
    QVERIFY(EnumTable<ScaleMode>::rows[0].value == config.scale);
    QVERIFY(EnumTable<SoftmaxAxis>::rows[0].value == config.axis);
    QVERIFY(EnumTable<MaskKind>::rows[0].value == config.mask);
    QVERIFY(EnumTable<MaskFill>::rows[0].value == config.maskFill);
    QVERIFY(EnumTable<MaskStage>::rows[0].value == config.maskStage);
    QVERIFY(EnumTable<HeadSplit>::rows[0].value == config.headSplit);
}

void TestOptions::validate_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<float>("temperature");
    QTest::addColumn<QString>("problem"); // empty: valid

    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const QString temperatureRange = "temperature must be between 1e-06 and 1e+06";
    const QString temperaturePositive = "temperature must be a positive number";

    QTest::newRow("defaults") << 64 << 4 << 1.0f << "";
    QTest::newRow("d_model=0") << 0 << 1 << 1.0f << "d_model must be between 1 and 4096, not 0";
    QTest::newRow("d_model=-1") << -1 << 1 << 1.0f << "d_model must be between 1 and 4096, not -1";
    QTest::newRow("d_model=1") << 1 << 1 << 1.0f << "";
    QTest::newRow("d_model=4096") << 4096 << 1 << 1.0f << "";
    QTest::newRow("d_model=4096 heads=4096") << 4096 << 4096 << 1.0f << "";
    QTest::newRow("d_model=4097") << 4097 << 1 << 1.0f
                                  << "d_model must be between 1 and 4096, not 4097";
    QTest::newRow("heads=0") << 64 << 0 << 1.0f
                             << "heads must be between 1 and d_model (64), not 0";
    QTest::newRow("heads=-2") << 64 << -2 << 1.0f
                              << "heads must be between 1 and d_model (64), not -2";
    QTest::newRow("heads=32 > d_model=16")
        << 16 << 32 << 1.0f << "heads must be between 1 and d_model (16), not 32";
    QTest::newRow("heads=3 of d_model=16")
        << 16 << 3 << 1.0f << "heads (3) must divide d_model (16)";
    QTest::newRow("heads=5 of d_model=64")
        << 64 << 5 << 1.0f << "heads (5) must divide d_model (64)";
    QTest::newRow("heads=16 of d_model=16") << 16 << 16 << 1.0f << "";
    QTest::newRow("temperature=0") << 64 << 4 << 0.0f << temperaturePositive;
    QTest::newRow("temperature=-0") << 64 << 4 << -0.0f << temperaturePositive;
    QTest::newRow("temperature=-1") << 64 << 4 << -1.0f << temperaturePositive;
    QTest::newRow("temperature=nan") << 64 << 4 << nan << temperaturePositive;
    QTest::newRow("temperature=inf") << 64 << 4 << inf << temperaturePositive;
    QTest::newRow("temperature=-inf") << 64 << 4 << -inf << temperaturePositive;
    QTest::newRow("temperature=1e-6") << 64 << 4 << 1e-6f << "";
    QTest::newRow("temperature=1e6") << 64 << 4 << 1e6f << "";
    QTest::newRow("temperature=0.05") << 64 << 4 << 0.05f << "";
    QTest::newRow("temperature=1e-7") << 64 << 4 << 1e-7f << temperatureRange;
    QTest::newRow("temperature=2e6") << 64 << 4 << 2e6f << temperatureRange;
    QTest::newRow("temperature=denormal")
        << 64 << 4 << std::numeric_limits<float>::denorm_min() << temperatureRange;
    // The first problem is reported: d_model before heads before τ.
    QTest::newRow("d_model=0 and temperature=0")
        << 0 << 4 << 0.0f << "d_model must be between 1 and 4096, not 0";
    QTest::newRow("heads=3 and temperature=0")
        << 16 << 3 << 0.0f << "heads (3) must divide d_model (16)";
}

void TestOptions::validate()
{
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(float, temperature);
    QFETCH(QString, problem);
    Config config;
    config.dModel = dModel;
    config.heads = heads;
    config.temperature = temperature;
    QCOMPARE(QString::fromStdString(attn::validate(config)), problem);
}

void TestOptions::todaysRefusals_data()
{
    // Today's models' switches, each with a value checkConfig refuses and the Refusal the
    // window words in its own language; "" and Other: accepted.
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<int>("refusal");
    QTest::addColumn<QString>("problem");
    const auto kind = [](Refusal r) { return static_cast<int>(r); };
    QTest::newRow("kv-heads 2 of 4") << "kvHeads"
                                     << "2" << kind(Refusal::Other) << "";
    QTest::newRow("kv-heads 1 (multi-query)") << "kvHeads"
                                              << "1" << kind(Refusal::Other) << "";
    QTest::newRow("kv-heads 3 of 4")
        << "kvHeads"
        << "3" << kind(Refusal::KvHeadsDivide) << "the K/V heads (3) must divide the heads (4)";
    QTest::newRow("kv-heads 8 of 4")
        << "kvHeads"
        << "8" << kind(Refusal::KvHeadsDivide) << "the K/V heads (8) must divide the heads (4)";
    QTest::newRow("rope, d_k 16") << "rope"
                                  << "64" << kind(Refusal::Other) << "";
    QTest::newRow("rope, d_k 15") << "rope"
                                  << "60" << kind(Refusal::RopeOddDk)
                                  << "RoPE rotates pairs of features: d_k (15) must be even";
    QTest::newRow("rope-theta 0") << "ropeTheta"
                                  << "0" << kind(Refusal::RopeTheta)
                                  << "the RoPE base θ must be a positive number";
    QTest::newRow("softcap -1") << "softcap"
                                << "-1" << kind(Refusal::Softcap)
                                << "the soft-capping c must be a positive number";
    QTest::newRow("softcap inf") << "softcap"
                                 << "inf" << kind(Refusal::Softcap)
                                 << "the soft-capping c must be a positive number";
    QTest::newRow("window -3") << "window"
                               << "-3" << kind(Refusal::Window)
                               << "the window must be between 1 and 4096 keys";
    QTest::newRow("sink nan") << "sink"
                              << "nan" << kind(Refusal::SinkValue)
                              << "the sink logit must be a finite number";
    QTest::newRow("sink 0, keys") << "sink"
                                  << "0" << kind(Refusal::Other) << "";
    QTest::newRow("sink 0, queries")
        << "sinkQueries"
        << "0" << kind(Refusal::SinkAxis)
        << "a sink is one more key in each row: it needs the softmax over the keys";
}

void TestOptions::todaysRefusals()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(int, refusal);
    QFETCH(QString, problem);
    Config config; // d_model 64, 4 heads
    const float number = value.toFloat();
    if (field == "kvHeads")
        config.kvHeads = value.toInt();
    else if (field == "rope") {
        config.positional = attn::Positional::Rope;
        config.dModel = value.toInt();
    } else if (field == "ropeTheta")
        config.ropeTheta = number;
    else if (field == "softcap")
        config.softcap = value == "inf" ? std::numeric_limits<float>::infinity() : number;
    else if (field == "window")
        config.window = value.toInt();
    else if (field == "sink")
        config.sink = value == "nan" ? std::numeric_limits<float>::quiet_NaN() : number;
    else if (field == "sinkQueries") {
        config.sink = number;
        config.axis = attn::SoftmaxAxis::Queries;
    }
    const std::optional<attn::InputError> error = attn::checkConfig(config);
    QCOMPARE(QString::fromStdString(error ? error->what() : ""), problem);
    QCOMPARE(static_cast<int>(error ? error->refusal() : Refusal::Other), refusal);
}

void TestOptions::scaleFactor_data()
{
    QTest::addColumn<QString>("scale");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<double>("expected");

    QTest::newRow("sqrt-dk C=64 H=4") << "sqrt-dk" << 64 << 4 << 0.25;
    QTest::newRow("sqrt-dk C=16 H=1") << "sqrt-dk" << 16 << 1 << 0.25;
    QTest::newRow("sqrt-dk C=12 H=4") << "sqrt-dk" << 12 << 4 << 1.0 / std::sqrt(3.0);
    QTest::newRow("sqrt-dk C=512 H=8") << "sqrt-dk" << 512 << 8 << 0.125;
    QTest::newRow("sqrt-dk C=1 H=1") << "sqrt-dk" << 1 << 1 << 1.0;
    QTest::newRow("none C=64 H=4") << "none" << 64 << 4 << 1.0;
    QTest::newRow("none C=4096 H=1") << "none" << 4096 << 1 << 1.0;
    QTest::newRow("sqrt-dmodel C=64 H=4") << "sqrt-dmodel" << 64 << 4 << 0.125;
    QTest::newRow("sqrt-dmodel C=512 H=8") << "sqrt-dmodel" << 512 << 8 << 1.0 / std::sqrt(512.0);
    QTest::newRow("sqrt-dmodel C=16 H=1") << "sqrt-dmodel" << 16 << 1 << 0.25;
}

void TestOptions::scaleFactor()
{
    QFETCH(QString, scale);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(double, expected);
    Config config;
    const std::optional<ScaleMode> mode = fromString<ScaleMode>(scale.toStdString());
    QVERIFY(mode.has_value());
    config.scale = *mode;
    config.dModel = dModel;
    config.heads = heads;
    QCOMPARE(attn::validate(config), std::string());
    const double actual = attn::scaleFactor(config);
    QVERIFY2(std::abs(actual - expected) <= 1e-15 * expected,
             closeMessage("scaleFactor", actual, expected));
}

QTEST_GUILESS_MAIN(TestOptions)
#include "tst_options.moc"
