// Gpt2Tokenizer: GPT-2's ids for 400 texts from an independent implementation (npm's
// gpt-3-encoder, tests/reference/gen_gpt2_ids.js), the pre-tokenizer's pieces, the labels
// of byte runs, and refusals of bad vocab.json and merges.txt files.
#include "engine/options.h"
#include "text/gpt2pretokenizer.h"
#include "text/gpt2tokenizer.h"
#include "tokenizerfiles.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>

#include <optional>
#include <string>
#include <thread>
#include <vector>

using attn::Gpt2Tokenizer;

using attn::test::readOrStop;
using attn::test::toList;
using attn::test::utf8;

namespace {

const QString kDataDir = QStringLiteral(ATTN_REFERENCE_DIR "/../data/gpt2");

// Compared as UTF-8 bytes: QString::fromUtf8 would drop a leading U+FEFF.
QByteArray bytesOf(std::string_view text)
{
    return {text.data(), static_cast<qsizetype>(text.size())};
}

QByteArrayList utf8List(const QStringList& texts)
{
    QByteArrayList out;
    for (const QString& text : texts)
        out << text.toUtf8();
    return out;
}

} // namespace

class TestGpt2Tokenizer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesGpt3Encoder_data();
    void matchesGpt3Encoder();
    void pieces_data();
    void pieces();
    void labels_data();
    void labels();
    void labelsOfBrokenBytes();
    void decodeReplacesInvalidUtf8();
    void unknownIdIsRefused();
    void invalidUtf8TextIsRefused();
    void cacheGivesTheSameIds();
    void encodeFromSeveralThreads();
    void vocabEscapes();
    void aRepeatedMergeTakesItsLastRank();
    void badFiles_data();
    void badFiles();

private:
    std::optional<Gpt2Tokenizer> tokenizer_;
};

void TestGpt2Tokenizer::initTestCase()
{
    tokenizer_.emplace(Gpt2Tokenizer::fromFolder(utf8(kDataDir)));
    QCOMPARE(tokenizer_->vocabularySize(), 50257);
    QCOMPARE(tokenizer_->token(50256), std::string("<|endoftext|>"));
    QCOMPARE(tokenizer_->id("\xC4\xA0the"), std::optional<int>(262)); // "Ġthe"
}

void TestGpt2Tokenizer::matchesGpt3Encoder_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    const QJsonObject root =
        QJsonDocument::fromJson(readOrStop(QStringLiteral(ATTN_REFERENCE_DIR "/gpt2_ids.json")))
            .object();
    const QJsonArray cases = root.value(QStringLiteral("cases")).toArray();
    QVERIFY2(cases.size() >= 300, "tests/reference/gpt2_ids.json has too few cases");
    for (const auto& value : cases) {
        const QJsonObject row = value.toObject();
        QList<int> ids;
        for (const auto& id : row.value(QStringLiteral("ids")).toArray())
            ids << id.toInt();
        QTest::newRow(qPrintable(row.value(QStringLiteral("name")).toString()))
            << row.value(QStringLiteral("text")).toString() << ids;
    }
}

// Every text's ids and tokens, and decode() gives the text back.
void TestGpt2Tokenizer::matchesGpt3Encoder()
{
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const std::string bytes = utf8(text);
    const attn::Gpt2Encoding encoding = tokenizer_->encode(bytes);
    QCOMPARE(toList(encoding.ids), ids);
    QCOMPARE(encoding.tokens.size(), encoding.ids.size());
    for (std::size_t t = 0; t < encoding.ids.size(); ++t)
        QCOMPARE(encoding.tokens[t], tokenizer_->token(encoding.ids[t]));
    QCOMPARE(tokenizer_->decode(encoding.ids), bytes);
}

void TestGpt2Tokenizer::pieces_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("pieces");
    // Each split as Python's regex module splits it (checked with regex 2026.5).
    QTest::newRow("words") << "Hello world" << QStringList{"Hello", " world"};
    QTest::newRow("contractions") << "we've it's" << QStringList{"we", "'ve", " it", "'s"};
    QTest::newRow("contraction upper case") << "IT'S" << QStringList{"IT", "'", "S"};
    QTest::newRow("space apostrophe") << "dog 's" << QStringList{"dog", " '", "s"};
    QTest::newRow("apostrophe in punctuation run") << "!'s" << QStringList{"!'", "s"};
    QTest::newRow("two spaces before a word") << "a  b" << QStringList{"a", " ", " b"};
    QTest::newRow("three spaces before a word") << "a   b" << QStringList{"a", "  ", " b"};
    QTest::newRow("trailing spaces") << "a   " << QStringList{"a", "   "};
    QTest::newRow("newline before a word") << "a\nb" << QStringList{"a", "\n", "b"};
    QTest::newRow("newlines and space before a word")
        << "a\n\n b" << QStringList{"a", "\n\n", " b"};
    QTest::newRow("space then tab before a word") << "x \ty" << QStringList{"x", " ", "\t", "y"};
    QTest::newRow("numbers") << "year 2026!" << QStringList{"year", " 2026", "!"};
    QTest::newRow("letters then digits") << "abc123" << QStringList{"abc", "123"};
    QTest::newRow("chinese") << u"\u4F60\u597D\uFF0C\u4E16\u754C"_qs
                             << QStringList{u"\u4F60\u597D"_qs, u"\uFF0C"_qs, u"\u4E16\u754C"_qs};
    QTest::newRow("ideographic space is white space")
        << u"\u4F60\u3000\u597D"_qs << QStringList{u"\u4F60"_qs, u"\u3000"_qs, u"\u597D"_qs};
    // U+0085 is White_Space for Python (not for JavaScript's \s); U+FEFF the reverse.
    QTest::newRow("U+0085 is white space")
        << u"x \u0085\u0085y"_qs << QStringList{"x", u" \u0085"_qs, u"\u0085"_qs, "y"};
    QTest::newRow("U+FEFF is not white space")
        << u"a\uFEFF\uFEFFb"_qs << QStringList{"a", u"\uFEFF\uFEFF"_qs, "b"};
    // U+001C–U+001F are white space for Python's str.isspace() and ICU's u_isspace(), but
    // not for \s in the regex module, whose \s is White_Space.
    QTest::newRow("file separator is not white space")
        << "x \x1C\x1Cy" << QStringList{"x", " \x1C\x1C", "y"};
    QTest::newRow("combining accent is not a letter")
        << u"cafe\u0301"_qs << QStringList{"cafe", u"\u0301"_qs};
    QTest::newRow("empty") << "" << QStringList{};
}

void TestGpt2Tokenizer::pieces()
{
    QFETCH(QString, text);
    QFETCH(QStringList, pieces);
    const std::string bytes = utf8(text);
    QByteArrayList found;
    for (const std::string_view piece : attn::gpt2Pieces(bytes))
        found << bytesOf(piece);
    QCOMPARE(found, utf8List(pieces));
}

void TestGpt2Tokenizer::labels_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QList<int>>("runFirst");
    QTest::addColumn<QStringList>("runText");
    const QString more = QString::fromUtf8(bytesOf(attn::kContinuationMark));
    QTest::newRow("english") << "The cat" << QStringList{"The", " cat"} << QList<int>{0, 1}
                             << QStringList{"The", " cat"};
    // 你 = E4 BD A0: "ä½" holds E4 BD, "ł" holds A0.
    QTest::newRow("chinese") << u"\u4F60\u597D"_qs
                             << QStringList{u"\u4F60"_qs, more, u"\u597D"_qs, more}
                             << QList<int>{0, 0, 2, 2}
                             << QStringList{u"\u4F60"_qs, u"\u4F60"_qs, u"\u597D"_qs, u"\u597D"_qs};
    QTest::newRow("emoji after a space")
        << u"I love \U0001F600!"_qs << QStringList{"I", " love", u" \U0001F600"_qs, more, "!"}
        << QList<int>{0, 1, 2, 2, 4}
        << QStringList{"I", " love", u" \U0001F600"_qs, u" \U0001F600"_qs, "!"};
    QTest::newRow("emoji with skin tone is one character")
        << u"\U0001F44D\U0001F3FD"_qs
        << QStringList{u"\U0001F44D\U0001F3FD"_qs, more, more, more, more}
        << QList<int>{0, 0, 0, 0, 0} << QStringList(5, u"\U0001F44D\U0001F3FD"_qs);
    QTest::newRow("accent in one token")
        << u"caf\u00E9"_qs << QStringList{"c", "af", u"\u00E9"_qs} << QList<int>{0, 1, 2}
        << QStringList{"c", "af", u"\u00E9"_qs};
    QTest::newRow("newlines are visible")
        << "a\n\nb" << QStringList{"a", u"\u21B5"_qs, u"\u21B5"_qs, "b"} << QList<int>{0, 1, 2, 3}
        << QStringList{"a", "\n", "\n", "b"};
    QTest::newRow("spaces are visible")
        << "x   " << QStringList{"x", u"\u2423"_qs, u"\u2423"_qs, u"\u2423"_qs}
        << QList<int>{0, 1, 2, 3} << QStringList{"x", " ", " ", " "};
}

// The first token of a character shows it whole, the others a continuation mark; a run
// is the tokens that spell the same characters.
void TestGpt2Tokenizer::labels()
{
    QFETCH(QString, text);
    QFETCH(QStringList, labels);
    QFETCH(QList<int>, runFirst);
    QFETCH(QStringList, runText);
    const attn::Gpt2Encoding encoding = tokenizer_->encode(utf8(text));
    const std::vector<attn::TokenLabel> found = tokenizer_->labels(encoding.ids);
    QCOMPARE(found.size(), encoding.ids.size());
    QByteArrayList foundLabels, foundRunText;
    QList<int> foundRunFirst;
    for (std::size_t t = 0; t < found.size(); ++t) {
        foundLabels << bytesOf(found[t].label);
        foundRunFirst << found[t].runFirst;
        foundRunText << bytesOf(found[t].runText);
        QCOMPARE(found[t].piece, encoding.tokens[t]);
        QCOMPARE(found[t].continuation, found[t].label == attn::kContinuationMark);
        int length = 0;
        for (const int first : runFirst)
            length += first == runFirst[static_cast<qsizetype>(t)] ? 1 : 0;
        QCOMPARE(found[t].runLength, length);
    }
    QCOMPARE(foundLabels, utf8List(labels));
    QCOMPARE(foundRunFirst, runFirst);
    QCOMPARE(foundRunText, utf8List(runText));
}

// Ids that do not make valid UTF-8 (a character cut short, a lone continuation byte)
// show their bytes where the character would be, "‹E4 BD›", never U+FFFD (which would make
// every such token look alike), and the raw bytes for a hover.
void TestGpt2Tokenizer::labelsOfBrokenBytes()
{
    const std::vector<int> cutShort = {19526};   // "ä½": E4 BD, the end of 你 missing
    const std::vector<int> loneByte = {254, 64}; // "ł" (A0), then "a"
    const auto cut = tokenizer_->labels(cutShort);
    QCOMPARE(cut.size(), std::size_t{1});
    QCOMPARE(cut[0].label, std::string("\u2039E4 BD\u203A"));
    QCOMPARE(cut[0].bytes, std::string("E4 BD"));
    QCOMPARE(cut[0].piece, std::string("\xC3\xA4\xC2\xBD"));
    const auto lone = tokenizer_->labels(loneByte);
    QCOMPARE(lone[0].label, std::string("\u2039A0\u203A"));
    QCOMPARE(lone[0].continuation, false);
    QCOMPARE(lone[1].label, std::string("a"));
    // Two tokens cut short differently read differently.
    const std::vector<int> otherCut = {162, 19526}; // "æ" (E6) alone, then E4 BD
    const auto other = tokenizer_->labels(otherCut);
    QCOMPARE(other[0].label, std::string("\u2039E6\u203A"));
    QCOMPARE(other[1].label, std::string("\u2039E4 BD\u203A"));
    QVERIFY(other[1].label.find("\xEF\xBF\xBD") == std::string::npos);
}

void TestGpt2Tokenizer::decodeReplacesInvalidUtf8()
{
    // As Python's bytes.decode("utf-8", errors="replace"): one U+FFFD per maximal
    // invalid subsequence.
    const std::vector<int> cutThenA = {19526, 64}; // E4 BD, "a"
    QCOMPARE(tokenizer_->decode(cutThenA), std::string("\xEF\xBF\xBD"
                                                       "a"));
    const std::vector<int> twoLoneBytes = {254, 254}; // A0 A0
    QCOMPARE(tokenizer_->decode(twoLoneBytes), std::string("\xEF\xBF\xBD\xEF\xBF\xBD"));
}

void TestGpt2Tokenizer::unknownIdIsRefused()
{
    const std::vector<int> tooLarge = {50257};
    const std::vector<int> negative = {-1};
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)tokenizer_->decode(tooLarge));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)tokenizer_->labels(negative));
}

void TestGpt2Tokenizer::invalidUtf8TextIsRefused()
{
    try {
        (void)tokenizer_->encode("ab\xC3(");
        QFAIL("invalid UTF-8 was encoded");
    } catch (const attn::InputError& error) {
        QCOMPARE(error.refusal(), attn::Refusal::InvalidUtf8);
        QCOMPARE(error.arguments(), std::vector<std::string>{"2"});
    }
}

void TestGpt2Tokenizer::cacheGivesTheSameIds()
{
    const std::string text = "the the the cat's cats catalogue";
    const auto first = tokenizer_->encode(text);
    QCOMPARE(tokenizer_->encode(text), first);
    QCOMPARE(tokenizer_->decode(first.ids), text);
}

// The shared cache of merged pieces under a lock: threads encoding different texts at
// once each get what one thread alone gets (a sanitizer build would report a race).
void TestGpt2Tokenizer::encodeFromSeveralThreads()
{
    std::vector<std::string> texts;
    for (int k = 0; k < 4; ++k)
        texts.push_back("thread " + std::to_string(k) + " \u6CE8\u610F\u529B attention's weights " +
                        std::string(static_cast<std::size_t>(k + 1), '!'));
    std::vector<attn::Gpt2Encoding> alone;
    {
        const auto fresh = Gpt2Tokenizer::fromFolder(utf8(kDataDir));
        for (const auto& text : texts)
            alone.push_back(fresh.encode(text));
    }
    const auto shared = Gpt2Tokenizer::fromFolder(utf8(kDataDir));
    std::vector<std::vector<attn::Gpt2Encoding>> found(texts.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t k = 0; k < texts.size(); ++k)
            threads.emplace_back([&, k] {
                for (int round = 0; round < 50; ++round)
                    found[k].push_back(
                        shared.encode(texts[(k + static_cast<std::size_t>(round)) % texts.size()]));
            });
    }
    for (std::size_t k = 0; k < texts.size(); ++k)
        for (std::size_t round = 0; round < found[k].size(); ++round)
            QCOMPARE(found[k][round], alone[(k + round) % texts.size()]);
}

// vocab.json's escapes, surrogate pairs included, as json.dump writes them.
void TestGpt2Tokenizer::vocabEscapes()
{
    const auto entries = attn::parseVocabJson(
        R"( {"\u0120a": 0, "\ud83d\ude00": 1, "q\"\\\/\n": 2} )", "vocab.json");
    QCOMPARE(entries.size(), std::size_t{3});
    QCOMPARE(entries[0].token, std::string("\xC4\xA0"
                                           "a"));
    QCOMPARE(entries[1].token, std::string("\xF0\x9F\x98\x80"));
    QCOMPARE(entries[2].token, std::string("q\"\\/\n"));
    QCOMPARE(entries[2].id, 2);
}

void TestGpt2Tokenizer::badFiles_data()
{
    QTest::addColumn<QString>("file"); // which file is broken
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("fault"); // a part of what() after the file's name
    const QByteArray vocab = readOrStop(kDataDir + "/vocab.json");
    const QByteArray merges = readOrStop(kDataDir + "/merges.txt");
    QByteArray noByte = vocab;
    noByte.replace(QByteArray("\"!\": 0, "), QByteArray());
    QByteArray sameId = vocab;
    sameId.replace(QByteArray("\"\\\"\": 1,"), QByteArray("\"\\\"\": 0,"));
    QByteArray twice = vocab;
    twice.replace(QByteArray("\"\\\"\": 1,"), QByteArray("\"!\": 1,"));
    QByteArray unknownMerge = merges;
    unknownMerge.append("zq xj\n");
    QTest::newRow("vocab missing") << "vocab.json" << QByteArray() << "the file is missing";
    QTest::newRow("merges missing") << "merges.txt" << QByteArray() << "the file is missing";
    QTest::newRow("vocab empty") << "vocab.json" << QByteArray("")
                                 << "line 1, column 1: the text ends early";
    QTest::newRow("vocab truncated")
        << "vocab.json" << vocab.left(5000) << "line 1, column 5001: the text ends early";
    QTest::newRow("vocab an array")
        << "vocab.json" << QByteArray("[1, 2]") << "the vocabulary is not a JSON object";
    QTest::newRow("vocab string id") << "vocab.json" << QByteArray("{\"a\": \"1\"}")
                                     << "the id of the token \"a\" is not a number";
    QTest::newRow("vocab negative id") << "vocab.json" << QByteArray("{\"a\": -1}")
                                       << "the id of the token \"a\" is negative (-1)";
    QTest::newRow("vocab fraction id") << "vocab.json" << QByteArray("{\"a\": 1.5}")
                                       << "the id of the token \"a\" is not an integer (1.5)";
    QTest::newRow("vocab trailing text") << "vocab.json" << QByteArray("{\"a\": 1} x")
                                         << "line 1, column 10: text after the JSON value";
    QTest::newRow("vocab bad escape")
        << "vocab.json" << QByteArray("{\"\\x\": 1}") << "line 1, column 3: an unknown escape";
    QTest::newRow("vocab lone surrogate")
        << "vocab.json" << QByteArray("{\"\\ud83d\": 1}")
        << "line 1, column 3: a high surrogate without its low surrogate";
    QTest::newRow("vocab id too large") << "vocab.json" << QByteArray("{\"a\": 2147483648}")
                                        << "the id of the token \"a\" is too large (2147483648)";
    QTest::newRow("vocab fault on line 3")
        << "vocab.json" << QByteArray("{\n\"a\": 0,\n\"b\" 1}") << "line 3, column 5: expected ':'";
    QTest::newRow("vocab invalid UTF-8")
        << "vocab.json" << QByteArray("{\"\xC3\x28\": 0}") << "line 1, column 3: invalid UTF-8";
    QTest::newRow("vocab token twice")
        << "vocab.json" << twice << "line 1, column 10: duplicate key \"!\"";
    QTest::newRow("vocab id twice") << "vocab.json" << sameId << "the id 0 is given to both";
    QTest::newRow("vocab byte missing") << "vocab.json" << noByte << "the token of byte 33";
    QTest::newRow("vocab token outside the byte alphabet")
        << "vocab.json" << QByteArray("{\"a b\": 0}") << "not spelt in GPT-2's byte alphabet";
    QTest::newRow("merges one token on a line")
        << "merges.txt" << QByteArray("#version: 0.2\n\xC4\xA0 t\nab\n") << "line 3: expected two";
    QTest::newRow("merges three tokens on a line")
        << "merges.txt" << QByteArray("a b c\n") << "line 1: expected two";
    QTest::newRow("merges empty") << "merges.txt" << QByteArray("#version: 0.2\n") << "no merges";
    QTest::newRow("merges a token vocab lacks")
        << "merges.txt" << unknownMerge << "needs \"zq\", which vocab.json lacks";
}

// A bad file is refused with its name and the fault; nothing else is said about it.
void TestGpt2Tokenizer::badFiles()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, contents);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QString& name : {QStringLiteral("vocab.json"), QStringLiteral("merges.txt")}) {
        if (name == file && fault == QStringLiteral("the file is missing"))
            continue;
        QFile out(dir.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(name == file ? contents : readOrStop(kDataDir + "/" + name));
    }
    try {
        (void)Gpt2Tokenizer::fromFolder(utf8(dir.path()));
        QFAIL("a bad file was accepted");
    } catch (const attn::TokenizerFileError& error) {
        const QString what = QString::fromUtf8(error.what());
        QCOMPARE(bytesOf(error.file().filename().string()), file.toUtf8());
        QVERIFY2(what.startsWith(dir.filePath(file) + ": "), qPrintable(what));
        QVERIFY2(what.contains(fault), qPrintable(what));
    }
}

// A merge written twice in merges.txt ranks where it is written last, as encoder.py's
// dict(zip(merges, range(…))) and Hugging Face's merge map both keep it: the file with
// "Ġ t" (rank 0) repeated at its end tokenizes as the file with that line moved there.
void TestGpt2Tokenizer::aRepeatedMergeTakesItsLastRank()
{
    const QByteArray merges = readOrStop(kDataDir + "/merges.txt");
    const QByteArray first = "\xC4\xA0 t\n"; // "Ġ t", the first merge
    QVERIFY(merges.startsWith("#version: 0.2\n" + first));
    QByteArray moved = merges;
    moved.remove(int(std::strlen("#version: 0.2\n")), int(first.size()));
    const auto tokenizerWith = [&](const QByteArray& text, QTemporaryDir& dir) {
        QFile vocab(dir.filePath("vocab.json")), out(dir.filePath("merges.txt"));
        if (!vocab.open(QIODevice::WriteOnly) || !out.open(QIODevice::WriteOnly))
            qFatal("cannot write the test's files");
        vocab.write(readOrStop(kDataDir + "/vocab.json"));
        out.write(text);
        vocab.close();
        out.close();
        return Gpt2Tokenizer::fromFolder(utf8(dir.path()));
    };
    QTemporaryDir a, b, c;
    const Gpt2Tokenizer repeated = tokenizerWith(merges + first, a);
    const Gpt2Tokenizer last = tokenizerWith(moved + first, b);
    const Gpt2Tokenizer original = tokenizerWith(merges, c);
    const std::string text = " the cat sat on the mat, then they went to the town";
    QCOMPARE(repeated.encodeIds(text), last.encodeIds(text));
    QVERIFY(repeated.encodeIds(text) != original.encodeIds(text));
}

QTEST_GUILESS_MAIN(TestGpt2Tokenizer)
#include "tst_gpt2tokenizer.moc"
