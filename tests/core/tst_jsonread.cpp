// The strict JSON reader: what RFC 8259 allows reads back, everything else is refused.
#include "base/jsonread.h"

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

// Each fault says where, as an editor counts (lines and byte columns from 1), and what.
void TestJsonRead::refuses_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("what");
    QTest::newRow("empty") << QByteArray("")
                           << "line 1, column 1: the text ends early (not a JSON value)";
    QTest::newRow("trailing comma")
        << QByteArray("[1, 2,]") << "line 1, column 7: not a JSON value";
    QTest::newRow("trailing text")
        << QByteArray("{} x") << "line 1, column 4: text after the JSON value";
    QTest::newRow("duplicate key")
        << QByteArray(R"({"a": 1, "a": 2})") << "line 1, column 10: duplicate key \"a\"";
    QTest::newRow("single quotes") << QByteArray("['a']") << "line 1, column 2: not a JSON value";
    QTest::newRow("leading zero") << QByteArray("[01]") << "line 1, column 3: expected ',' or ']'";
    QTest::newRow("bare dot") << QByteArray("[1.]")
                              << "line 1, column 4: a number needs digits after '.'";
    QTest::newRow("plus sign") << QByteArray("[+1]") << "line 1, column 2: not a JSON value";
    QTest::newRow("NaN") << QByteArray("[NaN]") << "line 1, column 2: not a JSON value";
    QTest::newRow("control character")
        << QByteArray("[\"a\tb\"]") << "line 1, column 4: a control character in a string";
    QTest::newRow("lone high surrogate")
        << QByteArray(R"(["\ud83d"])")
        << "line 1, column 3: a high surrogate without its low surrogate";
    QTest::newRow("lone low surrogate")
        << QByteArray(R"(["\ude00"])") << "line 1, column 3: a lone low surrogate in a \\u escape";
    QTest::newRow("bad escape") << QByteArray(R"(["\x41"])")
                                << "line 1, column 3: an unknown escape";
    QTest::newRow("invalid UTF-8")
        << QByteArray("[\"\xC3\x28\"]") << "line 1, column 3: invalid UTF-8";
    QTest::newRow("overlong UTF-8")
        << QByteArray("[\"\xC0\xAF\"]") << "line 1, column 3: invalid UTF-8";
    QTest::newRow("UTF-8 surrogate")
        << QByteArray("[\"\xED\xA0\x80\"]") << "line 1, column 3: invalid UTF-8";
    QTest::newRow("unterminated") << QByteArray("{\"a\": \"b")
                                  << "line 1, column 9: the text ends early (unterminated string)";
    QTest::newRow("too deep") << QByteArray(66, '[') + QByteArray(66, ']')
                              << "line 1, column 66: nesting deeper than 64";
    QTest::newRow("comment") << QByteArray("[1 /* x */]")
                             << "line 1, column 4: expected ',' or ']'";
    QTest::newRow("fault on line 3")
        << QByteArray("[1,\n 2,\n x]") << "line 3, column 2: not a JSON value";
    QTest::newRow("column after CR LF")
        << QByteArray("{\r\n  \"a\" 1}") << "line 2, column 7: expected ':'";
}

void TestJsonRead::refuses()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, what);
    try {
        (void)parseJson(text.toStdString());
        QFAIL("not JSON, but accepted");
    } catch (const JsonParseError& error) {
        QCOMPARE(QString::fromUtf8(error.what()), what);
        QCOMPARE(QString::fromStdString("line " + std::to_string(error.line()) + ", column " +
                                        std::to_string(error.column()) + ": " + error.fault()),
                 what);
        QVERIFY(error.offset() <= std::size_t(text.size()));
    }
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
