// The one table of a Request's fields (requestfields.h): it has a row for every field,
// and each row prints a value that it parses back to the same value.
#include "formats/report.h"
#include "formats/requestfields.h"

#include <QTest>

#include <set>

using namespace attn;

namespace {

// The number of members of the aggregate T: the most initializers T{…} accepts.
struct AnyMember {
    template <typename T> operator T() const; // never called: only in requires
};
template <typename T, typename... Members> constexpr std::size_t memberCount()
{
    if constexpr (requires { T{Members{}..., AnyMember{}}; })
        return memberCount<T, Members..., AnyMember>();
    else
        return sizeof...(Members);
}

// Every field away from its default (the embedding overrides are not in the table).
Request everyFieldChanged()
{
    Request r;
    r.text = "the cat sat\nthe dog sat on the mat";
    r.crossText = "le chat a dormi";
    Config& c = r.config;
    c.tokenizer = TokenizerMode::Chars;
    c.dModel = 24;
    c.heads = 3;
    c.seed = 18446744073709551615ULL; // 2^64 − 1: exact only as digits
    c.embedding = EmbeddingMode::Torch;
    c.positional = Positional::None;
    c.scale = ScaleMode::SqrtDModel;
    c.temperature = 0.7f; // not a binary fraction: the printed decimal must read back exactly
    c.axis = SoftmaxAxis::Batch;
    c.mask = MaskKind::Causal;
    c.maskFill = MaskFill::NegBillion;
    c.maskStage = MaskStage::AfterSoftmax;
    c.headSplit = HeadSplit::View;
    c.paddingMask = false;
    c.attention = AttentionKind::Cross;
    c.kvHeads = 1;
    c.qkNorm = true;
    c.ropeTheta = 500000.0f;
    c.alibi = true;
    c.softcap = 30.5f;
    c.window = 4;
    c.sink = -0.5f;
    return r;
}

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

class TestRequestFields : public QObject {
    Q_OBJECT

private slots:
    void everyMemberHasARow();
    void namesAreUnique();
    void printsAndParsesBack_data();
    void printsAndParsesBack();
    void wholeRequestRoundTrips();
    void membersMatchTheirKind();
    void refusals_data();
    void refusals();
    void textReportWalksTheTable_data();
    void textReportWalksTheTable();
};

void TestRequestFields::everyMemberHasARow()
{
    // A member added to Config (or Request) without a row fails here: the table is the one
    // place the command line, the JSON, sessions and settings learn of it.
    std::size_t configRows = 0, otherRows = 0;
    for (const RequestField& field : requestFields())
        ++(field.inConfig ? configRows : otherRows);
    QCOMPARE(configRows, memberCount<Config>());
    // text, crossText, config, embeddingOverrides: the last two are not rows.
    QCOMPARE(otherRows + 2, memberCount<Request>());
}

void TestRequestFields::namesAreUnique()
{
    std::set<std::string> names;
    for (const RequestField& field : requestFields()) {
        QVERIFY2(names.insert(field.name).second, field.name.c_str());
        QVERIFY(field.print && field.parse);
        QCOMPARE(findRequestField(field.name), &field);
    }
    QCOMPARE(findRequestField("json"), nullptr);
}

void TestRequestFields::printsAndParsesBack_data()
{
    QTest::addColumn<QString>("name");
    for (const RequestField& field : requestFields())
        QTest::newRow(field.name.c_str()) << qs(field.name);
}

void TestRequestFields::printsAndParsesBack()
{
    QFETCH(QString, name);
    const RequestField& field = *findRequestField(name.toStdString());
    const Request changed = everyFieldChanged();
    const Request defaults;
    const std::string value = field.print(changed);
    QVERIFY2(value != field.print(defaults), "the test's request must change this field");

    // Parsing the changed value into the defaults changes this field and no other.
    Request parsed;
    field.parse(parsed, value);
    QCOMPARE(qs(field.print(parsed)), qs(value));
    for (const RequestField& other : requestFields())
        if (&other != &field)
            QVERIFY2(other.print(parsed) == other.print(defaults), other.name.c_str());
    QVERIFY(parsed != defaults);
}

void TestRequestFields::wholeRequestRoundTrips()
{
    const Request changed = everyFieldChanged();
    Request parsed;
    for (const RequestField& field : requestFields())
        field.parse(parsed, field.print(changed));
    QVERIFY(parsed == changed); // overrides empty in both
}

void TestRequestFields::membersMatchTheirKind()
{
    // The formats that store numbers and flags reach them through `member`: it must be
    // the member the row prints, of the kind's type.
    const Request r = everyFieldChanged();
    for (const RequestField& field : requestFields()) {
        const std::string value = field.print(r);
        // Today's models' values with no neutral number are text: a number or "off".
        if (std::holds_alternative<std::monostate>(field.member) && field.addedLater) {
            QVERIFY2(field.valueName.ends_with("|off"), field.name.c_str());
            continue;
        }
        switch (field.kind) {
        case FieldKind::Integer:
            QVERIFY2(std::holds_alternative<int Config::*>(field.member), field.name.c_str());
            QCOMPARE(qs(std::to_string(r.config.*std::get<int Config::*>(field.member))),
                     qs(value));
            break;
        case FieldKind::Seed:
            QVERIFY2(std::holds_alternative<std::uint64_t Config::*>(field.member),
                     field.name.c_str());
            QCOMPARE(qs(std::to_string(r.config.*std::get<std::uint64_t Config::*>(field.member))),
                     qs(value));
            break;
        case FieldKind::Real:
            QVERIFY2(std::holds_alternative<float Config::*>(field.member), field.name.c_str());
            QCOMPARE(r.config.*std::get<float Config::*>(field.member), std::stof(value));
            break;
        case FieldKind::Switch:
            QVERIFY2(std::holds_alternative<bool Config::*>(field.member), field.name.c_str());
            QCOMPARE(r.config.*std::get<bool Config::*>(field.member), value == "on");
            break;
        case FieldKind::Text:
        case FieldKind::Choice:
            QVERIFY2(std::holds_alternative<std::monostate>(field.member), field.name.c_str());
            break;
        }
    }
}

void TestRequestFields::refusals_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("d-model 0") << "d-model"
                               << "0"
                               << "--d-model must be between 1 and 4096, not 0";
    QTest::newRow("heads not a number") << "heads"
                                        << "two"
                                        << "--heads must be a whole number";
    QTest::newRow("seed below 0") << "seed"
                                  << "-1"
                                  << "--seed must be a whole number from 0";
    QTest::newRow("temperature 0") << "temperature"
                                   << "0"
                                   << "--temperature must be greater than 0, not 0";
    QTest::newRow("temperature nan") << "temperature"
                                     << "nan"
                                     << "--temperature must be a number";
    QTest::newRow("padding-mask yes") << "padding-mask"
                                      << "yes"
                                      << "--padding-mask must be on|off, not 'yes'";
    QTest::newRow("axis rows") << "axis"
                               << "rows"
                               << "--axis must be keys|queries|batch, not 'rows'";
    QTest::newRow("kv-heads -1") << "kv-heads"
                                 << "-1"
                                 << "--kv-heads must be between 0 and 4096, not -1";
    QTest::newRow("qk-norm yes") << "qk-norm"
                                 << "yes"
                                 << "--qk-norm must be on|off, not 'yes'";
    QTest::newRow("rope-theta 0") << "rope-theta"
                                  << "0"
                                  << "--rope-theta must be a positive number, not 0";
    QTest::newRow("softcap 0") << "softcap"
                               << "0"
                               << "--softcap must be a positive number or off, not 0";
    QTest::newRow("softcap -1") << "softcap"
                                << "-1"
                                << "--softcap must be a positive number or off, not -1";
    QTest::newRow("window 0") << "window"
                              << "0"
                              << "--window must be between 1 and 4096, not 0";
    QTest::newRow("sink inf") << "sink"
                              << "inf"
                              << "--sink must be a number, not 'inf'";
    QTest::newRow("sink nan") << "sink"
                              << "nan"
                              << "--sink must be a number, not 'nan'";
    QTest::newRow("attention both") << "attention"
                                    << "both"
                                    << "--attention must be self|cross, not 'both'";
}

void TestRequestFields::refusals()
{
    QFETCH(QString, name);
    QFETCH(QString, value);
    QFETCH(QString, message);
    Request r;
    try {
        findRequestField(name.toStdString())->parse(r, value.toStdString());
        QFAIL("accepted");
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).startsWith(message), error.what());
    }
    QVERIFY(r == Request{}); // a refused value changes nothing
}

void TestRequestFields::textReportWalksTheTable_data()
{
    QTest::addColumn<QString>("name");
    for (const RequestField& field : requestFields())
        if (field.inConfig)
            QTest::newRow(field.name.c_str()) << qs(field.name);
}

// The text report's config line names every switch of the table as the command line
// spells it, so that it cannot leave one out (it once left out the tokenizer).
void TestRequestFields::textReportWalksTheTable()
{
    QFETCH(QString, name);
    const RequestField& field = *findRequestField(name.toStdString());
    Request changed = everyFieldChanged();
    changed.config.attention = AttentionKind::Self; // a causal mask needs self-attention
    changed.config.axis = SoftmaxAxis::Keys;        // and a sink the softmax over the keys
    AttentionEngine engine;
    const std::string report = textReport(engine.compute(changed));
    const std::size_t start = report.find("\nconfig:");
    QVERIFY2(start != std::string::npos, report.c_str());
    const std::string line = report.substr(start + 1, report.find('\n', start + 1) - start - 1);
    const std::string expected = " " + field.name + "=" + field.print(changed);
    QVERIFY2(line.find(expected + " ") != std::string::npos || line.ends_with(expected),
             qPrintable(qs(expected + " not in: " + line)));
}

QTEST_GUILESS_MAIN(TestRequestFields)
#include "tst_requestfields.moc"
