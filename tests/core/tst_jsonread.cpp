// The strict JSON reader: what RFC 8259 allows reads back, everything else is refused.
#include "jsonread.h"

#include <QTest>

using namespace attn;

class TestJsonRead : public QObject {
    Q_OBJECT

private slots:
    void accepts_data();
    void accepts();
    void refuses_data();
    void refuses();
    void readsValues();
};

void TestJsonRead::accepts_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("object") << QByteArray(R"({"a": 1, "b": [true, false, null]})");
    QTest::newRow("padded with spaces") << QByteArray("{}        ");
    QTest::newRow("numbers") << QByteArray("[0, -0, 1.5, -2e10, 3E+2, 4e-3]");
    QTest::newRow("escapes") << QByteArray(R"(["\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"])");
    QTest::newRow("UTF-8") << QByteArray("[\"猫 Ġcat\"]");
    QTest::newRow("deep but allowed") << QByteArray(64, '[') + QByteArray(64, ']');
}

void TestJsonRead::accepts()
{
    QFETCH(QByteArray, text);
    (void)parseJson(text.toStdString());
}

void TestJsonRead::refuses_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("trailing comma") << QByteArray("[1, 2,]");
    QTest::newRow("trailing text") << QByteArray("{} x");
    QTest::newRow("duplicate key") << QByteArray(R"({"a": 1, "a": 2})");
    QTest::newRow("single quotes") << QByteArray("['a']");
    QTest::newRow("leading zero") << QByteArray("[01]");
    QTest::newRow("bare dot") << QByteArray("[1.]");
    QTest::newRow("plus sign") << QByteArray("[+1]");
    QTest::newRow("NaN") << QByteArray("[NaN]");
    QTest::newRow("control character") << QByteArray("[\"a\tb\"]");
    QTest::newRow("lone high surrogate") << QByteArray(R"(["\ud83d"])");
    QTest::newRow("lone low surrogate") << QByteArray(R"(["\ude00"])");
    QTest::newRow("bad escape") << QByteArray(R"(["\x41"])");
    QTest::newRow("invalid UTF-8") << QByteArray("[\"\xC3\x28\"]");
    QTest::newRow("overlong UTF-8") << QByteArray("[\"\xC0\xAF\"]");
    QTest::newRow("UTF-8 surrogate") << QByteArray("[\"\xED\xA0\x80\"]");
    QTest::newRow("unterminated") << QByteArray("{\"a\": \"b");
    QTest::newRow("too deep") << QByteArray(66, '[') + QByteArray(66, ']');
    QTest::newRow("comment") << QByteArray("[1 /* x */]");
}

void TestJsonRead::refuses()
{
    QFETCH(QByteArray, text);
    QVERIFY_THROWS_EXCEPTION(JsonParseError, (void)parseJson(text.toStdString()));
}

void TestJsonRead::readsValues()
{
    const JsonValue v =
        parseJson(R"({"n": 18446744073709551615, "f": 1.5, "neg": -1, "s": "\u00e9", "a": [1]})");
    QCOMPARE(v.find("n")->asUnsigned().value(), std::uint64_t(18446744073709551615ull));
    QVERIFY(!v.find("f")->asUnsigned());
    QVERIFY(!v.find("neg")->asUnsigned());
    QCOMPARE(v.find("s")->text(), std::string("\xC3\xA9"));
    QCOMPARE(v.find("a")->items().size(), std::size_t(1));
    QVERIFY(!v.find("missing"));
    QCOMPARE(v.members().front().first, std::string("n"));
    QVERIFY(!parseJson("[18446744073709551616]").items()[0].asUnsigned()); // 2^64
}

QTEST_GUILESS_MAIN(TestJsonRead)
#include "tst_jsonread.moc"
