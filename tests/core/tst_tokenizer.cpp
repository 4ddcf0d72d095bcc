// Tokenizer: ICU word, white-space and grapheme segmentation; UTF-8 checks; batches.
#include "engine/tokenizer.h"

#include <QStringList>
#include <QTest>

#include <string>

using attn::TokenizerMode;

Q_DECLARE_METATYPE(attn::TokenizerMode)

namespace {

// The bytes of a literal, embedded NULs included.
template <std::size_t N> QByteArray bytes(const char (&literal)[N])
{
    return QByteArray(literal, static_cast<qsizetype>(N - 1));
}

std::string_view view(const QByteArray& text)
{
    return {text.constData(), static_cast<std::size_t>(text.size())};
}

QStringList toStringList(const std::vector<std::string>& tokens)
{
    QStringList out;
    for (const auto& token : tokens)
        out << QString::fromUtf8(token.data(), static_cast<qsizetype>(token.size()));
    return out;
}

QString pad()
{
    return QString::fromUtf8(attn::kPadToken.data(),
                             static_cast<qsizetype>(attn::kPadToken.size()));
}

// A text of `lines` lines of `tokens` tokens each ("w w w…").
QByteArray repeatedText(int lines, int tokens)
{
    QByteArray line;
    for (int t = 0; t < tokens; ++t)
        line += t == 0 ? "w" : " w";
    QByteArray text;
    for (int b = 0; b < lines; ++b)
        text += line + '\n';
    return text;
}

const TokenizerMode kModes[] = {TokenizerMode::Auto, TokenizerMode::Spaces, TokenizerMode::Chars};

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT

private slots:
    void tokenizeLine_data();
    void tokenizeLine();
    void validUtf8Edges_data();
    void validUtf8Edges();
    void invalidUtf8_data();
    void invalidUtf8();
    void tokenize_data();
    void tokenize();
    void errors_data();
    void errors();
    void limitsAccepted_data();
    void limitsAccepted();
};

void TestTokenizer::tokenizeLine_data()
{
    QTest::addColumn<TokenizerMode>("mode");
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QStringList>("expected");

    const auto Auto = TokenizerMode::Auto;
    const auto Spaces = TokenizerMode::Spaces;
    const auto Chars = TokenizerMode::Chars;

    // auto: ICU words, punctuation kept, white space dropped
    QTest::newRow("auto: English words and punctuation")
        << Auto << bytes("Hello, world!") << QStringList{"Hello", ",", "world", "!"};
    QTest::newRow("auto: Chinese without spaces")
        << Auto << bytes("我喜欢这个产品的设计")
        << QStringList{"我", "喜欢", "这个", "产品", "的", "设计"};
    QTest::newRow("auto: Chinese with an English word")
        << Auto << bytes("注意力机制是Transformer的核心")
        << QStringList{"注意力", "机制", "是", "Transformer", "的", "核心"};
    QTest::newRow("auto: Chinese with spaces")
        << Auto << bytes("我 有 一个 玩") << QStringList{"我", "有", "一个", "玩"};
    QTest::newRow("auto: Chinese, English and digits")
        << Auto << bytes("我有3个苹果 and 2 pears")
        << QStringList{"我有", "3", "个", "苹果", "and", "2", "pears"};
    QTest::newRow("auto: Japanese")
        << Auto << bytes("今日は良い天気ですね。")
        << QStringList{"今日", "は", "良い", "天気", "です", "ね", "。"};
    // CTest runs with LC_ALL=C.UTF-8, where ICU's default locale is en_US_POSIX and
    // its word rules would give e | . | g | . — this row fails if the root locale is lost.
    QTest::newRow("auto: numbers and abbreviations by the root locale's rules")
        << Auto << bytes("3.14 e.g. don't") << QStringList{"3.14", "e.g", ".", "don't"};
    QTest::newRow("auto: emoji, ZWJ family and variation selector")
        << Auto << bytes("I ❤️ 👩‍👩‍👧!")
        << QStringList{"I", "❤️", "👩‍👩‍👧", "!"};
    QTest::newRow("auto: two flags") << Auto << bytes("🇯🇵🇫🇷") << QStringList{"🇯🇵", "🇫🇷"};
    QTest::newRow("auto: combining acute stays in its word")
        << Auto << bytes("cafe\u0301 ok") << QStringList{"cafe\u0301", "ok"};
    QTest::newRow("auto: tab and ideographic space")
        << Auto << bytes("a\tb\u3000c 我\u3000爱") << QStringList{"a", "b", "c", "我", "爱"};
    QTest::newRow("auto: NUL byte separates") << Auto << bytes("ab\0cd") << QStringList{"ab", "cd"};
    QTest::newRow("auto: terminal escape")
        << Auto << bytes("\x1b[31mred") << QStringList{"[", "31mred"};
    QTest::newRow("auto: byte order mark")
        << Auto << bytes("\uFEFFhello world") << QStringList{"hello", "world"};
    QTest::newRow("auto: lone zero width space")
        << Auto << bytes("a \u200B b") << QStringList{"a", "b"};
    QTest::newRow("auto: empty line") << Auto << bytes("") << QStringList{};
    QTest::newRow("auto: only white space") << Auto << bytes(" \t\u3000\u00A0 ") << QStringList{};

    // spaces: white space alone splits
    QTest::newRow("spaces: markup and formulas stay whole")
        << Spaces << bytes("<b>bold</b> =SUM(A1)") << QStringList{"<b>bold</b>", "=SUM(A1)"};
    QTest::newRow("spaces: punctuation stays on its word")
        << Spaces << bytes("Hello, world!") << QStringList{"Hello,", "world!"};
    QTest::newRow("spaces: Chinese with spaces")
        << Spaces << bytes("我 有 一个 玩") << QStringList{"我", "有", "一个", "玩"};
    QTest::newRow("spaces: Chinese without spaces is one token")
        << Spaces << bytes("我喜欢这个产品的设计") << QStringList{"我喜欢这个产品的设计"};
    QTest::newRow("spaces: tab, ideographic and no-break space")
        << Spaces << bytes("a\tb\u3000c\u00A0d") << QStringList{"a", "b", "c", "d"};
    QTest::newRow("spaces: leading, trailing and repeated spaces")
        << Spaces << bytes("  one   two  ") << QStringList{"one", "two"};
    QTest::newRow("spaces: NUL byte separates")
        << Spaces << bytes("ab\0cd") << QStringList{"ab", "cd"};
    QTest::newRow("spaces: DEL and C1 controls separate") << Spaces
                                                          << bytes("a\x7f"
                                                                   "b\u0085c")
                                                          << QStringList{"a", "b", "c"};
    QTest::newRow("spaces: ZWJ family stays whole")
        << Spaces << bytes("👩‍👩‍👧 ok") << QStringList{"👩‍👩‍👧", "ok"};

    // chars: grapheme clusters
    QTest::newRow("chars: letters")
        << Chars << bytes("héllo") << QStringList{"h", "é", "l", "l", "o"};
    QTest::newRow("chars: e + combining acute is one cluster")
        << Chars << bytes("e\u0301!") << QStringList{"e\u0301", "!"};
    QTest::newRow("chars: ZWJ family is one cluster")
        << Chars << bytes("👩‍👩‍👧a") << QStringList{"👩‍👩‍👧", "a"};
    QTest::newRow("chars: flag is one cluster") << Chars << bytes("🇯🇵x") << QStringList{"🇯🇵", "x"};
    QTest::newRow("chars: Hangul jamo make one syllable")
        << Chars << bytes("\u1100\u1161\u11A8") << QStringList{"\u1100\u1161\u11A8"};
    QTest::newRow("chars: Chinese, white space dropped")
        << Chars << bytes("我 爱\t你\u3000们") << QStringList{"我", "爱", "你", "们"};
    QTest::newRow("chars: combining mark after a space loses the space")
        << Chars << bytes("a \u0301") << QStringList{"a", "\u0301"};
    QTest::newRow("chars: NUL byte dropped") << Chars << bytes("a\0b") << QStringList{"a", "b"};
}

void TestTokenizer::tokenizeLine()
{
    QFETCH(TokenizerMode, mode);
    QFETCH(QByteArray, line);
    QFETCH(QStringList, expected);

    QCOMPARE(toStringList(attn::tokenizeLine(view(line), mode)), expected);
}

void TestTokenizer::validUtf8Edges_data()
{
    QTest::addColumn<QByteArray>("text");

    QTest::newRow("U+007F, the last one-byte code point") << bytes("\x7f"
                                                                   "a");
    QTest::newRow("U+0080, the first two-byte code point") << bytes("\xC2\x80");
    QTest::newRow("U+07FF") << bytes("\xDF\xBF");
    QTest::newRow("U+0800, the first three-byte code point") << bytes("\xE0\xA0\x80");
    QTest::newRow("U+D7FF, just below the surrogates") << bytes("\xED\x9F\xBF");
    QTest::newRow("U+E000, just above the surrogates") << bytes("\xEE\x80\x80");
    QTest::newRow("U+FFFF") << bytes("\xEF\xBF\xBF");
    QTest::newRow("U+10000, the first four-byte code point") << bytes("\xF0\x90\x80\x80");
    QTest::newRow("U+10FFFF, the last code point") << bytes("\xF4\x8F\xBF\xBF");
}

void TestTokenizer::validUtf8Edges()
{
    QFETCH(QByteArray, text);

    for (const TokenizerMode mode : kModes)
        (void)attn::tokenizeLine(view(text), mode); // must not throw
}

void TestTokenizer::invalidUtf8_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("offset");

    QTest::newRow("stray continuation byte") << bytes("abc\x80") << 3;
    QTest::newRow("continuation byte after a two-byte character") << bytes("h\xC3\xA9llo\x80") << 6;
    QTest::newRow("lone lead byte at the end") << bytes("ab\xC3") << 2;
    QTest::newRow("two-byte sequence cut by ASCII") << bytes("ab\xC3"
                                                             "a")
                                                    << 2;
    QTest::newRow("three-byte sequence cut short") << bytes("ab\xE4\xB8"
                                                            "c")
                                                   << 2;
    QTest::newRow("four-byte sequence cut at the end") << bytes("x\xF0\x9F\x98") << 1;
    QTest::newRow("overlong two-byte slash C0 AF") << bytes("a\xC0\xAF") << 1;
    QTest::newRow("overlong two-byte C1 BF") << bytes("a\xC1\xBF") << 1;
    QTest::newRow("overlong three-byte E0 80 AF") << bytes("ab\xE0\x80\xAF") << 2;
    QTest::newRow("overlong four-byte F0 80 80 AF") << bytes("\xF0\x80\x80\xAF") << 0;
    QTest::newRow("overlong NUL C0 80") << bytes("a b\xC0\x80") << 3;
    QTest::newRow("high surrogate ED A0 80") << bytes("ok \xED\xA0\x80") << 3;
    QTest::newRow("low surrogate ED BF BF") << bytes("\xED\xBF\xBF") << 0;
    QTest::newRow("above U+10FFFF F4 90 80 80") << bytes("z\xF4\x90\x80\x80") << 1;
    QTest::newRow("byte F5") << bytes("ab\xF5\x80\x80\x80") << 2;
    QTest::newRow("byte F8") << bytes("ab\xF8\x88\x80\x80\x80") << 2;
    QTest::newRow("byte FE") << bytes("\xFE") << 0;
    QTest::newRow("byte FF") << bytes("abcdefg\xFF") << 7;
    QTest::newRow("second line: offset in the whole text") << bytes("h\xC3\xA9llo\nwor\xFF") << 10;
    QTest::newRow("after CRLF and a blank line") << bytes("a\r\n\r\n\x80") << 5;
}

void TestTokenizer::invalidUtf8()
{
    QFETCH(QByteArray, text);
    QFETCH(int, offset);

    const QString expected = QStringLiteral("invalid UTF-8 at byte %1").arg(offset);
    for (const TokenizerMode mode : kModes) {
        try {
            (void)attn::tokenize(view(text), mode);
            QFAIL("tokenize() accepted invalid UTF-8");
        } catch (const attn::InputError& error) {
            QCOMPARE(QString::fromUtf8(error.what()), expected);
        }
        if (text.contains('\n'))
            continue; // tokenizeLine() counts from the start of its line
        try {
            (void)attn::tokenizeLine(view(text), mode);
            QFAIL("tokenizeLine() accepted invalid UTF-8");
        } catch (const attn::InputError& error) {
            QCOMPARE(QString::fromUtf8(error.what()), expected);
        }
    }
}

void TestTokenizer::tokenize_data()
{
    QTest::addColumn<TokenizerMode>("mode");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QList<QStringList>>("expected"); // B × T, padded
    QTest::addColumn<QList<int>>("lengths");

    const QString P = pad();

    QTest::newRow("one line, no newline")
        << TokenizerMode::Spaces << bytes("a b") << QList<QStringList>{{"a", "b"}} << QList<int>{2};
    QTest::newRow("three lines of different lengths are padded")
        << TokenizerMode::Spaces << bytes("a b c\nd\ne f")
        << QList<QStringList>{{"a", "b", "c"}, {"d", P, P}, {"e", "f", P}} << QList<int>{3, 1, 2};
    QTest::newRow("CRLF line endings")
        << TokenizerMode::Spaces << bytes("a b\r\nc\r\n")
        << QList<QStringList>{{"a", "b"}, {"c", P}} << QList<int>{2, 1};
    QTest::newRow("blank and white-space-only lines are skipped")
        << TokenizerMode::Auto << bytes("\n  \na\n\t\u3000\r\nb c\n\n")
        << QList<QStringList>{{"a", P}, {"b", "c"}} << QList<int>{1, 2};
    QTest::newRow("a line of control characters is blank")
        << TokenizerMode::Spaces << bytes("a\n\0\x01\x7f\nb") << QList<QStringList>{{"a"}, {"b"}}
        << QList<int>{1, 1};
    QTest::newRow("a typed <pad> is a real token, counted in lengths")
        << TokenizerMode::Spaces << bytes("<pad> x\ny")
        << QList<QStringList>{{"<pad>", "x"}, {"y", P}} << QList<int>{2, 1};
    QTest::newRow("two Chinese sentences")
        << TokenizerMode::Auto << bytes("我喜欢这个产品的设计\n注意力机制是Transformer的核心")
        << QList<QStringList>{{"我", "喜欢", "这个", "产品", "的", "设计"},
                              {"注意力", "机制", "是", "Transformer", "的", "核心"}}
        << QList<int>{6, 6};
    QTest::newRow("characters of two lines")
        << TokenizerMode::Chars << bytes("ab\ne\u0301")
        << QList<QStringList>{{"a", "b"}, {"e\u0301", P}} << QList<int>{2, 1};
}

void TestTokenizer::tokenize()
{
    QFETCH(TokenizerMode, mode);
    QFETCH(QByteArray, text);
    QFETCH(QList<QStringList>, expected);
    QFETCH(QList<int>, lengths);

    const attn::TokenBatch batch = attn::tokenize(view(text), mode);

    QList<QStringList> tokens;
    for (const auto& sequence : batch.tokens)
        tokens << toStringList(sequence);
    QCOMPARE(tokens, expected);
    QCOMPARE(QList<int>(batch.lengths.begin(), batch.lengths.end()), lengths);
    QCOMPARE(batch.batch(), int(expected.size()));
    QCOMPARE(batch.length(), int(expected.front().size()));
    for (int b = 0; b < batch.batch(); ++b)
        for (int t = 0; t < batch.length(); ++t)
            QCOMPARE(batch.isPad(b, t), t >= lengths[b]);
}

void TestTokenizer::errors_data()
{
    QTest::addColumn<TokenizerMode>("mode");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("mentions"); // every one must be in the message

    QTest::newRow("empty text") << TokenizerMode::Auto << bytes("") << QStringList{"empty"};
    QTest::newRow("only white space and line breaks")
        << TokenizerMode::Auto << bytes(" \n\t\r\n\u3000\n") << QStringList{"empty"};
    QTest::newRow("only control characters")
        << TokenizerMode::Spaces << bytes("\0\x01\n\x1b") << QStringList{"empty"};
    QTest::newRow("only invisible characters")
        << TokenizerMode::Chars << bytes("\u200B\uFEFF") << QStringList{"empty"};
    QTest::newRow("65 non-blank lines")
        << TokenizerMode::Spaces << repeatedText(attn::kMaxSequences + 1, 1)
        << QStringList{"64", "lines"};
    QTest::newRow("4097 tokens on line 2")
        << TokenizerMode::Spaces << "a\n" + repeatedText(1, attn::kMaxTokens + 1)
        << QStringList{"line 2", "4097", "4096"};
    QTest::newRow("4097 tokens on line 3 after a blank line, auto mode")
        << TokenizerMode::Auto << "a\n\n" + repeatedText(1, attn::kMaxTokens + 1)
        << QStringList{"line 3", "4096"};
}

void TestTokenizer::errors()
{
    QFETCH(TokenizerMode, mode);
    QFETCH(QByteArray, text);
    QFETCH(QStringList, mentions);

    try {
        (void)attn::tokenize(view(text), mode);
        QFAIL("tokenize() accepted the text");
    } catch (const attn::InputError& error) {
        const QString message = QString::fromUtf8(error.what());
        QVERIFY2(!message.contains(QLatin1Char('\n')), qPrintable(message));
        for (const QString& mention : mentions)
            QVERIFY2(message.contains(mention), qPrintable(message));
    }
}

void TestTokenizer::limitsAccepted_data()
{
    QTest::addColumn<TokenizerMode>("mode");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("sequences");
    QTest::addColumn<int>("tokens");

    QTest::newRow("64 lines") << TokenizerMode::Spaces << repeatedText(attn::kMaxSequences, 2)
                              << attn::kMaxSequences << 2;
    QTest::newRow("64 lines among blank ones")
        << TokenizerMode::Spaces << repeatedText(attn::kMaxSequences, 1).replace("\n", "\n\n \n")
        << attn::kMaxSequences << 1;
    QTest::newRow("4096 tokens, spaces mode")
        << TokenizerMode::Spaces << repeatedText(1, attn::kMaxTokens) << 1 << attn::kMaxTokens;
    QTest::newRow("4096 tokens, auto mode")
        << TokenizerMode::Auto << repeatedText(1, attn::kMaxTokens) << 1 << attn::kMaxTokens;
    QTest::newRow("4096 Chinese characters, chars mode")
        << TokenizerMode::Chars << QString(attn::kMaxTokens, QChar(0x6211)).toUtf8() << 1
        << attn::kMaxTokens;
}

void TestTokenizer::limitsAccepted()
{
    QFETCH(TokenizerMode, mode);
    QFETCH(QByteArray, text);
    QFETCH(int, sequences);
    QFETCH(int, tokens);

    const attn::TokenBatch batch = attn::tokenize(view(text), mode);
    QCOMPARE(batch.batch(), sequences);
    QCOMPARE(batch.length(), tokens);
}

QTEST_GUILESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
